//! Grammar stage: the typed syntax tree of a `.cardgame` script, every node with its source span.

use std::fmt;

mod strategy;
pub use strategy::*;

/// A byte range in the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    pub fn len(&self) -> usize {
        self.end - self.start
    }
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> Self {
        (s.start, s.len()).into()
    }
}

/// A name as written, with where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

impl fmt::Display for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// A text literal, possibly with `{expr}` interpolations.
#[derive(Clone, Debug, PartialEq)]
pub struct Text {
    pub parts: Vec<TextPart>,
    pub span: Span,
}

/// Why a `win` ends the game: a written text, or any expression whose value is a text.
#[derive(Clone, Debug, PartialEq)]
pub enum WinReason {
    Text(Text),
    Expr(Expr),
}

impl Text {
    /// The text when it has no interpolation (card names, labels).
    pub fn plain(&self) -> Option<String> {
        let mut s = String::new();
        for p in &self.parts {
            match p {
                TextPart::Lit(l) => s.push_str(l),
                TextPart::Expr(_) => return None,
            }
        }
        Some(s)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum TextPart {
    Lit(String),
    Expr(Expr),
}

/// A whole script.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Script {
    pub items: Vec<Item>,
    /// The names declared by items that could not be parsed at all (a card's name without its
    /// quotes): the checker knows them, so that their uses are not reported as unknown again.
    pub broken: Vec<Ident>,
    /// The names declared by items parsed only up to a syntax error (an event whose `(` is never
    /// closed is kept without its values): what they take is not known, so the checker does not
    /// count the values their uses give.
    pub cut_short: Vec<Ident>,
    /// Places the parser repaired by a guess (a `)` written before a block's `{`): their meaning is
    /// not the script's, so the checker reports nothing else there.
    pub guessed: Vec<Span>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Game(GameDecl),
    Table(TableDecl),
    Tags(TagsDecl),
    Property(PropertyDecl),
    Var(VarDecl),
    Zone(ZoneDecl),
    Spaces(SpacesDecl),
    Event(EventDecl),
    Abilities(AbilitiesDecl),
    Card(CardDecl),
    Fn(FnDecl),
    Proc(ProcDecl),
    Action(ActionDecl),
    Trigger(TriggerDecl),
    Setup(Block),
    Flow(Block),
    Check(Block),
    Test(TestDecl),
    Strategy(StrategyDecl),
    /// `rules NAME ["description"] { prefer ... use ... }`
    Rules(RuleSetDecl),
    Stat(StatDecl),
    Participant(ParticipantDecl),
    /// `cards from "FILE" { card "Name" { ... } }`
    CardsFrom(CardsFromDecl),
}

/// `cards from "cards.tsv" { card "Name" { ... } }`: a card sheet beside the script (read by
/// `interpreter::sheet`), and the items the script adds to its cards by name.
#[derive(Clone, Debug, PartialEq)]
pub struct CardsFromDecl {
    pub path: Text,
    /// The `card "Name" { ... }` blocks (never a family).
    pub cards: Vec<CardDecl>,
    pub span: Span,
}

/// `participant NAME "Display name"`: a player that is not a seat.
#[derive(Clone, Debug, PartialEq)]
pub struct ParticipantDecl {
    pub name: Ident,
    pub display: Text,
    pub span: Span,
}

/// `stat NAME ["description"]`: a statistic that `stat` statements record for `cardgame sim`.
#[derive(Clone, Debug, PartialEq)]
pub struct StatDecl {
    pub name: Ident,
    /// `stat NAME[TYPE]`: the type of its key, for a statistic recorded per key.
    pub key: Option<TypeExpr>,
    pub description: Option<Text>,
    pub span: Span,
}

/// `game "Name" { players 2..4  option ... }`
#[derive(Clone, Debug, PartialEq)]
pub struct GameDecl {
    pub name: Text,
    pub players: Option<PlayerRange>,
    pub options: Vec<OptionDecl>,
    /// `teams by VAR`: the per-player variable whose value is each player's team.
    pub teams: Option<Ident>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRange {
    pub min: i64,
    pub max: i64,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OptionDecl {
    pub name: Ident,
    pub kind: OptionKind,
    pub default: Expr,
    pub description: Option<Text>,
    /// For a `one of` option, the player counts each value is for (`teams (players 4, 6)`), in the
    /// order of the values; empty for a value allowed with every count.
    pub value_players: Vec<Vec<PlayerRange>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum OptionKind {
    Bool,
    /// `int A..B`
    Int {
        min: i64,
        max: i64,
    },
    /// `one of a, b, c`
    OneOf(Vec<Ident>),
}

/// `table by players { columns a, b  1: 3, 4 ... }`
#[derive(Clone, Debug, PartialEq)]
pub struct TableDecl {
    pub columns: Vec<Ident>,
    pub rows: Vec<TableRow>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TableRow {
    pub players: i64,
    pub values: Vec<Expr>,
    pub span: Span,
}

/// `tags faction: Knights, Demons`
#[derive(Clone, Debug, PartialEq)]
pub struct TagsDecl {
    pub group: Ident,
    pub tags: Vec<Ident>,
    pub span: Span,
}

/// `property cost: int = 0` or `property recipe: kinds`
#[derive(Clone, Debug, PartialEq)]
pub struct PropertyDecl {
    pub name: Ident,
    pub ty: PropertyType,
    pub default: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropertyType {
    Int,
    Bool,
    Kinds,
}

/// Where a declaration lives: shared, per player, per card or per space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Shared,
    PerPlayer,
    PerCard,
    PerSpace,
}

/// `var coins per player: int = 0 min 0 max 99`
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub name: Ident,
    pub scope: Scope,
    /// `private`: only its owner's view shows a per-player variable.
    pub private: bool,
    /// `shown`: `play` shows it at every decision (other variables only when they change).
    pub shown: bool,
    pub ty: TypeExpr,
    pub init: Expr,
    pub min: Option<Expr>,
    pub max: Option<Expr>,
    pub span: Span,
}

/// A written type: `int`, `list of card`, ...
#[derive(Clone, Debug, PartialEq)]
pub enum TypeExpr {
    Int(Span),
    Bool(Span),
    Text(Span),
    Player(Span),
    Card(Span),
    Kind(Span),
    Tag(Span),
    Space(Span),
    Zone(Span),
    List(Box<TypeExpr>, Span),
}

impl TypeExpr {
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Int(s)
            | TypeExpr::Bool(s)
            | TypeExpr::Text(s)
            | TypeExpr::Player(s)
            | TypeExpr::Card(s)
            | TypeExpr::Kind(s)
            | TypeExpr::Tag(s)
            | TypeExpr::Space(s)
            | TypeExpr::Zone(s)
            | TypeExpr::List(_, s) => *s,
        }
    }
}

/// `zone deck per player: pile, hidden, refill from discard, max 1`
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneDecl {
    pub name: Ident,
    pub scope: Scope,
    pub attrs: Vec<ZoneAttr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ZoneAttr {
    Pile(Span),
    Set(Span),
    Public(Span),
    Owner(Span),
    /// `others`: every player sees the cards but the zone's owner.
    Others(Span),
    Hidden(Span),
    RefillFrom(Ident),
    Max(Expr),
    /// `shown by P then Q`: views list the cards ordered by these properties.
    ShownBy(Vec<Ident>),
}

/// `spaces board: grid W by H [diagonal]`
#[derive(Clone, Debug, PartialEq)]
pub struct SpacesDecl {
    pub name: Ident,
    pub width: Expr,
    pub height: Expr,
    pub diagonal: bool,
    pub span: Span,
}

/// `event crafted(c: card, p: player)`
#[derive(Clone, Debug, PartialEq)]
pub struct EventDecl {
    pub name: Ident,
    pub params: Vec<Param>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: Ident,
    pub ty: TypeExpr,
    pub span: Span,
}

/// `abilities play, defense`
#[derive(Clone, Debug, PartialEq)]
pub struct AbilitiesDecl {
    pub names: Vec<Ident>,
    pub span: Span,
}

/// `card "Name" { ... }`
#[derive(Clone, Debug, PartialEq)]
pub struct CardDecl {
    pub name: Text,
    /// `for x in L, (a, b) in M`: a family of cards, one per combination (empty for one card).
    pub family: Vec<FamilyBinder>,
    pub items: Vec<CardItem>,
    pub span: Span,
}

/// `x in L` or `(a, b) in L` of a card family.
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyBinder {
    pub names: Vec<Ident>,
    /// Written `(a, b)`: each element of the list is a row with one value per name.
    pub row: bool,
    pub list: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CardItem {
    /// `is A, B`
    Is(Vec<Ident>, Span),
    /// `copies EXPR`
    Copies(Expr, Span),
    /// `text "..."`
    Text(Text, Span),
    /// `NAME EXPR` for a declared property; for a `kinds` property a list literal of card names.
    Property(Ident, Expr, Span),
    /// `ability NAME { ... }`
    Ability(Ident, Block, Span),
    /// `on EVENT(a, b) in ZONE [if COND] { ... }`
    Trigger(TriggerDecl),
}

/// `fn name(p: player): int = expr`
#[derive(Clone, Debug, PartialEq)]
pub struct FnDecl {
    pub name: Ident,
    pub params: Vec<Param>,
    pub ret: TypeExpr,
    /// The `let x = E` (`let x: T = E`) of a body written as a block, in order (empty for `= E`).
    pub lets: Vec<(Ident, Option<TypeExpr>, Expr)>,
    pub body: Expr,
    pub span: Span,
}

/// `proc name(p: player) { ... }`
#[derive(Clone, Debug, PartialEq)]
pub struct ProcDecl {
    pub name: Ident,
    pub params: Vec<Param>,
    /// The type of the value `return E` gives, when the procedure has one.
    pub ret: Option<TypeExpr>,
    pub body: Block,
    pub span: Span,
}

/// `action buy(c in market) label "Buy {c}" if cond { ... }`
#[derive(Clone, Debug, PartialEq)]
pub struct ActionDecl {
    pub name: Ident,
    pub params: Vec<ActionParam>,
    pub label: Option<Text>,
    pub condition: Option<Expr>,
    pub body: Block,
    pub span: Span,
}

/// `c in market`: a parameter and the list it is drawn from.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionParam {
    pub name: Ident,
    pub domain: Expr,
    pub span: Span,
}

/// `on EVENT(a, b) [in ZONE] [if COND] { ... }` (global, or inside a card)
#[derive(Clone, Debug, PartialEq)]
pub struct TriggerDecl {
    pub event: Ident,
    pub bindings: Vec<Ident>,
    pub zone: Option<Ident>,
    pub condition: Option<Expr>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    Top,
    Bottom,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    Up,
    Down,
}

#[derive(Clone, Debug, PartialEq)]
pub enum MenuMode {
    /// `until pass`
    UntilPass,
    /// `once`
    Once,
    /// `once or pass`
    OnceOrPass,
    /// `times N`
    Times(Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `let x = expr`, `let x: TYPE = expr`
    Let(Ident, Option<TypeExpr>, Expr),
    /// `let x = choose ...`
    LetChoose(Ident, Choose),
    /// `x = choose ...`
    AssignChoose(Expr, Choose),
    /// `target op expr`; target is a name or a field access
    Assign(Expr, AssignOp, Expr),
    /// `move E to Z [top|bottom] [face up|face down]`
    Move {
        what: Expr,
        to: Expr,
        position: Option<Position>,
        face: Option<Face>,
    },
    Shuffle(Expr),
    /// `pay E from T`
    Pay(Expr, Expr),
    Reveal(Expr),
    Hide(Expr),
    /// `show CARDS to PLAYER`
    Show(Expr, Expr),
    If {
        branches: Vec<(Expr, Block)>,
        otherwise: Option<Block>,
    },
    /// `for x in L [where C] { }`
    For {
        /// One name, or several (`for (a, b) in L`: each element of L is a list, taken apart).
        vars: Vec<Ident>,
        list: Expr,
        filter: Option<Expr>,
        body: Block,
    },
    While(Expr, Block),
    Repeat(Expr, Block),
    Loop(Block),
    Break,
    Require(Expr),
    Strict(Block),
    Stop,
    /// `return E`: leave a procedure with a result.
    Return(Expr),
    /// `perform A of C [as T] [by P]`
    Perform {
        ability: Ident,
        card: Expr,
        as_card: Option<Expr>,
        by: Option<Expr>,
    },
    /// `emit E(args)`
    Emit(Ident, Vec<Expr>),
    /// `name(args)` as a statement
    Call(Ident, Vec<Expr>),
    Turn(Expr, Block),
    Phase(Ident, Block),
    /// `round { }`: players out for the round are back when it ends.
    Round(Block),
    EndTurn,
    EndPhase,
    /// `end round`
    EndRound,
    /// `actions by P mode [a, b]`
    Actions {
        by: Expr,
        mode: MenuMode,
        actions: Vec<Ident>,
    },
    /// `choose [by P] [prompt T] { "label" [if C] { } ... }`
    ChooseBranch {
        by: Option<Expr>,
        prompt: Option<Text>,
        branches: Vec<Branch>,
    },
    /// `simultaneously q in L choose [count] x in D [where C] [prompt T] { body }`
    Simultaneously {
        player: Ident,
        players: Expr,
        /// How many each player chooses (`x` is then a list, but for `One`).
        count: ChooseCount,
        var: Ident,
        domain: Expr,
        filter: Option<Expr>,
        prompt: Option<Text>,
        body: Block,
    },
    Eliminate(Expr),
    /// `eliminate P for round`: out until the round ends.
    OutForRound(Expr),
    /// `win L "reason"` (or `win L E`, E a text)
    Win(Expr, WinReason),
    /// `win team E "reason"`: every player whose team (`teams by VAR`) is E.
    WinTeam(Expr, WinReason),
    Log(Text),
    /// `log "text" to P`: a line of P's private log.
    LogTo(Text, Expr),
    /// `stat NAME = E` (one value), `stat NAME += E` / `-= E` (a count per game)
    Stat(Ident, AssignOp, Expr),
    /// `stat NAME[K] = E`, `+= E`, `-= E`: the same for key K of a statistic declared with a key.
    StatAt(Ident, Expr, AssignOp, Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Branch {
    pub label: Text,
    pub condition: Option<Expr>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ChooseCount {
    /// `choose x in L`
    One,
    /// `choose N x in L`
    Exactly(Expr),
    /// `choose up to N x in L`
    UpTo(Expr),
    /// `choose any x in L`
    Any,
    /// `choose order x in L`: every element, in the order chosen.
    Order,
}

/// `choose [count] x in L [where C] [by P] [prompt T]`
#[derive(Clone, Debug, PartialEq)]
pub struct Choose {
    pub count: ChooseCount,
    pub var: Ident,
    pub domain: Expr,
    pub filter: Option<Expr>,
    pub by: Option<Expr>,
    pub prompt: Option<Text>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    /// `x in L`
    In,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}

/// The aggregate functions that take a binder: `count(x in L where C)`, `sum(E for x in L)`, ...
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aggregate {
    Count,
    Sum,
    Max,
    Min,
    Any,
    All,
    Filter,
    Sort,
    /// `[E for x in L where C]`: the values of E.
    Map,
    /// `flatten(E for x in L where C)`: the lists E joined.
    Flatten,
    /// `sort(E for x in L where C)`: the values of E, smallest first.
    SortValues,
    /// `take_while(x in L where C)`: the elements before the first for which C is false.
    TakeWhile,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    Text(Text),
    None,
    /// `[a, b]`
    List(Vec<Expr>),
    /// `A..B`
    Range(Box<Expr>, Box<Expr>),
    Name(Ident),
    /// `stat NAME` (in a rules test): what the statistic recorded so far.
    StatRead(Ident),
    /// `e.field`
    Field(Box<Expr>, Ident),
    /// `L[i]`: the i-th element, counted from 1.
    Index(Box<Expr>, Box<Expr>),
    /// `f(args)`
    Call(Ident, Vec<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `e is [not] Tag` or `e is [not] "Kind"`: the target is a `Name` or a `Text` expression.
    Is {
        expr: Box<Expr>,
        negated: bool,
        target: Box<Expr>,
    },
    /// `e has ability A`: whether the card prints the ability A.
    HasAbility(Box<Expr>, Ident),
    /// `if C then A else B`
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Aggregates with a binder. `value` is the `E` of `sum(E for x in L)`, the key of
    /// `sort(x in L by E)`, and absent for count/any/all/filter.
    Aggregate {
        op: Aggregate,
        value: Option<Box<Expr>>,
        var: Ident,
        list: Box<Expr>,
        filter: Option<Box<Expr>>,
    },
    /// `top [N] of Z` / `bottom [N] of Z`; without N the value is one card (or none).
    Pile {
        position: Position,
        count: Option<Box<Expr>>,
        zone: Box<Expr>,
    },
}

/// `test "name" { ... }`
#[derive(Clone, Debug, PartialEq)]
pub struct TestDecl {
    pub name: Text,
    pub players: Option<(i64, Span)>,
    pub seed: Option<(u64, Span)>,
    pub options: Vec<(Ident, Expr)>,
    pub names: Vec<Ident>,
    pub given: Option<Block>,
    pub start: Option<(Ident, Vec<Expr>, Span)>,
    pub steps: Vec<TestStep>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TestStep {
    pub kind: TestStepKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TestStepKind {
    /// `choose "label"`
    Choose(Text),
    /// `expect C`
    Expect(Expr),
    /// `expect options has "label"`
    OptionsHas(Text),
    /// `expect options lacks "label"`
    OptionsLacks(Text),
    /// `expect decider P`
    Decider(Expr),
    /// `expect winners L`
    Winners(Expr),
    /// `expect over`
    Over,
    /// `expect not over`
    NotOver,
    /// `expect log "text"`
    Log(Text),
    /// `expect strategy NAME picks "label"`
    StrategyPicks(Ident, Text),
    /// `do { ... }`
    Do(Block),
}
