//! Lowering stage output: the index-based executable form of a checked script (ids, not names).
//!
//! The checker resolves every name once and produces a [`Program`]; the engine runs it without any
//! string look-up. Every expression and statement keeps its source span for runtime diagnostics.

use crate::value::Value;
use cardgame_grammar::ast::{Scope, Span};

macro_rules! id_type {
    ($($name:ident),*) => {$(
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u16);
        impl $name {
            pub fn index(self) -> usize { self.0 as usize }
        }
    )*};
}

id_type!(
    KindId, TagId, GroupId, PropId, VarId, ZoneId, EventId, FnId, ProcId, ActionId, AbilityId,
    OptionId, ColumnId, BlockId
);

/// A local variable slot in the current frame (parameters first, then every binder of the body).
pub type Slot = u16;

/// The static type of a value, as the checker sees it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Int,
    Bool,
    Text,
    Player,
    Card,
    Kind,
    Tag,
    Space,
    Zone,
    List(Box<Ty>),
    /// The type of `none` and `[]`: fits any type.
    Any,
}

impl std::fmt::Display for Ty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ty::Int => write!(f, "int"),
            Ty::Bool => write!(f, "bool"),
            Ty::Text => write!(f, "text"),
            Ty::Player => write!(f, "player"),
            Ty::Card => write!(f, "card"),
            Ty::Kind => write!(f, "kind"),
            Ty::Tag => write!(f, "tag"),
            Ty::Space => write!(f, "space"),
            Ty::Zone => write!(f, "zone"),
            // `[]` and `none` have no type yet: say so in words, never "a list of any".
            Ty::List(t) if **t == Ty::Any => write!(f, "list"),
            Ty::List(t) => write!(f, "list of {t}"),
            Ty::Any => write!(f, "value of a type not known yet"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Program {
    pub name: String,
    pub min_players: u8,
    pub max_players: u8,
    pub options: Vec<OptionDef>,
    /// `teams by VAR`: the per-player variable whose value is each player's team.
    pub teams: Option<VarId>,
    /// Table columns: constants that depend on the player count.
    pub columns: Vec<ColumnDef>,
    pub groups: Vec<GroupDef>,
    pub tags: Vec<TagDef>,
    pub props: Vec<PropDef>,
    pub kinds: Vec<KindDef>,
    pub abilities: Vec<String>,
    pub vars: Vec<VarDef>,
    pub zones: Vec<ZoneDef>,
    pub spaces: Option<SpacesDef>,
    pub events: Vec<EventDef>,
    pub fns: Vec<FnDef>,
    pub procs: Vec<ProcDef>,
    pub actions: Vec<ActionDef>,
    /// Global triggers, in the order written.
    pub triggers: Vec<TriggerDef>,
    pub setup: Option<Body>,
    pub flow: Option<Body>,
    pub checks: Vec<Body>,
    pub tests: Vec<TestDef>,
    /// Fixed policies for the bots (`strategy NAME { ... }`), in the order written.
    pub strategies: Vec<StrategyDef>,
    /// Rule sets (`rules NAME { ... }`), in the order written: ordered rules that strategies splice
    /// in with `use NAME` and that `ismcts`'s `strict=NAME` follows; not players.
    pub rule_sets: Vec<RuleSetDef>,
    /// Statistics the script records (`stat NAME`), in the order declared.
    pub stats: Vec<StatDef>,
    /// Players that are not seats (`participant NAME "Name"`), in the order declared: in a game of
    /// N seats, participant i is player N + i.
    pub participants: Vec<ParticipantDef>,
    pub blocks: Vec<Block>,
    /// Byte offsets where each source line starts, to turn spans into line numbers.
    pub line_starts: Vec<usize>,
    /// The card sheets the script reads (`cards from`): where each one's text lies in the text the
    /// spans count in (the script's, then each sheet's), so that an error in a cell names its file.
    pub sheets: Vec<SheetPlace>,
    /// The `game` header: the place named by a runtime error that no single line of the script caused
    /// (a player count or an option value the script does not allow).
    pub header: Span,
    /// The built-in events.
    pub turn_start: EventId,
    pub turn_end: EventId,
    /// The built-in shared zone that holds every card before setup.
    pub box_zone: ZoneId,
    /// One flag per function: whether it is pure (see `purity`); empty until lowering ends.
    pub pure_fns: Vec<bool>,
    /// One flag per `check`: whether it is made only of `if`s without `else` whose conditions are
    /// pure, so that the engine may test the conditions first and skip the check when none holds.
    pub guarded_checks: Vec<bool>,
    /// The typed closures of the menus and guarded checks (engine/closures), built when lowering
    /// ends; read only by games on `Engine::Closures`.
    pub(crate) closures: Option<std::sync::Arc<crate::engine::closures::Closures>>,
}

/// Where a card sheet's text lies among the sources the spans count in.
#[derive(Clone, Debug, PartialEq)]
pub struct SheetPlace {
    /// The path as the script writes it.
    pub path: String,
    pub start: usize,
    pub end: usize,
}

impl Program {
    /// The file of a byte offset (`None`: the script; else a card sheet's path) and its 1-based line
    /// in that file.
    pub fn place_of(&self, offset: usize) -> (Option<&str>, usize) {
        for s in &self.sheets {
            if offset >= s.start && offset <= s.end {
                let line = self.line_of(offset) + 1 - self.line_of(s.start);
                return (Some(&s.path), line);
            }
        }
        (None, self.line_of(offset))
    }

    /// 1-based line of a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }
    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.index()]
    }
}

#[derive(Clone, Debug)]
pub struct OptionDef {
    pub name: String,
    pub kind: OptionKind,
    pub default: Value,
    pub description: String,
    /// For a `one of` option, the player counts (smallest, largest) each value is for, in the order
    /// of the values; empty for a value allowed with every count of the game.
    pub value_players: Vec<Vec<(u8, u8)>>,
}

#[derive(Clone, Debug)]
pub enum OptionKind {
    Bool,
    Int {
        min: i64,
        max: i64,
    },
    /// The value is `Value::Int(index)` into the list of names.
    OneOf(Vec<String>),
}

#[derive(Clone, Debug)]
pub struct ColumnDef {
    pub name: String,
    /// (player count, value) for every row.
    pub rows: Vec<(u8, Expr)>,
}

#[derive(Clone, Debug)]
pub struct GroupDef {
    pub name: String,
    pub tags: Vec<TagId>,
}

#[derive(Clone, Debug)]
pub struct TagDef {
    pub name: String,
    pub group: GroupId,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropType {
    Int,
    Bool,
    Kinds,
}

impl PropType {
    /// The type of a value of this property.
    pub fn ty(self) -> Ty {
        match self {
            PropType::Int => Ty::Int,
            PropType::Bool => Ty::Bool,
            PropType::Kinds => Ty::List(Box::new(Ty::Kind)),
        }
    }
}

#[derive(Clone, Debug)]
pub struct PropDef {
    pub name: String,
    pub ty: PropType,
    pub default: Expr,
}

/// The most copies one card definition may have.
pub const MAX_COPIES: i64 = 100_000;
/// The most cards a game may have.
pub const MAX_CARDS: u64 = 1_000_000;

/// A card definition.
#[derive(Clone, Debug)]
pub struct KindDef {
    pub name: String,
    /// Sorted, no duplicates.
    pub tags: Vec<TagId>,
    pub copies: Expr,
    /// One entry per property of the program: the card's own value, or `None` for the default.
    pub props: Vec<Option<Expr>>,
    pub text: String,
    /// One entry per ability of the program.
    pub abilities: Vec<Option<Body>>,
    /// Triggers printed on the card.
    pub triggers: Vec<TriggerDef>,
    pub span: Span,
}

impl Program {
    /// Why a game with `players` and these option values cannot be played, if it cannot: an option
    /// set (or left at its default) to a value declared for other player counts (`teams (players 4,
    /// 6)`). Options not given take their defaults.
    pub fn unsupported(&self, players: u8, options: &[(OptionId, Value)]) -> Option<String> {
        for (i, def) in self.options.iter().enumerate() {
            let value = options
                .iter()
                .rev()
                .find(|(id, _)| id.index() == i)
                .map_or(&def.default, |(_, v)| v);
            let (OptionKind::OneOf(names), Value::Int(at)) = (&def.kind, value) else {
                continue;
            };
            let Some(counts) = def.value_players.get(*at as usize) else {
                continue;
            };
            if counts.is_empty() || counts.iter().any(|&(a, b)| (a..=b).contains(&players)) {
                continue;
            }
            let list: Vec<String> = counts
                .iter()
                .map(|&(a, b)| {
                    if a == b {
                        a.to_string()
                    } else {
                        format!("{a} to {b}")
                    }
                })
                .collect();
            return Some(format!(
                "option `{} = {}` is for {} players, not {players}",
                def.name,
                names.get(*at as usize).map_or("?", |s| s.as_str()),
                list.join(" or ")
            ));
        }
        None
    }
}

/// `participant NAME "Name"`: a player that is not a seat.
#[derive(Clone, Debug)]
pub struct ParticipantDef {
    /// The name the script uses (`automaton`).
    pub name: String,
    /// The name shown in labels, traces, views and reports (`the Automated Opponent`).
    pub display: String,
    pub span: Span,
}

/// `stat NAME ["description"]`: a figure that `stat` statements record during a game.
#[derive(Clone, Debug)]
pub struct StatDef {
    pub name: String,
    pub description: String,
    /// Recorded with `+=`/`-=`: one value per game, the sum of what was added (0 when nothing
    /// was). Otherwise (`=`) every statement run records one value, with the turn it was run in.
    pub counter: bool,
    /// `stat NAME[TYPE]`: the type of its key; the figures are kept per key.
    pub key: Option<Ty>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct VarDef {
    pub name: String,
    pub scope: Scope,
    /// `per player private`: only the owner's view shows it.
    pub private: bool,
    /// `shown`: the terminal's `play` shows it at every decision (others only when they change).
    pub shown: bool,
    pub ty: Ty,
    pub init: Expr,
    pub min: Option<Expr>,
    pub max: Option<Expr>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    Public,
    /// Seen by the zone's owner only.
    Owner,
    /// Seen by every player but the zone's owner.
    Others,
    Hidden,
}

#[derive(Clone, Debug)]
pub struct ZoneDef {
    pub name: String,
    pub scope: Scope,
    pub ordered: bool,
    pub visibility: Visibility,
    /// Same scope as this zone (or shared): the zone whose cards are shuffled beneath this one.
    pub refill: Option<ZoneId>,
    pub max: Option<Expr>,
    /// `shown by P then Q`: the properties and tag groups that order the zone's cards in views
    /// (display only).
    pub shown_by: Vec<ShownBy>,
}

/// What orders a zone's cards in views: a property's value, or a tag group's tag in the order the
/// group declares them (`shown by suit then rank`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShownBy {
    Prop(PropId),
    Group(GroupId),
}

/// The most spaces a side of a board may have (`grid W by H`).
pub const MAX_BOARD_SIDE: i64 = 1000;
/// The most spaces a board may have in all.
pub const MAX_BOARD_SPACES: i64 = 60_000;

#[derive(Clone, Debug)]
pub struct SpacesDef {
    pub name: String,
    pub width: Expr,
    pub height: Expr,
    pub diagonal: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct EventDef {
    pub name: String,
    pub params: Vec<Ty>,
}

/// A body that runs in its own frame: the number of local slots it needs.
#[derive(Clone, Copy, Debug)]
pub struct Body {
    pub block: BlockId,
    pub slots: u16,
}

#[derive(Clone, Debug)]
pub struct FnDef {
    pub name: String,
    pub params: Vec<Ty>,
    pub ret: Ty,
    pub body: Expr,
    pub slots: u16,
}

#[derive(Clone, Debug)]
pub struct ProcDef {
    pub name: String,
    /// Parameters occupy slots 0..params.len().
    pub params: Vec<Ty>,
    /// The type of the value `return E` gives (`proc NAME(...): TYPE`), when it has one.
    pub ret: Option<Ty>,
    pub body: Body,
}

#[derive(Clone, Debug)]
pub struct ActionDef {
    pub name: String,
    /// Parameter i is in slot i; its domain may read earlier parameters and `you`.
    pub params: Vec<Expr>,
    pub label: Option<TextIr>,
    pub condition: Option<Expr>,
    /// The condition split into its conjuncts, for listing menus (see [`ConditionPart`]); empty
    /// until lowering ends, and then the engine evaluates `condition` whole.
    pub parts: Vec<ConditionPart>,
    /// Per parameter: whether two identical cards there list the same options, so the engine tries
    /// one of them (interchangeable.rs); empty until lowering ends, and then every card is tried.
    pub interchangeable: Vec<bool>,
    pub body: Body,
}

/// One conjunct of an action's condition (`a and b and c`), in the order written (docs/engine.md
/// at fe8b0bc, stage 1). While a menu is listed, a pure conjunct that reads only the first `level`
/// parameters has the same value for every choice of the later ones: the engine evaluates it once
/// per choice of those, and when it is false and `skip` holds, stops listing the later parameters.
#[derive(Clone, Debug)]
pub struct ConditionPart {
    pub expr: Expr,
    /// The number of leading parameters this conjunct and every conjunct before it read.
    pub level: u16,
    /// Pure: its value may be remembered while the menu is listed.
    pub pure: bool,
    /// When false, the later parameters may be skipped: the domains skipped are pure and read only
    /// the first `level` parameters, so they were evaluated once already with the same value.
    pub skip: bool,
}

#[derive(Clone, Debug)]
pub struct TriggerDef {
    pub event: EventId,
    /// Event arguments are bound to slots 0..n.
    pub condition: Option<Expr>,
    /// For card triggers: the zone family in which the card must lie.
    pub zone: Option<ZoneId>,
    pub body: Body,
    pub span: Span,
}

/// A strategy: ordered rules that pick among the options of a decision, and the agent that decides
/// when no rule applies.
#[derive(Clone, Debug)]
pub struct StrategyDef {
    pub name: String,
    pub description: String,
    pub rules: Vec<StrategyRule>,
    /// The fallback agent as `--agents` writes it (`random`, `first`, `greedy`, `mcts:N`).
    pub fallback: String,
    pub span: Span,
}

/// A rule set: ordered rules like a strategy's, with no fallback: not a player. Its `use`s are
/// spliced in (`rules` holds every rule in the order they are tried).
#[derive(Clone, Debug)]
pub struct RuleSetDef {
    pub name: String,
    pub description: String,
    pub rules: Vec<StrategyRule>,
    pub span: Span,
}

/// `prefer TARGET [if C] [by E]`: conditions read the bound values in slots 0.. and `you` (the
/// decider); `slots` locals in all.
#[derive(Clone, Debug)]
pub struct StrategyRule {
    pub target: StrategyTarget,
    pub condition: Option<Expr>,
    pub by: Option<Expr>,
    pub slots: u16,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StrategyTarget {
    /// The `pass` of a menu, or the `done` of a multiple choice.
    Pass,
    /// An option of a `choose` (one or several, or simultaneous) whose value has type `ty`
    /// (bound to slot 0), when the prompt starts with `prompt`.
    Choose { ty: Ty, prompt: Option<String> },
    /// A menu option of this action, its arguments bound to slots 0..n.
    Action(ActionId),
    /// A branch of `choose { "text" { } ... }` whose text starts with this one.
    Branch(String),
}

#[derive(Clone, Debug)]
pub struct TestDef {
    pub name: String,
    pub players: u8,
    pub seed: u64,
    /// Option values set by the test.
    pub options: Vec<(OptionId, Value)>,
    /// Test names for seats 1, 2, ...
    pub names: Vec<String>,
    pub given: Option<Body>,
    pub start: Option<(ProcId, Vec<Expr>)>,
    pub steps: Vec<TestStep>,
    /// The slot of `options` in the test's expressions (the labels of the pending decision), when
    /// the script declares no name `options` of its own.
    pub options_slot: Option<u16>,
    /// The statistics its steps read (`stat NAME`), each with the slot that holds what it recorded
    /// so far.
    pub stat_reads: Vec<(u16, u16)>,
    /// The statistics with a key its steps read (`stat NAME[K]`): the statistic, K, and the slot
    /// that holds what it recorded so far for K.
    pub stat_key_reads: Vec<(u16, Expr, u16)>,
    /// Slots used by the expressions and blocks of the test.
    pub slots: u16,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct TestStep {
    pub kind: TestStepKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TestStepKind {
    Choose(String),
    Expect(Expr),
    OptionsHas(String),
    OptionsLacks(String),
    Decider(Expr),
    Winners(Expr),
    Over,
    NotOver,
    Log(String),
    /// `expect strategy NAME picks "label"`: the name of a strategy or a rule set (checked to exist)
    /// and the label of the option its rules must pick.
    StrategyPicks {
        name: String,
        label: String,
    },
    Do(BlockId),
}

mod body;
pub use body::*;
