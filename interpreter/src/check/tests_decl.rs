//! Checks stage: rules tests written in the script (`test "..." { ... }`).

use super::scope::{BodyKind, Ctx};
use super::{Compiler, Sym};
use crate::diag::Diagnostic;
use crate::program::*;
use crate::value::Value;
use cardgame_grammar::ast;

impl Compiler<'_> {
    pub(crate) fn lower_test(&mut self, t: &ast::TestDecl) {
        let name = t.name.plain().unwrap_or_default();
        let players = match t.players {
            Some((n, span)) => {
                if n < self.p.min_players as i64 || n > self.p.max_players as i64 {
                    self.error(
                        Diagnostic::error(
                            "E401",
                            span,
                            format!(
                                "the game is for {} to {} players",
                                self.p.min_players, self.p.max_players
                            ),
                        )
                        .label("unsupported player count")
                        .help(format!(
                            "write `players N` with N from {} to {}",
                            self.p.min_players, self.p.max_players
                        )),
                    );
                }
                n.clamp(1, 16) as u8
            }
            None => self.p.min_players.max(if t.names.is_empty() {
                0
            } else {
                t.names.len() as u8
            }),
        };
        if !t.names.is_empty() && t.names.len() != players as usize {
            self.error(
                Diagnostic::error(
                    "E401",
                    t.span,
                    format!("{} names are given for {players} players", t.names.len()),
                )
                .label("names and players disagree")
                .help("give one name per seat, in seat order"),
            );
        }
        let mut options = vec![];
        for (n, e) in &t.options {
            match self.lookup(n) {
                Some(Sym::Option(o)) => {
                    let okind = self.p.options[o.index()].kind.clone();
                    let v = match (&okind, &e.kind) {
                        (OptionKind::OneOf(vals), ast::ExprKind::Name(v)) => {
                            let at = vals.iter().position(|x| *x == v.name);
                            if at.is_some() {
                                self.refer(v.span, super::symbols::Target::Name(v.name.clone()));
                            }
                            at.map(|i| Value::Int(i as i64))
                        }
                        (OptionKind::Bool, _) => {
                            self.const_value(e).filter(|v| matches!(v, Value::Bool(_)))
                        }
                        (OptionKind::Int { min, max }, _) => self
                            .const_value(e)
                            .filter(|v| matches!(v, Value::Int(i) if i >= min && i <= max)),
                        _ => None,
                    };
                    match v {
                        Some(v) => options.push((o, v)),
                        None => self.error(
                            Diagnostic::error(
                                "E303",
                                e.span,
                                format!("not a value of the option `{}`", n.name),
                            )
                            .label("invalid value")
                            .help("give one of the values the option declares"),
                        ),
                    }
                }
                _ => {
                    let help = self.suggest(&n.name, |s| matches!(s, Sym::Option(_)), &[]);
                    self.error(
                        Diagnostic::error(
                            "E102",
                            n.span,
                            format!("no option is named `{}`", n.name),
                        )
                        .label("unknown option")
                        .help_or(
                            help,
                            "options are declared in the `game` header: `option NAME: ...`",
                        ),
                    );
                }
            }
        }
        let mut cx = Ctx::new(BodyKind::Statements);
        cx.names = t.names.iter().map(|n| n.name.clone()).collect();
        let given = t.given.as_ref().map(|b| self.block(&mut cx, b));
        let start = t
            .start
            .as_ref()
            .and_then(|(n, args, span)| match self.lookup(n) {
                Some(Sym::Proc(p)) => {
                    let params = self.p.procs[p.index()].params.clone();
                    let xs = self.arguments(&mut cx, n, *span, &params, args)?;
                    Some((p, xs))
                }
                _ => {
                    self.unknown_name(&n.name, n.span, &super::UNKNOWN_PROC);
                    None
                }
            });
        // `options` in an `expect`: the labels of the pending decision (a name of the script's
        // own keeps its meaning).
        let options_slot = (!self.syms.contains_key("options"))
            .then(|| cx.bind("options", Ty::List(Box::new(Ty::Text))));
        cx.stat_reads = Some(Vec::new());
        let mut steps = vec![];
        for s in &t.steps {
            let label = |c: &mut Self, txt: &ast::Text| -> String {
                txt.plain().unwrap_or_else(|| {
                    c.error(
                        Diagnostic::error("E201", txt.span, "a label in a test is plain text")
                            .label("interpolated")
                            .help("a test names an option by its exact text: write it without `{...}`"),
                    );
                    String::new()
                })
            };
            let kind = match &s.kind {
                ast::TestStepKind::Choose(txt) => TestStepKind::Choose(label(self, txt)),
                ast::TestStepKind::Expect(e) => {
                    TestStepKind::Expect(self.expr_expect(&mut cx, e, &Ty::Bool))
                }
                ast::TestStepKind::OptionsHas(txt) => TestStepKind::OptionsHas(label(self, txt)),
                ast::TestStepKind::OptionsLacks(txt) => {
                    TestStepKind::OptionsLacks(label(self, txt))
                }
                ast::TestStepKind::Decider(e) => {
                    TestStepKind::Decider(self.expr_expect(&mut cx, e, &Ty::Player))
                }
                ast::TestStepKind::Winners(e) => {
                    let (x, ty) = self.expr(&mut cx, e);
                    if !(super::expr::fits(&ty, &Ty::Player)
                        || super::expr::fits(&ty, &Ty::List(Box::new(Ty::Player))))
                    {
                        self.type_error(e.span, &Ty::List(Box::new(Ty::Player)), &ty);
                    }
                    TestStepKind::Winners(x)
                }
                ast::TestStepKind::Over => TestStepKind::Over,
                ast::TestStepKind::NotOver => TestStepKind::NotOver,
                ast::TestStepKind::Log(txt) => TestStepKind::Log(label(self, txt)),
                ast::TestStepKind::StrategyPicks(name, txt) => TestStepKind::StrategyPicks {
                    name: name.name.clone(),
                    label: label(self, txt),
                },
                ast::TestStepKind::Do(b) => {
                    // A `do` block changes the position: it reads no statistic (E210).
                    let reads = cx.stat_reads.take();
                    let block = self.block(&mut cx, b);
                    cx.stat_reads = reads;
                    TestStepKind::Do(block)
                }
            };
            steps.push(TestStep { kind, span: s.span });
        }
        let slots = cx.max;
        self.p.tests.push(TestDef {
            name,
            players,
            seed: t.seed.map(|(s, _)| s).unwrap_or(1),
            options,
            names: cx.names.clone(),
            given: given.map(|block| Body { block, slots }),
            start,
            steps,
            options_slot,
            stat_reads: cx.stat_reads.take().unwrap_or_default(),
            stat_key_reads: std::mem::take(&mut cx.stat_key_reads),
            slots,
            span: t.span,
        });
    }

    /// E102 for `expect strategy NAME picks "..."` naming no strategy or rule set. Run after the
    /// strategies are lowered (tests are lowered before them).
    pub(crate) fn check_test_strategies(&mut self, script: &ast::Script) {
        for item in &script.items {
            let ast::Item::Test(t) = item else { continue };
            for step in &t.steps {
                let ast::TestStepKind::StrategyPicks(name, _) = &step.kind else {
                    continue;
                };
                let known = self.p.strategies.iter().map(|s| s.name.as_str());
                let known: Vec<&str> = known
                    .chain(self.p.rule_sets.iter().map(|r| r.name.as_str()))
                    .collect();
                if known.contains(&name.name.as_str()) {
                    continue;
                }
                let help = crate::diag::did_you_mean(&name.name, known.iter().copied())
                    .unwrap_or_else(|| {
                        "declare it with `strategy NAME { prefer ... }`".to_string()
                    });
                self.error(
                    Diagnostic::error(
                        "E102",
                        name.span,
                        format!("no strategy or rule set is named `{}`", name.name),
                    )
                    .label("unknown strategy")
                    .help(help),
                );
            }
        }
    }
}
