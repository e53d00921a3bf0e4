//! Checks stage: statistics (`stat NAME` declarations and the `stat NAME = E` statements that record
//! them), in a name space of their own, like strategies: `stat coins = you.coins` beside `var coins`.

use super::expr::{bad, mk};
use super::scope::Ctx;
use super::Compiler;
use crate::diag::{did_you_mean, Diagnostic};
use crate::program::*;
use cardgame_grammar::ast::{self, Span};

/// Where a type is written.
fn type_span(t: &ast::TypeExpr) -> Span {
    match t {
        ast::TypeExpr::Int(s)
        | ast::TypeExpr::Bool(s)
        | ast::TypeExpr::Text(s)
        | ast::TypeExpr::Player(s)
        | ast::TypeExpr::Card(s)
        | ast::TypeExpr::Kind(s)
        | ast::TypeExpr::Tag(s)
        | ast::TypeExpr::Space(s)
        | ast::TypeExpr::Zone(s)
        | ast::TypeExpr::List(_, s) => *s,
    }
}

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
        let key = d.key.as_ref().map(|t| self.stat_key_type(t));
        self.stat_ids
            .insert(d.name.name.clone(), self.p.stats.len() as u16);
        self.p.stats.push(StatDef {
            name: d.name.name.clone(),
            description,
            counter: false,
            key,
            span: d.name.span,
        });
        self.stat_uses.push((None, None));
    }

    /// The type of a statistic's key (`stat NAME[TYPE]`): one that names the same thing in every
    /// game, so that the report can add up each key's records (E212 for another).
    fn stat_key_type(&mut self, t: &ast::TypeExpr) -> Ty {
        let ty = super::decls::lower_type(t);
        match ty {
            Ty::Int | Ty::Bool | Ty::Text | Ty::Player | Ty::Kind | Ty::Tag => {}
            Ty::Card | Ty::Space | Ty::Zone | Ty::List(_) | Ty::Any => {
                let help = match ty {
                    Ty::Card => "a card is one of a game's cards: key by what it is, `stat NAME[kind]` recorded with `stat NAME[c.kind] = E`, or by a property (`stat NAME[int]` with `c.rank`)",
                    _ => "key a statistic by an `int`, `bool`, `text`, `player`, `kind` or `tag`",
                };
                self.error(
                    Diagnostic::error(
                        "E212",
                        type_span(t),
                        format!("a statistic cannot be kept per {ty}"),
                    )
                    .label(format!("a key of type {ty}"))
                    .help(help),
                );
            }
        }
        ty
    }

    /// `stat NAME = E`, `stat NAME += E`, `stat NAME -= E`: the statistic must be declared and the
    /// value a number; `stat NAME[K] ...` for a statistic declared with a key, K of its key's type
    /// (E212 when one has a key and the other not).
    pub(crate) fn stat_stmt(
        &mut self,
        cx: &mut Ctx,
        name: &ast::Ident,
        key: Option<&ast::Expr>,
        op: ast::AssignOp,
        value: &ast::Expr,
        span: Span,
    ) -> Option<StmtKind> {
        let key = match (self.stat_declared_key(name), key) {
            (Some(Some(ty)), Some(k)) => Some(self.expr_expect(cx, k, &ty)),
            (Some(None), Some(k)) => {
                self.expr(cx, k);
                self.key_misuse(name, k.span, false);
                None
            }
            (Some(Some(_)), None) => {
                self.key_misuse(name, name.span, true);
                None
            }
            (None, Some(k)) => {
                self.expr(cx, k);
                None
            }
            (Some(None), None) | (None, None) => None,
        };
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
        Some(match key {
            Some(k) => StmtKind::StatAt(id, k, op, x),
            None => StmtKind::Stat(id, op, x),
        })
    }

    /// Whether the statistic at `name` is declared, and the type of its key: `None` when no
    /// statistic has that name (reported where it is used), `Some(None)` for one without a key.
    fn stat_declared_key(&self, name: &ast::Ident) -> Option<Option<Ty>> {
        let &id = self.stat_ids.get(&name.name)?;
        Some(self.p.stats.get(id as usize).and_then(|d| d.key.clone()))
    }

    /// E212: a key given to a statistic declared without one, or none given to one declared with
    /// one (`wanted`).
    fn key_misuse(&mut self, name: &ast::Ident, span: Span, wanted: bool) {
        let n = &name.name;
        let def = self
            .stat_ids
            .get(n)
            .and_then(|&id| self.p.stats.get(id as usize))
            .map(|d| (d.span, d.key.clone()));
        let (message, label, help) = if wanted {
            let ty = def.as_ref().and_then(|d| d.1.clone()).unwrap_or(Ty::Any);
            (
                format!("the statistic `{n}` is kept per {ty}: name the key"),
                "no key".to_string(),
                format!(
                    "write the key in brackets, {} {ty}: `stat {n}[K] = E` (a test reads `stat {n}[K]`, or `stat {n}` for every key together)",
                    crate::diag::article(&ty.to_string())
                ),
            )
        } else {
            (
                format!("the statistic `{n}` is declared without a key"),
                "a key".to_string(),
                format!("declare it with the key's type to keep it per key, `stat {n}[int]` (or `text`, `player`, `kind`, ...); else leave the key out"),
            )
        };
        let mut d = Diagnostic::error("E212", span, message)
            .label(label)
            .help(help);
        if let Some((at, _)) = def {
            d = d.related(at, "declared here");
        }
        self.error(d);
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

    /// `stat NAME[K]` in a rules test's step, NAME declared with a key: what the statistic
    /// recorded so far for key K (a hidden local the test runner fills after evaluating K). `None`
    /// when NAME is not a statistic with a key: then `stat NAME[i]` is the i-th value recorded.
    pub(crate) fn stat_key_read(
        &mut self,
        cx: &mut Ctx,
        name: &ast::Ident,
        key: &ast::Expr,
        span: Span,
    ) -> Option<(Expr, Ty)> {
        let ty = self.stat_declared_key(name).flatten()?;
        let id = self.stat_named(name)?;
        if cx.stat_reads.is_none() {
            // E210, said by the read of the name.
            return Some(self.stat_read(cx, name, span));
        }
        self.refer(name.span, super::symbols::Target::Stat(name.name.clone()));
        let k = self.expr_expect(cx, key, &ty);
        let slot = cx.hidden_slot();
        cx.stat_key_reads.push((id, k, slot));
        Some((mk(ExprKind::Local(slot), span), Ty::Any))
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
