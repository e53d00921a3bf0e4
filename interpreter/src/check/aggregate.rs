//! Checks stage: aggregates with a binder (`count(x in L where C)`, `sum(E for x in L)`, `sort`,
//! `[E for x in L]`, `flatten`, `take_while`): their binder, filter, value and type.

use super::expr::{bad, fits, mk, orderable};
use super::scope::Ctx;
use super::Compiler;
use crate::diag::Diagnostic;
use crate::program::*;
use cardgame_grammar::ast::{self, Span};

impl Compiler<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn aggregate(
        &mut self,
        cx: &mut Ctx,
        op: ast::Aggregate,
        value: Option<&ast::Expr>,
        var: &ast::Ident,
        list: &ast::Expr,
        filter: Option<&ast::Expr>,
        span: Span,
    ) -> (Expr, Ty) {
        if op == ast::Aggregate::SortValues {
            return self.sorted_values(cx, value, var, list, filter, span);
        }
        let (l, lt) = self.expr(cx, list);
        let elem = self.list_elem(&lt, list.span);
        cx.push();
        let slot = cx.bind_at(&var.name, elem.clone(), var.span);
        let filter = filter
            .as_ref()
            .map(|f| Box::new(self.expr_expect(cx, f, &Ty::Bool)));
        // `max(E for x in L)` with E a list of numbers: which end of the sorted values to take,
        // and E's type.
        let mut pick: Option<Builtin> = None;
        let mut listed: Option<Ty> = None;
        let (op, ty, value) = match op {
            ast::Aggregate::Count => (Aggregate::Count, Ty::Int, None),
            ast::Aggregate::Any => (Aggregate::Any, Ty::Bool, None),
            ast::Aggregate::All => (Aggregate::All, Ty::Bool, None),
            ast::Aggregate::Filter => (Aggregate::Filter, Ty::List(Box::new(elem.clone())), None),
            ast::Aggregate::TakeWhile => {
                (Aggregate::TakeWhile, Ty::List(Box::new(elem.clone())), None)
            }
            ast::Aggregate::Map | ast::Aggregate::Flatten | ast::Aggregate::SortValues => {
                match value {
                    Some(v) => {
                        let (x, t) = self.expr(cx, v);
                        // (`SortValues` is lowered as a `Map` first, see `sorted_values`.)
                        if op != ast::Aggregate::Flatten {
                            (Aggregate::Map, Ty::List(Box::new(t)), Some(Box::new(x)))
                        } else {
                            let inner = self.list_elem(&t, v.span);
                            (
                                Aggregate::Flatten,
                                Ty::List(Box::new(inner)),
                                Some(Box::new(x)),
                            )
                        }
                    }
                    None => (Aggregate::Map, Ty::Any, None),
                }
            }
            ast::Aggregate::Sum
            | ast::Aggregate::Max
            | ast::Aggregate::Min
            | ast::Aggregate::Sort => {
                let v = match value {
                    // `sort` orders by a number or by a kind (the order cards are
                    // defined, which tells nothing about where the cards lie).
                    Some(v) if op == ast::Aggregate::Sort => {
                        let (x, t) = self.expr(cx, v);
                        if !fits(&t, &Ty::Int)
                            && !fits(&t, &Ty::Kind)
                            && !fits(&t, &Ty::Tag)
                            && !orderable(&t)
                        {
                            self.type_error(v.span, &Ty::Int, &t);
                        }
                        x
                    }
                    // `max`/`min` of lists of numbers: the values listed, sorted, and the
                    // last (or first) of them.
                    Some(v) if op != ast::Aggregate::Sum => {
                        let (x, t) = self.expr(cx, v);
                        if matches!(t, Ty::List(_)) && orderable(&t) {
                            pick = Some(if op == ast::Aggregate::Max {
                                Builtin::Last
                            } else {
                                Builtin::First
                            });
                            listed = Some(t);
                        } else if !fits(&t, &Ty::Int) {
                            self.type_error(v.span, &Ty::Int, &t);
                        }
                        x
                    }
                    Some(v) => self.expr_expect(cx, v, &Ty::Int),
                    None => {
                        self.error(
                                    Diagnostic::error(
                                        "E201",
                                        span,
                                        "this needs a value to compute",
                                    )
                                    .label("no value")
                                    .help("`sum`, `max` and `min` take what to add up: `sum(c.cost for c in L)`"),
                                );
                        bad(span).0
                    }
                };
                let (op, ty) = match op {
                    ast::Aggregate::Sum => (Aggregate::Sum, Ty::Int),
                    ast::Aggregate::Max => (Aggregate::Max, Ty::Int),
                    ast::Aggregate::Min => (Aggregate::Min, Ty::Int),
                    _ => (Aggregate::Sort, Ty::List(Box::new(elem.clone()))),
                };
                (op, ty, Some(Box::new(v)))
            }
        };
        cx.pop();
        if let (Some(end), Some(item)) = (pick, listed) {
            let values = mk(
                ExprKind::Aggregate {
                    op: Aggregate::Map,
                    value,
                    slot,
                    list: Box::new(l),
                    filter,
                },
                span,
            );
            let sorted = sorted_by_value(cx, values, span);
            return (mk(ExprKind::Builtin(end, vec![sorted]), span), item);
        }
        (
            mk(
                ExprKind::Aggregate {
                    op,
                    value,
                    slot,
                    list: Box::new(l),
                    filter,
                },
                span,
            ),
            ty,
        )
    }
}

impl Compiler<'_> {
    /// `sort(E for x in L where C)`: the list `[E for x in L where C]`, sorted by its values (as
    /// `sort(y in [...] by y)`, `y` a hidden local).
    fn sorted_values(
        &mut self,
        cx: &mut Ctx,
        value: Option<&ast::Expr>,
        var: &ast::Ident,
        list: &ast::Expr,
        filter: Option<&ast::Expr>,
        span: Span,
    ) -> (Expr, Ty) {
        let (values, ty) = self.aggregate(cx, ast::Aggregate::Map, value, var, list, filter, span);
        let elem = match &ty {
            Ty::List(t) => (**t).clone(),
            _ => Ty::Any,
        };
        if !fits(&elem, &Ty::Kind) && !fits(&elem, &Ty::Tag) && !orderable(&elem) {
            self.type_error(value.map_or(span, |v| v.span), &Ty::Int, &elem);
        }
        (sorted_by_value(cx, values, span), ty)
    }
}

/// The list `values` sorted by the values themselves (`sort(y in values by y)`, `y` a hidden local).
fn sorted_by_value(cx: &mut Ctx, values: Expr, span: Span) -> Expr {
    let slot = cx.hidden_slot();
    mk(
        ExprKind::Aggregate {
            op: Aggregate::Sort,
            value: Some(Box::new(mk(ExprKind::Local(slot), span))),
            slot,
            list: Box::new(values),
            filter: None,
        },
        span,
    )
}
