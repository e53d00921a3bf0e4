//! Grammar stage: the syntax tree of strategies and rule sets (`strategy`, `rules`, `prefer`, `use`).

use super::*;

/// `strategy NAME ["description"] { prefer ... otherwise AGENT }`: a fixed policy for the bots.
#[derive(Clone, Debug, PartialEq)]
pub struct StrategyDecl {
    pub name: Ident,
    pub description: Option<Text>,
    /// Its rules and `use`s, in order.
    pub rules: Vec<RuleItem>,
    /// `otherwise NAME[:N]`: the agent's name, its count, and the span of the whole clause.
    pub otherwise: Option<(Ident, Option<i64>, Span)>,
    pub span: Span,
}

/// `rules NAME ["description"] { prefer ... use ... }`: a rule set, ordered rules that strategies
/// splice in with `use NAME` and `ismcts`'s `strict=NAME` follows. It is not a player: it has no
/// fallback (an `otherwise` is kept here only for the checker to refuse it).
#[derive(Clone, Debug, PartialEq)]
pub struct RuleSetDecl {
    pub name: Ident,
    pub description: Option<Text>,
    /// Its rules and `use`s, in order.
    pub rules: Vec<RuleItem>,
    /// An `otherwise NAME[:N]` written in a rule set (an error): the span of the whole clause.
    pub otherwise: Option<Span>,
    pub span: Span,
}

/// One line of a strategy or a rule set.
#[derive(Clone, Debug, PartialEq)]
pub enum RuleItem {
    /// `prefer TARGET [if C] [by E]`
    Prefer(Box<StrategyRule>),
    /// `use NAME`: the rules of the rule set NAME, in order, at this point.
    Use { name: Ident, span: Span },
}

impl RuleItem {
    /// The rule, when this line is one (not a `use`).
    pub fn rule(&self) -> Option<&StrategyRule> {
        match self {
            RuleItem::Prefer(r) => Some(r.as_ref()),
            RuleItem::Use { .. } => None,
        }
    }
}

/// `prefer TARGET [if C] [by E]`
#[derive(Clone, Debug, PartialEq)]
pub struct StrategyRule {
    pub target: StrategyTarget,
    pub condition: Option<Expr>,
    pub by: Option<Expr>,
    pub span: Span,
}

/// What a strategy rule picks.
#[derive(Clone, Debug, PartialEq)]
pub enum StrategyTarget {
    /// `pass`: the `pass` of a menu or the `done` of a multiple choice.
    Pass(Span),
    /// `choose "text"`: a branch whose text starts with this one.
    Branch(Text),
    /// `choose x[: TYPE] [in "prompt"]`
    Choose {
        binder: Ident,
        ty: Option<TypeExpr>,
        prompt: Option<Text>,
    },
    /// `ACTION(a, b)`: the action and the names bound to its parameters.
    Action { action: Ident, params: Vec<Ident> },
}
