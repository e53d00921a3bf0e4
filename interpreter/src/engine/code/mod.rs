//! Engine stage (below the machine): the executable form of a program, `Code`, and its one
//! instruction enum `Instr`; built once when the program is lowered, immutable, shared by every game.
//!
//! docs/engine.md, "The executable form". A root expression (one that a statement, an action, a
//! function, a property or a strategy holds, not one inside another expression) is compiled into an
//! *entry*: a run of instructions over the registers of one frame, ending with `Ret`. The expression
//! keeps the number of its entry (`Expr::entry`), so that wherever the engine evaluates it, the
//! machine (`engine/machine`) runs the entry instead. Specialisations are instructions the compiler
//! chooses: a test of a card's kind is one table read (`KindIn`), a count of such cards in a zone one
//! loop (`CountKinds`).

pub(crate) mod compile;
mod kinds;
mod roots;
mod stmts;

use crate::ops::{Aggregate, BinOp, Builtin, Field};
use crate::value::Value;
use cardgame_grammar::ast::{Position, Span};

/// `Expr::entry` of an expression that has no entry of its own (not a root, or no code).
pub const NO_ENTRY: u32 = u32::MAX;

/// A register of the running entry's frame.
pub type Reg = u16;

/// One instruction. Registers (`Reg`) are numbered per entry from 0; locals (`slot`) are the
/// slots of the context the expression runs in (`State::ctxs`), as the walker numbers them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Instr {
    /// `dst = consts[k]`.
    Const { dst: Reg, k: u32 },
    /// `dst = v`, a number.
    Int { dst: Reg, v: i32 },
    /// `dst = local slot` of the current context.
    Local { dst: Reg, slot: u16 },
    /// `local slot = src` (a `let` inside a function's body).
    SetLocal { slot: u16, src: Reg },
    /// A global variable.
    Global { dst: Reg, var: u16 },
    /// A per-player variable of the player in `p`.
    PlayerVar { dst: Reg, var: u16, p: Reg },
    /// A per-card variable of the card in `c`.
    CardVar { dst: Reg, var: u16, c: Reg },
    /// An option's value.
    OptionValue { dst: Reg, option: u16 },
    /// A table column's value.
    Column { dst: Reg, column: u16 },
    /// `you`, `this`, `active`, `players`, the turn number, `everyone`, the spaces.
    Word { dst: Reg, word: Word },
    /// Participant `i`.
    Participant { dst: Reg, i: u8 },
    /// A card's property (a table read when the kind gives a number, else its expression).
    Prop { dst: Reg, prop: u16, c: Reg },
    /// The card's tag in a group, or none.
    TagOf { dst: Reg, group: u16, c: Reg },
    /// A built-in field of a card or space.
    Field { dst: Reg, field: Field, x: Reg },
    /// The shared instance of zone definition `zone`.
    ZoneShared { dst: Reg, zone: u16 },
    /// The instance of zone definition `zone` held by the player, card or space in `holder`.
    ZoneOf { dst: Reg, zone: u16, holder: Reg },
    /// `-x` of a number.
    Neg { dst: Reg, x: Reg },
    /// `not x` of a truth.
    Not { dst: Reg, x: Reg },
    /// A binary operator of values (numbers, lists, anything `==` compares); not `and`, `or`.
    Binary { op: BinOp, dst: Reg, a: Reg, b: Reg },
    /// `x is KIND` (`neg`: `is not`).
    IsKind {
        dst: Reg,
        x: Reg,
        kind: u16,
        neg: bool,
    },
    /// `x is TAG`.
    IsTag {
        dst: Reg,
        x: Reg,
        tag: u16,
        neg: bool,
    },
    /// A test that reads only the kind of the card in local `slot`: `dst = truths[table][kind]`;
    /// when the local holds no card, the general code at `general` runs instead.
    KindIn {
        dst: Reg,
        slot: u16,
        table: u16,
        general: u32,
    },
    /// A number that depends only on the kind of the card in local `slot`: `ints[table][kind]`;
    /// the general code at `general` when the local holds no card.
    KindInt {
        dst: Reg,
        slot: u16,
        table: u16,
        general: u32,
    },
    /// `dst = v`, a truth.
    Bool { dst: Reg, v: bool },
    /// Jump to `to`.
    Jump { to: u32 },
    /// Jump to `to` when the truth in `c` is false (an error when it is no truth).
    JumpUnless { c: Reg, to: u32 },
    /// Jump to `to` when the truth in `c` is true (an error when it is no truth).
    JumpIf { c: Reg, to: u32 },
    /// `dst = [first, first + 1, ..., first + n - 1]`.
    List { dst: Reg, first: Reg, n: u16 },
    /// `dst = a..b`.
    Range { dst: Reg, a: Reg, b: Reg },
    /// Starts a walk of the list or zone in `list`: `it` keeps the list, `it + 1` the next index,
    /// `it + 2` the value local `slot` had before (given back by `IterEnd`). A zone is read in
    /// place, top first. Charges its length.
    IterInit { it: Reg, list: Reg, slot: u16 },
    /// The next item of the walk `it` into local `slot`, or a jump to `end`.
    IterNext { it: Reg, slot: u16, end: u32 },
    /// Gives local `slot` back the value it had before the walk `it`.
    IterEnd { it: Reg, slot: u16 },
    /// `dst = how many cards of the zone in `zone` pass truths[table]` (`Any`: whether one does;
    /// `All`: whether every one does); charges the zone's length.
    CountKinds {
        dst: Reg,
        zone: Reg,
        table: u16,
        op: Aggregate,
    },
    /// `dst = the sum (or max, min: 0 for none) of ints[table] over the cards of the zone in `zone`
    /// that pass truths[pass]` (`pass` = u16::MAX: every card); charges the zone's length.
    SumKinds {
        dst: Reg,
        zone: Reg,
        table: u16,
        pass: u16,
        op: Aggregate,
    },
    /// Folds the number in `v` into `acc` (`Sum`: added, `Max`, `Min`; `acc` starts as none).
    Fold { op: Aggregate, acc: Reg, v: Reg },
    /// `acc`'s number, 0 when none was folded (the `max` of nothing).
    FoldEnd { acc: Reg },
    /// Appends the value in `v` to the list in `acc`.
    Push { acc: Reg, v: Reg },
    /// Appends the items of the list (or zone, top first) in `v` to the list in `acc` (`flatten`).
    Extend { acc: Reg, v: Reg },
    /// The list in `acc` holds keys and items by pairs: the items, sorted by their keys (`sort`).
    SortPairs { acc: Reg },
    /// `top of Z`, `bottom of Z` (`n` = u16::MAX), or `top N of Z` with N in `n`.
    Pile {
        dst: Reg,
        zone: Reg,
        n: Reg,
        position: Position,
    },
    /// A built-in applied to `n` arguments in `first..`.
    Builtin {
        dst: Reg,
        builtin: Builtin,
        first: Reg,
        n: u16,
    },
    /// A user function applied to `n` arguments in `first..`.
    Call {
        dst: Reg,
        f: u16,
        first: Reg,
        n: u16,
    },
    /// Text `texts[t]`, its interpolated values in `first..`.
    Text { dst: Reg, t: u32, first: Reg },
    /// The entry's value is in `src`.
    Ret { src: Reg },
    /// Statement `walks[w]` run by the walker: a form not compiled yet, or one that pushes the
    /// walker's frames (turns, phases, decisions, calls of procedures). When it pushed some, the
    /// machine stops and keeps its first `live` registers (the loops around it) in its frame.
    Walk { w: u32, live: u16 },
    /// A write of the value in `src` through `assigns[a]` (the player or card in `holder`).
    Assign { a: u32, holder: Reg, src: Reg },
    /// The statement at this instruction's span failed: noted, and the innermost `strict` left.
    Fail,
    /// `dst` = the list of the value in `src` (a zone: its cards, top first), for a `for`.
    Snapshot { dst: Reg, src: Reg },
    /// `repeat`: jump to `end` when the number in `n` is 0 or less, else take one from it.
    CountDown { n: Reg, end: u32 },
    /// The end of a block's entry.
    End,
    /// Clears the game's flag of a pile that held fewer cards than asked (`move top N of Z`).
    ShortClear,
    /// `dst` = whether a pile held fewer cards than asked since `ShortClear`.
    ShortTake { dst: Reg },
    /// `move` of the card, cards or zone in `what` to the zone in `to`, as `moves[m]` says.
    Move { m: u32, what: Reg, to: Reg },
    /// `perform` as `performs[f]` says, of the card in `card` (`as` in `card + 1`, `by` in
    /// `card + 2` when given); pushes the ability's body, keeping the first `live` registers.
    Perform { f: u32, card: Reg, live: u16 },
    /// A call of procedure `proc` with its `n` arguments in `first..` (`slot`: the local that
    /// `let x = proc(..)` writes, u16::MAX for none); pushes its body, keeping `live` registers.
    CallProc {
        proc: u16,
        first: Reg,
        n: u16,
        slot: u16,
        live: u16,
    },
    /// `return` of the value in `src`: leaves the procedure.
    Return { src: Reg },
    /// `log`: when nobody records and building the text of `walks[w]` cannot fail, jump to
    /// `skip`; else the text is built by the instructions that follow, then `LogPush`.
    Log { w: u32, skip: u32 },
    /// Records the text in `src` as a log line (when the game records).
    LogPush { src: Reg },
    /// `stat` number `id`: records (`Set`) or counts the number in `src`.
    Stat { id: u16, op: u8, src: Reg },
    /// `pay` the number in `src` from the variable of `assigns[a]` (the holder in `holder`).
    Pay { a: u32, holder: Reg, src: Reg },
}

/// How a `Move` moves.
#[derive(Clone, Copy, Debug)]
pub struct MoveCode {
    pub position: cardgame_grammar::ast::Position,
    pub face: Option<cardgame_grammar::ast::Face>,
    /// The register `ShortTake` wrote.
    pub short: Reg,
    pub what: Span,
    pub to: Span,
}

/// What a `Perform` performs.
#[derive(Clone, Copy, Debug)]
pub struct PerformCode {
    pub ability: crate::program::AbilityId,
    pub as_card: Option<Span>,
    pub by: Option<Span>,
    pub card: Span,
}

/// Where an `Assign` writes, and how.
#[derive(Clone, Copy, Debug)]
pub struct AssignCode {
    pub op: crate::program::AssignOp,
    pub place: PlaceCode,
    /// The holder's expression, for its errors.
    pub holder: Span,
}

/// A variable a statement writes.
#[derive(Clone, Copy, Debug)]
pub enum PlaceCode {
    Local(u16),
    Global(crate::program::VarId),
    /// Of the player in the instruction's `holder`.
    Player(crate::program::VarId),
    /// Of the card in the instruction's `holder`.
    Card(crate::program::VarId),
}

/// The words an expression reads from the game without operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Word {
    You,
    This,
    Active,
    Players,
    Turn,
    Everyone,
    Spaces,
}

/// A text: literal pieces between interpolated values (`lits.len()` = values + 1).
#[derive(Clone, Debug)]
pub struct TextCode {
    pub lits: Vec<String>,
    /// The span of each interpolated value (for the work a list costs and for errors).
    pub spans: Vec<Span>,
}

/// Where an entry starts and how many registers its frame needs.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub start: u32,
    pub regs: u16,
}

/// The executable form of one program: immutable once built, shared by every game and thread.
#[derive(Debug, Default)]
pub struct Code {
    pub instrs: Vec<Instr>,
    /// The script place of every instruction, for its errors.
    pub spans: Vec<Span>,
    pub consts: Vec<Value>,
    pub texts: Vec<TextCode>,
    /// Per-kind truths of the tests the compiler resolved by kind (`KindIn`, `CountKinds`).
    pub truths: Vec<Box<[bool]>>,
    /// Per-kind numbers (`KindInt`, `SumKinds`).
    pub ints: Vec<Box<[i64]>>,
    pub entries: Vec<Entry>,
    /// The entry of each user function's body.
    pub fns: Vec<u32>,
    /// The entry of each block a walker's frame runs (`NO_ENTRY`: a block compiled inside
    /// another, the body of an `if` or a loop).
    pub blocks: Vec<u32>,
    /// The statements `Walk` hands to the walker: (block, index in the block).
    pub walks: Vec<(u16, u32)>,
    pub assigns: Vec<AssignCode>,
    pub moves: Vec<MoveCode>,
    pub performs: Vec<PerformCode>,
    /// The registers the largest block's entry needs (every block runs in a window this wide).
    pub block_regs: u16,
}

/// A construct the compiler does not cover yet: the program then runs on the walker as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Uncovered {
    pub what: &'static str,
    pub span: Span,
}

/// Division rounded down (towards minus infinity) and its remainder, as the language divides;
/// `None` for a division by zero or an overflow (the machine then reports it where it happens).
pub(crate) fn floor_div(i: i64, j: i64) -> Option<(i64, i64)> {
    if j == 0 {
        return None;
    }
    let q = i.checked_div(j)?;
    let r = i - q * j;
    Some(if r != 0 && ((r < 0) != (j < 0)) {
        (q - 1, r + j)
    } else {
        (q, r)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_instruction_is_at_most_16_bytes() {
        assert!(std::mem::size_of::<super::Instr>() <= 16);
    }
}
