//! Engine stage: behaviour tests on hand-built programs (draws, failures, menus, decisions, limits).

use super::build::*;
use crate::engine::{render_event, Event, Game, GameConfig, Outcome, Status};
use crate::program::{Choose, ChooseCount, MenuMode, Program, Target, TriggerDef, Ty};
use crate::value::Value;
use cardgame_grammar::ast::{Face, Span};
use std::sync::Arc;

pub(super) fn game(p: &Arc<Program>, players: u8, seed: u64) -> Game {
    Game::new(p.clone(), GameConfig::new(players, seed))
}

pub(super) fn logs(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Log { text } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

pub(super) fn options(g: &Game) -> Vec<String> {
    g.decision().map(|d| d.options.clone()).unwrap_or_default()
}

pub(super) fn choose(g: &mut Game, label: &str) {
    let i = options(g)
        .iter()
        .position(|o| o == label)
        .unwrap_or_else(|| panic!("no option {label:?} in {:?}", options(g)));
    g.apply(i).expect("apply");
}

pub(super) fn val(g: &mut Game, x: Expr) -> Value {
    g.eval(&x, 4).expect("eval")
}

use crate::program::Expr;

pub(super) fn over(g: &Game) -> Outcome {
    match g.status() {
        Status::Over(o) => o.clone(),
        s => panic!("not over: {s:?}"),
    }
}

pub(super) fn choose_stmt(slot: u16, count: ChooseCount, var: u16, domain: Expr) -> StmtKind {
    StmtKind::Choose(
        slot,
        Choose {
            count,
            var,
            domain,
            filter: None,
            by: None,
            prompt: None,
        },
    )
}

#[test]
fn draw_refills_from_discard_beneath_and_fails_when_short() {
    let mut b = B::new();
    let deck = b.zone("deck", ZoneScope::PerPlayer, true, Visibility::Hidden);
    let discard = b.zone("discard", ZoneScope::PerPlayer, true, Visibility::Public);
    let hand = b.zone("hand", ZoneScope::PerPlayer, false, Visibility::Owner);
    b.p.zones[deck.index()].refill = Some(discard);
    b.kind("A", 6);
    b.setup(
        vec![
            mv(take(zone(b.p.box_zone), 2), pzone(deck, seat(1))),
            mv(zone(b.p.box_zone), pzone(discard, seat(1))),
        ],
        0,
    );
    b.flow(
        vec![
            sl(
                3,
                StmtKind::Move {
                    what: top(Some(3), pzone(deck, seat(1))),
                    to: pzone(hand, seat(1)),
                    position: cardgame_grammar::ast::Position::Top,
                    face: None,
                },
            ),
            sl(
                4,
                StmtKind::Move {
                    what: top(Some(5), pzone(deck, seat(1))),
                    to: pzone(hand, seat(1)),
                    position: cardgame_grammar::ast::Position::Top,
                    face: None,
                },
            ),
            log(lit("end")),
        ],
        0,
    );
    let p = b.build();
    let mut g = game(&p, 2, 1);
    let ev = g.take_events();
    assert_eq!(over(&g).reason, "the flow ended");
    assert!(
        ev.contains(&Event::Shuffle {
            zone: "P1.deck".into(),
            from: Some("P1.discard".into())
        }),
        "{ev:?}"
    );
    // The cards that were in the deck are drawn first: the refill went beneath them.
    let first_draws: Vec<u32> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Move { card, to, .. } if to == "P1.hand" => Some(*card),
            _ => None,
        })
        .collect();
    assert_eq!(&first_draws[..2], &[4, 5]);
    // Only the second draw was short.
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::Fail { .. }))
            .collect::<Vec<_>>(),
        vec![&Event::Fail { line: 4 }]
    );
    assert_eq!(logs(&ev), vec!["end"]);
    assert_eq!(val(&mut g, count(pzone(hand, seat(1)))), Value::Int(6));
    assert_eq!(val(&mut g, count(pzone(deck, seat(1)))), Value::Int(0));
    // A hidden draw shows the card only to its owner.
    let mv = ev
        .iter()
        .find(|e| matches!(e, Event::Move { to, .. } if to == "P1.hand"))
        .expect("a draw");
    assert_eq!(
        render_event(&g, mv, Some(1)).expect("line"),
        "a card: P1.deck -> P1.hand"
    );
    assert!(render_event(&g, mv, Some(0))
        .expect("line")
        .starts_with("A: "));
    g.check_invariants().expect("invariants");
}

#[test]
fn strict_failure_unwinds_across_a_procedure_call() {
    let mut b = B::new();
    let body = b.body(
        vec![sl(5, StmtKind::Require(boolean(false))), log(lit("after"))],
        0,
    );
    let f = b.proc_("f", vec![], body);
    let strict = b.block(vec![s(StmtKind::Call(f, vec![])), log(lit("in strict"))]);
    b.flow(
        vec![
            s(StmtKind::Strict(strict)),
            log(lit("outside")),
            s(StmtKind::Call(f, vec![])),
        ],
        0,
    );
    let p = b.build();
    let mut g = game(&p, 2, 1);
    let ev = g.take_events();
    assert_eq!(logs(&ev), vec!["outside", "after"]);
    assert_eq!(
        ev.iter().filter(|e| **e == Event::Fail { line: 5 }).count(),
        2
    );
}

#[test]
fn stop_leaves_only_the_procedure_and_break_the_innermost_loop() {
    let mut b = B::new();
    let body = b.body(vec![s(StmtKind::Stop), log(lit("never"))], 0);
    let f = b.proc_("f", vec![], body);
    let inner = b.block(vec![log(lit("inner")), s(StmtKind::Break)]);
    let outer = b.block(vec![
        s(StmtKind::Loop(inner)),
        log(lit("after inner")),
        s(StmtKind::Break),
    ]);
    b.flow(
        vec![
            s(StmtKind::Call(f, vec![])),
            s(StmtKind::Loop(outer)),
            log(lit("done")),
        ],
        0,
    );
    let p = b.build();
    let mut g = game(&p, 2, 1);
    assert_eq!(logs(&g.take_events()), vec!["inner", "after inner", "done"]);
}

/// A market (a set) with two identical cards and another; a menu action takes one into a hand.
fn market_game(mode: MenuMode) -> Arc<Program> {
    let mut b = B::new();
    let market = b.zone("market", ZoneScope::Shared, false, Visibility::Public);
    let hand = b.zone("hand", ZoneScope::PerPlayer, false, Visibility::Owner);
    b.kind("A", 2);
    b.kind("B", 1);
    b.setup(vec![mv(zone(b.p.box_zone), zone(market))], 0);
    let body = b.body(
        vec![
            mv(local(0), pzone(hand, e(ExprKind::You))),
            log(text(&["took ", ""], vec![local(0)])),
        ],
        1,
    );
    let take_a = b.action("take", vec![zone(market)], None, None, body);
    let turn = b.block(vec![s(StmtKind::Actions {
        by: e(ExprKind::Active),
        mode,
        actions: vec![take_a],
    })]);
    b.flow(vec![s(StmtKind::Turn(seat(1), turn)), log(lit("end"))], 0);
    b.build()
}

#[test]
fn action_menu_until_pass() {
    let p = market_game(MenuMode::UntilPass);
    let mut g = game(&p, 2, 1);
    assert_eq!(options(&g), vec!["take A", "take B", "pass"]);
    assert_eq!(g.decision().expect("decision").player, 0);
    choose(&mut g, "take A");
    // The other copy of A is offered again.
    assert_eq!(options(&g), vec!["take A", "take B", "pass"]);
    choose(&mut g, "take B");
    assert_eq!(options(&g), vec!["take A", "pass"]);
    choose(&mut g, "pass");
    let ev = g.take_events();
    assert_eq!(logs(&ev), vec!["took A", "took B", "end"]);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Decision { chosen, .. } if chosen == "pass")));
    assert_eq!(g.steps(), 3);
    assert_eq!(g.turns(), 1);
}

#[test]
fn action_menu_once_and_times() {
    let p = market_game(MenuMode::Once);
    let mut g = game(&p, 2, 1);
    assert_eq!(options(&g), vec!["take A", "take B"]);
    choose(&mut g, "take B");
    assert_eq!(logs(&g.take_events()), vec!["took B", "end"]);

    let p = market_game(MenuMode::Times(int(5)));
    let mut g = game(&p, 2, 1);
    for _ in 0..3 {
        g.apply(0).expect("apply");
    }
    // Nothing is left to take: the menu stops early.
    assert_eq!(
        logs(&g.take_events()),
        vec!["took A", "took A", "took B", "end"]
    );
}

#[test]
fn simultaneous_choices_are_collected_before_anything_resolves() {
    let mut b = B::new();
    let hand = b.zone("hand", ZoneScope::PerPlayer, false, Visibility::Owner);
    let played = b.zone("played", ZoneScope::PerPlayer, false, Visibility::Public);
    for k in ["A", "B", "C", "D"] {
        b.kind(k, 1);
    }
    b.setup(
        vec![
            mv(take(zone(b.p.box_zone), 2), pzone(hand, seat(1))),
            mv(zone(b.p.box_zone), pzone(hand, seat(2))),
        ],
        0,
    );
    let body = b.block(vec![
        mv_face(local(1), pzone(played, local(0)), Face::Up),
        log(text(&["", " plays ", ""], vec![local(0), local(1)])),
    ]);
    b.flow(
        vec![s(StmtKind::Simultaneously {
            count: ChooseCount::One,
            player: 0,
            players: e(ExprKind::Everyone),
            var: 1,
            domain: pzone(hand, local(0)),
            filter: None,
            prompt: None,
            body,
        })],
        2,
    );
    let p = b.build();
    let mut g = game(&p, 2, 1);
    let d = g.decision().expect("decision").clone();
    assert!(d.simultaneous);
    assert_eq!(
        (d.player, d.options.clone()),
        (0, vec!["C".to_string(), "D".to_string()])
    );
    g.take_events();
    choose(&mut g, "C");
    // Nothing resolved and nothing shown yet.
    assert!(g.take_events().is_empty());
    assert_eq!(val(&mut g, count(pzone(hand, seat(1)))), Value::Int(2));
    assert_eq!(g.decision().expect("decision").player, 1);
    choose(&mut g, "B");
    let ev = g.take_events();
    assert_eq!(logs(&ev), vec!["P1 plays C", "P2 plays B"]);
    // Both decisions come first, and the others see no secret card.
    assert!(matches!(ev[0], Event::Decision { player: 0, .. }));
    assert!(matches!(ev[1], Event::Decision { player: 1, .. }));
    assert_eq!(
        render_event(&g, &ev[0], Some(1)).expect("line"),
        "P1 chooses a card"
    );
    assert_eq!(
        render_event(&g, &ev[0], Some(0)).expect("line"),
        "P1 chooses \"C\""
    );
    assert_eq!(
        render_event(&g, &ev[0], None).expect("line"),
        "P1 chooses \"C\""
    );
}

#[test]
fn choose_up_to_offers_done_and_stops_when_enough() {
    let mut b = B::new();
    let hand = b.zone("hand", ZoneScope::Shared, true, Visibility::Public);
    for k in ["A", "B", "C"] {
        b.kind(k, 1);
    }
    b.setup(vec![mv(zone(b.p.box_zone), zone(hand))], 0);
    b.flow(
        vec![
            s(choose_stmt(0, ChooseCount::UpTo(int(2)), 1, zone(hand))),
            log(text(&["first: ", ""], vec![local(0)])),
            s(choose_stmt(0, ChooseCount::UpTo(int(2)), 1, zone(hand))),
            log(text(&["second: ", ""], vec![local(0)])),
            s(choose_stmt(
                0,
                ChooseCount::Any,
                1,
                e(ExprKind::List(vec![])),
            )),
            log(text(&["third: [", "]"], vec![local(0)])),
            s(choose_stmt(0, ChooseCount::Exactly(int(5)), 1, zone(hand))),
            log(text(&["fourth: ", ""], vec![local(0)])),
        ],
        2,
    );
    let p = b.build();
    let mut g = game(&p, 2, 1);
    assert_eq!(options(&g), vec!["A", "B", "C", "done"]);
    choose(&mut g, "B");
    assert_eq!(options(&g), vec!["A", "C", "done"]);
    choose(&mut g, "done");
    choose(&mut g, "C");
    choose(&mut g, "A");
    let ev = g.take_events();
    assert_eq!(
        logs(&ev),
        vec!["first: B", "second: C, A", "third: []", "fourth: A, B, C"]
    );
    // Asking for 5 of 3 takes them all and fails, without asking.
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::Fail { .. }))
            .count(),
        1
    );
    assert_eq!(g.steps(), 4);
}

#[test]
fn identical_cards_of_a_set_are_one_option() {
    let mut b = B::new();
    let set = b.zone("market", ZoneScope::Shared, false, Visibility::Public);
    let pile = b.zone("pile", ZoneScope::Shared, true, Visibility::Public);
    let tokens = b.var("tokens", ZoneScope::PerCard, int(0));
    b.kind("A", 5);
    b.kind("B", 1);
    // Cards 0..3 of kind A go to the set, 3 and 4 to the pile; B to the set.
    b.setup(
        vec![
            mv(
                e(ExprKind::List(vec![
                    e(ExprKind::Const(Value::Card(0))),
                    e(ExprKind::Const(Value::Card(1))),
                    e(ExprKind::Const(Value::Card(2))),
                    e(ExprKind::Const(Value::Card(5))),
                ])),
                zone(set),
            ),
            mv(zone(b.p.box_zone), zone(pile)),
        ],
        0,
    );
    b.flow(
        vec![
            s(choose_stmt(0, ChooseCount::One, 1, zone(set))),
            s(choose_stmt(0, ChooseCount::One, 1, zone(pile))),
            s(StmtKind::Assign(
                Target::Card(tokens, e(ExprKind::Const(Value::Card(1)))),
                crate::program::AssignOp::Add,
                int(1),
            )),
            s(choose_stmt(0, ChooseCount::One, 1, zone(set))),
        ],
        2,
    );
    let p = b.build();
    let mut g = game(&p, 2, 1);
    assert_eq!(options(&g), vec!["B", "A"]);
    g.apply(0).expect("apply");
    assert_eq!(options(&g), vec!["A", "A #2"]);
    g.apply(0).expect("apply");
    // A card with a token differs from its copies.
    assert_eq!(options(&g), vec!["B", "A", "A #2"]);
}

#[test]
fn turn_limit_ends_the_game_unfinished() {
    let mut b = B::new();
    let turn = b.block(vec![]);
    let body = b.block(vec![s(StmtKind::Turn(seat(1), turn))]);
    b.flow(vec![s(StmtKind::Loop(body))], 0);
    let p = b.build();
    let mut cfg = GameConfig::new(2, 1);
    cfg.max_turns = 3;
    let mut g = Game::new(p, cfg);
    let o = over(&g);
    assert!(!o.finished);
    assert!(o.winners.is_empty());
    assert_eq!(o.reason, "turn limit of 3 turns reached");
    assert_eq!(g.turns(), 3);
    assert_eq!(
        g.take_events()
            .iter()
            .filter(|e| matches!(e, Event::Turn { .. }))
            .count(),
        3
    );
}

#[test]
fn step_limit_is_a_runtime_error() {
    let mut b = B::new();
    let body = b.block(vec![]);
    b.flow(vec![sl(7, StmtKind::Loop(body))], 0);
    let p = b.build();
    let mut cfg = GameConfig::new(2, 1);
    cfg.max_steps = 1000;
    let g = Game::new(p, cfg);
    let Status::Error(e) = g.status() else {
        panic!("{:?}", g.status())
    };
    assert!(
        e.message
            .contains("ran more than 1000 steps (statements, expressions, list items) without reaching a decision"),
        "{e}"
    );
    assert_eq!(e.line, 7);
    assert!(e.to_string().starts_with("line 7: "), "{e}");
}

#[test]
fn runtime_errors_name_the_line() {
    let mut b = B::new();
    let v = b.var("x", ZoneScope::Shared, int(1));
    let mut div = bin(BinOp::Div, e(ExprKind::Global(v)), int(0));
    div.span = line(9);
    b.flow(vec![sl(9, StmtKind::Let(0, div))], 1);
    let g = game(&b.build(), 2, 1);
    let Status::Error(err) = g.status() else {
        panic!()
    };
    assert_eq!((err.line, err.message.as_str()), (9, "division by zero"));
}

#[test]
fn triggers_run_global_first_then_cards_from_the_active_seat() {
    let mut b = B::new();
    let hand = b.zone("hand", ZoneScope::PerPlayer, false, Visibility::Public);
    let ping = b.event("ping", vec![Ty::Int]);
    let a = b.kind("A", 2);
    let gbody = b.body(vec![log(text(&["global ", ""], vec![local(0)]))], 1);
    b.p.triggers.push(TriggerDef {
        event: ping,
        condition: None,
        zone: None,
        body: gbody,
        span: Span::default(),
    });
    let cbody = b.body(
        vec![log(text(
            &["card of ", " got ", ""],
            vec![e(ExprKind::You), local(0)],
        ))],
        1,
    );
    b.p.kinds[a.index()].triggers.push(TriggerDef {
        event: ping,
        condition: Some(bin(BinOp::Gt, local(0), int(1))),
        zone: Some(hand),
        body: cbody,
        span: Span::default(),
    });
    b.setup(
        vec![
            mv(take(zone(b.p.box_zone), 1), pzone(hand, seat(1))),
            mv(zone(b.p.box_zone), pzone(hand, seat(2))),
        ],
        0,
    );
    let turn = b.block(vec![
        s(StmtKind::Emit(ping, vec![int(1)])),
        s(StmtKind::Emit(ping, vec![int(2)])),
        log(lit("after")),
    ]);
    b.flow(vec![s(StmtKind::Turn(seat(2), turn))], 0);
    let mut g = game(&b.build(), 2, 1);
    assert_eq!(
        logs(&g.take_events()),
        vec![
            "global 1",
            "global 2",
            "card of P2 got 2",
            "card of P1 got 2",
            "after"
        ]
    );
}

#[test]
fn checks_run_before_decisions_and_can_win() {
    let mut b = B::new();
    let v = b.var("score", ZoneScope::PerPlayer, int(0));
    let win = b.block(vec![s(StmtKind::Win(
        e(ExprKind::List(vec![e(ExprKind::Active)])),
        lit("three points"),
    ))]);
    let check = b.body(
        vec![s(StmtKind::If(
            vec![(
                bin(
                    BinOp::Ge,
                    e(ExprKind::PlayerVar(v, Box::new(e(ExprKind::Active)))),
                    int(3),
                ),
                win,
            )],
            None,
        ))],
        0,
    );
    b.p.checks.push(check);
    let gain = b.body(
        vec![s(StmtKind::Assign(
            Target::Player(v, e(ExprKind::You)),
            crate::program::AssignOp::Add,
            int(2),
        ))],
        0,
    );
    let act = b.action("gain", vec![], None, None, gain);
    let turn = b.block(vec![s(StmtKind::Actions {
        by: e(ExprKind::Active),
        mode: MenuMode::UntilPass,
        actions: vec![act],
    })]);
    let round = b.block(vec![s(StmtKind::Turn(seat(1), turn))]);
    b.flow(vec![s(StmtKind::Loop(round))], 0);
    let mut g = game(&b.build(), 2, 1);
    choose(&mut g, "gain");
    assert!(g.decision().is_some());
    choose(&mut g, "gain");
    let o = over(&g);
    assert_eq!(
        (o.winners, o.reason.as_str(), o.finished),
        (vec![0], "three points", true)
    );
}

#[test]
fn min_and_max_clamp_writes() {
    let mut b = B::new();
    let v = b.var("coins", ZoneScope::PerPlayer, int(0));
    b.p.vars[v.index()].min = Some(int(0));
    b.p.vars[v.index()].max = Some(int(10));
    let target = || Target::Player(v, seat(1));
    b.flow(
        vec![
            s(StmtKind::Assign(
                target(),
                crate::program::AssignOp::Sub,
                int(5),
            )),
            log(text(
                &["a ", ""],
                vec![e(ExprKind::PlayerVar(v, Box::new(seat(1))))],
            )),
            s(StmtKind::Assign(
                target(),
                crate::program::AssignOp::Add,
                int(50),
            )),
            log(text(
                &["b ", ""],
                vec![e(ExprKind::PlayerVar(v, Box::new(seat(1))))],
            )),
            sl(8, StmtKind::Pay(int(11), target())),
            s(StmtKind::Pay(int(4), target())),
            log(text(
                &["c ", ""],
                vec![e(ExprKind::PlayerVar(v, Box::new(seat(1))))],
            )),
        ],
        0,
    );
    let mut g = game(&b.build(), 2, 1);
    let ev = g.take_events();
    assert_eq!(logs(&ev), vec!["a 0", "b 10", "c 6"]);
    assert!(ev.contains(&Event::Fail { line: 8 }));
}
