//! Grammar stage: helpers of the parser's tests (parsing a piece of script, rendering an expression's
//! shape, checking spans).

use cardgame_grammar::ast::*;
use cardgame_grammar::{parse, SyntaxError};

// ───────────────────────────── helpers ─────────────────────────────

pub fn parse_ok(src: &str) -> Script {
    let (script, errors) = parse(src);
    assert!(
        errors.is_empty(),
        "unexpected errors for {src:?}: {:#?}",
        errors
    );
    script
}

/// The body of `fn f(): int = SRC`, and the offset where SRC starts.
pub fn expr(src: &str) -> Expr {
    let full = format!("fn f(): int = {src}");
    match parse_ok(&full).items.into_iter().next() {
        Some(Item::Fn(f)) => f.body,
        other => panic!("expected a fn, got {other:?}"),
    }
}

pub const EXPR_OFFSET: usize = "fn f(): int = ".len();

/// The statements of `proc p() { SRC }`.
pub fn stmts(src: &str) -> Vec<Stmt> {
    let full = format!("proc p() {{ {src} }}");
    match parse_ok(&full).items.into_iter().next() {
        Some(Item::Proc(p)) => p.body.stmts,
        other => panic!("expected a proc, got {other:?}"),
    }
}

pub fn stmt(src: &str) -> StmtKind {
    let mut s = stmts(src);
    assert_eq!(s.len(), 1, "expected one statement in {src:?}: {s:#?}");
    s.remove(0).kind
}

pub const STMT_OFFSET: usize = "proc p() { ".len();

/// A compact rendering of an expression, to check its shape.
pub fn show(e: &Expr) -> String {
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

pub fn show_text(t: &Text) -> String {
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

pub fn slice(src: &str, span: Span) -> &str {
    &src[span.start..span.end]
}

/// Checks every span of an expression tree lies inside the source, on character boundaries.
pub fn check_expr_spans(src: &str, e: &Expr) {
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

pub fn errors_of(src: &str) -> Vec<SyntaxError> {
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

/// The decision of `let x = SRC`.
pub fn let_choose(src: &str) -> Choose {
    match stmt(&format!("let v = {src}")) {
        StmtKind::LetChoose(_, c) => c,
        other => panic!("{other:?}"),
    }
}
