//! Grammar stage: tests of the parser on texts (escapes, interpolation) and decisions (`choose`, choices, simultaneous decisions).

use crate::helpers::*;
use cardgame_grammar::ast::*;

// ───────────────────────────── texts ─────────────────────────────

#[test]
fn text_escapes_and_braces() {
    let e = expr(r#""a \"q\" \\ b\nc {{x}} }}""#);
    match &e.kind {
        ExprKind::Text(t) => {
            assert_eq!(t.plain().as_deref(), Some("a \"q\" \\ b\nc {x} }"));
        }
        other => panic!("{other:?}"),
    }
    assert!(!errors_of(r#"fn f(): int = "bad \q""#).is_empty());
    // A text does not run over a line break.
    let errors = errors_of("fn f(): int = \"open\nfn g(): int = 1");
    assert_eq!(errors.len(), 1, "{errors:?}");
}

#[test]
fn text_interpolation_spans_are_in_source_coordinates() {
    let src = r#"log "{p} buys {c.cost + 1} coins""#;
    let full = format!("proc p() {{ {src} }}");
    match stmt(src) {
        StmtKind::Log(t) => {
            assert_eq!(slice(&full, t.span), r#""{p} buys {c.cost + 1} coins""#);
            assert_eq!(t.plain(), None);
            assert_eq!(t.parts.len(), 4);
            match (&t.parts[0], &t.parts[1], &t.parts[2], &t.parts[3]) {
                (TextPart::Expr(p), TextPart::Lit(l1), TextPart::Expr(c), TextPart::Lit(l2)) => {
                    assert_eq!(slice(&full, p.span), "p");
                    assert_eq!(l1, " buys ");
                    assert_eq!(slice(&full, c.span), "c.cost + 1");
                    assert_eq!(show(c), "(+ c.cost 1)");
                    assert_eq!(l2, " coins");
                }
                other => panic!("{other:?}"),
            }
        }
        other => panic!("{other:?}"),
    }
    // Nested texts inside an interpolation.
    let e = expr(r#""{if a then "x{b}" else "y"}!""#);
    assert_eq!(show(&e), r#""{(if a "x{b}" "y")}!""#);
}

#[test]
fn plain_text_and_empty_text() {
    match expr(r#""""#).kind {
        ExprKind::Text(t) => {
            assert!(t.parts.is_empty());
            assert_eq!(t.plain().as_deref(), Some(""));
        }
        other => panic!("{other:?}"),
    }
    let s = parse_ok("card \"Farming Village\" { cost 1 }");
    match &s.items[0] {
        Item::Card(c) => assert_eq!(c.name.plain().as_deref(), Some("Farming Village")),
        other => panic!("{other:?}"),
    }
}

// ───────────────────────────── decisions ─────────────────────────────

#[test]
fn choose_counts() {
    let c = let_choose("choose c in p.hand where c.cost >= 2 by p prompt \"Banish\"");
    assert_eq!(c.count, ChooseCount::One);
    assert_eq!(c.var.name, "c");
    assert_eq!(show(&c.domain), "p.hand");
    assert_eq!(show(c.filter.as_ref().unwrap()), "(>= c.cost 2)");
    assert_eq!(show(c.by.as_ref().unwrap()), "p");
    assert_eq!(
        c.prompt.as_ref().unwrap().plain().as_deref(),
        Some("Banish")
    );

    let c = let_choose("choose 2 c in p.hand by p");
    assert!(matches!(&c.count, ChooseCount::Exactly(e) if show(e) == "2"));
    assert_eq!(c.var.name, "c");

    let c = let_choose("choose n x in L");
    assert!(matches!(&c.count, ChooseCount::Exactly(e) if show(e) == "n"));
    assert_eq!(c.var.name, "x");

    let c = let_choose("choose n + 1 x in L");
    assert!(matches!(&c.count, ChooseCount::Exactly(e) if show(e) == "(+ n 1)"));

    let c = let_choose("choose up to 2 c in p.discard where c is Action by p");
    assert!(matches!(&c.count, ChooseCount::UpTo(e) if show(e) == "2"));
    assert_eq!(show(c.filter.as_ref().unwrap()), "(is c Action)");

    let c = let_choose("choose any c in p.hand by p");
    assert_eq!(c.count, ChooseCount::Any);
    assert_eq!(c.var.name, "c");

    // A binder named like the count words.
    let c = let_choose("choose any in L");
    assert_eq!(c.count, ChooseCount::One);
    assert_eq!(c.var.name, "any");

    let c = let_choose("choose x in 0..p.coins by p prompt \"Pay how many coins?\"");
    assert_eq!(c.count, ChooseCount::One);
    assert_eq!(show(&c.domain), "(.. 0 p.coins)");

    let c = let_choose("choose q in opponents(p)");
    assert_eq!(show(&c.domain), "opponents(p)");
    assert_eq!(c.by, None);
}

#[test]
fn choose_span_covers_the_whole_decision() {
    let src = "let v = choose 2 c in p.hand by p";
    let full = format!("proc p() {{ {src} }}");
    let s = stmts(src);
    assert_eq!(slice(&full, s[0].span), src);
    match &s[0].kind {
        StmtKind::LetChoose(name, c) => {
            assert_eq!(slice(&full, name.span), "v");
            assert_eq!(slice(&full, c.span), "choose 2 c in p.hand by p");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn choice_branches_and_simultaneous_decisions() {
    match stmt(
        "choose by p prompt \"Choose one\" {
           \"Draw 2 cards\" { draw(p, 2) }
           \"Gain 2 coins\" if p.coins < 10 { p.coins += 2 }
         }",
    ) {
        StmtKind::ChooseBranch {
            by,
            prompt,
            branches,
        } => {
            assert_eq!(show(by.as_ref().unwrap()), "p");
            assert_eq!(prompt.unwrap().plain().as_deref(), Some("Choose one"));
            assert_eq!(branches.len(), 2);
            assert_eq!(branches[0].label.plain().as_deref(), Some("Draw 2 cards"));
            assert!(branches[0].condition.is_none());
            assert_eq!(
                show(branches[1].condition.as_ref().unwrap()),
                "(< p.coins 10)"
            );
        }
        other => panic!("{other:?}"),
    }
    match stmt("choose { \"a\" { stop } }") {
        StmtKind::ChooseBranch { by, prompt, .. } => assert!(by.is_none() && prompt.is_none()),
        other => panic!("{other:?}"),
    }
    match stmt("simultaneously q in everyone choose c in q.hand where c.cost > 0 prompt \"Bid\" { move c to q.discard face up }") {
        StmtKind::Simultaneously {
            player,
            players,
            count,
            var,
            domain,
            filter,
            prompt,
            body,
        } => {
            assert_eq!(count, ChooseCount::One);
            assert_eq!(player.name, "q");
            assert_eq!(show(&players), "everyone");
            assert_eq!(var.name, "c");
            assert_eq!(show(&domain), "q.hand");
            assert_eq!(show(&filter.unwrap()), "(> c.cost 0)");
            assert_eq!(prompt.unwrap().plain().as_deref(), Some("Bid"));
            assert_eq!(body.stmts.len(), 1);
        }
        other => panic!("{other:?}"),
    }
    // Several elements each: the counts of `choose`.
    for (src, want) in [
        ("choose 2 c in q.hand", "Exactly(2)"),
        ("choose up to q.n c in q.hand", "UpTo(q.n)"),
        ("choose any c in q.hand", "Any"),
        ("choose order c in q.hand", "Order"),
    ] {
        match stmt(&format!(
            "simultaneously q in everyone {src} {{ log \"{{c}}\" }}"
        )) {
            StmtKind::Simultaneously { count, .. } => {
                let got = match count {
                    ChooseCount::Exactly(n) => format!("Exactly({})", show(&n)),
                    ChooseCount::UpTo(n) => format!("UpTo({})", show(&n)),
                    ChooseCount::Any => "Any".into(),
                    ChooseCount::Order => "Order".into(),
                    ChooseCount::One => "One".into(),
                };
                assert_eq!(got, want, "{src}");
            }
            other => panic!("{other:?}"),
        }
    }
}
