//! Checks stage: calls in expressions: built-in functions (their arity and argument types) and the
//! script's own functions (copied into the call site when small: `inline`).

use super::expr::{bad, mk};
use super::scope::Ctx;
use super::{Compiler, Sym, BUILTIN_FNS};
use crate::diag::Diagnostic;
use crate::program::*;
use cardgame_grammar::ast::{self, Span};

impl Compiler<'_> {
    pub(super) fn call(
        &mut self,
        cx: &mut Ctx,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> (Expr, Ty) {
        let n = name.name.as_str();
        let arity = |c: &mut Self, want: usize| -> bool {
            if args.len() != want {
                c.error(
                    Diagnostic::error(
                        "E111",
                        name.span,
                        format!("`{n}` takes {want} value(s), {} given", args.len()),
                    )
                    .label("wrong number of values")
                    .help(format!(
                        "give `{n}` exactly {want} value(s), separated by commas"
                    )),
                );
                false
            } else {
                true
            }
        };
        let b = |bi: Builtin, xs: Vec<Expr>, ty: Ty| (mk(ExprKind::Builtin(bi, xs), span), ty);
        if BUILTIN_FNS.contains(&n) {
            match n {
                "count" => {
                    if !arity(self, 1) {
                        return bad(span);
                    }
                    let (l, lt) = self.expr(cx, &args[0]);
                    self.list_elem(&lt, args[0].span);
                    return b(Builtin::Size, vec![l], Ty::Int);
                }
                "max" | "min" => {
                    let (larger, largest) = if n == "max" {
                        ("larger", "largest")
                    } else {
                        ("smaller", "smallest")
                    };
                    let of_a_list = format!(
                        "`{n}(a, b)` is the {larger} of two numbers; the {largest} of a list is \
                         `{n}(x for x in L)`, as in `{n}(c.cost for c in you.hand)`"
                    );
                    if args.len() != 2 {
                        self.error(
                            Diagnostic::error(
                                "E111",
                                name.span,
                                format!("`{n}` takes 2 values, {} given", args.len()),
                            )
                            .label("wrong number of values")
                            .help(of_a_list),
                        );
                        return bad(span);
                    }
                    let lowered: Vec<(Expr, Ty)> = args.iter().map(|a| self.expr(cx, a)).collect();
                    // Two lists of numbers compare as `<` does, item by item: the larger (or
                    // smaller) of the two, each evaluated once more when chosen.
                    if let [(x, tx), (y, ty)] = lowered.as_slice() {
                        let lists = matches!(tx, Ty::List(_)) && matches!(ty, Ty::List(_));
                        if lists
                            && super::expr::orderable(tx)
                            && super::expr::orderable(ty)
                            && (super::expr::fits(tx, ty) || super::expr::fits(ty, tx))
                        {
                            let (first, second) = if n == "max" {
                                (x.clone(), y.clone())
                            } else {
                                (y.clone(), x.clone())
                            };
                            let less = mk(
                                ExprKind::Binary(
                                    BinOp::Lt,
                                    Box::new(first.clone()),
                                    Box::new(second.clone()),
                                ),
                                span,
                            );
                            let ty = if super::expr::untyped(tx) {
                                ty.clone()
                            } else {
                                tx.clone()
                            };
                            // max: if x < y then y else x; min: if y < x then y else x.
                            let (chosen, other) = if n == "max" {
                                (second, first)
                            } else {
                                (first, second)
                            };
                            return (
                                mk(
                                    ExprKind::If(Box::new(less), Box::new(chosen), Box::new(other)),
                                    span,
                                ),
                                ty,
                            );
                        }
                    }
                    let mut two = Vec::with_capacity(2);
                    for (a, (x, ty)) in args.iter().zip(lowered) {
                        if matches!(ty, Ty::List(_) | Ty::Zone) {
                            self.error(
                                Diagnostic::error(
                                    "E201",
                                    a.span,
                                    format!(
                                        "`{n}(a, b)` compares two numbers (or two lists of numbers), and this is {} {ty}",
                                        crate::diag::article(&ty.to_string())
                                    ),
                                )
                                .label(format!("{} {ty}", crate::diag::article(&ty.to_string())))
                                .help(of_a_list.clone()),
                            );
                        } else if !super::expr::fits(&ty, &Ty::Int) {
                            self.type_error(a.span, &Ty::Int, &ty);
                        }
                        two.push(x);
                    }
                    let (Some(y), Some(x)) = (two.pop(), two.pop()) else {
                        return bad(span);
                    };
                    return b(
                        if n == "max" {
                            Builtin::Max2
                        } else {
                            Builtin::Min2
                        },
                        vec![x, y],
                        Ty::Int,
                    );
                }
                "abs" => {
                    if !arity(self, 1) {
                        return bad(span);
                    }
                    let x = self.expr_expect(cx, &args[0], &Ty::Int);
                    return b(Builtin::Abs, vec![x], Ty::Int);
                }
                "take" => {
                    if !arity(self, 2) {
                        return bad(span);
                    }
                    let (l, lt) = self.expr(cx, &args[0]);
                    let elem = self.list_elem(&lt, args[0].span);
                    let k = self.expr_expect(cx, &args[1], &Ty::Int);
                    return b(Builtin::Take, vec![l, k], Ty::List(Box::new(elem)));
                }
                "flatten" => {
                    if !arity(self, 1) {
                        return bad(span);
                    }
                    let (l, lt) = self.expr(cx, &args[0]);
                    let inner = self.list_elem(&lt, args[0].span);
                    let elem = self.list_elem(&inner, args[0].span);
                    return b(Builtin::Flatten, vec![l], Ty::List(Box::new(elem)));
                }
                "first" | "last" | "random" | "distinct" => {
                    if !arity(self, 1) {
                        return bad(span);
                    }
                    let (l, lt) = self.expr(cx, &args[0]);
                    let elem = self.list_elem(&lt, args[0].span);
                    let (bi, ty) = match n {
                        "first" => (Builtin::First, elem),
                        "last" => (Builtin::Last, elem),
                        "random" => (Builtin::Random, elem),
                        _ => (Builtin::Distinct, Ty::List(Box::new(elem))),
                    };
                    return b(bi, vec![l], ty);
                }
                "cards" => {
                    if !arity(self, 2) {
                        return bad(span);
                    }
                    let k = self.expr_expect(cx, &args[0], &Ty::Kind);
                    let l = self.expr_expect(cx, &args[1], &Ty::List(Box::new(Ty::Card)));
                    return b(Builtin::Cards, vec![k, l], Ty::List(Box::new(Ty::Card)));
                }
                "kinds" => {
                    if !arity(self, 1) {
                        return bad(span);
                    }
                    let l = self.expr_expect(cx, &args[0], &Ty::List(Box::new(Ty::Card)));
                    return b(Builtin::Kinds, vec![l], Ty::List(Box::new(Ty::Kind)));
                }
                "seat" => {
                    if !arity(self, 1) {
                        return bad(span);
                    }
                    let x = self.expr_expect(cx, &args[0], &Ty::Int);
                    return b(Builtin::Seat, vec![x], Ty::Player);
                }
                "left" | "right" | "opponents" | "from" | "eliminated" => {
                    if !arity(self, 1) {
                        return bad(span);
                    }
                    let x = self.expr_expect(cx, &args[0], &Ty::Player);
                    let players = Ty::List(Box::new(Ty::Player));
                    let (bi, ty) = match n {
                        "left" => (Builtin::Left, Ty::Player),
                        "right" => (Builtin::Right, Ty::Player),
                        "opponents" => (Builtin::Opponents, players),
                        "from" => (Builtin::From, players),
                        _ => (Builtin::Eliminated, Ty::Bool),
                    };
                    return b(bi, vec![x], ty);
                }
                "at" => {
                    if !arity(self, 2) {
                        return bad(span);
                    }
                    let x = self.expr_expect(cx, &args[0], &Ty::Int);
                    let y = self.expr_expect(cx, &args[1], &Ty::Int);
                    return b(Builtin::At, vec![x, y], Ty::Space);
                }
                "neighbours" => {
                    if !arity(self, 1) {
                        return bad(span);
                    }
                    let x = self.expr_expect(cx, &args[0], &Ty::Space);
                    return b(Builtin::Neighbours, vec![x], Ty::List(Box::new(Ty::Space)));
                }
                _ => {
                    if !arity(self, 2) {
                        return bad(span);
                    }
                    let x = self.expr_expect(cx, &args[0], &Ty::Space);
                    let y = self.expr_expect(cx, &args[1], &Ty::Space);
                    return b(Builtin::Adjacent, vec![x, y], Ty::Bool);
                }
            }
        }
        match self.lookup(name) {
            Some(Sym::Fn(f)) => {
                let params = self.p.fns[f.index()].params.clone();
                let ret = self.p.fns[f.index()].ret.clone();
                if !arity(self, params.len()) {
                    return bad(span);
                }
                let xs = args
                    .iter()
                    .zip(&params)
                    .map(|(a, t)| self.expr_expect(cx, a, t))
                    .collect();
                let xs: Vec<Expr> = xs;
                let def = &self.p.fns[f.index()];
                match self.lowered_fns.contains(&f) {
                    true => match super::inline::inline_call(def, &xs, |n| {
                        // Far from the most slots a frame may have (`u16`).
                        if !cx.copies_binders
                            || u32::from(cx.max) + u32::from(n) > u32::from(u16::MAX / 2)
                        {
                            return None;
                        }
                        let first = cx.hidden_slot();
                        for _ in 1..n {
                            cx.hidden_slot();
                        }
                        Some(first)
                    }) {
                        Some(body) => (body, ret),
                        None => (mk(ExprKind::CallFn(f, xs), span), ret),
                    },
                    false => (mk(ExprKind::CallFn(f, xs), span), ret),
                }
            }
            Some(Sym::Proc(pr)) => {
                let help = match self.p.procs[pr.index()].ret {
                    Some(_) => format!(
                        "a procedure can ask for decisions, so its result is kept by a statement first: `let x = {n}(...)`, then use `x`"
                    ),
                    None => "use a `fn` for a value computed from the position".to_string(),
                };
                self.error(
                    Diagnostic::error(
                        "E201",
                        name.span,
                        format!("`{n}` is a procedure: it is a statement, not a value"),
                    )
                    .label("procedure")
                    .help(help),
                );
                bad(span)
            }
            _ => {
                self.unknown_name(n, name.span, &super::UNKNOWN_FN);
                bad(span)
            }
        }
    }
}
