//! Checks stage: strategies (`strategy NAME { prefer ... otherwise AGENT }`): every action name,
//! parameter count, condition, ranking and fallback agent is resolved once and lowered to a
//! [`StrategyDef`].

use super::decls::lower_type;
use super::scope::{BodyKind, Ctx};
use super::{Compiler, Sym};
use crate::diag::{did_you_mean, Diagnostic};
use crate::program::{
    Builtin, Expr, ExprKind, StrategyDef, StrategyRule, StrategyTarget, Ty, Visibility, ZoneId,
};
use cardgame_grammar::ast::{self, Span};
use std::collections::HashMap;

/// The agents a strategy may fall back to (a strategy never falls back to another strategy).
pub(crate) const FALLBACK_AGENTS: &[&str] = &["random", "first", "greedy", "mcts", "ismcts"];

impl Compiler<'_> {
    /// Lowers every strategy of the script, after every action (their parameter types are known).
    pub(crate) fn lower_strategies(&mut self, script: &ast::Script) {
        let mut seen: HashMap<String, Span> = HashMap::new();
        for item in &script.items {
            let ast::Item::Strategy(s) = item else {
                continue;
            };
            if let Some(first) = seen.get(&s.name.name) {
                self.error(
                    Diagnostic::error(
                        "E101",
                        s.name.span,
                        format!("two strategies are named `{}`", s.name.name),
                    )
                    .label("declared again here")
                    .related(*first, "first declared here")
                    .help("every strategy of a script has its own name: rename one of them"),
                );
                continue;
            }
            seen.insert(s.name.name.clone(), s.name.span);
            let def = self.lower_strategy(s);
            self.p.strategies.push(def);
        }
    }

    fn lower_strategy(&mut self, s: &ast::StrategyDecl) -> StrategyDef {
        let description = match &s.description {
            Some(t) => match t.plain() {
                Some(d) => d,
                None => {
                    self.error(
                        Diagnostic::error(
                            "E201",
                            t.span,
                            "a strategy's description is plain text, without `{...}`",
                        )
                        .label("interpolated text")
                        .help("write the description without `{...}`"),
                    );
                    String::new()
                }
            },
            None => String::new(),
        };
        let rules = s.rules.iter().filter_map(|r| self.lower_rule(r)).collect();
        let fallback = match &s.otherwise {
            None => "random".to_string(),
            Some((agent, count, span)) => self.fallback(agent, *count, *span),
        };
        StrategyDef {
            name: s.name.name.clone(),
            description,
            rules,
            fallback,
            span: s.span,
        }
    }

    /// The fallback agent as `--agents` writes it; an unknown one is an E501.
    fn fallback(&mut self, agent: &ast::Ident, count: Option<i64>, span: Span) -> String {
        let name = agent.name.as_str();
        if !FALLBACK_AGENTS.contains(&name) {
            let help = did_you_mean(name, FALLBACK_AGENTS.iter().copied()).unwrap_or_else(|| {
                format!(
                    "a strategy falls back to one of: {}",
                    FALLBACK_AGENTS.join(", ")
                )
            });
            self.error(
                Diagnostic::error("E501", agent.span, format!("no agent is named `{name}`"))
                    .label("unknown agent")
                    .help(help),
            );
            return "random".into();
        }
        match (name, count) {
            (_, None) => name.to_string(),
            ("mcts" | "ismcts", Some(n)) if (1..=1_000_000).contains(&n) => format!("{name}:{n}"),
            ("mcts" | "ismcts", Some(_)) => {
                self.error(
                    Diagnostic::error(
                        "E501",
                        span,
                        format!("{name} takes a number of iterations from 1 to 1000000"),
                    )
                    .label("bad number of iterations")
                    .help(format!("write it as in `otherwise {name}:200`")),
                );
                "random".into()
            }
            (_, Some(_)) => {
                self.error(
                    Diagnostic::error("E501", span, format!("the agent `{name}` takes no number"))
                        .label("unexpected number")
                        .help("only `mcts` and `ismcts` take one, as in `otherwise mcts:200`"),
                );
                name.to_string()
            }
        }
    }

    fn lower_rule(&mut self, r: &ast::StrategyRule) -> Option<StrategyRule> {
        let mut cx = Ctx::new(BodyKind::Pure);
        let target = match &r.target {
            ast::StrategyTarget::Pass(_) => StrategyTarget::Pass,
            ast::StrategyTarget::Branch(t) => match t.plain() {
                Some(text) => StrategyTarget::Branch(text),
                None => {
                    self.error(
                        Diagnostic::error(
                            "E201",
                            t.span,
                            "the branch text a rule matches is plain text, without `{...}`",
                        )
                        .label("interpolated text")
                        .help("give the start of the branch's text, up to its first `{`"),
                    );
                    return None;
                }
            },
            ast::StrategyTarget::Choose { binder, ty, prompt } => {
                let ty = ty.as_ref().map(lower_type).unwrap_or(Ty::Card);
                cx.bind_at(&binder.name, ty.clone(), binder.span);
                let prompt = match prompt {
                    Some(t) => match t.plain() {
                        Some(p) => Some(p),
                        None => {
                            self.error(
                                Diagnostic::error(
                                    "E201",
                                    t.span,
                                    "the prompt a rule matches is plain text, without `{...}`",
                                )
                                .label("interpolated text")
                                .help("give the start of the prompt, up to its first `{`"),
                            );
                            None
                        }
                    },
                    None => None,
                };
                StrategyTarget::Choose { ty, prompt }
            }
            ast::StrategyTarget::Action { action, params } => {
                let id = match self.syms.get(&action.name).map(|(s, _)| *s) {
                    Some(Sym::Action(id)) => {
                        self.refer(
                            action.span,
                            super::symbols::Target::Name(action.name.clone()),
                        );
                        id
                    }
                    _ => {
                        self.unknown_name(&action.name, action.span, &super::UNKNOWN_ACTION);
                        return None;
                    }
                };
                let tys = self.action_param_tys.get(&id).cloned().unwrap_or_default();
                if tys.len() != params.len() {
                    self.error(
                        Diagnostic::error(
                            "E111",
                            action.span,
                            format!(
                                "the action `{}` has {} parameter{} but {} name{} given",
                                action.name,
                                tys.len(),
                                if tys.len() == 1 { "" } else { "s" },
                                params.len(),
                                if params.len() == 1 { " is" } else { "s are" },
                            ),
                        )
                        .label("wrong number of names")
                        .help("name every parameter, in the order of the action's declaration"),
                    );
                    return None;
                }
                for (p, ty) in params.iter().zip(tys) {
                    cx.bind_at(&p.name, ty, p.span);
                }
                StrategyTarget::Action(id)
            }
        };
        let condition = r
            .condition
            .as_ref()
            .map(|c| self.expr_expect(&mut cx, c, &Ty::Bool));
        let by =
            r.by.as_ref()
                .map(|e| self.expr_expect(&mut cx, e, &Ty::Int));
        let mut unseen: Vec<(ZoneId, Span)> = Vec::new();
        for e in condition.iter().chain(by.iter()) {
            self.unseen_zones(e, &mut unseen);
        }
        for (z, span) in unseen {
            let zone = &self.p.zones[z.index()];
            let what = match zone.visibility {
                Visibility::Hidden => format!("the cards of `{}`, a hidden zone", zone.name),
                _ => format!("the cards of another player's `{}`", zone.name),
            };
            self.diags.push(
                Diagnostic::warning(
                    "W002",
                    span,
                    format!("this strategy reads {what}, which its player may not see"),
                )
                .label("hidden from the deciding player")
                .help("a strategy that reads hidden cards cheats: read your own cards (`you.ZONE`), public zones, or counts (`count(ZONE)`)"),
            );
        }
        Some(StrategyRule {
            target,
            condition,
            by,
            slots: cx.max,
            span: r.span,
        })
    }

    /// Zones read directly in a rule's expression whose cards the deciding player may not see: a
    /// `hidden` zone, or an `owner` zone of someone other than `you`. Counting a zone (`count(Z)`) is
    /// public; functions called are not looked into.
    fn unseen_zones(&self, e: &Expr, out: &mut Vec<(ZoneId, Span)>) {
        match &e.kind {
            ExprKind::Builtin(Builtin::Size, args)
                if args.iter().all(|a| matches!(a.kind, ExprKind::Zone(..))) =>
            {
                return;
            }
            ExprKind::Zone(z, owner) => {
                let unseen = match self.p.zones.get(z.index()).map(|d| d.visibility) {
                    Some(Visibility::Hidden) => true,
                    Some(Visibility::Owner) => {
                        !matches!(owner.as_deref().map(|o| &o.kind), Some(ExprKind::You))
                    }
                    _ => false,
                };
                if unseen && !out.iter().any(|(y, _)| y == z) {
                    out.push((*z, e.span));
                }
            }
            _ => {}
        }
        e.children(&mut |c| self.unseen_zones(c, out));
    }
}
