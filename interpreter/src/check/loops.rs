//! Checks stage: loops over lists of lists (`for (a, b) in L`), lowered to a loop over hidden
//! elements whose names are set from each element's items.

use super::scope::Ctx;
use super::Compiler;
use crate::diag::Diagnostic;
use crate::program::*;
use cardgame_grammar::ast::{self, Span};

impl Compiler<'_> {
    /// A block whose statements follow `first` (statements the checker adds in front).
    pub(super) fn block_after(
        &mut self,
        cx: &mut Ctx,
        first: Vec<Stmt>,
        b: &ast::Block,
    ) -> BlockId {
        cx.push_block();
        let mut out = first;
        out.reserve(b.stmts.len());
        for s in &b.stmts {
            if let Some(st) = self.stmt(cx, s) {
                out.push(st);
            }
        }
        cx.pop();
        self.push_block(out)
    }

    /// `for (a, b) in L`: a hidden local for each element of L (a list), and each name's local with
    /// the element's item it takes (`a` the first, `b` the second, `none` past the end).
    pub(super) fn taken_apart(
        &mut self,
        cx: &mut Ctx,
        names: &[ast::Ident],
        elem: Ty,
        span: Span,
    ) -> (Slot, Vec<(Slot, Expr)>) {
        let item = match elem {
            Ty::List(t) => *t,
            Ty::Any => Ty::Any,
            other => {
                self.error(
                    Diagnostic::error(
                        "E201",
                        span,
                        format!(
                            "`for ({}) in L` takes apart lists, and the elements here are {} {other}",
                            names.iter().map(|n| n.name.as_str()).collect::<Vec<_>>().join(", "),
                            crate::diag::article(&other.to_string())
                        ),
                    )
                    .label(format!("a list of {other}"))
                    .help("name each element with one name (`for x in L`), or walk a list of lists (`for (a, b) in [[1, 2], [3, 4]]`)"),
                );
                Ty::Any
            }
        };
        let whole = cx.hidden_slot();
        let parts = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let at = Expr::new(
                    ExprKind::Builtin(
                        Builtin::Index,
                        vec![
                            Expr::new(ExprKind::Local(whole), n.span),
                            Expr::new(
                                ExprKind::Const(crate::value::Value::Int(i as i64 + 1)),
                                n.span,
                            ),
                        ],
                    ),
                    n.span,
                );
                (cx.bind_at(&n.name, item.clone(), n.span), at)
            })
            .collect();
        (whole, parts)
    }
}
