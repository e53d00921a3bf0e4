//! Grammar stage: tests of the parser on empty input and on expressions (precedence, literals, aggregates, spans).

use crate::helpers::*;
use cardgame_grammar::ast::*;
use cardgame_grammar::{parse, SyntaxError};

// ───────────────────────────── empty and trivial input ─────────────────────────────

#[test]
fn empty_input_is_an_empty_script() {
    for src in [
        "",
        "   ",
        "\n\n\t\r\n",
        "// only a comment",
        "// a\n   // b\n",
        "\u{feff}",
    ] {
        let (script, errors) = parse(src);
        assert!(script.items.is_empty(), "{src:?}");
        assert!(errors.is_empty(), "{src:?}: {errors:?}");
    }
}

// ───────────────────────────── expressions ─────────────────────────────

#[test]
fn arithmetic_precedence_and_associativity() {
    assert_eq!(show(&expr("1 + 2 * 3")), "(+ 1 (* 2 3))");
    assert_eq!(show(&expr("(1 + 2) * 3")), "(* (+ 1 2) 3)");
    assert_eq!(show(&expr("a - b - c")), "(- (- a b) c)");
    assert_eq!(show(&expr("a / b % c * d")), "(* (% (/ a b) c) d)");
    assert_eq!(show(&expr("-a * -2")), "(* (- a) (- 2))");
    assert_eq!(show(&expr("- -a")), "(- (- a))");
    assert_eq!(show(&expr("-p.coins")), "(- p.coins)");
}

#[test]
fn logic_and_comparison_precedence() {
    assert_eq!(
        show(&expr("a or b and not c == d + 1")),
        "(or a (and b (not (== c (+ d 1)))))"
    );
    assert_eq!(show(&expr("not not a")), "(not (not a))");
    assert_eq!(
        show(&expr("a and b or c and d")),
        "(or (and a b) (and c d))"
    );
    assert_eq!(
        show(&expr("a < b + 1 and b >= c")),
        "(and (< a (+ b 1)) (>= b c))"
    );
    assert_eq!(show(&expr("x != 0 or y <= 2")), "(or (!= x 0) (<= y 2))");
}

#[test]
fn comparisons_do_not_chain() {
    let errors = errors_of("fn f(): bool = a < b < c");
    assert_eq!(errors.len(), 1, "{errors:?}");
}

#[test]
fn is_in_and_ranges() {
    assert_eq!(show(&expr("c is Territory")), "(is c Territory)");
    assert_eq!(show(&expr("c is not \"City\"")), "(is-not c \"City\")");
    assert_eq!(
        show(&expr("not c has ability play and x")),
        "(and (not (has c play)) x)"
    );
    assert_eq!(
        show(&expr("c is Action or c is Territory")),
        "(or (is c Action) (is c Territory))"
    );
    assert_eq!(show(&expr("x in opponents(p)")), "(in x opponents(p))");
    assert_eq!(show(&expr("not x in L")), "(not (in x L))");
    assert_eq!(show(&expr("0..p.coins")), "(.. 0 p.coins)");
    assert_eq!(show(&expr("1..n + 1")), "(.. 1 (+ n 1))");
    assert_eq!(show(&expr("x in 1..6")), "(in x (.. 1 6))");
    let e = expr("c is Baron");
    match e.kind {
        ExprKind::Is { target, .. } => assert!(matches!(target.kind, ExprKind::Name(_))),
        other => panic!("{other:?}"),
    }
}

#[test]
fn literals() {
    assert_eq!(show(&expr("[1, 2, 3]")), "[1 2 3]");
    assert_eq!(show(&expr("[]")), "[]");
    assert_eq!(show(&expr("[a, b,]")), "[a b]");
    assert_eq!(show(&expr("true")), "true");
    assert_eq!(show(&expr("false")), "false");
    assert_eq!(show(&expr("none")), "none");
    assert_eq!(show(&expr("30")), "30");
    assert!(matches!(
        expr("9223372036854775807").kind,
        ExprKind::Int(i64::MAX)
    ));
    let errors = errors_of("fn f(): int = 9223372036854775808");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code(), SyntaxError::NUMBER);
}

#[test]
fn fields_may_be_keyword_shaped() {
    for field in [
        "zone", "kind", "owner", "face_up", "x", "y", "card", "top", "in",
    ] {
        let e = expr(&format!("c.{field}"));
        assert_eq!(show(&e), format!("c.{field}"));
    }
    assert_eq!(show(&expr("seat(1).hand.kept")), "seat(1).hand.kept");
    assert_eq!(
        show(&expr("turn_number + players")),
        "(+ turn_number players)"
    );
}

#[test]
fn keywords_are_not_names_but_prefixes_of_names_are() {
    assert!(!errors_of("proc p() { let move = 1 }").is_empty());
    assert!(!errors_of("var card: int = 0").is_empty());
    // Word boundaries: `letter`, `iffy`, `top_card`, `ones` are names.
    let s = stmts("letter = 1 iffy = 2 top_card = top of deck ones = 3");
    assert_eq!(s.len(), 4);
    assert!(matches!(s[0].kind, StmtKind::Assign(_, AssignOp::Set, _)));
    // Contextual words stay names elsewhere.
    assert_eq!(show(&expr("from(marker)")), "from(marker)");
    assert_eq!(
        show(&expr("max + min + any + list + players")),
        "(+ (+ (+ (+ max min) any) list) players)"
    );
}

#[test]
fn conditional_and_pile_expressions() {
    assert_eq!(
        show(&expr(
            "2 + (if count(c in you.discard where c is Baron) >= 1 then 2 else 0)"
        )),
        "(+ 2 (if (>= (Count c in you.discard where (is c Baron)) 1) 2 0))"
    );
    assert_eq!(
        show(&expr("if a then 1 else if b then 2 else 3")),
        "(if a 1 (if b 2 3))"
    );
    assert_eq!(show(&expr("top of p.deck")), "(Top p.deck)");
    assert_eq!(show(&expr("top 2 of p.deck")), "(Top 2 p.deck)");
    assert_eq!(
        show(&expr("bottom n + 1 of supply")),
        "(Bottom (+ n 1) supply)"
    );
    assert_eq!(show(&expr("bottom of supply")), "(Bottom supply)");
    assert_eq!(
        show(&expr("count(top 3 of supply)")),
        "count((Top 3 supply))"
    );
}

#[test]
fn aggregates_and_calls() {
    assert_eq!(show(&expr("count(p.hand)")), "count(p.hand)");
    assert_eq!(show(&expr("count(x in p.hand)")), "(Count x in p.hand)");
    assert_eq!(
        show(&expr("count(x in p.hand where x.cost > 2)")),
        "(Count x in p.hand where (> x.cost 2))"
    );
    assert_eq!(show(&expr("max(a, b)")), "max(a, b)");
    assert_eq!(
        show(&expr("max(1, c.cost - p.discount)")),
        "max(1, (- c.cost p.discount))"
    );
    assert_eq!(
        show(&expr("max(c.cost for c in market)")),
        "(Max c.cost c in market)"
    );
    assert_eq!(
        show(&expr("min(c.cost for c in market where c is Action)")),
        "(Min c.cost c in market where (is c Action))"
    );
    assert_eq!(
        show(&expr("sum(q.coins for q in everyone)")),
        "(Sum q.coins q in everyone)"
    );
    assert_eq!(
        show(&expr("any(q in everyone where q.coins > 3)")),
        "(Any q in everyone where (> q.coins 3))"
    );
    assert_eq!(
        show(&expr("all(c in p.hand where c is Action)")),
        "(All c in p.hand where (is c Action))"
    );
    assert_eq!(
        show(&expr("filter(c in market where c.cost <= 3)")),
        "(Filter c in market where (<= c.cost 3))"
    );
    assert_eq!(
        show(&expr("sort(c in market by c.cost)")),
        "(Sort c.cost c in market)"
    );
    assert_eq!(
        show(&expr("take(sort(c in market by -c.cost), 2)")),
        "take((Sort (- c.cost) c in market), 2)"
    );
    assert_eq!(show(&expr("abs(a)")), "abs(a)");
    assert_eq!(show(&expr("f()")), "f()");
    assert_eq!(show(&expr("max(max(1, 2), 3)")), "max(max(1, 2), 3)");
    assert_eq!(
        show(&expr("sum(sum(x for x in L) for L in M)")),
        "(Sum (Sum x x in L) L in M)"
    );
    assert_eq!(show(&expr("count (x in L)")), "(Count x in L)");
}

#[test]
fn aggregate_misuse_is_reported() {
    let e = errors_of("fn f(): int = sort(x in L)");
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].code(), SyntaxError::INVALID);
    let e = errors_of("fn f(): int = count(x in L by x)");
    assert_eq!(e.len(), 1);
    let e = errors_of("fn f(): int = first(x for x in L)");
    assert_eq!(e.len(), 1);
}

#[test]
fn expression_spans_are_exact() {
    let src = "(a + b) * c.cost";
    let e = expr(src);
    assert_eq!(e.span, Span::new(EXPR_OFFSET, EXPR_OFFSET + src.len()));
    let full = format!("fn f(): int = {src}");
    match &e.kind {
        ExprKind::Binary(BinOp::Mul, l, r) => {
            assert_eq!(slice(&full, l.span), "a + b");
            assert_eq!(slice(&full, r.span), "c.cost");
            match &r.kind {
                ExprKind::Field(base, name) => {
                    assert_eq!(slice(&full, base.span), "c");
                    assert_eq!(slice(&full, name.span), "cost");
                    assert_eq!(name.name, "cost");
                }
                other => panic!("{other:?}"),
            }
        }
        other => panic!("{other:?}"),
    }
    check_expr_spans(&full, &e);

    let src = "a - b - c";
    let full = format!("fn f(): int = {src}");
    let e = expr(src);
    match &e.kind {
        ExprKind::Binary(_, l, _) => assert_eq!(slice(&full, l.span), "a - b"),
        other => panic!("{other:?}"),
    }
    let src = "not  not x";
    let full = format!("fn f(): int = {src}");
    let e = expr(src);
    match &e.kind {
        ExprKind::Unary(UnOp::Not, inner) => {
            assert_eq!(slice(&full, e.span), "not  not x");
            assert_eq!(slice(&full, inner.span), "not x");
        }
        other => panic!("{other:?}"),
    }
    let src = "count(c in you.discard where c is \"Baron\") >= 1";
    let full = format!("fn f(): int = {src}");
    let e = expr(src);
    check_expr_spans(&full, &e);
    match &e.kind {
        ExprKind::Binary(BinOp::Ge, l, _) => match &l.kind {
            ExprKind::Aggregate {
                var, list, filter, ..
            } => {
                assert_eq!(
                    slice(&full, l.span),
                    "count(c in you.discard where c is \"Baron\")"
                );
                assert_eq!(slice(&full, var.span), "c");
                assert_eq!(slice(&full, list.span), "you.discard");
                assert_eq!(
                    slice(&full, filter.as_ref().unwrap().span),
                    "c is \"Baron\""
                );
            }
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}
