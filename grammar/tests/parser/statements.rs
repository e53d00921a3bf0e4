//! Grammar stage: tests of the parser on statements (assignments, moves, control flow, menus) and their spans.

use crate::helpers::*;
use cardgame_grammar::ast::*;

// ───────────────────────────── statements ─────────────────────────────

#[test]
fn assignment_and_calls() {
    match stmt("p.coins += n") {
        StmtKind::Assign(t, AssignOp::Add, v) => {
            assert_eq!(show(&t), "p.coins");
            assert_eq!(show(&v), "n");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        stmt("x -= 1"),
        StmtKind::Assign(_, AssignOp::Sub, _)
    ));
    assert!(matches!(
        stmt("marker = left(marker)"),
        StmtKind::Assign(_, AssignOp::Set, _)
    ));
    match stmt("draw(p, 2)") {
        StmtKind::Call(name, args) => {
            assert_eq!(name.name, "draw");
            assert_eq!(args.len(), 2);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(stmt("cleanup()"), StmtKind::Call(_, a) if a.is_empty()));
    // A target may start with a call.
    match stmt("first(cards(\"Gate\", p.inplay)).faces_left = false") {
        StmtKind::Assign(t, AssignOp::Set, v) => {
            assert_eq!(show(&t), "first(cards(\"Gate\", p.inplay)).faces_left");
            assert_eq!(show(&v), "false");
        }
        other => panic!("{other:?}"),
    }
    // Statements need no separator, even across lines.
    let s = stmts("let c = top of p.deck\n p.coins += n\n draw(p, 1) x = 1");
    assert_eq!(s.len(), 4);
}

#[test]
fn statement_spans_are_exact() {
    let src = "move c to p.discard bottom face up\n  shuffle p.deck";
    let full = format!("proc p() {{ {src} }}");
    let s = stmts(src);
    assert_eq!(s.len(), 2);
    assert_eq!(
        s[0].span,
        Span::new(
            STMT_OFFSET,
            STMT_OFFSET + "move c to p.discard bottom face up".len()
        )
    );
    assert_eq!(slice(&full, s[1].span), "shuffle p.deck");

    // Trailing comments and line breaks are not part of a span.
    let src = "let x = a + b // a note\n  // another\n  stop";
    let full = format!("proc p() {{ {src} }}");
    let s = stmts(src);
    assert_eq!(slice(&full, s[0].span), "let x = a + b");
    match &s[0].kind {
        StmtKind::Let(_, _, e) => assert_eq!(slice(&full, e.span), "a + b"),
        other => panic!("{other:?}"),
    }
    let src = "zone z: set // shared\n\ncard \"A\" { cost 1 } // end\n";
    let script = parse_ok(src);
    match (&script.items[0], &script.items[1]) {
        (Item::Zone(z), Item::Card(c)) => {
            assert_eq!(slice(src, z.span), "zone z: set");
            assert_eq!(slice(src, c.span), "card \"A\" { cost 1 }");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn move_forms() {
    match stmt("move c to p.discard bottom face up") {
        StmtKind::Move {
            what,
            to,
            position,
            face,
        } => {
            assert_eq!(show(&what), "c");
            assert_eq!(show(&to), "p.discard");
            assert_eq!(position, Some(Position::Bottom));
            assert_eq!(face, Some(Face::Up));
        }
        other => panic!("{other:?}"),
    }
    match stmt("move top n of p.deck to p.hand") {
        StmtKind::Move {
            what,
            position,
            face,
            ..
        } => {
            assert_eq!(show(&what), "(Top n p.deck)");
            assert_eq!(position, None);
            assert_eq!(face, None);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        stmt("move c to market top face down"),
        StmtKind::Move {
            position: Some(Position::Top),
            face: Some(Face::Down),
            ..
        }
    ));
}

#[test]
fn control_flow() {
    match stmt("if n > 2 { log \"rich\" } else if n == 0 { stop } else if n == 1 { break } else { p.coins -= 1 }") {
        StmtKind::If {
            branches,
            otherwise,
        } => {
            assert_eq!(branches.len(), 3);
            assert_eq!(show(&branches[1].0), "(== n 0)");
            assert!(matches!(branches[1].1.stmts[0].kind, StmtKind::Stop));
            assert!(otherwise.is_some());
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        stmt("if a { }"),
        StmtKind::If {
            otherwise: None,
            ..
        }
    ));
    match stmt("for q in opponents(p) where q.coins > 0 { q.coins -= 1 }") {
        StmtKind::For {
            vars,
            list,
            filter,
            body,
        } => {
            assert_eq!(vars.len(), 1);
            assert_eq!(vars[0].name, "q");
            assert_eq!(show(&list), "opponents(p)");
            assert_eq!(show(&filter.unwrap()), "(> q.coins 0)");
            assert_eq!(body.stmts.len(), 1);
        }
        other => panic!("{other:?}"),
    }
    match stmt("for (a, b) in pairs { }") {
        StmtKind::For { vars, .. } => {
            let names: Vec<&str> = vars.iter().map(|v| v.name.as_str()).collect();
            assert_eq!(names, ["a", "b"]);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        stmt("while count(p.hand) < 5 { }"),
        StmtKind::While(..)
    ));
    assert!(matches!(stmt("repeat 2 { }"), StmtKind::Repeat(..)));
    assert!(matches!(stmt("loop { break }"), StmtKind::Loop(..)));
    assert!(matches!(
        stmt("strict { require x > 0 }"),
        StmtKind::Strict(..)
    ));
    assert!(matches!(
        stmt("turn p { phase main { end phase } end turn }"),
        StmtKind::Turn(..)
    ));
}

#[test]
fn other_statements() {
    match stmt("perform play of d as this by p") {
        StmtKind::Perform {
            ability,
            card,
            as_card,
            by,
        } => {
            assert_eq!(ability.name, "play");
            assert_eq!(show(&card), "d");
            assert_eq!(show(&as_card.unwrap()), "this");
            assert_eq!(show(&by.unwrap()), "p");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        stmt("perform play of c"),
        StmtKind::Perform {
            as_card: None,
            by: None,
            ..
        }
    ));
    match stmt("emit gained(c, p)") {
        StmtKind::Emit(name, args) => {
            assert_eq!(name.name, "gained");
            assert_eq!(args.len(), 2);
        }
        other => panic!("{other:?}"),
    }
    match stmt("win [p] \"most coins\"") {
        StmtKind::Win(who, WinReason::Text(why)) => {
            assert_eq!(show(&who), "[p]");
            assert_eq!(why.plain().as_deref(), Some("most coins"));
        }
        other => panic!("{other:?}"),
    }
    match stmt("log \"{stat bought}\"") {
        StmtKind::Log(t) => assert_eq!(show_text(&t), "\"{stat bought}\""),
        other => panic!("{other:?}"),
    }
    match stmt("win [p] reason_of(p)") {
        StmtKind::Win(who, WinReason::Expr(why)) => {
            assert_eq!(show(&who), "[p]");
            assert_eq!(show(&why), "reason_of(p)");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(stmt("pay 2 from p.coins"), StmtKind::Pay(..)));
    assert!(matches!(stmt("reveal top of p.deck"), StmtKind::Reveal(..)));
    assert!(matches!(stmt("hide p.hand"), StmtKind::Hide(..)));
    assert!(matches!(stmt("eliminate p"), StmtKind::Eliminate(..)));
    assert!(matches!(
        stmt("require count(p.hand) > 0"),
        StmtKind::Require(..)
    ));
}

#[test]
fn action_menus() {
    let cases = [
        ("actions by p until pass [play, buy]", MenuMode::UntilPass),
        ("actions by p once [buy]", MenuMode::Once),
        (
            "actions by p once or pass [buy, play]",
            MenuMode::OnceOrPass,
        ),
    ];
    for (src, mode) in cases {
        match stmt(src) {
            StmtKind::Actions {
                by,
                mode: m,
                actions,
            } => {
                assert_eq!(show(&by), "p");
                assert_eq!(m, mode);
                assert!(!actions.is_empty());
            }
            other => panic!("{other:?}"),
        }
    }
    match stmt("actions by p times 2 [buy, play]") {
        StmtKind::Actions {
            mode: MenuMode::Times(n),
            actions,
            ..
        } => {
            assert_eq!(show(&n), "2");
            assert_eq!(actions.len(), 2);
            assert_eq!(actions[1].name, "play");
        }
        other => panic!("{other:?}"),
    }
}
