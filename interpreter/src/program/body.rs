//! Lowering stage output: the bodies of a program, its blocks of statements and its expression trees,
//! each with its source span; the definitions that hold them are in `program/mod.rs`.

use super::*;
use crate::value::Value;
use cardgame_grammar::ast::{Face, Position, Span};

#[derive(Clone, Debug, Default)]
pub struct Block {
    pub stmts: Vec<Stmt>,
}

impl Block {
    pub fn new(stmts: Vec<Stmt>) -> Block {
        Block { stmts }
    }
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

impl Stmt {
    pub fn new(kind: StmtKind, span: Span) -> Stmt {
        Stmt { kind, span }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
}

/// Something a statement can write.
#[derive(Clone, Debug)]
pub enum Target {
    Local(Slot),
    Global(VarId),
    Player(VarId, Expr),
    Card(VarId, Expr),
}

#[derive(Clone, Debug)]
pub enum MenuMode {
    UntilPass,
    Once,
    OnceOrPass,
    Times(Expr),
}

#[derive(Clone, Debug)]
pub enum ChooseCount {
    One,
    Exactly(Expr),
    UpTo(Expr),
    Any,
    /// Every element, in the order chosen; the last is placed without asking.
    Order,
}

#[derive(Clone, Debug)]
pub struct Choose {
    pub count: ChooseCount,
    /// The binder used by the filter while options are listed.
    pub var: Slot,
    pub domain: Expr,
    pub filter: Option<Expr>,
    /// Who decides; `None` means `you` if set, else the active player.
    pub by: Option<Expr>,
    pub prompt: Option<TextIr>,
}

#[derive(Clone, Debug)]
pub struct BranchIr {
    pub label: TextIr,
    pub condition: Option<Expr>,
    pub body: BlockId,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Let(Slot, Expr),
    /// `let x = choose ...`: the result (one value, or a list for counted forms) goes to the slot.
    Choose(Slot, Choose),
    Assign(Target, AssignOp, Expr),
    Move {
        what: Expr,
        to: Expr,
        position: Position,
        face: Option<Face>,
    },
    Shuffle(Expr),
    Pay(Expr, Target),
    /// `reveal` (true) or `hide` (false)
    Reveal(Expr, bool),
    /// `show CARDS to PLAYER`: the player may see the cards until they next move.
    Show(Expr, Expr),
    If(Vec<(Expr, BlockId)>, Option<BlockId>),
    For {
        slot: Slot,
        list: Expr,
        filter: Option<Expr>,
        body: BlockId,
    },
    While(Expr, BlockId),
    Repeat(Expr, BlockId),
    Loop(BlockId),
    Break,
    Require(Expr),
    Strict(BlockId),
    Stop,
    Perform {
        ability: AbilityId,
        card: Expr,
        as_card: Option<Expr>,
        by: Option<Expr>,
    },
    Emit(EventId, Vec<Expr>),
    Call(ProcId, Vec<Expr>),
    /// `let x = proc(args)`: the procedure's `return` value (none if it ends without one) goes to
    /// the slot.
    CallLet(Slot, ProcId, Vec<Expr>),
    /// `return E`: leave the procedure, giving E to the `let` that called it.
    Return(Expr),
    Turn(Expr, BlockId),
    Phase(String, BlockId),
    /// `round { }`: when it ends, however it is left, the players out for the round are back.
    Round(BlockId),
    EndTurn,
    EndPhase,
    /// `end round`: leave the innermost round.
    EndRound,
    Actions {
        by: Expr,
        mode: MenuMode,
        actions: Vec<ActionId>,
    },
    ChooseBranch {
        by: Option<Expr>,
        prompt: Option<TextIr>,
        branches: Vec<BranchIr>,
    },
    Simultaneously {
        player: Slot,
        players: Expr,
        /// How many each player chooses; but for `One`, `var` holds a list.
        count: ChooseCount,
        var: Slot,
        domain: Expr,
        filter: Option<Expr>,
        prompt: Option<TextIr>,
        body: BlockId,
    },
    Eliminate(Expr),
    /// `eliminate P for round`: out (as `eliminate`) until the running round ends.
    OutForRound(Expr),
    Win(Expr, TextIr),
    /// `win team E "reason"`: the players whose team (`Program::teams`) equals E, in seat order.
    WinTeam(Expr, TextIr),
    Log(TextIr),
    /// `log "text" to P`: a trace line only P (and the whole trace) reads.
    LogTo(TextIr, Expr),
    /// `stat NAME = E` / `+= E` / `-= E`: the statistic's index, the operator and the value.
    Stat(u16, AssignOp, Expr),
    /// `stat NAME[K] ...`: statistic, key, operation, value.
    StatAt(u16, Expr, AssignOp, Expr),
}

/// Text with interpolated expressions.
#[derive(Clone, Debug)]
pub struct TextIr {
    pub parts: Vec<TextPartIr>,
}

impl TextIr {
    /// The expressions of the text, in order: its parts that are not written out.
    pub fn exprs(&self) -> impl Iterator<Item = &Expr> {
        self.parts.iter().filter_map(|part| match part {
            TextPartIr::Lit(_) => None,
            TextPartIr::Expr(e) => Some(e),
        })
    }

    /// The length of the parts written out.
    pub fn written_len(&self) -> usize {
        (self.parts.iter())
            .map(|part| match part {
                TextPartIr::Lit(w) => w.len(),
                TextPartIr::Expr(_) => 0,
            })
            .sum()
    }
}

#[derive(Clone, Debug)]
pub enum TextPartIr {
    Lit(String),
    Expr(Expr),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
}

/// The direct sub-expressions of an expression, by shared (`ref`) or exclusive (`mut`) reference:
/// one match for both walks.
macro_rules! each_child {
    ($kind:expr, $f:expr, $iter:ident, $($borrow:tt)+) => {
        match $($borrow)+ $kind {
            ExprKind::Const(_)
            | ExprKind::Local(_)
            | ExprKind::Global(_)
            | ExprKind::Option(_)
            | ExprKind::Column(_)
            | ExprKind::Spaces
            | ExprKind::You
            | ExprKind::This
            | ExprKind::Active
            | ExprKind::Players
            | ExprKind::Everyone
            | ExprKind::Participant(_)
            | ExprKind::TurnNumber => {}
            ExprKind::PlayerVar(_, x)
            | ExprKind::CardVar(_, x)
            | ExprKind::Prop(_, x)
            | ExprKind::TagOf(_, x)
            | ExprKind::Field(_, x)
            | ExprKind::Unary(_, x)
            | ExprKind::IsTag(x, _, _)
            | ExprKind::IsKind(x, _, _) => $f(x),
            ExprKind::Zone(_, h) => {
                if let Some(h) = h {
                    $f(h)
                }
            }
            ExprKind::Binary(_, a, b) | ExprKind::Range(a, b) => {
                $f(a);
                $f(b);
            }
            ExprKind::If(c, a, b) => {
                $f(c);
                $f(a);
                $f(b);
            }
            ExprKind::Let(_, v, body) => {
                $f(v);
                $f(body);
            }
            ExprKind::List(xs) | ExprKind::Builtin(_, xs) | ExprKind::CallFn(_, xs) => {
                xs.$iter().for_each(|x| $f(x))
            }
            ExprKind::Aggregate {
                value,
                list,
                filter,
                ..
            } => {
                if let Some(v) = value {
                    $f(v);
                }
                $f(list);
                if let Some(x) = filter {
                    $f(x);
                }
            }
            ExprKind::Pile { count, zone, .. } => {
                if let Some(c) = count {
                    $f(c);
                }
                $f(zone);
            }
            ExprKind::Text(t) => {
                for part in t.parts.$iter() {
                    if let TextPartIr::Expr(x) = part {
                        $f(x);
                    }
                }
            }
        }
    };
}

impl Expr {
    /// Calls `f` on every direct sub-expression.
    pub fn children(&self, f: &mut dyn FnMut(&Expr)) {
        each_child!(self.kind, f, iter, &)
    }

    /// Calls `f` on every direct sub-expression, mutably.
    pub fn children_mut(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        each_child!(self.kind, f, iter_mut, &mut)
    }
}

pub use crate::ops::{Aggregate, BinOp, Builtin, Field, UnOp};

#[derive(Clone, Debug)]
pub enum ExprKind {
    Const(Value),
    Local(Slot),
    Global(VarId),
    PlayerVar(VarId, Box<Expr>),
    CardVar(VarId, Box<Expr>),
    Option(OptionId),
    Column(ColumnId),
    /// A card property, evaluated with `this` = the card and `you` = its owner (or the active player).
    Prop(PropId, Box<Expr>),
    /// The card's tag in a group, or none.
    TagOf(GroupId, Box<Expr>),
    Field(Field, Box<Expr>),
    /// A zone: shared (no owner) or of the player/card/space given.
    Zone(ZoneId, Option<Box<Expr>>),
    /// The list of all spaces of the board.
    Spaces,
    You,
    This,
    Active,
    /// The number of players the game started with.
    Players,
    /// The living players in seat order from seat 1.
    Everyone,
    TurnNumber,
    /// Participant i (`participant NAME`): the player `players + i`.
    Participant(u8),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    IsTag(Box<Expr>, TagId, bool),
    IsKind(Box<Expr>, KindId, bool),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    List(Vec<Expr>),
    Range(Box<Expr>, Box<Expr>),
    Aggregate {
        op: Aggregate,
        value: Option<Box<Expr>>,
        slot: Slot,
        list: Box<Expr>,
        filter: Option<Box<Expr>>,
    },
    Pile {
        position: Position,
        count: Option<Box<Expr>>,
        zone: Box<Expr>,
    },
    Builtin(Builtin, Vec<Expr>),
    /// A user function; its parameters are evaluated into a fresh frame of `slots` locals.
    CallFn(FnId, Vec<Expr>),
    Text(TextIr),
    /// `let x = V` in a function's body: V goes to the slot, then the body is the value.
    Let(Slot, Box<Expr>, Box<Expr>),
}
