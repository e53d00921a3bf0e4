//! Checks stage: strategies (`strategy NAME { prefer ... otherwise AGENT }`) and rule sets (`rules NAME
//! { prefer ... }`): every action name, parameter count, condition, ranking and fallback agent is
//! resolved once; `use NAME` splices a rule set's rules in (unknown names, strategies and cycles are
//! errors); each is lowered to a [`StrategyDef`] or a [`RuleSetDef`] holding its spliced rules.

use super::decls::lower_type;
use super::scope::{BodyKind, Ctx};
use super::{Compiler, Sym};
use crate::diag::{did_you_mean, Diagnostic};
use crate::program::{
    Builtin, Expr, ExprKind, RuleSetDef, StrategyDef, StrategyRule, StrategyTarget, Ty, Visibility,
    ZoneId,
};
use cardgame_grammar::ast::{self, Span};
use std::collections::{HashMap, HashSet};

/// The agents a strategy may fall back to (a strategy never falls back to another strategy).
pub(crate) const FALLBACK_AGENTS: &[&str] = &["random", "first", "greedy", "mcts", "ismcts"];

/// The most rules a strategy or a rule set may hold once its `use`s are spliced in (rule sets that
/// each use the next twice would otherwise double at every step).
pub(crate) const MAX_SPLICED_RULES: usize = 10_000;

/// The most rules the strategies and rule sets of a script may hold in all, spliced (each copy of a
/// rule set's rules counts).
pub(crate) const MAX_RULES_IN_ALL: usize = 100_000;

/// What a name of the strategies' name space names.
#[derive(Clone, Copy, PartialEq)]
enum Named {
    Strategy,
    /// A rule set: its index among the script's rule sets.
    RuleSet(usize),
}

/// A line of a strategy or a rule set once checked: a rule, or the rule set a `use` splices in
/// (its index) with the span of the `use`.
enum Piece {
    Rule(StrategyRule),
    Use(usize, Span),
}

impl Compiler<'_> {
    /// Lowers every strategy and rule set of the script, after every action (their parameter types
    /// are known). Strategies and rule sets share one name space.
    pub(crate) fn lower_strategies(&mut self, script: &ast::Script) {
        let mut names: HashMap<String, (Named, Span)> = HashMap::new();
        let mut strategies: Vec<&ast::StrategyDecl> = Vec::new();
        let mut sets: Vec<&ast::RuleSetDecl> = Vec::new();
        for item in &script.items {
            let (name, named) = match item {
                ast::Item::Strategy(s) => (&s.name, Named::Strategy),
                ast::Item::Rules(r) => (&r.name, Named::RuleSet(sets.len())),
                _ => continue,
            };
            if let Some((first_named, first)) = names.get(&name.name) {
                let message = match (first_named, named) {
                    (Named::Strategy, Named::Strategy) => {
                        format!("two strategies are named `{}`", name.name)
                    }
                    (Named::RuleSet(_), Named::RuleSet(_)) => {
                        format!("two rule sets are named `{}`", name.name)
                    }
                    _ => format!("a strategy and a rule set are both named `{}`", name.name),
                };
                self.error(
                    Diagnostic::error("E101", name.span, message)
                        .label("declared again here")
                        .related(*first, "first declared here")
                        .help(
                            "every strategy and rule set of a script has its own name: rename one \
                             of them",
                        ),
                );
                continue;
            }
            names.insert(name.name.clone(), (named, name.span));
            match item {
                ast::Item::Strategy(s) => strategies.push(s),
                ast::Item::Rules(r) => sets.push(r),
                _ => {}
            }
        }
        // The rule sets first: a strategy splices in their rules once they are whole.
        let mut pieces = Vec::with_capacity(sets.len());
        for r in &sets {
            if let Some(span) = r.otherwise {
                self.error(
                    Diagnostic::error(
                        "E501",
                        span,
                        format!("the rule set `{}` has no `otherwise`: it is not a player", r.name.name),
                    )
                    .label("a fallback agent in a rule set")
                    .help(
                        "remove this line: a strategy that `use`s the rule set keeps its own \
                         `otherwise`; to play the rules, write `strategy NAME { use RULES  otherwise \
                         AGENT }`",
                    ),
                );
            }
            pieces.push(self.pieces(&r.rules, &names, &sets));
        }
        let (cut, order) = self.use_cycles(&sets, &pieces);
        let strategy_pieces: Vec<Vec<Piece>> = strategies
            .iter()
            .map(|s| self.pieces(&s.rules, &names, &sets))
            .collect();
        // How many rules each will hold, counted before anything is copied: too many is an E504,
        // and then (as after a cycle) nothing is spliced.
        let mut sizes = vec![0usize; sets.len()];
        let mut over = vec![false; sets.len()];
        let mut fits = cut.is_empty();
        for &set in &order {
            let (size, used_over) = count_rules(&pieces[set], Some(set), &sizes, &over, &cut);
            sizes[set] = size;
            over[set] = size > MAX_SPLICED_RULES;
            if over[set] && !used_over {
                self.too_many_rules(&sets[set].name, MAX_SPLICED_RULES, "");
            }
            fits &= !over[set];
        }
        let mut in_all = sizes.iter().fold(0usize, |a, b| a.saturating_add(*b));
        for (s, own) in strategies.iter().zip(&strategy_pieces) {
            let (size, used_over) = count_rules(own, None, &sizes, &over, &cut);
            if size > MAX_SPLICED_RULES && !used_over {
                self.too_many_rules(&s.name, MAX_SPLICED_RULES, "");
            }
            fits &= size <= MAX_SPLICED_RULES;
            in_all = in_all.saturating_add(size);
            if fits && in_all > MAX_RULES_IN_ALL {
                self.too_many_rules(
                    &s.name,
                    MAX_RULES_IN_ALL,
                    " in all, with the script's other strategies and rule sets",
                );
                fits = false;
            }
        }
        if fits && in_all > MAX_RULES_IN_ALL {
            if let Some(r) = sets.last() {
                self.too_many_rules(
                    &r.name,
                    MAX_RULES_IN_ALL,
                    " in all, with the script's other strategies and rule sets",
                );
            }
            fits = false;
        }
        // Splice: each rule set once its own `use`s are whole (`order`), then the strategies.
        let mut spliced: Vec<Vec<StrategyRule>> = vec![Vec::new(); sets.len()];
        if fits {
            for &set in &order {
                spliced[set] = splice(&pieces[set], &spliced);
            }
        }
        for (s, own) in strategies.into_iter().zip(&strategy_pieces) {
            let description = self.description(s.description.as_ref(), "strategy");
            let rules = if fits {
                splice(own, &spliced)
            } else {
                Vec::new()
            };
            let fallback = match &s.otherwise {
                None => "random".to_string(),
                Some((agent, count, span)) => self.fallback(agent, *count, *span),
            };
            self.p.strategies.push(StrategyDef {
                name: s.name.name.clone(),
                description,
                rules,
                fallback,
                span: s.span,
            });
        }
        for (r, rules) in sets.iter().zip(spliced) {
            let description = self.description(r.description.as_ref(), "rule set");
            self.p.rule_sets.push(RuleSetDef {
                name: r.name.name.clone(),
                description,
                rules,
                span: r.span,
            });
        }
    }

    /// E504: `name` would hold more than `limit` rules once its `use`s are spliced in.
    fn too_many_rules(&mut self, name: &ast::Ident, limit: usize, in_all: &str) {
        self.error(
            Diagnostic::error(
                "E504",
                name.span,
                format!(
                    "`{}` holds more than {limit} rules{in_all} once the `use`s are spliced in",
                    name.name
                ),
            )
            .label("too many rules")
            .help("a rule set brings all its rules wherever it is used: use each one once"),
        );
    }

    /// A strategy's or rule set's description: plain text.
    fn description(&mut self, text: Option<&ast::Text>, what: &str) -> String {
        match text {
            Some(t) => match t.plain() {
                Some(d) => d,
                None => {
                    self.error(
                        Diagnostic::error(
                            "E201",
                            t.span,
                            format!("a {what}'s description is plain text, without `{{...}}`"),
                        )
                        .label("interpolated text")
                        .help("write the description without `{...}`"),
                    );
                    String::new()
                }
            },
            None => String::new(),
        }
    }

    /// The lines of a strategy or rule set, checked: each rule lowered once, each `use` resolved
    /// to a rule set (E102 for an unknown name, E502 for a strategy).
    fn pieces(
        &mut self,
        items: &[ast::RuleItem],
        names: &HashMap<String, (Named, Span)>,
        sets: &[&ast::RuleSetDecl],
    ) -> Vec<Piece> {
        let mut out = Vec::new();
        for item in items {
            match item {
                ast::RuleItem::Prefer(r) => {
                    if let Some(rule) = self.lower_rule(r) {
                        out.push(Piece::Rule(rule));
                    }
                }
                ast::RuleItem::Use { name, span } => match names.get(&name.name) {
                    Some((Named::RuleSet(i), _)) => out.push(Piece::Use(*i, *span)),
                    Some((Named::Strategy, declared)) => self.error(
                        Diagnostic::error(
                            "E502",
                            name.span,
                            format!("`{}` is a strategy, not a rule set", name.name),
                        )
                        .label("a strategy")
                        .related(*declared, "declared as a strategy here")
                        .help(format!(
                            "`use` splices in the rules of a rule set; to share rules between \
                             strategies, write them once as `rules NAME {{ ... }}` and `use NAME` in \
                             each (or make `{}` a rule set if it is not meant to play)",
                            name.name
                        )),
                    ),
                    None => {
                        let help = did_you_mean(&name.name, sets.iter().map(|r| r.name.name.as_str()))
                            .unwrap_or_else(|| {
                                "declare it with `rules NAME { prefer ... }`".to_string()
                            });
                        self.error(
                            Diagnostic::error(
                                "E102",
                                name.span,
                                format!("no rule set is named `{}`", name.name),
                            )
                            .label("unknown rule set")
                            .help(help),
                        );
                    }
                },
            }
        }
        out
    }

    /// The `use`s that close a cycle (E503), as (rule set, line), and the rule sets in an order
    /// where each comes after every rule set it uses (but those of its cut `use`s). The `use`s are
    /// followed depth first with an explicit stack: no recursion, whatever the input.
    fn use_cycles(
        &mut self,
        sets: &[&ast::RuleSetDecl],
        pieces: &[Vec<Piece>],
    ) -> (HashSet<(usize, usize)>, Vec<usize>) {
        #[derive(Clone, Copy, PartialEq)]
        enum Seen {
            New,
            Open,
            Done,
        }
        let n = pieces.len();
        let mut seen = vec![Seen::New; n];
        let mut order = Vec::with_capacity(n);
        let mut cut: HashSet<(usize, usize)> = HashSet::new();
        for root in 0..n {
            if seen[root] != Seen::New {
                continue;
            }
            seen[root] = Seen::Open;
            // (rule set, its next line to look at)
            let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
            while let Some(&(set, line)) = stack.last() {
                let Some(piece) = pieces[set].get(line) else {
                    stack.pop();
                    seen[set] = Seen::Done;
                    order.push(set);
                    continue;
                };
                if let Some(top) = stack.last_mut() {
                    top.1 += 1;
                }
                let Piece::Use(used, span) = piece else {
                    continue;
                };
                match seen[*used] {
                    Seen::New => {
                        seen[*used] = Seen::Open;
                        stack.push((*used, 0));
                    }
                    Seen::Open => {
                        cut.insert((set, line));
                        let from = stack.iter().position(|(s, _)| s == used).unwrap_or(0);
                        let mut cycle: Vec<String> = stack[from..]
                            .iter()
                            .map(|(s, _)| format!("`{}`", sets[*s].name.name))
                            .collect();
                        cycle.push(format!("`{}`", sets[*used].name.name));
                        let message = if cycle.len() == 2 {
                            format!("the rule set {} uses itself", cycle[0])
                        } else {
                            format!(
                                "rule sets use each other in a cycle: {}",
                                cycle.join(" uses ")
                            )
                        };
                        self.error(
                            Diagnostic::error("E503", *span, message)
                                .label("this `use` closes the cycle")
                                .related(sets[*used].name.span, "the rule set used again")
                                .help(
                                    "a rule set cannot hold its own rules: remove one `use` of \
                                     the cycle",
                                ),
                        );
                    }
                    Seen::Done => {}
                }
            }
        }
        (cut, order)
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
        cx.copies_binders = false;
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
                Visibility::Others => format!(
                    "the cards of its own `{}`, a zone seen by everyone but its owner",
                    zone.name
                ),
                Visibility::Owner | Visibility::Public => {
                    format!("the cards of another player's `{}`", zone.name)
                }
            };
            self.diags.push(
                Diagnostic::warning(
                    "W002",
                    span,
                    format!("this strategy reads {what}, which its player may not see"),
                )
                .label("hidden from the deciding player")
                .help(if zone.visibility == Visibility::Others {
                    "a strategy that reads its own cards in an `others` zone cheats: read the other players' (`q.ZONE` for `q` in `opponents(you)`), public zones, or counts (`count(you.ZONE)`)"
                } else {
                    "a strategy that reads hidden cards cheats: read your own cards (`you.ZONE`), public zones, or counts (`count(ZONE)`)"
                }),
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
                    Some(Visibility::Others) => {
                        matches!(owner.as_deref().map(|o| &o.kind), Some(ExprKind::You))
                    }
                    Some(Visibility::Public) | None => false,
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

/// How many rules `pieces` (the lines of rule set `set`, or of a strategy) hold with their `use`s
/// spliced in (`sizes`: the rule sets' counts, saturating), and whether one of the rule sets they use
/// is already `over` the limit. The `use`s in `cut` count nothing.
fn count_rules(
    pieces: &[Piece],
    set: Option<usize>,
    sizes: &[usize],
    over: &[bool],
    cut: &HashSet<(usize, usize)>,
) -> (usize, bool) {
    let mut size = 0usize;
    let mut used_over = false;
    for (line, piece) in pieces.iter().enumerate() {
        match piece {
            Piece::Rule(_) => size = size.saturating_add(1),
            Piece::Use(_, _) if set.is_some_and(|s| cut.contains(&(s, line))) => {}
            Piece::Use(used, _) => {
                size = size.saturating_add(sizes.get(*used).copied().unwrap_or(0));
                used_over |= over.get(*used).copied().unwrap_or(false);
            }
        }
    }
    (size, used_over)
}

/// The rules of `pieces` with the rule sets they use spliced in from `spliced` (called only when
/// there is no cycle and every count is within the limits).
fn splice(pieces: &[Piece], spliced: &[Vec<StrategyRule>]) -> Vec<StrategyRule> {
    let mut rules = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Rule(r) => rules.push(r.clone()),
            Piece::Use(used, _) => {
                rules.extend(spliced.get(*used).into_iter().flatten().cloned());
            }
        }
    }
    rules
}
