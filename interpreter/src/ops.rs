//! Checker and engine stage (below both): the operators, aggregates, fields and built-in functions
//! of lowered expressions, shared by the program (`program.rs` re-exports them) and the engine; a
//! module of plain enums that depends on nothing above it.

/// Operators, already specialised by the checker to their operand types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    /// List concatenation.
    Concat,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    /// Membership in a list.
    In,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}

impl BinOp {
    /// The operator as the script writes it (runtime errors speak the script's words).
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add | BinOp::Concat => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::In => "in",
        }
    }
}

impl UnOp {
    /// The operator as the script writes it.
    pub fn symbol(self) -> &'static str {
        match self {
            UnOp::Neg => "-",
            UnOp::Not => "not",
        }
    }
}

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
    /// `[E for x in L where C]`
    Map,
    /// `flatten(E for x in L where C)`: the lists E joined.
    Flatten,
    /// `take_while(x in L where C)`
    TakeWhile,
}

/// Built-in fields of cards and spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The card's kind.
    Kind,
    /// The owner of the card's zone (a player, or none).
    Owner,
    /// The zone the card is in.
    Zone,
    FaceUp,
    X,
    Y,
}

/// Built-in functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `count(L)`: the length of a list.
    Size,
    Max2,
    Min2,
    Abs,
    Take,
    /// `L[i]`: the i-th element from 1, none out of range.
    Index,
    /// `flatten(L)`: a list of lists joined.
    Flatten,
    First,
    Last,
    /// `cards(K, L)`: the cards of kind K in L.
    Cards,
    /// `kinds(L)`: the distinct kinds of the cards in L, in order of first appearance.
    Kinds,
    Distinct,
    Random,
    Seat,
    Left,
    Right,
    Opponents,
    From,
    Eliminated,
    At,
    Neighbours,
    Adjacent,
}
