//! Checks stage: statistics (`stat NAME` declarations and the `stat NAME = E` statements that record
//! them), in a name space of their own, like strategies: `stat coins = you.coins` beside `var coins`.

use super::expr::{bad, mk};
use super::scope::Ctx;
use super::Compiler;
use crate::diag::{did_you_mean, Diagnostic};
use crate::program::*;
use cardgame_grammar::ast::{self, Span};

impl Compiler<'_> {
    /// Declares `stat NAME ["description"]`; a second one of the same name is E101.
    pub(crate) fn declare_stat(&mut self, d: &ast::StatDecl) {
        if let Some(&old) = self.stat_ids.get(&d.name.name) {
            let first = self.p.stats[old as usize].span;
            self.error(
                Diagnostic::error(
                    "E101",
                    d.name.span,
                    format!("the statistic `{}` is declared twice", d.name.name),
                )
                .label("declared again here")
                .related(first, "first declared here")
                .help("rename one of them, or remove the second"),
            );
            return;
        }
        let description = d
            .description
            .as_ref()
            .and_then(|t| t.plain())
            .unwrap_or_default();
        self.stat_ids
            .insert(d.name.name.clone(), self.p.stats.len() as u16);
        self.p.stats.push(StatDef {
            name: d.name.name.clone(),
            description,
            counter: false,
            span: d.name.span,
        });
        self.stat_uses.push((None, None));
    }

    /// `stat NAME = E`, `stat NAME += E`, `stat NAME -= E`: the statistic must be declared and the
    /// value a number.
    pub(crate) fn stat_stmt(
        &mut self,
        cx: &mut Ctx,
        name: &ast::Ident,
        op: ast::AssignOp,
        value: &ast::Expr,
        span: Span,
    ) -> Option<StmtKind> {
        let (x, ty) = self.expr(cx, value);
        if !super::expr::fits(&ty, &Ty::Int) {
            self.error(
                Diagnostic::error(
                    "E201",
                    value.span,
                    format!("a statistic records a number, not a {ty}"),
                )
                .label(format!("a {ty}"))
                .help(if ty == Ty::Bool {
                    format!(
                        "count when it holds: `stat {} += if C then 1 else 0`",
                        name.name
                    )
                } else {
                    "record a number: `count(L)`, a variable such as `you.coins`, or a sum"
                        .to_string()
                }),
            );
        }
        let id = self.stat_named(name)?;
        self.refer(name.span, super::symbols::Target::Stat(name.name.clone()));
        let op = match op {
            ast::AssignOp::Set => AssignOp::Set,
            ast::AssignOp::Add => AssignOp::Add,
            ast::AssignOp::Sub => AssignOp::Sub,
        };
        if let Some(uses) = self.stat_uses.get_mut(id as usize) {
            let slot = if op == AssignOp::Set {
                &mut uses.0
            } else {
                &mut uses.1
            };
            slot.get_or_insert(span);
        }
        Some(StmtKind::Stat(id, op, x))
    }

    /// The statistic named at `name`; E102 with a "did you mean" when there is none.
    fn stat_named(&mut self, name: &ast::Ident) -> Option<u16> {
        if let Some(&id) = self.stat_ids.get(&name.name) {
            return Some(id);
        }
        let help = did_you_mean(&name.name, self.stat_ids.keys().map(|s| s.as_str()))
            .unwrap_or_else(|| {
                format!(
                    "declare it at the top level: `stat {} \"what it measures\"`",
                    name.name
                )
            });
        self.error(
            Diagnostic::error(
                "E102",
                name.span,
                format!("no statistic is named `{}`", name.name),
            )
            .label("unknown statistic")
            .help(help),
        );
        None
    }

    /// `stat NAME` in a rules test's step: a hidden local the test runner fills with what the
    /// statistic recorded so far (a count's total, or the list of values recorded); elsewhere E210.
    pub(crate) fn stat_read(&mut self, cx: &mut Ctx, name: &ast::Ident, span: Span) -> (Expr, Ty) {
        let Some(id) = self.stat_named(name) else {
            return bad(span);
        };
        let Some(reads) = cx.stat_reads.as_mut() else {
            self.error(
                Diagnostic::error(
                    "E210",
                    span,
                    format!("`stat {}` is read only in a rules test", name.name),
                )
                .label("not in a test")
                .help("statistics measure the game for `cardgame sim` and change nothing in it: the rules read variables; a test reads `stat NAME` in `expect`"),
            );
            return bad(span);
        };
        let slot = match reads.iter().find(|(stat, _)| *stat == id) {
            Some((_, slot)) => *slot,
            None => {
                let slot = cx.hidden_slot();
                if let Some(reads) = cx.stat_reads.as_mut() {
                    reads.push((id, slot));
                }
                slot
            }
        };
        // A count is a number, recorded values a list of numbers: known once every rule is read.
        (mk(ExprKind::Local(slot), span), Ty::Any)
    }

    /// After every body is lowered: a statistic is either recorded (`=`) or counted (`+=`, `-=`),
    /// never both (E207); one never recorded is unused (W001).
    pub(crate) fn finish_stats(&mut self) {
        for (i, (set, add)) in self.stat_uses.clone().into_iter().enumerate() {
            let Some(def) = self.p.stats.get(i).cloned() else {
                continue;
            };
            match (set, add) {
                (Some(s), Some(a)) => {
                    let later = if a.start > s.start { a } else { s };
                    let first = if a.start > s.start { s } else { a };
                    self.error(
                        Diagnostic::error(
                            "E207",
                            later,
                            format!(
                                "the statistic `{}` is both recorded with `=` and counted with `+=`/`-=`",
                                def.name
                            ),
                        )
                        .label("used the other way here")
                        .related(first, "first used here")
                        .help(format!(
                            "`stat {0} = E` records values (a mean, a distribution, a mean by turn); `stat {0} += E` counts per game: declare two statistics",
                            def.name
                        )),
                    );
                }
                (None, Some(_)) => {
                    if let Some(d) = self.p.stats.get_mut(i) {
                        d.counter = true;
                    }
                }
                (Some(_), None) => {}
                (None, None) => {
                    if !self.partial {
                        self.diags.push(
                            Diagnostic::warning(
                                "W001",
                                def.span,
                                format!("the statistic `{}` is never recorded", def.name),
                            )
                            .label("unused")
                            .help(format!(
                                "record it where it happens (`stat {0} = E` or `stat {0} += 1`), or remove it",
                                def.name
                            )),
                        );
                    }
                }
            }
        }
    }
}
