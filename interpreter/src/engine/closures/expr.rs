//! Engine stage (closures): compiles an expression into one tree of typed closures over int slots.
//!
//! Every value a compiled expression handles is a machine word (`i64`): numbers, truths (0 or 1),
//! players, cards, kinds, tags and zone instances. The checker's types say which; the compiler
//! accepts an expression only when every part of it is a word, and answers `Err(what)` otherwise.
//! At run time a closure answers `None` where the walker would fail or where the state holds a
//! value that is not a word: the caller then leaves the whole question to the walker.

use super::env::{word, Env, Failure, NONE, SLOTS};
use super::items::Given;
use crate::program::{BinOp, Expr, ExprKind, Program, Ty, UnOp};
use crate::value::Value;
use cardgame_grammar::ast::{Scope, Span};

/// A compiled expression: its value as a word, or `None` (the walker answers instead).
pub(crate) type Int = Box<dyn Fn(&mut Env) -> Option<i64> + Send + Sync>;

/// Why an expression does not compile.
pub(crate) type C<T> = Result<T, &'static str>;

/// Functions called inside functions, at most this deep (a recursive function does not compile).
pub(super) const DEPTH: u32 = 8;

/// What the compiler knows of the frame it compiles in.
pub(crate) struct Cx<'p> {
    pub p: &'p Program,
    /// The frame's first slot in `Env::slots`.
    pub base: usize,
    /// The type of each slot of the frame, where it is a word.
    pub types: Vec<Option<Ty>>,
    pub depth: u32,
    /// The slots the compiled closures read, a bit each: a compiled block loads only these from
    /// the walker's context when a segment starts (segments.rs).
    pub reads: u32,
    /// Whether the walker's context holds this frame's locals too (a body's frame, whose every
    /// write goes to both): a local that is not a word is read from there (value.rs).
    pub locals: bool,
    /// The function's parameters that are not words, and what they are given (items.rs).
    pub given: Vec<(u16, Given)>,
    /// Inside a computed property's body (props.rs) and the functions it calls: the slots holding
    /// its card (`this`) and the card's owner (`you`); `None` elsewhere (`this` is the walker's
    /// context's in a body's frame, `you` the `Env`'s).
    pub card: Option<(usize, usize)>,
    /// Whether `random` compiles: inside an expression of a statement that keeps its draws
    /// (draws.rs, `drawn_inside`).
    pub draws: bool,
    /// The callables compiled so far, shared by every context of one build (functions.rs).
    pub fns: std::rc::Rc<super::functions::Callables>,
    /// The slots of the bank the frame lies in: [`SLOTS`], or a callable's (functions.rs).
    pub bank: usize,
    /// A function's word parameters that may be given `none` (their slots `NONE`), a bit each
    /// (functions.rs, `or_none`).
    pub nullable: u64,
}

impl<'p> Cx<'p> {
    pub fn new(p: &'p Program, slots: usize) -> Cx<'p> {
        Cx {
            p,
            base: 0,
            types: vec![None; slots],
            depth: 0,
            reads: 0,
            locals: false,
            given: Vec::new(),
            card: None,
            draws: false,
            fns: Default::default(),
            bank: SLOTS,
            nullable: 0,
        }
    }

    /// Slot `s` holds what stands for `g`, not a word of its own.
    pub fn give(&mut self, s: u16, g: Given) {
        self.given.retain(|(x, _)| *x != s);
        if let Some(t) = self.types.get_mut(s as usize) {
            *t = None;
        }
        self.given.push((s, g));
    }

    /// What the parameter or `let` in slot `s` is given, where it is not a word.
    pub fn given(&self, s: u16) -> Option<&Given> {
        self.given.iter().find(|(g, _)| *g == s).map(|(_, g)| g)
    }

    /// Slot `i` is read (a bank's slots past the 32 a body's frame has are a callable's, which
    /// loads nothing).
    pub fn read(&mut self, i: usize) {
        if let Some(bit) = 1u32.checked_shl(i as u32) {
            self.reads |= bit;
        }
    }

    pub fn slot(&self, s: u16) -> C<usize> {
        let i = self.base + s as usize;
        if i >= self.bank {
            return Err(super::functions::PAST_SLOTS);
        }
        Ok(i)
    }

    pub fn set_type(&mut self, s: u16, t: Ty) {
        self.given.retain(|(g, _)| *g != s);
        let s = s as usize;
        if self.types.len() <= s {
            self.types.resize(s + 1, None);
        }
        self.types[s] = Some(t);
    }

    pub fn type_of_local(&self, s: u16) -> Option<&Ty> {
        self.types.get(s as usize).and_then(|t| t.as_ref())
    }
}

pub(super) fn is_word(t: &Ty) -> bool {
    match t {
        Ty::Int | Ty::Bool | Ty::Player | Ty::Card | Ty::Kind | Ty::Tag | Ty::Space | Ty::Zone => {
            true
        }
        Ty::Text | Ty::List(_) | Ty::Any => false,
    }
}

/// Whether `e` is certainly a card (its type known here), and so a word naming one.
fn card(cx: &Cx, e: &Expr) -> bool {
    super::stmts::type_of(cx, e) == Some(Ty::Card)
}

/// Whether `e` is certainly a player.
pub(super) fn player(cx: &Cx, e: &Expr) -> bool {
    match e.kind {
        ExprKind::You | ExprKind::Active | ExprKind::Participant(_) => true,
        ExprKind::Local(s) => cx.type_of_local(s) == Some(&Ty::Player),
        _ => super::stmts::type_of(cx, e) == Some(Ty::Player),
    }
}

/// The kind of a card (a word naming a card).
#[inline]
pub(super) fn kind_of(env: &Env, c: i64) -> Option<usize> {
    env.s
        .cards
        .get(usize::try_from(c).ok()?)
        .map(|cs| cs.kind as usize)
}

/// The constant value of property `pid` for cards of kind `k` (`None`: not a constant).
pub(super) fn constant(p: &Program, pid: usize, k: usize) -> Option<&Value> {
    let e = match p.kinds.get(k)?.props.get(pid)? {
        Some(e) => e,
        None => &p.props.get(pid)?.default,
    };
    match &e.kind {
        ExprKind::Const(v) => Some(v),
        _ => None,
    }
}

/// What of a card's kind is compared with `none`: a property, or its tag of a group.
#[derive(Clone, Copy)]
enum Read {
    Prop(usize),
    Tag(crate::program::GroupId),
}

/// The closure of a property computed for some kind of card, where `of` reads one.
fn computed_prop(cx: &Cx, of: Read) -> Option<super::props::OfCard> {
    match of {
        Read::Prop(pid) => super::props::computed_of_card(cx, pid),
        Read::Tag(_) => None,
    }
}

/// The tag of group `g` of kind `k` (`None`: none).
fn tag_of(p: &Program, g: crate::program::GroupId, k: usize) -> Option<u16> {
    let group = |t: &&crate::program::TagId| p.tags.get(t.index()).map(|d| d.group) == Some(g);
    p.kinds.get(k)?.tags.iter().find(group).map(|t| t.0)
}

/// `x == y` of a property or a tag of a group `x` of a card (either side) and any `y` but `none`:
/// what it reads, the card, and `y`.
fn optional<'e>(a: &'e Expr, b: &'e Expr) -> Option<(Read, &'e Expr, &'e Expr)> {
    let read = |e: &'e Expr| match &e.kind {
        ExprKind::Prop(pid, ce) => Some((Read::Prop(pid.index()), &**ce)),
        ExprKind::TagOf(g, ce) => Some((Read::Tag(*g), &**ce)),
        _ => None,
    };
    let none = |e: &Expr| matches!(e.kind, ExprKind::Const(Value::None));
    if none(a) || none(b) {
        return None;
    }
    match (read(a), read(b)) {
        (Some((of, ce)), _) => Some((of, ce, b)),
        (None, Some((of, ce))) => Some((of, ce, a)),
        (None, None) => None,
    }
}

/// `x == none` or `none == x` of a property or a tag of a group `x` of a card: what it reads, and
/// the card.
fn none_test<'e>(a: &'e Expr, b: &'e Expr) -> Option<(Read, &'e Expr)> {
    let none = |e: &Expr| matches!(e.kind, ExprKind::Const(Value::None));
    let read = |e: &'e Expr| match &e.kind {
        ExprKind::Prop(pid, ce) => Some((Read::Prop(pid.index()), &**ce)),
        ExprKind::TagOf(g, ce) => Some((Read::Tag(*g), &**ce)),
        _ => None,
    };
    match (none(a), none(b)) {
        (false, true) => read(a),
        (true, false) => read(b),
        _ => None,
    }
}

/// Compiles `e`.
pub(crate) fn compile(cx: &mut Cx, e: &Expr) -> C<Int> {
    Ok(match &e.kind {
        ExprKind::Const(v) => {
            let k = word(v).ok_or("a constant that is not a word")?;
            Box::new(move |_| Some(k))
        }
        ExprKind::Local(s) => {
            if !cx.type_of_local(*s).is_some_and(is_word) {
                return Err("a local that is not a word");
            }
            let i = cx.slot(*s)?;
            cx.read(i);
            Box::new(move |env| Some(env.slots[i]).filter(|&v| v != NONE))
        }
        ExprKind::Global(v) => {
            let v = *v;
            Box::new(move |env| word(env.s.globals.get(env.l.var(v))?))
        }
        ExprKind::PlayerVar(v, pe) => {
            if !player(cx, pe) {
                return Err("a player's variable of an expression not known to be a player");
            }
            let v = *v;
            let pf = compile(cx, pe)?;
            Box::new(move |env| {
                let p = usize::try_from(pf(env)?).ok()?;
                word(env.s.pvars.get(p * env.l.n_pvars + env.l.var(v))?)
            })
        }
        ExprKind::Option(o) => {
            let o = o.index();
            Box::new(move |env| word(env.l.options.get(o)?))
        }
        ExprKind::Column(c) => {
            let c = c.index();
            Box::new(move |env| word(env.l.columns.get(c)?))
        }
        ExprKind::You => match cx.card {
            Some((_, you)) => Box::new(move |env| Some(*env.slots.get(you)?)),
            None => Box::new(|env| Some(env.you as i64)),
        },
        ExprKind::Active => Box::new(|env| Some(env.s.active as i64)),
        ExprKind::Players => Box::new(|env| Some(env.s.players as i64)),
        ExprKind::TurnNumber => Box::new(|env| Some(env.s.turn as i64)),
        ExprKind::Prop(pid, ce) => {
            if !card(cx, ce) {
                return Err("a property of an expression not known to be a card");
            }
            super::props::prop(cx, pid.index(), ce)?
        }
        ExprKind::IsTag(x, t, negated) => {
            if !card(cx, x) {
                return Err("a tag test of an expression not known to be a card");
            }
            let table: Box<[bool]> = (cx.p.kinds.iter())
                .map(|k| k.tags.binary_search(t).is_ok() != *negated)
                .collect();
            // A pile's top card may be `none`, which no tag test holds for (the walker's).
            if let Some(pf) = super::piles::pile_or_none(cx, x)? {
                return Ok(Box::new(move |env| match pf(env)? {
                    Some(c) => Some(*table.get(kind_of(env, c)?)? as i64),
                    None => Some(0),
                }));
            }
            let cf = compile(cx, x)?;
            Box::new(move |env| {
                let c = cf(env)?;
                Some(*table.get(kind_of(env, c)?)? as i64)
            })
        }
        ExprKind::IsKind(x, k, negated) => {
            if !card(cx, x) {
                return Err("a kind test of an expression not known to be a card");
            }
            let (k, negated) = (k.0 as usize, *negated);
            // A pile's top card may be `none`, which no kind test holds for (the walker's).
            if let Some(pf) = super::piles::pile_or_none(cx, x)? {
                return Ok(Box::new(move |env| match pf(env)? {
                    Some(c) => Some(((kind_of(env, c)? == k) != negated) as i64),
                    None => Some(0),
                }));
            }
            let cf = compile(cx, x)?;
            Box::new(move |env| {
                let c = cf(env)?;
                Some(((kind_of(env, c)? == k) != negated) as i64)
            })
        }
        ExprKind::Unary(op, x) => {
            let xf = match op {
                UnOp::Neg => compile(cx, x)?,
                UnOp::Not => super::value::truth(cx, x)?,
            };
            match op {
                UnOp::Neg => {
                    let span = e.span;
                    Box::new(move |env| match xf(env)?.checked_neg() {
                        Some(v) => Some(v),
                        None => env.fail(span, OVERFLOW),
                    })
                }
                UnOp::Not => Box::new(move |env| Some((xf(env)? == 0) as i64)),
            }
        }
        ExprKind::Binary(op, a, b) => binary(cx, *op, a, b, e.span)?,
        ExprKind::If(c, a, b) => {
            let (cf, af, bf) = (compile(cx, c)?, compile(cx, a)?, compile(cx, b)?);
            Box::new(move |env| if cf(env)? != 0 { af(env) } else { bf(env) })
        }
        ExprKind::Zone(z, holder) => zone(cx, z.index(), holder.as_deref(), e.span)?,
        ExprKind::Aggregate {
            op,
            value,
            slot,
            list,
            filter,
        } => {
            let (value, filter) = (value.as_deref(), filter.as_deref());
            super::aggregates::of_any_list(cx, *op, value, *slot, list, filter, e.span)?
        }
        ExprKind::CallFn(f, args) => super::functions::call(cx, f.index(), args, compile)?,
        ExprKind::CardVar(v, ce) => {
            if !card(cx, ce) {
                return Err("a card's variable of an expression not known to be a card");
            }
            let (v, cf) = (*v, compile(cx, ce)?);
            Box::new(move |env| {
                let c = usize::try_from(cf(env)?).ok()?;
                if c >= env.s.cards.len() {
                    return None;
                }
                word(env.s.cvars.get(env.l, c * env.l.n_cvars + env.l.var(v))?)
            })
        }
        ExprKind::TagOf(g, x) => {
            if !card(cx, x) {
                return Err("the tag of a group of an expression not known to be a card");
            }
            let g = *g;
            let p = cx.p;
            // Per kind, its tag of the group (none: the walker answers).
            let table: Box<[Option<u16>]> = (p.kinds.iter())
                .map(|k| {
                    let group = |t: &&crate::program::TagId| {
                        p.tags.get(t.index()).map(|d| d.group) == Some(g)
                    };
                    k.tags.iter().find(group).map(|t| t.0)
                })
                .collect();
            let cf = compile(cx, x)?;
            Box::new(move |env| {
                let c = cf(env)?;
                table
                    .get(kind_of(env, c)?)
                    .copied()
                    .flatten()
                    .map(i64::from)
            })
        }
        ExprKind::Field(f, x) => field(cx, *f, x)?,
        ExprKind::Spaces => return Err("the spaces"),
        // In a body's frame, the card of the walker's context on top (as `Mach::this`): a body
        // run inline pushes its context too (calls.rs).
        ExprKind::This => match cx.card {
            Some((this, _)) => Box::new(move |env| Some(*env.slots.get(this)?)),
            None if cx.locals => Box::new(|env| env.s.ctxs.last()?.this.map(i64::from)),
            None => return Err("`this` outside a body's frame"),
        },
        ExprKind::Everyone => return Err("a list of players"),
        ExprKind::Participant(i) => {
            let i = *i as i64;
            Box::new(move |env| Some(env.s.players as i64 + i))
        }
        ExprKind::List(_) | ExprKind::Range(..) => return Err("a list"),
        ExprKind::Pile {
            position,
            count: None,
            zone,
        } => super::piles::pile_card(cx, *position, zone)?,
        ExprKind::Pile { .. } => return Err("a pile's top or bottom cards"),
        ExprKind::Builtin(b, args) => super::builtins::builtin(cx, *b, args)?,
        ExprKind::Text(_) => return Err("a text"),
        ExprKind::Let(slot, v, body) => {
            let (vf, i, bf, keeps) = let_in(cx, *slot, v, body, compile)?;
            super::text_store::let_in(vf, i, bf, keeps)
        }
    })
}

/// `let slot = v` in `body`: the word closure of `v`, its slot, `body` compiled by `body_of` with
/// the slot's type known, and whether `v` is kept in `Made` (a text, a list made) while `body`
/// runs.
pub(super) fn let_in<T>(
    cx: &mut Cx,
    slot: u16,
    v: &Expr,
    body: &Expr,
    body_of: impl FnOnce(&mut Cx, &Expr) -> C<T>,
) -> C<(Int, usize, T, bool)> {
    let i = cx.slot(slot)?;
    // A value that is not a word, where the closures stand for it (`functions::given`).
    if let Ok((g, vf)) = super::functions::given(cx, v) {
        cx.give(slot, g);
        return Ok((vf, i, body_of(cx, body)?, false));
    }
    // A text, kept in `Made::texts` while the body runs (the last item: true).
    if super::text_store::is_text(cx, v) {
        let vf = super::text_store::place(cx, v)?;
        cx.give(slot, Given::Text);
        return Ok((vf, i, body_of(cx, body)?, true));
    }
    // A list of words the closures walk, made and kept in `Made::lists` while the body runs.
    if let Ok((vf, item)) = super::list_store::place(cx, v) {
        cx.give(slot, Given::Bound(item));
        return Ok((vf, i, body_of(cx, body)?, true));
    }
    let t = super::stmts::type_of(cx, v).ok_or("`let` of what is not a word")?;
    let vf = compile(cx, v)?;
    cx.set_type(slot, t);
    Ok((vf, i, body_of(cx, body)?, false))
}

/// A card's kind, zone, face or owner; a space's column or row.
fn field(cx: &mut Cx, f: crate::ops::Field, x: &Expr) -> C<Int> {
    use crate::ops::Field;
    let want = match f {
        Field::X | Field::Y => Ty::Space,
        Field::Kind | Field::Owner | Field::Zone | Field::FaceUp => Ty::Card,
    };
    if super::stmts::type_of(cx, x) != Some(want) {
        return Err("a field of an expression not known to be a card or a space");
    }
    let xf = compile(cx, x)?;
    Ok(match f {
        Field::X | Field::Y => {
            let y = f == Field::Y;
            Box::new(move |env| {
                let (sx, sy) = *env.l.spaces.get(usize::try_from(xf(env)?).ok()?)?;
                Some(if y { sy } else { sx })
            })
        }
        Field::Kind => Box::new(move |env| {
            let c = xf(env)?;
            kind_of(env, c).map(|k| k as i64)
        }),
        Field::Zone => Box::new(move |env| {
            let c = usize::try_from(xf(env)?).ok()?;
            Some(env.s.cards.get(c)?.zone as i64)
        }),
        Field::FaceUp => Box::new(move |env| {
            let c = usize::try_from(xf(env)?).ok()?;
            Some(env.s.cards.get(c)?.face_up as i64)
        }),
        // A card without an owner is `none`, not a word: the walker answers.
        Field::Owner => Box::new(move |env| {
            let c = u32::try_from(xf(env)?).ok()?;
            if c as usize >= env.s.cards.len() {
                return None;
            }
            env.s.card_owner(c).map(i64::from)
        }),
    })
}

/// Whether `x` is a body's local, or a function's parameter that may be given `none`, of a word
/// type that nothing is given for: its slot holds the word, or `NONE` for `none`.
pub(super) fn as_is(cx: &Cx, x: &Expr) -> bool {
    matches!(x.kind, ExprKind::Local(s) if (cx.locals || (s < 64 && cx.nullable & (1 << s) != 0))
        && cx.given(s).is_none()
        && cx.type_of_local(s).is_some_and(is_word))
}

/// An arithmetic result out of range, which the walker fails on.
pub(super) const OVERFLOW: Failure = Failure::Overflow;

/// `i op j` of numbers, `+`, `-`, `*`, `/` and `%` (rounded down, as the walker does); where the
/// walker fails, what on (an overflow, a division by zero), or `None` for an operator that is not
/// one of these.
pub(super) fn arithmetic(op: BinOp, i: i64, j: i64) -> Result<i64, Option<Failure>> {
    match op {
        BinOp::Add => i.checked_add(j).ok_or(Some(OVERFLOW)),
        BinOp::Sub => i.checked_sub(j).ok_or(Some(OVERFLOW)),
        BinOp::Mul => i.checked_mul(j).ok_or(Some(OVERFLOW)),
        BinOp::Div | BinOp::Rem => {
            if j == 0 {
                return Err(Some(Failure::DivisionByZero));
            }
            let q = i.checked_div(j).ok_or(Some(OVERFLOW))?;
            let r = i - q * j;
            let (q, r) = if r != 0 && ((r < 0) != (j < 0)) {
                (q - 1, r + j)
            } else {
                (q, r)
            };
            Ok(if op == BinOp::Div { q } else { r })
        }
        BinOp::And
        | BinOp::Or
        | BinOp::Eq
        | BinOp::Ne
        | BinOp::Lt
        | BinOp::Le
        | BinOp::Gt
        | BinOp::Ge
        | BinOp::In
        | BinOp::Concat => Err(None),
    }
}

/// [`arithmetic`] in a closure: the walker's error at `span` kept in the `Env` (`Env::fail`).
#[inline]
pub(super) fn arithmetic_in(env: &mut Env, op: BinOp, i: i64, j: i64, span: Span) -> Option<i64> {
    match arithmetic(op, i, j) {
        Ok(v) => Some(v),
        Err(Some(failure)) => env.fail(span, failure),
        Err(None) => None,
    }
}

/// The type of global variable `x` where it is a word (it may hold `none`).
fn global_word(cx: &Cx, x: &Expr) -> Option<Ty> {
    let ExprKind::Global(v) = x.kind else {
        return None;
    };
    Some(cx.p.vars.get(v.index())?.ty.clone()).filter(is_word)
}

/// Whether `x` is a player's variable of a word type (`p.across`), of an expression known to be a
/// player: read as it is held, `none` (`NONE`) equal to `none` alone.
fn player_var_word(cx: &Cx, x: &Expr) -> bool {
    let ExprKind::PlayerVar(v, pe) = &x.kind else {
        return false;
    };
    player(cx, pe) && (cx.p.vars.get(v.index())).is_some_and(|d| is_word(&d.ty))
}

/// Whether `x` is `none`, or a parameter given `none`.
fn nothing(cx: &Cx, x: &Expr) -> bool {
    match x.kind {
        ExprKind::Const(Value::None) => true,
        ExprKind::Local(s) => matches!(cx.given(s), Some(Given::Nothing)),
        _ => false,
    }
}

fn binary(cx: &mut Cx, op: BinOp, a: &Expr, b: &Expr, span: Span) -> C<Int> {
    if op == BinOp::In {
        return super::aggregates::member(cx, a, b);
    }
    // A card's constant property or tag of a group compared with `none` (`c.faction == none`):
    // a table by kind; a property computed for the card's kind is not `none` where its closure
    // gives a word.
    if let (BinOp::Eq | BinOp::Ne, Some((of, ce))) = (op, none_test(a, b)) {
        if card(cx, ce) {
            let p = cx.p;
            let eq = op == BinOp::Eq;
            let computed = computed_prop(cx, of);
            let table: Box<[Option<bool>]> = (0..p.kinds.len())
                .map(|k| {
                    let none = match of {
                        Read::Prop(pid) => *constant(p, pid, k)? == Value::None,
                        Read::Tag(g) => tag_of(p, g, k).is_none(),
                    };
                    Some(none == eq)
                })
                .collect();
            let cf = compile(cx, ce)?;
            return Ok(Box::new(move |env| {
                let c = cf(env)?;
                match table.get(kind_of(env, c)?)? {
                    Some(holds) => Some(i64::from(*holds)),
                    None => computed.as_ref()?(env, c).map(|_| i64::from(!eq)),
                }
            }));
        }
    }
    // A card's constant property or tag of a group that may be `none`, compared with a word
    // (`d.faction == t`): `none` equals no word; a property computed for the card's kind, its
    // closure's word.
    if let (BinOp::Eq | BinOp::Ne, Some((of, ce, other))) = (op, optional(a, b)) {
        if card(cx, ce) {
            let p = cx.p;
            let computed = computed_prop(cx, of);
            let table: Box<[Option<Option<i64>>]> = (0..p.kinds.len())
                .map(|k| match of {
                    Read::Prop(pid) => {
                        let v = constant(p, pid, k)?;
                        match v {
                            Value::None => Some(None),
                            _ => word(v).map(Some),
                        }
                    }
                    Read::Tag(g) => Some(tag_of(p, g, k).map(i64::from)),
                })
                .collect();
            let (cf, of) = (compile(cx, ce)?, compile(cx, other)?);
            let eq = op == BinOp::Eq;
            // The card a local or a variable holding `none`: the walker's error (nones.rs), after
            // the other side where that is the first the walker evaluates.
            let none = (super::nones::holds_none(cx, ce), ce.span);
            let card_first = std::ptr::eq(other, b);
            return Ok(Box::new(move |env| {
                let Some(c) = cf(env) else {
                    if !card_first && of(env).is_none() {
                        return None;
                    }
                    return super::nones::no_card(env, &none);
                };
                let mine = match *table.get(kind_of(env, c)?)? {
                    Some(mine) => mine,
                    None => Some(computed.as_ref()?(env, c)?),
                };
                let o = of(env)?;
                Some(((mine == Some(o)) == eq) as i64)
            }));
        }
    }
    // A body's local or a global variable that may hold `none` compared (a parameter given
    // `none`: `k == skip`, `f != none`; `seen != none`): the local's slot or the variable read as
    // it is, `none` (`NONE`) equal to `none` alone.
    let held =
        |cx: &Cx, x: &Expr| as_is(cx, x) || global_word(cx, x).is_some() || player_var_word(cx, x);
    if let (BinOp::Eq | BinOp::Ne, true) = (op, held(cx, a) || held(cx, b)) {
        let mut side = |x: &Expr| match x.kind {
            ExprKind::Local(s) if as_is(cx, x) => {
                let i = cx.slot(s)?;
                cx.read(i);
                Ok(Box::new(move |env: &mut Env| Some(env.slots[i])) as Int)
            }
            ExprKind::Global(v) if global_word(cx, x).is_some() => Ok(Box::new(
                move |env: &mut Env| match env.s.globals.get(env.l.var(v))? {
                    Value::None => Some(NONE),
                    v => word(v),
                },
            ) as Int),
            ExprKind::PlayerVar(v, ref pe) if player_var_word(cx, x) => {
                let pf = compile(cx, pe)?;
                Ok(Box::new(move |env: &mut Env| {
                    let p = usize::try_from(pf(env)?).ok()?;
                    match env.s.pvars.get(p * env.l.n_pvars + env.l.var(v))? {
                        Value::None => Some(NONE),
                        v => word(v),
                    }
                }) as Int)
            }
            _ if nothing(cx, x) => Ok(Box::new(|_: &mut Env| Some(NONE)) as Int),
            _ => super::functions::or_none(cx, x),
        };
        let (af, bf, eq) = (side(a)?, side(b)?, op == BinOp::Eq);
        return Ok(Box::new(move |env| {
            Some(((af(env)? == bf(env)?) == eq) as i64)
        }));
    }
    // Texts compared (`t == ""`): their values, as the walker compares them.
    let texts = |x| super::text_store::is_text(cx, x);
    if let (BinOp::Eq | BinOp::Ne, true) = (op, texts(a) && texts(b)) {
        return super::text_store::compared(cx, op == BinOp::Eq, a, b);
    }
    // A word compared with `none` (`k == none`, or a parameter given `none`): none equals no
    // word, and a word closure answers only for what is not `none`; a function's value or `first`
    // of a list that is `none` is `NONE` (functions::or_none).
    if let (BinOp::Eq | BinOp::Ne, Some(other)) = (
        op,
        [(a, b), (b, a)].into_iter().find(|(x, _)| nothing(cx, x)),
    ) {
        let (of, eq) = (super::functions::or_none(cx, other.1)?, op == BinOp::Eq);
        return Ok(Box::new(move |env| Some(((of(env)? == NONE) == eq) as i64)));
    }
    // A side that may hold `none`: the walker's error for it (nones.rs).
    if let Some(f) = super::nones::arithmetic(cx, op, a, b, span)? {
        return Ok(f);
    }
    let (af, bf) = match op {
        BinOp::And | BinOp::Or => (super::value::truth(cx, a)?, super::value::truth(cx, b)?),
        BinOp::Add
        | BinOp::Sub
        | BinOp::Mul
        | BinOp::Div
        | BinOp::Rem
        | BinOp::Eq
        | BinOp::Ne
        | BinOp::Lt
        | BinOp::Le
        | BinOp::Gt
        | BinOp::Ge
        | BinOp::In
        | BinOp::Concat => (compile(cx, a)?, compile(cx, b)?),
    };
    Ok(match op {
        BinOp::And => Box::new(move |env| Some((af(env)? != 0 && bf(env)? != 0) as i64)),
        BinOp::Or => Box::new(move |env| Some((af(env)? != 0 || bf(env)? != 0) as i64)),
        BinOp::Add => Box::new(move |env| match af(env)?.checked_add(bf(env)?) {
            Some(v) => Some(v),
            None => env.fail(span, OVERFLOW),
        }),
        BinOp::Sub => Box::new(move |env| match af(env)?.checked_sub(bf(env)?) {
            Some(v) => Some(v),
            None => env.fail(span, OVERFLOW),
        }),
        BinOp::Mul => Box::new(move |env| match af(env)?.checked_mul(bf(env)?) {
            Some(v) => Some(v),
            None => env.fail(span, OVERFLOW),
        }),
        BinOp::Div | BinOp::Rem => Box::new(move |env| {
            let (i, j) = (af(env)?, bf(env)?);
            arithmetic_in(env, op, i, j, span)
        }),
        BinOp::Eq => Box::new(move |env| Some((af(env)? == bf(env)?) as i64)),
        BinOp::Ne => Box::new(move |env| Some((af(env)? != bf(env)?) as i64)),
        BinOp::Lt => Box::new(move |env| Some((af(env)? < bf(env)?) as i64)),
        BinOp::Le => Box::new(move |env| Some((af(env)? <= bf(env)?) as i64)),
        BinOp::Gt => Box::new(move |env| Some((af(env)? > bf(env)?) as i64)),
        BinOp::Ge => Box::new(move |env| Some((af(env)? >= bf(env)?) as i64)),
        BinOp::Concat => return Err("lists joined"),
        BinOp::In => return Err("membership, compiled above"),
    })
}

/// A zone instance: shared, or of a player, a card or a space; the zone of a holder that is
/// `none` (where the closures can tell: `nones::holds_none`) fails as the walker's does, "no zone
/// `hand` for none", at `span`, the zone expression's.
pub(crate) fn zone(cx: &mut Cx, z: usize, holder: Option<&Expr>, span: Span) -> C<Int> {
    let def = cx.p.zones.get(z).ok_or("an unknown zone")?;
    let none = holder.and_then(|h| super::nones::holds_none(cx, h));
    let no_holder = move |env: &mut Env| match &none {
        Some(test) if test(env) => env.fail(span, Failure::NoZone(z)),
        _ => None,
    };
    Ok(match (def.scope, holder) {
        (Scope::Shared, _) => Box::new(move |env| Some(*env.l.zone_base.get(z)? as i64)),
        (Scope::PerPlayer, Some(h)) if player(cx, h) => {
            let hf = compile(cx, h)?;
            Box::new(move |env| {
                let Some(p) = hf(env) else {
                    return no_holder(env);
                };
                if p < 0 || p >= *env.l.zone_len.get(z)? as i64 {
                    return None;
                }
                Some(*env.l.zone_base.get(z)? as i64 + p)
            })
        }
        (Scope::PerCard | Scope::PerSpace, Some(h)) => {
            let want = if def.scope == Scope::PerCard {
                Ty::Card
            } else {
                Ty::Space
            };
            if super::stmts::type_of(cx, h) != Some(want) {
                return Err("a zone of an expression not known to be its holder");
            }
            let hf = compile(cx, h)?;
            // A card's zone that nothing was put in yet has no instance: the walker answers.
            Box::new(move |env| {
                let Some(i) = hf(env) else {
                    return no_holder(env);
                };
                if i < 0 || i >= *env.l.zone_len.get(z)? as i64 {
                    return None;
                }
                let zi = *env.l.zone_base.get(z)? as i64 + i;
                (zi < env.s.zones.len() as i64).then_some(zi)
            })
        }
        _ => return Err("a zone of an expression not known to be its holder"),
    })
}
