//! Engine stage: determinism, invariants, limits, hidden information and seat/board built-ins.

use super::build::*;
use super::games::{choose, choose_stmt, game, logs, options, over, val};
use crate::engine::{render_event, Event, Game, GameConfig, Status};
use crate::program::{ChooseCount, Expr, MenuMode, Program, TriggerDef, Ty};
use crate::value::Value;
use cardgame_grammar::ast::Span;
use std::sync::Arc;

/// A small game with shuffles, random draws and choices, for determinism and invariants.
fn random_game() -> Arc<Program> {
    let mut b = B::new();
    let deck = b.zone("deck", ZoneScope::PerPlayer, true, Visibility::Hidden);
    let discard = b.zone("discard", ZoneScope::PerPlayer, true, Visibility::Public);
    b.p.zones[deck.index()].refill = Some(discard);
    for k in ["A", "B", "C", "D", "E"] {
        b.kind(k, 4);
    }
    let each = b.block(vec![
        mv(take(zone(b.p.box_zone), 10), pzone(deck, local(0))),
        s(StmtKind::Shuffle(pzone(deck, local(0)))),
    ]);
    b.setup(
        vec![s(StmtKind::For {
            slot: 0,
            list: e(ExprKind::Everyone),
            filter: None,
            body: each,
        })],
        1,
    );
    let reshuffle = b.block(vec![s(StmtKind::Shuffle(pzone(deck, local(0))))]);
    let turn = b.block(vec![
        s(choose_stmt(
            1,
            ChooseCount::One,
            2,
            top(Some(3), pzone(deck, local(0))),
        )),
        mv(local(1), pzone(discard, local(0))),
        s(StmtKind::If(
            vec![(
                bin(
                    BinOp::Eq,
                    e(ExprKind::Builtin(
                        Builtin::Random,
                        vec![e(ExprKind::List(vec![int(1), int(2), int(3)]))],
                    )),
                    int(1),
                ),
                reshuffle,
            )],
            None,
        )),
    ]);
    let each_turn = b.block(vec![s(StmtKind::Turn(local(0), turn))]);
    let round = b.block(vec![s(StmtKind::For {
        slot: 0,
        list: e(ExprKind::Everyone),
        filter: None,
        body: each_turn,
    })]);
    b.flow(vec![s(StmtKind::Loop(round))], 3);
    b.build()
}

/// Plays with a fixed pseudo-random policy; returns the events.
fn play(g: &mut Game, mut k: u64, limit: usize) -> Vec<Event> {
    let mut out = g.take_events();
    for _ in 0..limit {
        let Some(d) = g.decision() else { break };
        k = k
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let i = (k >> 33) as usize % d.options.len();
        g.apply(i).expect("apply");
        g.check_invariants().expect("invariants");
        out.extend(g.take_events());
    }
    out
}

#[test]
fn same_seed_same_game_and_clones_continue_alike() {
    let p = random_game();
    let mut cfg = GameConfig::new(3, 42);
    cfg.max_turns = 60;
    let mut a = Game::new(p.clone(), cfg.clone());
    let mut b = Game::new(p.clone(), cfg.clone());
    let ea = play(&mut a, 7, 1000);
    let eb = play(&mut b, 7, 1000);
    assert_eq!(ea, eb);
    assert_eq!(a.status(), b.status());
    assert!(!over(&a).finished);

    let mut other = Game::new(
        p.clone(),
        GameConfig {
            seed: 43,
            ..cfg.clone()
        },
    );
    assert_ne!(play(&mut other, 7, 1000), ea);

    let mut c = Game::new(p.clone(), cfg);
    play(&mut c, 9, 20);
    let mut d = c.clone();
    assert_eq!(play(&mut c, 11, 1000), play(&mut d, 11, 1000));
    assert_eq!(c.status(), d.status());
}

#[test]
fn invariants_catch_a_broken_state() {
    let p = random_game();
    let mut g = game(&p, 2, 5);
    g.check_invariants().expect("fresh game");
    g.st.cards[0].zone = 3;
    assert!(g.check_invariants().is_err());
}

#[test]
fn apply_rejects_bad_options() {
    let p = random_game();
    let mut g = game(&p, 2, 5);
    let n = options(&g).len();
    assert_eq!(
        g.apply(n),
        Err(crate::engine::ApplyError::OutOfRange {
            option: n,
            count: n
        })
    );
    let mut b = B::new();
    b.flow(vec![], 0);
    let mut done = game(&b.build(), 2, 1);
    assert_eq!(done.apply(0), Err(crate::engine::ApplyError::NoDecision));
}

#[test]
fn games_are_send_and_sync() {
    fn check<T: Send + Sync + Clone>() {}
    check::<Game>();
}

#[test]
fn view_hides_what_a_seat_may_not_see() {
    let p = random_game();
    let mut g = game(&p, 2, 5);
    let v = g.view(0);
    let deck = v.zones.iter().find(|z| z.name == "P1.deck").expect("deck");
    assert_eq!(deck.count, 10);
    assert!(deck.cards.iter().all(|c| c.is_none()));
    assert!(v.decision.is_some());
    assert!(g.view(1).decision.is_none());
    g.apply(0).expect("apply");
    let v = g.view(1);
    let discard = v
        .zones
        .iter()
        .find(|z| z.name == "P1.discard")
        .expect("discard");
    assert_eq!(discard.cards.iter().filter(|c| c.is_some()).count(), 1);
    serde_json::to_string(&v).expect("serialises");
}

#[test]
fn endless_recursion_is_an_error_even_on_a_small_stack() {
    let mut b = B::new();
    let call = e(ExprKind::CallFn(
        crate::program::FnId(0),
        vec![bin(BinOp::Add, local(0), int(1))],
    ));
    b.p.fns.push(crate::program::FnDef {
        name: "f".into(),
        params: vec![Ty::Int],
        ret: Ty::Int,
        body: call.clone(),
        slots: 1,
    });
    let pbody = b.body(
        vec![s(StmtKind::Call(crate::program::ProcId(0), vec![]))],
        0,
    );
    b.proc_("p", vec![], pbody);
    let start = e(ExprKind::CallFn(crate::program::FnId(0), vec![int(0)]));
    b.flow(vec![sl(2, StmtKind::Let(0, start))], 1);
    let p = b.build();
    let mut deep = B::new();
    deep.p = (*p).clone();
    deep.flow(
        vec![s(StmtKind::Call(crate::program::ProcId(0), vec![]))],
        0,
    );
    let procs = deep.build();
    let t = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let g = Game::new(p, GameConfig::new(2, 1));
            let Status::Error(e) = g.status() else {
                panic!("{:?}", g.status())
            };
            assert!(e.message.contains("nested too deeply"), "{e}");
            let g = Game::new(procs, GameConfig::new(2, 1));
            let Status::Error(e) = g.status() else {
                panic!("{:?}", g.status())
            };
            assert!(e.message.contains("nested too deeply"), "{e}");
        });
    t.expect("thread").join().expect("no stack overflow");
}

#[test]
fn doubling_a_list_stops_with_an_error() {
    let mut b = B::new();
    let body = b.block(vec![s(StmtKind::Let(
        0,
        bin(BinOp::Concat, local(0), local(0)),
    ))]);
    b.flow(
        vec![
            s(StmtKind::Let(0, e(ExprKind::List(vec![int(1)])))),
            s(StmtKind::Loop(body)),
        ],
        1,
    );
    let g = game(&b.build(), 2, 1);
    let Status::Error(e) = g.status() else {
        panic!("{:?}", g.status())
    };
    assert!(e.message.contains("too long"), "{e}");
}

#[test]
fn a_turn_inside_a_check_does_not_start_the_checks_over() {
    let mut b = B::new();
    let turn = b.block(vec![log(lit("check turn"))]);
    let check = b.body(vec![s(StmtKind::Turn(seat(2), turn))], 0);
    b.p.checks.push(check);
    let branch = b.block(vec![]);
    b.flow(
        vec![s(StmtKind::ChooseBranch {
            by: None,
            prompt: None,
            branches: vec![crate::program::BranchIr {
                label: lit("go"),
                condition: None,
                body: branch,
            }],
        })],
        0,
    );
    let mut g = game(&b.build(), 2, 1);
    assert_eq!(options(&g), vec!["go"]);
    assert_eq!(logs(&g.take_events()), vec!["check turn"]);
    g.apply(0).expect("apply");
    assert_eq!(over(&g).reason, "the flow ended");
}

#[test]
fn other_seats_do_not_see_secret_cards_in_chosen_actions() {
    let mut b = B::new();
    let hand = b.zone("hand", ZoneScope::PerPlayer, false, Visibility::Owner);
    let stash = b.zone("stash", ZoneScope::PerPlayer, false, Visibility::Hidden);
    b.kind("A", 1);
    b.setup(vec![mv(zone(b.p.box_zone), pzone(hand, seat(1)))], 0);
    let body = b.body(vec![mv(local(0), pzone(stash, e(ExprKind::You)))], 1);
    let act = b.action(
        "stash",
        vec![pzone(hand, e(ExprKind::You))],
        Some(text(&["Stash ", ""], vec![local(0)])),
        None,
        body,
    );
    b.flow(
        vec![s(StmtKind::Actions {
            by: seat(1),
            mode: MenuMode::Once,
            actions: vec![act],
        })],
        0,
    );
    let mut g = game(&b.build(), 2, 1);
    g.take_events();
    choose(&mut g, "Stash A");
    let ev = g.take_events();
    let lines = |v: Option<u8>| {
        ev.iter()
            .filter_map(|e| render_event(&g, e, v))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        lines(Some(0))[..2],
        ["P1 chooses \"Stash A\"", "A: P1.hand -> P1.stash"]
    );
    assert_eq!(
        lines(Some(1))[..2],
        ["P1 chooses an action", "a card: P1.hand -> P1.stash"]
    );
}

fn call(b: Builtin, args: Vec<Expr>) -> Expr {
    e(ExprKind::Builtin(b, args))
}

#[test]
fn seats_skip_eliminated_players() {
    let mut b = B::new();
    let turn = b.block(vec![log(text(
        &["turn of ", ""],
        vec![e(ExprKind::Active)],
    ))]);
    let each = b.block(vec![s(StmtKind::Turn(local(0), turn))]);
    b.flow(
        vec![
            s(StmtKind::Eliminate(seat(2))),
            log(text(&["", ""], vec![e(ExprKind::Everyone)])),
            log(text(
                &["", ""],
                vec![call(Builtin::Opponents, vec![seat(1)])],
            )),
            log(text(&["", ""], vec![call(Builtin::From, vec![seat(3)])])),
            log(text(&["", ""], vec![call(Builtin::Left, vec![seat(1)])])),
            log(text(&["", ""], vec![call(Builtin::Right, vec![seat(3)])])),
            log(text(&["", ""], vec![call(Builtin::Right, vec![seat(1)])])),
            s(StmtKind::For {
                slot: 0,
                list: e(ExprKind::List(vec![seat(2)])),
                filter: None,
                body: each,
            }),
            s(StmtKind::Turn(seat(2), turn)),
            s(StmtKind::Turn(seat(4), turn)),
        ],
        1,
    );
    let mut g = game(&b.build(), 4, 1);
    let ev = g.take_events();
    assert_eq!(
        logs(&ev),
        vec![
            "P1, P3, P4",
            "P3, P4",
            "P3, P4, P1",
            "P3",
            "P1",
            "P4",
            "turn of P4"
        ]
    );
    assert!(ev.contains(&Event::Eliminated {
        player: 1,
        name: "P2".into()
    }));
    assert_eq!(g.turns(), 1);
}

#[test]
fn end_turn_runs_the_turn_end_and_the_rest_of_the_flow() {
    let mut b = B::new();
    let tbody = b.body(vec![log(lit("turn ends"))], 1);
    let turn_end = b.p.turn_end;
    b.p.triggers.push(TriggerDef {
        event: turn_end,
        condition: None,
        zone: None,
        body: tbody,
        span: Span::default(),
    });
    let inner = b.block(vec![
        log(lit("in phase")),
        s(StmtKind::EndTurn),
        log(lit("never")),
    ]);
    let turn = b.block(vec![
        s(StmtKind::Phase("main".into(), inner)),
        log(lit("never either")),
    ]);
    let phase_body = b.block(vec![s(StmtKind::EndPhase), log(lit("not this"))]);
    b.flow(
        vec![
            s(StmtKind::Turn(seat(1), turn)),
            s(StmtKind::Phase("other".into(), phase_body)),
            log(lit("after")),
        ],
        0,
    );
    let mut g = game(&b.build(), 2, 1);
    let ev = g.take_events();
    assert_eq!(logs(&ev), vec!["in phase", "turn ends", "after"]);
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::Phase { .. }))
            .count(),
        2
    );
}

#[test]
fn a_full_zone_refuses_cards() {
    let mut b = B::new();
    let reserve = b.zone("reserve", ZoneScope::PerPlayer, false, Visibility::Hidden);
    b.p.zones[reserve.index()].max = Some(int(1));
    b.kind("A", 3);
    b.flow(
        vec![sl(
            2,
            StmtKind::Move {
                what: zone(b.p.box_zone),
                to: pzone(reserve, seat(1)),
                position: cardgame_grammar::ast::Position::Top,
                face: None,
            },
        )],
        0,
    );
    let mut g = game(&b.build(), 2, 1);
    let ev = g.take_events();
    assert!(ev.contains(&Event::Fail { line: 2 }));
    assert_eq!(val(&mut g, count(pzone(reserve, seat(1)))), Value::Int(1));
    assert_eq!(
        val(&mut g, count(zone(crate::program::ZoneId(0)))),
        Value::Int(2)
    );
}

#[test]
fn perform_sets_this_and_you() {
    let mut b = B::new();
    b.p.abilities.push("play".into());
    let hand = b.zone("hand", ZoneScope::PerPlayer, false, Visibility::Public);
    let a = b.kind("A", 1);
    let c = b.kind("C", 1);
    let body = b.body(
        vec![log(text(
            &["", " for ", ""],
            vec![e(ExprKind::This), e(ExprKind::You)],
        ))],
        0,
    );
    b.p.kinds[a.index()].abilities[0] = Some(body);
    let card = |i: u32| e(ExprKind::Const(Value::Card(i)));
    b.setup(vec![mv(card(0), pzone(hand, seat(2)))], 0);
    let perform = |card_e: Expr, as_card: Option<Expr>, by: Option<Expr>| {
        s(StmtKind::Perform {
            ability: crate::program::AbilityId(0),
            card: card_e,
            as_card,
            by,
        })
    };
    b.flow(
        vec![
            perform(card(0), None, None),
            perform(card(0), Some(card(1)), Some(seat(1))),
            sl(
                3,
                StmtKind::Perform {
                    ability: crate::program::AbilityId(0),
                    card: card(1),
                    as_card: None,
                    by: None,
                },
            ),
        ],
        0,
    );
    let _ = c;
    let mut g = game(&b.build(), 2, 1);
    let ev = g.take_events();
    assert_eq!(logs(&ev), vec!["A for P2", "C for P1"]);
    assert!(ev.contains(&Event::Fail { line: 3 }));
}

#[test]
fn board_spaces_and_adjacency() {
    let mut b = B::new();
    b.p.spaces = Some(crate::program::SpacesDef {
        name: "board".into(),
        width: int(3),
        height: int(2),
        diagonal: false,
        span: Default::default(),
    });
    let at = |x: i64, y: i64| call(Builtin::At, vec![int(x), int(y)]);
    b.flow(
        vec![
            log(text(&["", ""], vec![e(ExprKind::Spaces)])),
            log(text(
                &["", ""],
                vec![call(Builtin::Neighbours, vec![at(2, 1)])],
            )),
            log(text(
                &["", " ", " ", ""],
                vec![
                    call(Builtin::Adjacent, vec![at(1, 1), at(2, 2)]),
                    at(4, 1),
                    e(ExprKind::Field(
                        crate::program::Field::Y,
                        Box::new(at(3, 2)),
                    )),
                ],
            )),
        ],
        0,
    );
    let mut g = game(&b.build(), 2, 1);
    assert_eq!(
        logs(&g.take_events()),
        vec![
            "(1,1), (2,1), (3,1), (1,2), (2,2), (3,2)",
            "(1,1), (3,1), (2,2)",
            "false none 2"
        ]
    );
}

/// `var NAME per player private`: each seat's view shows its own value and not the others'.
#[test]
fn a_private_variable_is_shown_to_its_owner_only() {
    let src = r#"
game "Secrets" { players 3 }
var pattern per player private: int = 0
var score per player: int = 0
setup {
  let n = 10
  for p in everyone {
    p.pattern = n
    n += 1
  }
}
flow { choose by seat(1) { "go" { log "{seat(1).pattern} {seat(1).score}" } } }
"#;
    let checked = crate::check::check_source(src);
    let p = Arc::new(checked.program.expect("the script checks"));
    let g = Game::new(p, GameConfig::new(3, 1));
    for seat in 0..3u8 {
        let v = g.view(seat);
        for pl in &v.players {
            let names: Vec<&str> = pl.vars.iter().map(|x| x.name.as_str()).collect();
            if pl.seat == seat {
                assert_eq!(names, ["pattern", "score"], "seat {seat} sees its own");
                assert_eq!(pl.vars[0].value, serde_json::json!(10 + i64::from(seat)));
            } else {
                assert_eq!(names, ["score"], "seat {seat} sees seat {}", pl.seat);
            }
        }
    }
}

/// `shown by P then Q`: the owner's view lists a hand in the order of the properties; another seat,
/// who sees none of its cards, learns nothing from the order.
#[test]
fn a_zone_is_shown_in_the_order_of_its_properties() {
    let src = r#"
game "Sorted" { players 2 }
property suit: int = 0
property rank: int = 0
card "Queen of spades" { suit 2  rank 12 }
card "Two of hearts" { suit 1  rank 2 }
card "Ace of spades" { suit 2  rank 1 }
card "King of hearts" { suit 1  rank 13 }
zone hand per player: set, owner, shown by suit then rank
zone pile: pile, public
setup {
  move cards("Queen of spades", box) to seat(1).hand
  move cards("King of hearts", box) to seat(1).hand
  move cards("Ace of spades", box) to seat(1).hand
  move cards("Two of hearts", box) to seat(1).hand
}
flow { choose by seat(1) { "go" { move top of seat(1).hand to pile } } }
"#;
    let checked = crate::check::check_source(src);
    let p = Arc::new(checked.program.expect("the script checks"));
    let g = Game::new(p, GameConfig::new(2, 1));
    let hand = |seat: u8| {
        g.view(seat)
            .zones
            .into_iter()
            .find(|z| z.name == "P1.hand")
            .expect("the hand")
            .cards
    };
    let names: Vec<String> = hand(0).into_iter().map(|c| c.expect("seen")).collect();
    assert_eq!(
        names,
        [
            "Two of hearts",
            "King of hearts",
            "Ace of spades",
            "Queen of spades"
        ]
    );
    assert!(hand(1).iter().all(|c| c.is_none()));
    let bad = crate::check::check_source(&src.replace("then rank", "then rnak"));
    let codes: Vec<&str> = bad.diagnostics.iter().map(|d| d.code).collect();
    assert!(codes.contains(&"E105"), "{codes:?}");
}

/// `shown by GROUP then P`: a tag group orders the cards by their tag in the order the group
/// declares them (cards without one last), ties by the property.
#[test]
fn a_zone_is_shown_in_the_order_of_a_tag_group() {
    let src = r#"
game "Suits" { players 2 }
tags suit: Spades, Hearts
property rank: int = 0
card "{r} of {s}" for s in [Hearts, Spades], r in [3, 1] {
  is s
  rank r
}
card "Joker" { copies 1 }
zone hand per player: set, owner, shown by suit then rank
setup { move box to seat(1).hand }
flow { choose by seat(1) { "go" { } } }
"#;
    let checked = crate::check::check_source(src);
    let p = Arc::new(checked.program.expect("the script checks"));
    let g = Game::new(p, GameConfig::new(2, 1));
    let names: Vec<String> = g
        .view(0)
        .zones
        .into_iter()
        .find(|z| z.name == "P1.hand")
        .expect("the hand")
        .cards
        .into_iter()
        .map(|c| c.expect("seen"))
        .collect();
    assert_eq!(
        names,
        [
            "1 of Spades",
            "3 of Spades",
            "1 of Hearts",
            "3 of Hearts",
            "Joker"
        ]
    );
}

/// `c has ability A`: true for the cards that print A, false for the others; an unknown ability is
/// E107.
#[test]
fn has_ability_tells_which_cards_print_an_ability() {
    let src = r#"
game "Abilities" { players 2 }
abilities play, react
card "Guard" { copies 1  ability react { log "guard" } }
card "Coin" { copies 1  ability play { log "coin" } }
card "Blank" { copies 1 }
zone shelf: set
setup { move box to shelf }
flow {
  for c in shelf {
    log "{c}: {c has ability react} {c has ability play} {not c has ability react}"
  }
}
"#;
    let checked = crate::check::check_source(src);
    let p = Arc::new(checked.program.expect("the script checks"));
    let mut g = Game::new(p, GameConfig::new(2, 1));
    assert!(matches!(g.status(), Status::Over(_)));
    let mut lines = logs(&g.take_events());
    lines.sort();
    assert_eq!(
        lines,
        [
            "Blank: false false true",
            "Coin: false true true",
            "Guard: true false false"
        ]
    );
    let bad = crate::check::check_source(&src.replace("has ability react}", "has ability reac}"));
    let codes: Vec<&str> = bad.diagnostics.iter().map(|d| d.code).collect();
    assert!(codes.contains(&"E107"), "{codes:?}");
}
