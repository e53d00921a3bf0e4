//! Grammar stage: tests of the parser (precedence, spans, decisions, texts, items, statements,
//! error recovery and robustness against hostile input).

use cardgame_grammar::ast::*;
use cardgame_grammar::{parse, SyntaxError};

// ───────────────────────────── helpers ─────────────────────────────

fn parse_ok(src: &str) -> Script {
    let (script, errors) = parse(src);
    assert!(
        errors.is_empty(),
        "unexpected errors for {src:?}: {:#?}",
        errors
    );
    script
}

/// The body of `fn f(): int = SRC`, and the offset where SRC starts.
fn expr(src: &str) -> Expr {
    let full = format!("fn f(): int = {src}");
    match parse_ok(&full).items.into_iter().next() {
        Some(Item::Fn(f)) => f.body,
        other => panic!("expected a fn, got {other:?}"),
    }
}

const EXPR_OFFSET: usize = "fn f(): int = ".len();

/// The statements of `proc p() { SRC }`.
fn stmts(src: &str) -> Vec<Stmt> {
    let full = format!("proc p() {{ {src} }}");
    match parse_ok(&full).items.into_iter().next() {
        Some(Item::Proc(p)) => p.body.stmts,
        other => panic!("expected a proc, got {other:?}"),
    }
}

fn stmt(src: &str) -> StmtKind {
    let mut s = stmts(src);
    assert_eq!(s.len(), 1, "expected one statement in {src:?}: {s:#?}");
    s.remove(0).kind
}

const STMT_OFFSET: usize = "proc p() { ".len();

/// A compact rendering of an expression, to check its shape.
fn show(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Text(t) => show_text(t),
        ExprKind::None => "none".into(),
        ExprKind::List(items) => {
            format!("[{}]", items.iter().map(show).collect::<Vec<_>>().join(" "))
        }
        ExprKind::Range(a, b) => format!("(.. {} {})", show(a), show(b)),
        ExprKind::Name(n) => n.name.clone(),
        ExprKind::StatRead(n) => format!("stat {}", n.name),
        ExprKind::Field(e, f) => format!("{}.{}", show(e), f.name),
        ExprKind::Index(l, i) => format!("{}[{}]", show(l), show(i)),
        ExprKind::Call(n, args) => format!(
            "{}({})",
            n.name,
            args.iter().map(show).collect::<Vec<_>>().join(", ")
        ),
        ExprKind::Unary(op, e) => format!(
            "({} {})",
            match op {
                UnOp::Neg => "-",
                UnOp::Not => "not",
            },
            show(e)
        ),
        ExprKind::Binary(op, a, b) => {
            let op = match op {
                BinOp::Add => "+",
                BinOp::Sub => "-",
                BinOp::Mul => "*",
                BinOp::Div => "/",
                BinOp::Rem => "%",
                BinOp::Eq => "==",
                BinOp::Ne => "!=",
                BinOp::Lt => "<",
                BinOp::Le => "<=",
                BinOp::Gt => ">",
                BinOp::Ge => ">=",
                BinOp::And => "and",
                BinOp::Or => "or",
                BinOp::In => "in",
            };
            format!("({op} {} {})", show(a), show(b))
        }
        ExprKind::HasAbility(e, a) => format!("(has {} {})", show(e), a.name),
        ExprKind::Is {
            expr,
            negated,
            target,
        } => format!(
            "({} {} {})",
            if *negated { "is-not" } else { "is" },
            show(expr),
            show(target)
        ),
        ExprKind::If(c, a, b) => format!("(if {} {} {})", show(c), show(a), show(b)),
        ExprKind::Aggregate {
            op,
            value,
            var,
            list,
            filter,
        } => format!(
            "({op:?} {}{} in {}{})",
            value
                .as_ref()
                .map(|v| format!("{} ", show(v)))
                .unwrap_or_default(),
            var.name,
            show(list),
            filter
                .as_ref()
                .map(|f| format!(" where {}", show(f)))
                .unwrap_or_default()
        ),
        ExprKind::Pile {
            position,
            count,
            zone,
        } => format!(
            "({position:?} {}{})",
            count
                .as_ref()
                .map(|c| format!("{} ", show(c)))
                .unwrap_or_default(),
            show(zone)
        ),
    }
}

fn show_text(t: &Text) -> String {
    let mut s = String::from("\"");
    for p in &t.parts {
        match p {
            TextPart::Lit(l) => s.push_str(l),
            TextPart::Expr(e) => {
                s.push('{');
                s.push_str(&show(e));
                s.push('}');
            }
        }
    }
    s.push('"');
    s
}

fn slice(src: &str, span: Span) -> &str {
    &src[span.start..span.end]
}

/// Checks every span of an expression tree lies inside the source, on character boundaries.
fn check_expr_spans(src: &str, e: &Expr) {
    assert!(
        e.span.start <= e.span.end && e.span.end <= src.len(),
        "{e:?}"
    );
    assert!(src.is_char_boundary(e.span.start) && src.is_char_boundary(e.span.end));
    let mut children: Vec<&Expr> = Vec::new();
    match &e.kind {
        ExprKind::List(items) | ExprKind::Call(_, items) => children.extend(items),
        ExprKind::Range(a, b) | ExprKind::Binary(_, a, b) => children.extend([&**a, &**b]),
        ExprKind::Field(a, _) | ExprKind::Unary(_, a) => children.push(a),
        ExprKind::Is { expr, target, .. } => children.extend([&**expr, &**target]),
        ExprKind::If(a, b, c) => children.extend([&**a, &**b, &**c]),
        ExprKind::Aggregate {
            value,
            list,
            filter,
            ..
        } => {
            children.push(list);
            children.extend(value.as_deref());
            children.extend(filter.as_deref());
        }
        ExprKind::Pile { count, zone, .. } => {
            children.push(zone);
            children.extend(count.as_deref());
        }
        ExprKind::Text(t) => {
            for p in &t.parts {
                if let TextPart::Expr(x) = p {
                    children.push(x);
                }
            }
        }
        _ => {}
    }
    for c in children {
        assert!(
            c.span.start >= e.span.start && c.span.end <= e.span.end,
            "child {:?} outside parent {:?} in {src:?}",
            c.span,
            e.span
        );
        check_expr_spans(src, c);
    }
}

fn errors_of(src: &str) -> Vec<SyntaxError> {
    let (_, errors) = parse(src);
    for e in &errors {
        assert!(
            e.span.start <= e.span.end && e.span.end <= src.len(),
            "{e:?}"
        );
        assert!(src.is_char_boundary(e.span.start) && src.is_char_boundary(e.span.end));
        assert!(
            !e.message.contains("stmt_") && !e.message.contains("k_"),
            "{e:?}"
        );
    }
    errors
}

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

fn let_choose(src: &str) -> Choose {
    match stmt(&format!("let v = {src}")) {
        StmtKind::LetChoose(_, c) => c,
        other => panic!("{other:?}"),
    }
}

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

// ───────────────────────────── items ─────────────────────────────

#[test]
fn header_table_and_declarations() {
    let s = parse_ok(
        r#"game "Tiny Market" {
  players 2..4
  option rares: bool = true "Shuffle the rare cards"
  option hand_size: int 3..7 = 5 "Cards in a starting hand"
  option card_set: one of random, first_time, primer = random
}
table by players {
  columns factions, market
  1: 3, 4
  2: 4, -5
}
tags faction: Knights, Demons, Elves
property cost: int = 0
property recipe: kinds
var influence per player: int = 30 min -99 max 30
var chosen per player: list of list of card = []
var marker: player = seat(1)
zone deck per player: pile, hidden, refill from discard
zone kept per card: set
zone tile per space: set, max 1
zone supply
spaces board: grid players + 1 by 6 diagonal
event crafted(c: card, p: player)
event tick
abilities play, defense
fn price(p: player, c: card): int = max(1, c.cost - p.discount)
"#,
    );
    let items = &s.items;
    assert_eq!(items.len(), 17);
    match &items[0] {
        Item::Game(g) => {
            assert_eq!(g.name.plain().as_deref(), Some("Tiny Market"));
            let pr = g.players.as_ref().unwrap();
            assert_eq!((pr.min, pr.max), (2, 4));
            assert_eq!(g.options.len(), 3);
            assert_eq!(g.options[0].kind, OptionKind::Bool);
            assert_eq!(g.options[1].kind, OptionKind::Int { min: 3, max: 7 });
            match &g.options[2].kind {
                OptionKind::OneOf(v) => assert_eq!(v.len(), 3),
                other => panic!("{other:?}"),
            }
            assert!(g.options[2].description.is_none());
        }
        other => panic!("{other:?}"),
    }
    match &items[1] {
        Item::Table(t) => {
            assert_eq!(t.columns.len(), 2);
            assert_eq!(t.rows.len(), 2);
            assert_eq!(t.rows[1].players, 2);
            assert_eq!(show(&t.rows[1].values[1]), "(- 5)");
        }
        other => panic!("{other:?}"),
    }
    match &items[2] {
        Item::Tags(t) => assert_eq!((t.group.name.as_str(), t.tags.len()), ("faction", 3)),
        other => panic!("{other:?}"),
    }
    assert!(
        matches!(&items[3], Item::Property(p) if p.ty == PropertyType::Int && p.default.is_some())
    );
    assert!(
        matches!(&items[4], Item::Property(p) if p.ty == PropertyType::Kinds && p.default.is_none())
    );
    match &items[5] {
        Item::Var(v) => {
            assert_eq!(v.scope, Scope::PerPlayer);
            assert!(matches!(v.ty, TypeExpr::Int(_)));
            assert_eq!(show(v.min.as_ref().unwrap()), "(- 99)");
            assert_eq!(show(v.max.as_ref().unwrap()), "30");
        }
        other => panic!("{other:?}"),
    }
    match &items[6] {
        Item::Var(v) => match &v.ty {
            TypeExpr::List(inner, _) => assert!(
                matches!(**inner, TypeExpr::List(ref c, _) if matches!(**c, TypeExpr::Card(_)))
            ),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
    assert!(
        matches!(&items[7], Item::Var(v) if v.scope == Scope::Shared && matches!(v.ty, TypeExpr::Player(_)))
    );
    match &items[8] {
        Item::Zone(z) => {
            assert_eq!(z.scope, Scope::PerPlayer);
            assert_eq!(z.attrs.len(), 3);
            assert!(matches!(&z.attrs[2], ZoneAttr::RefillFrom(i) if i.name == "discard"));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&items[9], Item::Zone(z) if z.scope == Scope::PerCard));
    assert!(
        matches!(&items[10], Item::Zone(z) if z.scope == Scope::PerSpace && matches!(z.attrs[1], ZoneAttr::Max(_)))
    );
    assert!(matches!(&items[11], Item::Zone(z) if z.attrs.is_empty() && z.scope == Scope::Shared));
    match &items[12] {
        Item::Spaces(sp) => {
            assert_eq!(show(&sp.width), "(+ players 1)");
            assert_eq!(show(&sp.height), "6");
            assert!(sp.diagonal);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&items[13], Item::Event(e) if e.params.len() == 2));
    assert!(matches!(&items[14], Item::Event(e) if e.params.is_empty()));
    assert!(matches!(&items[15], Item::Abilities(a) if a.names.len() == 2));
    assert!(
        matches!(&items[16], Item::Fn(f) if f.params.len() == 2 && matches!(f.ret, TypeExpr::Int(_)))
    );
}

#[test]
fn cards_actions_and_triggers() {
    let src = r#"card "Pack of Ghouls" {
  is Baron
  copies 2
  cost 3
  is Action, Attack
  attack 2 + (if count(c in you.discard where c is Baron) >= 1 then 2 else 0)
  recipe ["Iron", "Wood"]
  text "A card."
  ability play { you.coins += 1 }
  on crafted(c, p) in owned if p == you and c is Tool {
    you.gold += 2
  }
}
action buy(c in market) label "Buy {c}" if c.cost <= you.coins {
  pay c.cost from you.coins
}
action pass_turn { end turn }
on crafted(c, p) if c is "Crown" { win [p] "crafted the Crown" }
on turn_start(p) { }
setup { }
flow { }
check { }
"#;
    let s = parse_ok(src);
    assert_eq!(s.items.len(), 8);
    match &s.items[0] {
        Item::Card(c) => {
            assert_eq!(c.items.len(), 9);
            assert!(matches!(&c.items[0], CardItem::Is(t, _) if t.len() == 1));
            assert!(matches!(&c.items[1], CardItem::Copies(..)));
            assert!(matches!(&c.items[2], CardItem::Property(n, _, _) if n.name == "cost"));
            // A property value never swallows the `is` line after it.
            assert!(matches!(&c.items[3], CardItem::Is(t, _) if t.len() == 2));
            assert!(
                matches!(&c.items[5], CardItem::Property(n, e, _) if n.name == "recipe" && matches!(e.kind, ExprKind::List(_)))
            );
            assert!(matches!(&c.items[6], CardItem::Text(..)));
            assert!(
                matches!(&c.items[7], CardItem::Ability(n, b, _) if n.name == "play" && b.stmts.len() == 1)
            );
            match &c.items[8] {
                CardItem::Trigger(t) => {
                    assert_eq!(t.event.name, "crafted");
                    assert_eq!(t.bindings.len(), 2);
                    assert_eq!(t.zone.as_ref().unwrap().name, "owned");
                    assert_eq!(
                        show(t.condition.as_ref().unwrap()),
                        "(and (== p you) (is c Tool))"
                    );
                }
                other => panic!("{other:?}"),
            }
            assert_eq!(slice(src, c.span), &src[..src.find("\naction").unwrap()]);
        }
        other => panic!("{other:?}"),
    }
    match &s.items[1] {
        Item::Action(a) => {
            assert_eq!(a.params.len(), 1);
            assert_eq!(show(&a.params[0].domain), "market");
            assert_eq!(show_text(a.label.as_ref().unwrap()), "\"Buy {c}\"");
            assert!(a.condition.is_some());
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&s.items[2], Item::Action(a) if a.params.is_empty() && a.label.is_none()));
    assert!(matches!(&s.items[3], Item::Trigger(t) if t.zone.is_none() && t.condition.is_some()));
    assert!(matches!(&s.items[4], Item::Trigger(t) if t.bindings.len() == 1));
    assert!(matches!(&s.items[5], Item::Setup(_)));
    assert!(matches!(&s.items[6], Item::Flow(_)));
    assert!(matches!(&s.items[7], Item::Check(_)));
}

#[test]
fn rules_tests() {
    let s = parse_ok(
        r#"test "buying a card pays its cost" {
  players 2
  seed 7
  option rares = false
  names Alex, Bob
  given {
    Alex.coins = 5
  }
  start main_phase(Alex)
  expect decider Alex
  expect options has "Buy City"
  choose "Buy City"
  expect Alex.coins == 2
  expect log "Alex"
  do { Bob.coins = 1 }
  expect options lacks "Buy City"
  expect winners [Alex]
  expect over
}"#,
    );
    match &s.items[0] {
        Item::Test(t) => {
            assert_eq!(t.players.map(|p| p.0), Some(2));
            assert_eq!(t.seed.map(|p| p.0), Some(7));
            assert_eq!(t.options.len(), 1);
            assert_eq!(t.names.len(), 2);
            assert_eq!(t.given.as_ref().unwrap().stmts.len(), 1);
            let (name, args, _) = t.start.as_ref().unwrap();
            assert_eq!((name.name.as_str(), args.len()), ("main_phase", 1));
            let kinds: Vec<&TestStepKind> = t.steps.iter().map(|s| &s.kind).collect();
            assert_eq!(kinds.len(), 9);
            assert!(matches!(kinds[0], TestStepKind::Decider(_)));
            assert!(matches!(kinds[1], TestStepKind::OptionsHas(_)));
            assert!(matches!(kinds[2], TestStepKind::Choose(_)));
            assert!(matches!(kinds[3], TestStepKind::Expect(_)));
            assert!(matches!(kinds[4], TestStepKind::Log(_)));
            assert!(matches!(kinds[5], TestStepKind::Do(_)));
            assert!(matches!(kinds[6], TestStepKind::OptionsLacks(_)));
            assert!(matches!(kinds[7], TestStepKind::Winners(_)));
            assert!(matches!(kinds[8], TestStepKind::Over));
        }
        other => panic!("{other:?}"),
    }
    let e = errors_of("test \"t\" { seed 1 seed 2 }");
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].code(), SyntaxError::DUPLICATE);
}

// ───────────────────────────── errors and recovery ─────────────────────────────

#[test]
fn two_bad_items_give_two_errors_and_every_item_is_kept() {
    let src = "zone supply: pile
card \"A\" {
  cost 3 +
}
var coins per player: int = 0
tags faction: Knights, Demons
proc p() {
  move c p.hand
}
zone market: set
";
    let (script, errors) = parse(src);
    assert_eq!(errors.len(), 2, "{errors:#?}");
    // The broken part of each item is dropped; the items stay, so their names stay known.
    let kinds: Vec<&str> = script
        .items
        .iter()
        .map(|i| match i {
            Item::Zone(_) => "zone",
            Item::Card(_) => "card",
            Item::Var(_) => "var",
            Item::Tags(_) => "tags",
            Item::Proc(_) => "proc",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["zone", "card", "var", "tags", "proc", "zone"]);
    let Item::Card(card) = &script.items[1] else {
        unreachable!()
    };
    // Only the dangling `+` goes: the card keeps `cost 3`.
    assert_eq!(card.items.len(), 1, "{card:#?}");
    let Item::Proc(p) = &script.items[4] else {
        unreachable!()
    };
    assert!(p.body.stmts.is_empty(), "{p:#?}");
    // The first error is in the card, the second in the procedure, in source order.
    assert!(errors[0].span.start > src.find("card").unwrap());
    assert!(errors[0].span.start < src.find("var").unwrap());
    assert_eq!(&src[errors[1].span.start..errors[1].span.end], "p");
    assert_eq!(errors[1].message, "expected `to` or an operator, found `p`");
}

#[test]
fn error_messages_use_plain_words() {
    let e = errors_of("setup { foo }");
    assert_eq!(e.len(), 1);
    assert_eq!(
        e[0].message,
        "expected `(`, `[`, `.`, `=`, `+=` or `-=`, found `}`"
    );
    assert_eq!(e[0].code(), SyntaxError::UNEXPECTED);

    let e = errors_of("setup {\n  move c to p.hand\n");
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(
        e[0].message,
        "the `{` after `setup` on line 1 is never closed"
    );
    assert_eq!(e[0].help.as_deref(), Some("add `}` at the end of the file"));
    // Without a blank after the last token there is no room to close it: the pest error stays.
    let e = errors_of("setup {\n  move c to p.hand");
    assert_eq!(
        e[0].help.as_deref(),
        Some("the `{` on line 1 is never closed")
    );

    let e = errors_of("card \"X\" foo");
    assert_eq!(e[0].message, "expected `{` or `for`, found `foo`");

    let e = errors_of("var x: int");
    assert_eq!(e[0].message, "expected `=`, found the end of the file");

    let e = errors_of("zone deck per player: pile, hiden");
    assert_eq!(e.len(), 1);
    assert!(
        e[0].message.starts_with("expected a zone attribute"),
        "{e:?}"
    );

    let e = errors_of("fn f(): int = 1 +");
    assert_eq!(
        e[0].message,
        "expected an expression, found the end of the file"
    );

    let e = errors_of("setup { mvoe c to x }");
    assert_eq!(e[0].help.as_deref(), Some("did you mean `move`?"));

    let e = errors_of("setup { if x { } esle { } }");
    assert_eq!(e[0].help.as_deref(), Some("did you mean `else`?"));

    let e = errors_of("setup { choose c in p.hand }");
    assert!(
        e[0].help
            .as_deref()
            .unwrap()
            .contains("let x = choose x in L"),
        "{e:?}"
    );

    let e = errors_of("proc p() { log \"bad \\q\" }");
    assert_eq!(e[0].message, "unknown escape `\\q` in a text");
}

#[test]
fn misspelled_top_level_keyword_gets_a_suggestion() {
    let src = "crad \"X\" {\n  cost 1\n}\ncard \"Y\" { cost 2 }\n";
    let (script, errors) = parse(src);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].code(), SyntaxError::UNKNOWN_ITEM);
    assert_eq!(errors[0].help.as_deref(), Some("did you mean `card`?"));
    assert_eq!(slice(src, errors[0].span), "crad");
    assert_eq!(script.items.len(), 1);

    for (word, keyword) in [
        ("zoen", "zone"),
        ("proce", "proc"),
        ("seutp", "setup"),
        ("tset", "test"),
    ] {
        let e = errors_of(&format!("{word} x"));
        assert_eq!(
            e[0].help.as_deref(),
            Some(format!("did you mean `{keyword}`?").as_str()),
            "{word}"
        );
    }
    let e = errors_of("move x to y");
    assert!(e[0].help.as_deref().unwrap().contains("statement"));
}

#[test]
fn a_broken_line_of_a_card_is_dropped_and_its_inner_trigger_kept() {
    // The broken card holds an indented `on` line: recovery must not restart there.
    let src = "card \"A\" {\n  cost 1 2 3\n  on crafted(c) in owned { stop }\n}\nzone z: set\n";
    let (script, errors) = parse(src);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(script.items.len(), 2);
    assert!(matches!(&script.items[0], Item::Card(c) if c.items.len() == 1));
    assert!(matches!(&script.items[1], Item::Zone(_)));
}

#[test]
fn an_unclosed_block_before_the_next_item_is_reported_once() {
    let src = "setup {\n  move c to x\n\nflow { loop { } }\n";
    let (script, errors) = parse(src);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(
        errors[0].message,
        "the `{` after `setup` on line 1 is never closed"
    );
    assert_eq!(errors[0].code(), SyntaxError::UNCLOSED);
    assert_eq!(
        errors[0].help.as_deref(),
        Some("add `}` before line 4, where `flow` starts the next item")
    );
    assert_eq!((errors[0].span.start, errors[0].span.end), (6, 7));
    assert_eq!(script.items.len(), 2);
    assert!(matches!(&script.items[0], Item::Setup(b) if b.stmts.len() == 1));
    assert!(matches!(&script.items[1], Item::Flow(_)));
}

#[test]
fn syntax_errors_are_miette_diagnostics() {
    use miette::Diagnostic;
    let src = "crad \"X\" { }";
    let (_, errors) = parse(src);
    let e = &errors[0];
    assert_eq!(e.code().to_string(), "syntax::unknown_item");
    assert_eq!(
        Diagnostic::code(e).unwrap().to_string(),
        "syntax::unknown_item"
    );
    assert_eq!(
        Diagnostic::help(e).unwrap().to_string(),
        "did you mean `card`?"
    );
    let labels: Vec<_> = e.labels().unwrap().collect();
    assert_eq!(labels.len(), 1);
    assert_eq!(labels[0].offset(), 0);
    assert_eq!(labels[0].len(), 4);
    let report = miette::Report::new(e.clone()).with_source_code(src.to_string());
    let mut out = String::new();
    miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
        .render_report(&mut out, report.as_ref())
        .unwrap();
    assert!(out.contains("did you mean `card`?"), "{out}");
    assert!(out.contains("crad"), "{out}");
    assert_eq!(e.span(), Span::new(0, 4));
}

// ───────────────────────────── robustness ─────────────────────────────

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let parens = format!(
        "fn f(): int = {}1{}",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    let e = errors_of(&parens);
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].code(), SyntaxError::TOO_DEEP);

    let blocks = format!("setup {}{}", "{ loop ".repeat(10_000), "}".repeat(10_000));
    assert_eq!(errors_of(&blocks)[0].code(), SyntaxError::TOO_DEEP);

    let unclosed = format!("setup {}", "[".repeat(100_000));
    assert_eq!(errors_of(&unclosed)[0].code(), SyntaxError::TOO_DEEP);

    let texts = format!("fn f(): int = {}", "\"{".repeat(5_000));
    assert_eq!(errors_of(&texts)[0].code(), SyntaxError::TOO_DEEP);

    // Nesting without brackets and long operator chains.
    for src in [
        format!("fn f(): int = {}1", "if a then 1 else ".repeat(20_000)),
        format!("fn f(): int = {}1", "if ".repeat(20_000)),
        format!("fn f(): int = {}d", "top of ".repeat(20_000)),
        format!("fn f(): int = {}1", "-".repeat(100_000)),
        format!("fn f(): bool = {}a", "not ".repeat(100_000)),
        format!("fn f(): int = 1{}", " + 1".repeat(100_000)),
        format!("fn f(): int = a{}", ".b".repeat(100_000)),
        format!("var x: {}int = 0", "list of ".repeat(20_000)),
    ] {
        let e = errors_of(&src);
        assert!(!e.is_empty(), "{}", &src[..40]);
        assert!(
            e.iter()
                .all(|e| e.code() == SyntaxError::TOO_DEEP || e.code() == SyntaxError::UNEXPECTED),
            "{e:?}"
        );
    }
}

#[test]
fn moderate_nesting_parses() {
    let n = 200;
    let parens = format!("fn f(): int = {}1{}", "(".repeat(n), ")".repeat(n));
    assert!(errors_of(&parens).is_empty());
    let lists = format!("fn f(): int = {}1{}", "[".repeat(n), "]".repeat(n));
    assert!(errors_of(&lists).is_empty());
    let blocks = format!("setup {{ {} }}", "loop { ".repeat(100) + &"}".repeat(100));
    assert!(errors_of(&blocks).is_empty());
    let chain = format!("fn f(): int = 1{}", " + 1".repeat(300));
    assert!(errors_of(&chain).is_empty());
}

#[test]
fn junk_input_gives_errors_and_never_panics() {
    for src in [
        "\u{0}",
        "\u{1}\u{2}\u{7f}",
        "card \u{0} {",
        "\u{202e}card \"x\" {}",
        "é∑😀",
        "card \"😀\" { cost 1 } 😀",
        "}}}}",
        "))))]]]]",
        "\"",
        "\"{",
        "\"{}\"",
        "card \"{\" {}",
        "\r\r\r",
        "card\"x\"{cost 1}",
        "//\u{0}\ncard \"a\" {}",
        "fn f(): int = \"{{\"",
        "game",
        "game \"",
        "table by players { columns }",
        "on",
        "test \"t\" { expect options }",
    ] {
        let (_, errors) = parse(src);
        for e in &errors {
            assert!(
                e.span.end <= src.len()
                    && src.is_char_boundary(e.span.start)
                    && src.is_char_boundary(e.span.end)
            );
        }
    }
    assert!(!errors_of("\u{0}").is_empty());
    assert!(errors_of("card\"x\"{cost 1}").is_empty());
}

/// A small deterministic generator for the fuzz-style tests.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_token_soup_never_panics() {
    let tokens = [
        "card",
        "zone",
        "let",
        "move",
        "to",
        "top",
        "of",
        "if",
        "then",
        "else",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        ",",
        ":",
        "=",
        "==",
        "+=",
        "-",
        "+",
        "*",
        "..",
        ".",
        "\"",
        "\"a{x}\"",
        "x",
        "p.hand",
        "1",
        "99999999999999999999",
        "choose",
        "up",
        "any",
        "in",
        "where",
        "by",
        "for",
        "count",
        "sum",
        "max",
        "is",
        "not",
        "and",
        "or",
        "\n",
        " ",
        "//",
        "\\",
        "{{",
        "}}",
        "é",
        "\u{0}",
        "setup",
        "flow",
        "test",
        "expect",
        "proc",
        "fn",
        "on",
        "per",
        "player",
        "list",
    ];
    let mut rng = Lcg(42);
    for _ in 0..3000 {
        let len = rng.below(40);
        let mut src = String::new();
        for _ in 0..len {
            src.push_str(tokens[rng.below(tokens.len())]);
            if rng.below(3) > 0 {
                src.push(' ');
            }
        }
        let (script, errors) = parse(&src);
        for e in &errors {
            assert!(e.span.end <= src.len(), "{src:?}: {e:?}");
        }
        for item in &script.items {
            if let Item::Fn(f) = item {
                check_expr_spans(&src, &f.body);
            }
        }
    }
}

#[test]
fn every_prefix_and_mutation_of_a_real_script_is_handled() {
    let src = r#"game "G" { players 2..4 option rares: bool = true "r" }
zone deck per player: pile, hidden, refill from discard
var coins per player: int = 0 min 0
card "Village" { is Territory copies 8 cost 1 ability play { you.coins += 1 } }
proc draw(p: player, n: int) { move top n of p.deck to p.hand }
action buy(c in market) label "Buy {c}" if c.cost <= you.coins { pay c.cost from you.coins move c to you.discard }
flow { loop { for p in from(seat(1)) { turn p { actions by p until pass [buy] } } } }
test "t" { players 2 choose "pass" expect count(c in P1.hand where c is "Village") == 0 }
"#;
    assert!(errors_of(src).is_empty());
    let mut cut_points: Vec<usize> = (0..=src.len())
        .filter(|i| src.is_char_boundary(*i))
        .collect();
    cut_points.retain(|i| i % 3 == 0);
    for i in cut_points {
        let prefix = &src[..i];
        let (_, errors) = parse(prefix);
        for e in &errors {
            assert!(e.span.end <= prefix.len());
        }
        // Delete one character.
        let mut mutated = String::from(&src[..i]);
        mutated.push_str(src[i..].get(1..).unwrap_or(""));
        let _ = errors_of(&mutated);
    }
}

#[test]
fn unindented_items_parse_like_indented_ones() {
    let src = "card \"A\" {\nis X\non e(c) in hand { stop }\ncost 1\n}\nproc p() {\nmove a to b\nlet x = 1\n}\n";
    let script = parse_ok(src);
    assert_eq!(script.items.len(), 2);
    match &script.items[0] {
        Item::Card(c) => assert_eq!(c.items.len(), 3),
        other => panic!("{other:?}"),
    }
    // Broken ones are reported once each.
    let bad = "card \"A\" {\nis X\non e() { stop }\ncost 1 +\n}\n".repeat(3);
    assert_eq!(errors_of(&bad).len(), 3);
}

#[test]
fn every_bad_item_of_a_long_file_is_reported() {
    let src = "crad \"A\" { }\ncard \"B\" { cost 1 + }\nzone z\n".repeat(500);
    let (script, errors) = parse(&src);
    assert_eq!(errors.len(), 1000);
    assert_eq!(script.items.len(), 500);
}

#[test]
fn a_strategy_has_ordered_rules_and_a_fallback() {
    let s = parse_ok(
        r#"strategy big_money "Castle at 8" {
  prefer buy(c) if c is "Castle"
  prefer buy(c) if c is Treasure by c.cost
  prefer pass_turn
  prefer pass if you.coins < 3
  prefer choose c in "Forge: trash" if c is "Copper"
  prefer choose n: int by n
  prefer choose "Declare"
  otherwise mcts:50
}
strategy plain { }"#,
    );
    let Some(Item::Strategy(st)) = s.items.first() else {
        panic!("expected a strategy, got {:?}", s.items);
    };
    assert_eq!(st.name.name, "big_money");
    assert_eq!(
        st.description.as_ref().and_then(|d| d.plain()).as_deref(),
        Some("Castle at 8")
    );
    assert_eq!(st.rules.len(), 7);
    let rules: Vec<&StrategyRule> = st.rules.iter().filter_map(RuleItem::rule).collect();
    assert_eq!(rules.len(), 7);
    assert!(
        matches!(&rules[0].target, StrategyTarget::Action { action, params }
        if action.name == "buy" && params.len() == 1)
    );
    assert!(rules[0].condition.is_some() && rules[0].by.is_none());
    assert!(rules[1].condition.is_some() && rules[1].by.is_some());
    assert!(
        matches!(&rules[2].target, StrategyTarget::Action { action, params }
        if action.name == "pass_turn" && params.is_empty())
    );
    assert!(matches!(rules[3].target, StrategyTarget::Pass(_)));
    assert!(
        matches!(&rules[4].target, StrategyTarget::Choose { binder, ty: None, prompt: Some(_) }
        if binder.name == "c")
    );
    assert!(matches!(
        &rules[5].target,
        StrategyTarget::Choose {
            ty: Some(TypeExpr::Int(_)),
            prompt: None,
            ..
        }
    ));
    assert!(
        matches!(&rules[6].target, StrategyTarget::Branch(t) if t.plain().as_deref() == Some("Declare"))
    );
    let (agent, count, _) = st.otherwise.as_ref().expect("a fallback");
    assert_eq!((agent.name.as_str(), *count), ("mcts", Some(50)));
    let Some(Item::Strategy(plain)) = s.items.get(1) else {
        panic!("expected a second strategy");
    };
    assert!(plain.rules.is_empty() && plain.otherwise.is_none() && plain.description.is_none());
}

/// `strategy`, `prefer`, `otherwise`, `rules` and `use` are contextual words: they stay usable as
/// names.
#[test]
fn strategy_words_are_not_reserved() {
    parse_ok("var strategy: int = 0\nvar prefer: int = 0\nfn otherwise(): int = strategy + prefer");
    parse_ok("var rules: int = 0\nabilities use\nfn f(): int = rules");
}

/// A rule set: a name, a description, `prefer` rules and `use`s in order, no fallback; a strategy
/// may `use` one among its rules.
#[test]
fn a_rule_set_has_rules_and_uses_in_order() {
    let s = parse_ok(
        r#"rules plays "how the cards are played" {
  prefer play(c) if c is Treasure
  use openings
  prefer pass
}
rules openings { }
strategy rush {
  use plays
  prefer buy(c) by c.cost
  otherwise first
}"#,
    );
    let [Item::Rules(plays), Item::Rules(openings), Item::Strategy(rush)] = &s.items[..] else {
        panic!("expected two rule sets and a strategy, got {:?}", s.items);
    };
    assert_eq!(plays.name.name, "plays");
    assert_eq!(
        plays
            .description
            .as_ref()
            .and_then(|d| d.plain())
            .as_deref(),
        Some("how the cards are played")
    );
    let lines: Vec<Option<&StrategyTarget>> = plays
        .rules
        .iter()
        .map(|l| l.rule().map(|r| &r.target))
        .collect();
    assert!(matches!(
        &lines[..],
        [
            Some(StrategyTarget::Action { .. }),
            None,
            Some(StrategyTarget::Pass(_))
        ]
    ));
    assert!(matches!(&plays.rules[1], RuleItem::Use { name, .. } if name.name == "openings"));
    assert!(plays.otherwise.is_none());
    assert!(openings.rules.is_empty() && openings.description.is_none());
    assert!(
        matches!(&rush.rules[..], [RuleItem::Use { name, .. }, RuleItem::Prefer(_)]
        if name.name == "plays")
    );
    assert!(rush.otherwise.is_some());
    // An `otherwise` in a rule set parses (the checker refuses it, with its span).
    let s = parse_ok("rules r { prefer pass otherwise random }");
    let [Item::Rules(r)] = &s.items[..] else {
        panic!("expected a rule set");
    };
    assert!(r.otherwise.is_some());
}

#[test]
fn a_statistic_is_declared_and_recorded() {
    let s = parse_ok("stat coins \"Coins in hand\"\nstat plays\nvar x: int = 0");
    match &s.items[..] {
        [Item::Stat(a), Item::Stat(b), Item::Var(_)] => {
            assert_eq!(a.name.name, "coins");
            assert_eq!(
                a.description.as_ref().and_then(|t| t.plain()).as_deref(),
                Some("Coins in hand")
            );
            assert_eq!(b.name.name, "plays");
            assert!(b.description.is_none());
        }
        other => panic!("expected two stats and a var, got {other:?}"),
    }
    match stmt("stat coins = you.coins") {
        StmtKind::Stat(n, AssignOp::Set, _) => assert_eq!(n.name, "coins"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        stmt("stat plays += 1"),
        StmtKind::Stat(_, AssignOp::Add, _)
    ));
    assert!(matches!(
        stmt("stat plays -= 2"),
        StmtKind::Stat(_, AssignOp::Sub, _)
    ));
}

#[test]
fn stat_is_not_reserved() {
    // A variable named `stat` is still written and read as before.
    parse_ok("var stat: int = 0\nfn f(): int = stat + 1");
    assert!(matches!(stmt("stat = 1"), StmtKind::Assign(..)));
    assert!(matches!(stmt("stat += 1"), StmtKind::Assign(..)));
    assert!(matches!(stmt("p.stat += 1"), StmtKind::Assign(..)));
}

/// `teams by VAR` in the header; `win team E "why"`, and `win team "why"` where `team` is a list.
#[test]
fn teams_and_a_team_win_parse() {
    let s = parse_ok(
        "game \"T\" {\n  players 4\n  teams by side\n}\nflow {\n  win team 2 \"two\"\n}\nproc p() {\n  let team = [seat(1)]\n  win team \"the list\"\n}\n",
    );
    let Item::Game(g) = &s.items[0] else {
        panic!("a header first")
    };
    assert_eq!(g.teams.as_ref().map(|t| t.name.as_str()), Some("side"));
    let bodies: Vec<String> = s
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Flow(b) => Some(format!("{:?}", b.stmts.last().map(|s| &s.kind))),
            Item::Proc(p) => Some(format!("{:?}", p.body.stmts.last().map(|s| &s.kind))),
            _ => None,
        })
        .collect();
    assert!(bodies[0].starts_with("Some(WinTeam("), "{}", bodies[0]);
    assert!(bodies[1].starts_with("Some(Win("), "{}", bodies[1]);
}

#[test]
fn procedures_with_results_and_function_bodies_with_let() {
    let script = parse_ok(
        "fn f(n: int): text {\n  let a = n * 2\n  let b = a + 1\n  \"{a} {b}\"\n}\nproc g(p: player): list of int {\n  return [1]\n}\nproc h() { stop }\n",
    );
    let Item::Fn(f) = &script.items[0] else {
        panic!("a function")
    };
    assert!(matches!(f.ret, TypeExpr::Text(_)));
    let lets: Vec<(&str, String)> = f
        .lets
        .iter()
        .map(|(n, _, e)| (n.name.as_str(), show(e)))
        .collect();
    assert_eq!(
        lets,
        [("a", "(* n 2)".to_string()), ("b", "(+ a 1)".to_string())]
    );
    let Item::Proc(g) = &script.items[1] else {
        panic!("a procedure")
    };
    assert!(matches!(g.ret, Some(TypeExpr::List(..))));
    assert!(matches!(g.body.stmts[0].kind, StmtKind::Return(_)));
    let Item::Proc(h) = &script.items[2] else {
        panic!("a procedure")
    };
    assert!(h.ret.is_none());
    assert!(matches!(stmt("let x = g(p)"), StmtKind::Let(_, None, _)));
    assert!(matches!(
        stmt("let ks: list of kind = []"),
        StmtKind::Let(n, Some(TypeExpr::List(..)), _) if n.name == "ks"
    ));
}

#[test]
fn indexing_comprehensions_flatten_and_take_while() {
    assert_eq!(show(&expr("p.hand[2].cost")), "p.hand[2].cost");
    assert_eq!(show(&expr("hands[i][j + 1]")), "hands[i][(+ j 1)]");
    assert_eq!(show(&expr("-L[1] * 2")), "(* (- L[1]) 2)");
    assert_eq!(
        show(&expr("[c.cost * 2 for c in hand where c is Gold]")),
        "(Map (* c.cost 2) c in hand where (is c Gold))"
    );
    assert_eq!(show(&expr("[a for x in L]")), "(Map a x in L)");
    assert_eq!(show(&expr("[a, b]")), "[a b]");
    assert_eq!(
        show(&expr("flatten(t.kept for t in p.domain)")),
        "(Flatten t.kept t in p.domain)"
    );
    assert_eq!(
        show(&expr("take_while(c in p.deck where c.face_up)")),
        "(TakeWhile c in p.deck where c.face_up)"
    );
    assert!(!errors_of("fn f(): list of int = take_while(x in [1] )").is_empty());
    // `times N [menu]`: a count that is a number, a name or in parentheses is not indexed.
    let StmtKind::Actions { mode, actions, .. } = stmt("actions by p times n [buy]") else {
        panic!("a menu")
    };
    assert!(matches!(mode, MenuMode::Times(e) if show(&e) == "n"));
    assert_eq!(actions.len(), 1);
    let StmtKind::Actions { mode, .. } = stmt("actions by p times (n[1]) [buy, sell]") else {
        panic!("a menu")
    };
    assert!(matches!(mode, MenuMode::Times(e) if show(&e) == "n[1]"));
}

#[test]
fn choose_order_and_a_binder_named_order() {
    let ch = let_choose("choose order c in p.deck where c.face_up by p prompt \"Back\"");
    assert!(matches!(ch.count, ChooseCount::Order));
    assert_eq!(ch.var.name, "c");
    assert!(ch.filter.is_some());
    // `order` stays a name: a binder, a local and a count in parentheses.
    let ch = let_choose("choose order in L");
    assert!(matches!(ch.count, ChooseCount::One));
    assert_eq!(ch.var.name, "order");
    let ch = let_choose("choose (order) c in L");
    assert!(matches!(ch.count, ChooseCount::Exactly(_)));
    assert!(matches!(stmt("let order = []"), StmtKind::Let(n, _, _) if n.name == "order"));
}

#[test]
fn card_families() {
    let script = parse_ok(
        "card \"{rank} of {suit}\" for suit in [Clubs, Hearts], (rank, name) in [[11, \"Jack\"]] {\n  is suit\n  rank rank\n}\ncard \"Plain\" { copies 1 }\n",
    );
    let Item::Card(c) = &script.items[0] else {
        panic!("a card")
    };
    let binders: Vec<(Vec<&str>, bool, String)> = c
        .family
        .iter()
        .map(|b| {
            (
                b.names.iter().map(|n| n.name.as_str()).collect(),
                b.row,
                show(&b.list),
            )
        })
        .collect();
    assert_eq!(
        binders,
        [
            (vec!["suit"], false, "[Clubs Hearts]".to_string()),
            (vec!["rank", "name"], true, "[[11 \"Jack\"]]".to_string()),
        ]
    );
    let Item::Card(plain) = &script.items[1] else {
        panic!("a card")
    };
    assert!(plain.family.is_empty());
}

#[test]
fn a_choice_assigned_to_a_name() {
    match stmt("giftee = choose q in mates by p prompt \"Who?\"") {
        StmtKind::AssignChoose(t, c) => {
            assert_eq!(show(&t), "giftee");
            assert_eq!(c.var.name, "q");
            assert!(c.by.is_some() && c.prompt.is_some());
        }
        other => panic!("{other:?}"),
    }
    // `==` is a comparison, never this assignment; other assignments are unchanged.
    assert!(matches!(
        stmt("x = y"),
        StmtKind::Assign(_, AssignOp::Set, _)
    ));
    assert!(!errors_of("proc p() { x == choose q in L }").is_empty());
}

#[test]
fn a_participant_is_declared_and_its_word_stays_a_name() {
    let s = parse_ok(
        "participant automaton \"the Automated Opponent\"\nvar participant per player: int = 0",
    );
    match &s.items[..] {
        [Item::Participant(a), Item::Var(v)] => {
            assert_eq!(a.name.name, "automaton");
            assert_eq!(a.display.plain().as_deref(), Some("the Automated Opponent"));
            assert_eq!(v.name.name, "participant");
        }
        other => panic!("unexpected items: {other:?}"),
    }
}

#[test]
fn a_misspelled_keyword_gets_a_suggestion_wherever_it_stands() {
    for (line, help) in [
        (
            "let c = chose c in p.hand by p",
            "`chose` is not a keyword: did you mean `choose`?",
        ),
        ("move c to p.hand face dwon", "did you mean `down`?"),
        (
            "let best = choos c in p.hand where c.cost > 1 by p",
            "`choos` is not a keyword: did you mean `choose`?",
        ),
        (
            "let n = 1 + + 2",
            "write an expression here; docs/language.md shows every form of the language",
        ),
    ] {
        let e = errors_of(&format!("proc f(p: player) {{\n  {line}\n}}\n"));
        assert_eq!(e.len(), 1, "{line}: {e:?}");
        assert_eq!(e[0].help.as_deref(), Some(help), "{line}");
    }
}

/// Recovery inside an item drops as little as it can: a dangling operator, a line whose `(` is never
/// closed, a missing `)` before a block's `{`; every item stays and each mistake is one error.
#[test]
fn recovery_inside_an_item_drops_as_little_as_it_can() {
    // A dangling operator at the end of a line: only it goes.
    let (script, errors) = parse("game \"G\" {\n  players 2..4 +\n}\n");
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(errors[0].message.ends_with("found `+`"), "{errors:#?}");
    assert!(matches!(&script.items[..], [Item::Game(g)] if g.players.is_some()));
    for (src, message) in [
        // A `(` never closed on a line of a block: that line goes.
        (
            "proc p() {\n  log \"a\"\n  move top(1 of deck to hand\n  log \"b\"\n}\n",
            "the `(` after `move top` on line 3 is never closed",
        ),
        // A `)` missing before the block's `{`: it is closed there.
        (
            "proc p() {\n  if any(c in L where c.cost > 1 {\n    log \"a\"\n  }\n  log \"b\"\n}\n",
            "the `(` after `if any` on line 2 is never closed",
        ),
    ] {
        let (script, errors) = parse(src);
        assert_eq!(errors.len(), 1, "{src}: {errors:#?}");
        assert_eq!(errors[0].message, message, "{src}");
        assert!(
            matches!(&script.items[..], [Item::Proc(p)] if p.body.stmts.len() == 2),
            "{src}: a statement too many was dropped"
        );
    }
}

/// `round { }`, `end round` and `eliminate P for round`; `round` stays a name elsewhere.
#[test]
fn rounds_parse_and_round_is_not_reserved() {
    assert!(matches!(stmt("round { end round }"), StmtKind::Round(_)));
    assert!(matches!(stmt("end round"), StmtKind::EndRound));
    assert!(matches!(
        stmt("eliminate you for round"),
        StmtKind::OutForRound(_)
    ));
    assert!(matches!(stmt("eliminate you"), StmtKind::Eliminate(_)));
    parse_ok("var round: int = 0\nfn f(): int = round + 1");
    assert!(matches!(stmt("round = 1"), StmtKind::Assign(..)));
    assert!(matches!(stmt("round += 1"), StmtKind::Assign(..)));
    assert!(matches!(stmt("round(1)"), StmtKind::Call(..)));
}

/// `log "text" to P`: a line of P's private log; `log "text"` as before.
#[test]
fn a_private_log_parses() {
    assert!(matches!(stmt("log \"a\" to you"), StmtKind::LogTo(..)));
    assert!(matches!(stmt("log \"a\""), StmtKind::Log(_)));
}

#[test]
fn a_statistic_kept_per_key_is_declared_with_its_type_and_recorded_with_its_key() {
    let script = parse_ok(
        "stat bust[kind] \"Busts\"\nstat plain\nflow {\n  stat bust[c.kind] = 1\n  stat plain += 2\n}\n",
    );
    let decls: Vec<_> = script
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Stat(d) => Some((d.name.name.clone(), d.key.is_some())),
            _ => None,
        })
        .collect();
    assert_eq!(
        decls,
        vec![("bust".to_string(), true), ("plain".to_string(), false)]
    );
    let flow = script
        .items
        .iter()
        .find_map(|i| match i {
            Item::Flow(b) => Some(b),
            _ => None,
        })
        .expect("a flow");
    assert!(
        matches!(&flow.stmts[0].kind, StmtKind::StatAt(n, _, AssignOp::Set, _) if n.name == "bust")
    );
    assert!(
        matches!(&flow.stmts[1].kind, StmtKind::Stat(n, AssignOp::Add, _) if n.name == "plain")
    );
}
