//! Engine stage: game creation, the explicit frame stack and the execution of statements.

use super::decide::{ChooseMany, MenuFrame, SimulFrame};
use super::eval::{kind_name, zone_label};
use super::state::{CardState, Ctx, Holder, Layout, State, ZoneInst};
use super::trace::Event;
use super::{Decision, GameConfig, Outcome, RuntimeError};
use crate::program::{
    AssignOp, BlockId, Body, Expr, ProcId, Program, Stmt, StmtKind, Target, TriggerDef, VarId,
    ZoneId,
};
use crate::value::Value;
use cardgame_grammar::ast::{Face, Position, Scope, Span};
use std::sync::Arc;

/// Why decisions are refused inside checks.
const CHECK: &str = "a `check` block";
/// Nested runs (given, do, checks) inside each other before a runtime error.
const MAX_NESTED: usize = 8;

/// Frames on the stack before a runtime error (endless recursion of procedures).
const MAX_FRAMES: usize = 20_000;

type R<T> = Result<T, RuntimeError>;

/// The engine at work: the program, the layout and the state, borrowed together.
pub(crate) struct Mach<'a> {
    pub p: &'a Program,
    pub l: &'a Layout,
    pub s: &'a mut State,
}

/// Why the run loop stopped.
#[derive(Debug)]
pub(crate) enum Stop {
    Decision(Decision),
    Over(Outcome),
    /// The stack is empty.
    Empty,
}

pub(crate) enum Flow {
    Next,
    Stop(Stop),
}

/// A statement's place in the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct At {
    pub block: BlockId,
    pub idx: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TurnStage {
    /// `turn_start` triggers are running; the body comes next.
    Body,
    /// The body is running; `turn_end` comes next.
    End,
    /// `turn_end` triggers are running; the checks come next.
    Checks,
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum TrigRef {
    Global(u16),
    Card(u16, u16),
}

/// One trigger to run for an emitted event.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Invocation {
    pub trig: TrigRef,
    pub card: Option<u32>,
    /// The zone instance the card had to be in (u32::MAX for none).
    pub zone: u32,
    pub you: u8,
}

#[derive(Clone, Debug)]
pub(crate) enum Frame {
    /// A body with its own context (the top of `State::ctxs`).
    Call,
    Block {
        block: BlockId,
        pc: u32,
    },
    For {
        at: At,
        list: Arc<Vec<Value>>,
        idx: u32,
    },
    While {
        at: At,
    },
    Repeat {
        left: i64,
        body: BlockId,
    },
    Loop {
        body: BlockId,
    },
    Strict,
    Turn {
        player: u8,
        prev: u8,
        stage: TurnStage,
        body: BlockId,
    },
    Phase {
        at: At,
    },
    Emit {
        args: Arc<Vec<Value>>,
        list: Arc<Vec<Invocation>>,
        idx: u32,
    },
    Menu(Box<MenuFrame>),
    ChooseOne {
        slot: u16,
        offered: Vec<Value>,
    },
    ChooseMany(Box<ChooseMany>),
    Branch {
        blocks: Vec<BlockId>,
    },
    Simul(Box<SimulFrame>),
    /// A test's `given` body: run on a stack of its own, no decisions.
    Given(Body),
    /// A test's start procedure with its arguments.
    Start(ProcId, Arc<Vec<Expr>>),
}

impl Frame {
    fn is_loop(&self) -> bool {
        matches!(
            self,
            Frame::For { .. } | Frame::While { .. } | Frame::Repeat { .. } | Frame::Loop { .. }
        )
    }
}

/// Creates cards, zones, spaces and variables.
pub(crate) fn create(p: &Program, l: &mut Layout, s: &mut State, config: &GameConfig) -> R<()> {
    let err = |message: String| RuntimeError {
        message,
        span: Span::default(),
        line: 0,
        position: "game creation".into(),
    };
    if config.players == 0 || config.players < p.min_players || config.players > p.max_players {
        return Err(err(format!(
            "{} is for {}..{} players, not {}",
            p.name, p.min_players, p.max_players, config.players
        )));
    }
    s.options = p.options.iter().map(|o| o.default.clone()).collect();
    for (id, v) in &config.options {
        if !super::option_value_ok(p, *id, v) {
            let name = p.options.get(id.index()).map_or("?", |o| o.name.as_str());
            return Err(err(format!("the value {v:?} does not fit option `{name}`")));
        }
        s.options[id.index()] = v.clone();
    }
    for col in &p.columns {
        let Some((_, e)) = col.rows.iter().find(|(n, _)| *n == config.players) else {
            return Err(err(format!(
                "the table has no row for {} players (column `{}`)",
                config.players, col.name
            )));
        };
        let v = Mach { p, l, s }.eval(e)?;
        s.columns.push(v);
    }
    let mut copies = Vec::with_capacity(p.kinds.len());
    for k in &p.kinds {
        let n = Mach { p, l, s }.eval_int(&k.copies)?;
        copies.push(n.clamp(0, 100_000) as u32);
    }
    let total: u64 = copies.iter().map(|&c| c as u64).sum();
    if total > 1_000_000 {
        return Err(err(format!("{total} cards are too many")));
    }
    if let Some(sp) = &p.spaces {
        let w = Mach { p, l, s }.eval_int(&sp.width)?;
        let h = Mach { p, l, s }.eval_int(&sp.height)?;
        if !(0..=1000).contains(&w) || !(0..=1000).contains(&h) || w * h > 60_000 {
            return Err(err(format!("a board of {w} by {h} spaces is not possible")));
        }
        l.width = w;
        l.height = h;
        l.diagonal = sp.diagonal;
        for y in 1..=h {
            for x in 1..=w {
                l.spaces.push((x, y));
            }
        }
    }
    l.ncards = total as u32;
    let nspaces = l.spaces.len() as u32;
    for (zi, def) in p.zones.iter().enumerate() {
        let n = match def.scope {
            Scope::Shared => 1,
            Scope::PerPlayer => config.players as u32,
            Scope::PerCard => l.ncards,
            Scope::PerSpace => nspaces,
        };
        l.zone_base.push(s.zones.len() as u32);
        l.zone_len.push(n);
        for i in 0..n {
            let holder = match def.scope {
                Scope::Shared => Holder::Shared,
                Scope::PerPlayer => Holder::Player(i as u8),
                Scope::PerCard => Holder::Card(i),
                Scope::PerSpace => Holder::Space(i as u16),
            };
            s.zones.push(ZoneInst {
                def: ZoneId(zi as u16),
                holder,
                cards: Vec::new(),
            });
        }
    }
    let Some(&box_inst) = l.zone_base.get(p.box_zone.index()) else {
        return Err(err("the program has no box zone".into()));
    };
    let face = State::default_face(p, p.box_zone);
    for (k, &n) in copies.iter().enumerate() {
        for _ in 0..n {
            let id = s.cards.len() as u32;
            s.cards.push(CardState {
                kind: k as u16,
                zone: box_inst,
                face_up: face,
            });
            s.zones[box_inst as usize].cards.push(id);
        }
    }
    s.globals = vec![Value::None; p.vars.len() - l.n_pvars - l.n_cvars];
    s.pvars = vec![Value::None; l.n_pvars * config.players as usize];
    s.cvars = vec![Value::None; l.n_cvars * l.ncards as usize];
    for (vi, v) in p.vars.iter().enumerate() {
        let slot = l.var_slot[vi] as usize;
        match v.scope {
            Scope::PerPlayer => {
                for pl in 0..config.players {
                    s.ctxs.push(Ctx::new(0, Some(pl), None));
                    let r = Mach { p, l, s }.eval(&v.init);
                    s.ctxs.pop();
                    s.pvars[pl as usize * l.n_pvars + slot] = r?;
                }
            }
            Scope::PerCard => {
                for c in 0..l.ncards {
                    s.ctxs.push(Ctx::new(0, None, Some(c)));
                    let r = Mach { p, l, s }.eval(&v.init);
                    s.ctxs.pop();
                    s.cvars[c as usize * l.n_cvars + slot] = r?;
                }
            }
            _ => {
                let r = Mach { p, l, s }.eval(&v.init)?;
                s.globals[slot] = r;
            }
        }
    }
    Ok(())
}

impl<'a> Mach<'a> {
    /// A runtime error at `span`, with the position.
    pub fn err(&self, span: Span, message: String) -> RuntimeError {
        RuntimeError {
            message,
            span,
            line: self.p.line_of(span.start),
            position: self.position(),
        }
    }

    /// "turn 3, P2 active, phase main".
    pub fn position(&self) -> String {
        let mut out = format!(
            "turn {}, {} active",
            self.s.turn,
            self.s.name(self.s.active)
        );
        let at = self.innermost_phase().or(self.s.outer_phase);
        let phase = at.and_then(|at| match self.stmt(at).map(|s| &s.kind) {
            Some(StmtKind::Phase(name, _)) => Some(name.as_str()),
            _ => None,
        });
        if let Some(ph) = phase {
            out.push_str(", phase ");
            out.push_str(ph);
        }
        out
    }

    fn innermost_phase(&self) -> Option<At> {
        self.s.frames.iter().rev().find_map(|f| match f {
            Frame::Phase { at } => Some(*at),
            _ => None,
        })
    }

    pub fn stmt(&self, at: At) -> Option<&'a Stmt> {
        let p: &'a Program = self.p;
        p.blocks.get(at.block.index())?.stmts.get(at.idx as usize)
    }

    pub fn push_call(&mut self, ctx: Ctx, block: BlockId) {
        self.s.ctxs.push(ctx);
        self.s.frames.push(Frame::Call);
        self.s.frames.push(Frame::Block { block, pc: 0 });
    }

    pub fn push_block(&mut self, block: BlockId) {
        self.s.frames.push(Frame::Block { block, pc: 0 });
    }

    pub fn pop_frame(&mut self) {
        match self.s.frames.pop() {
            Some(Frame::Call) => self.s.pop_ctx(),
            Some(Frame::Turn { prev, .. }) => self.s.active = prev,
            _ => {}
        }
    }

    pub fn unwind_to(&mut self, len: usize) {
        while self.s.frames.len() > len {
            self.pop_frame();
        }
    }

    /// Runs until a decision, the end of the game or an empty stack.
    pub fn run(&mut self) -> R<Stop> {
        let p: &'a Program = self.p;
        loop {
            self.s.exec_count += 1;
            if self.s.exec_count > self.s.max_steps {
                let span = self.current_span();
                return Err(self.err(
                    span,
                    format!(
                        "ran {} statements without reaching a decision: is there a loop that never ends?",
                        self.s.max_steps
                    ),
                ));
            }
            if self.s.frames.len() > MAX_FRAMES {
                let span = self.current_span();
                return Err(self.err(
                    span,
                    "procedures nested too deeply (endless recursion?)".into(),
                ));
            }
            let Some(top) = self.s.frames.last_mut() else {
                return Ok(Stop::Empty);
            };
            let flow = match top {
                Frame::Block { block, pc } => {
                    let (b, i) = (*block, *pc);
                    match p
                        .blocks
                        .get(b.index())
                        .and_then(|bl| bl.stmts.get(i as usize))
                    {
                        Some(stmt) => {
                            *pc += 1;
                            self.exec(stmt, At { block: b, idx: i })?
                        }
                        None => {
                            self.pop_frame();
                            Flow::Next
                        }
                    }
                }
                Frame::Call | Frame::Strict | Frame::Phase { .. } => {
                    self.pop_frame();
                    Flow::Next
                }
                Frame::For { .. } => self.step_for()?,
                Frame::While { at } => {
                    let at = *at;
                    if let Some(Stmt {
                        kind: StmtKind::While(c, body),
                        ..
                    }) = self.stmt(at)
                    {
                        if self.eval_bool(c)? {
                            self.push_block(*body);
                        } else {
                            self.pop_frame();
                        }
                    } else {
                        self.pop_frame();
                    }
                    Flow::Next
                }
                Frame::Repeat { left, body } => {
                    if *left > 0 {
                        *left -= 1;
                        let b = *body;
                        self.push_block(b);
                    } else {
                        self.pop_frame();
                    }
                    Flow::Next
                }
                Frame::Loop { body } => {
                    let b = *body;
                    self.push_block(b);
                    Flow::Next
                }
                Frame::Turn { .. } => self.step_turn()?,
                Frame::Emit { .. } => self.step_emit()?,
                Frame::Menu(_) => self.step_menu()?,
                Frame::ChooseMany(_) => self.step_many()?,
                Frame::Simul(_) => self.step_simul()?,
                Frame::ChooseOne { .. } | Frame::Branch { .. } => {
                    // Answered frames are popped by `answer`; one left here was never posed.
                    self.pop_frame();
                    Flow::Next
                }
                Frame::Given(body) => {
                    let body = *body;
                    self.pop_frame();
                    match self.run_nested(body, None, None, "a `given` block")? {
                        Some(o) => Flow::Stop(Stop::Over(o)),
                        None => Flow::Next,
                    }
                }
                Frame::Start(proc, args) => {
                    let (proc, args) = (*proc, args.clone());
                    self.pop_frame();
                    let Some(def) = p.procs.get(proc.index()) else {
                        return Err(self.err(Span::default(), "unknown start procedure".into()));
                    };
                    let mut locals = Vec::new();
                    for a in args.iter() {
                        locals.push(self.eval(a)?);
                    }
                    locals.resize((def.body.slots as usize).max(locals.len()), Value::None);
                    self.push_call(
                        Ctx {
                            locals,
                            you: None,
                            this: None,
                        },
                        def.body.block,
                    );
                    Flow::Next
                }
            };
            if let Flow::Stop(s) = flow {
                return Ok(s);
            }
        }
    }

    /// The span of the statement running at the top of the stack (for errors).
    fn current_span(&self) -> Span {
        for f in self.s.frames.iter().rev() {
            if let Frame::Block { block, pc } = f {
                if let Some(s) = self.stmt(At {
                    block: *block,
                    idx: pc.saturating_sub(1),
                }) {
                    return s.span;
                }
            }
        }
        Span::default()
    }

    /// Runs a body on a stack of its own where no decision may be asked for.
    pub fn run_nested(
        &mut self,
        body: Body,
        you: Option<u8>,
        this: Option<u32>,
        why: &'static str,
    ) -> R<Option<Outcome>> {
        if self.s.nested >= MAX_NESTED {
            return Err(self.err(Span::default(), format!("{why} nested too deeply")));
        }
        let outer = self.s.outer_phase;
        self.s.outer_phase = self.innermost_phase().or(outer);
        let spare = std::mem::take(&mut self.s.spare_frames);
        let frames = std::mem::replace(&mut self.s.frames, spare);
        let base = self.s.ctxs.len();
        self.s.nested += 1;
        let prev = self.s.no_decide.replace(why);
        self.push_call(Ctx::new(body.slots, you, this), body.block);
        let r = self.run();
        self.s.nested -= 1;
        self.s.outer_phase = outer;
        let mut used = std::mem::replace(&mut self.s.frames, frames);
        used.clear();
        self.s.spare_frames = used;
        self.s.truncate_ctxs(base);
        self.s.no_decide = prev;
        match r? {
            Stop::Empty => Ok(None),
            Stop::Over(o) => Ok(Some(o)),
            Stop::Decision(d) => Err(self.err(d.span, format!("{why} cannot ask for a decision"))),
        }
    }

    /// Runs every `check` block; a `win` ends the game.
    pub fn run_checks(&mut self) -> R<Option<Outcome>> {
        let p: &'a Program = self.p;
        // Checks do not run again inside a check (a `turn` there would start them over).
        if self.s.no_decide == Some(CHECK) {
            return Ok(None);
        }
        for c in &p.checks {
            if let Some(o) = self.run_nested(*c, None, None, CHECK)? {
                return Ok(Some(o));
            }
        }
        Ok(None)
    }

    /// A statement failed: unwind to the innermost `strict`, or note it and go on.
    pub fn fail(&mut self, span: Span) -> Flow {
        let line = self.p.line_of(span.start);
        self.s.push_event(Event::Fail { line });
        if let Some(i) = self
            .s
            .frames
            .iter()
            .rposition(|f| matches!(f, Frame::Strict))
        {
            self.unwind_to(i);
        }
        Flow::Next
    }

    fn step_for(&mut self) -> R<Flow> {
        loop {
            let Some(Frame::For { at, list, idx }) = self.s.frames.last_mut() else {
                return Ok(Flow::Next);
            };
            let at = *at;
            let Some(v) = list.get(*idx as usize).cloned() else {
                self.pop_frame();
                return Ok(Flow::Next);
            };
            *idx += 1;
            let Some(Stmt {
                kind: StmtKind::For {
                    slot, filter, body, ..
                },
                ..
            }) = self.stmt(at)
            else {
                self.pop_frame();
                return Ok(Flow::Next);
            };
            self.set_local(*slot, v);
            if let Some(f) = filter {
                if !self.eval_bool(f)? {
                    continue;
                }
            }
            self.push_block(*body);
            return Ok(Flow::Next);
        }
    }

    fn step_turn(&mut self) -> R<Flow> {
        let Some(Frame::Turn {
            player,
            stage,
            body,
            ..
        }) = self.s.frames.last_mut()
        else {
            return Ok(Flow::Next);
        };
        let (player, body) = (*player, *body);
        match *stage {
            TurnStage::Body => {
                *stage = TurnStage::End;
                self.push_block(body);
            }
            TurnStage::End => {
                *stage = TurnStage::Checks;
                let ev = self.p.turn_end;
                self.emit(ev, vec![Value::Player(player)]);
            }
            TurnStage::Checks => {
                if let Some(o) = self.run_checks()? {
                    return Ok(Flow::Stop(Stop::Over(o)));
                }
                self.pop_frame();
            }
        }
        Ok(Flow::Next)
    }

    /// Pushes the triggers of an event (they run before the next statement).
    pub fn emit(&mut self, ev: crate::program::EventId, args: Vec<Value>) {
        let p: &'a Program = self.p;
        let l: &'a Layout = self.l;
        let e = ev.index();
        let mut list = Vec::new();
        let active = self.s.active;
        if let Some(g) = l.glob_trigs.get(e) {
            for &t in g {
                list.push(Invocation {
                    trig: TrigRef::Global(t),
                    card: None,
                    zone: u32::MAX,
                    you: active,
                });
            }
        }
        let families = l.families.get(e).map(|f| f.as_slice()).unwrap_or(&[]);
        let n = self.s.players;
        let add_zone = |s: &State, list: &mut Vec<Invocation>, fam: ZoneId, z: u32| {
            let Some(zi) = s.zones.get(z as usize) else {
                return;
            };
            let you = s.zone_owner(z).unwrap_or(active);
            for &c in zi.cards.iter().rev() {
                let kind = s.cards[c as usize].kind;
                let Some(ts) = l.kind_trigs.get(kind as usize * l.nevents + e) else {
                    continue;
                };
                for &t in ts {
                    let trig = &p.kinds[kind as usize].triggers[t as usize];
                    if trig.zone == Some(fam) {
                        list.push(Invocation {
                            trig: TrigRef::Card(kind, t),
                            card: Some(c),
                            zone: z,
                            you,
                        });
                    }
                }
            }
        };
        for k in 0..n {
            let seat = ((active as u32 + k as u32) % n as u32) as u8;
            for &fam in families {
                if p.zones.get(fam.index()).map(|d| d.scope) == Some(Scope::PerPlayer) {
                    if let Some(base) = l.zone_base.get(fam.index()) {
                        add_zone(self.s, &mut list, fam, base + seat as u32);
                    }
                }
            }
        }
        for &fam in families {
            if p.zones.get(fam.index()).map(|d| d.scope) != Some(Scope::PerPlayer) {
                let base = l.zone_base.get(fam.index()).copied().unwrap_or(0);
                for i in 0..l.zone_len.get(fam.index()).copied().unwrap_or(0) {
                    add_zone(self.s, &mut list, fam, base + i);
                }
            }
        }
        if l.anywhere.get(e).copied().unwrap_or(false) {
            for (c, cs) in self.s.cards.iter().enumerate() {
                let Some(ts) = l.kind_trigs.get(cs.kind as usize * l.nevents + e) else {
                    continue;
                };
                for &t in ts {
                    if p.kinds[cs.kind as usize].triggers[t as usize]
                        .zone
                        .is_none()
                    {
                        let you = self.s.zone_owner(cs.zone).unwrap_or(active);
                        list.push(Invocation {
                            trig: TrigRef::Card(cs.kind, t),
                            card: Some(c as u32),
                            zone: cs.zone,
                            you,
                        });
                    }
                }
            }
        }
        if !list.is_empty() {
            self.s.frames.push(Frame::Emit {
                args: Arc::new(args),
                list: Arc::new(list),
                idx: 0,
            });
        }
    }

    fn trigger(&self, t: TrigRef) -> Option<&'a TriggerDef> {
        let p: &'a Program = self.p;
        match t {
            TrigRef::Global(i) => p.triggers.get(i as usize),
            TrigRef::Card(k, i) => p.kinds.get(k as usize)?.triggers.get(i as usize),
        }
    }

    fn step_emit(&mut self) -> R<Flow> {
        let Some(Frame::Emit { args, list, idx }) = self.s.frames.last_mut() else {
            return Ok(Flow::Next);
        };
        let Some(inv) = list.get(*idx as usize).copied() else {
            self.pop_frame();
            return Ok(Flow::Next);
        };
        *idx += 1;
        let args = args.clone();
        let Some(trig) = self.trigger(inv.trig) else {
            return Ok(Flow::Next);
        };
        if let Some(c) = inv.card {
            if self.s.cards.get(c as usize).map(|cs| cs.zone) != Some(inv.zone) {
                return Ok(Flow::Next);
            }
        }
        let mut locals = self.s.take_locals(0);
        locals.extend(args.iter().cloned());
        locals.resize((trig.body.slots as usize).max(locals.len()), Value::None);
        let base = self.s.ctxs.len();
        self.s.push_ctx(locals, Some(inv.you), inv.card);
        if let Some(c) = &trig.condition {
            let holds = self.eval_bool(c);
            if !holds.as_ref().is_ok_and(|h| *h) {
                self.s.truncate_ctxs(base);
                holds?;
                return Ok(Flow::Next);
            }
        }
        self.s.frames.push(Frame::Call);
        self.push_block(trig.body.block);
        Ok(Flow::Next)
    }

    /// Executes one statement.
    fn exec(&mut self, stmt: &'a Stmt, at: At) -> R<Flow> {
        let span = stmt.span;
        match &stmt.kind {
            StmtKind::Let(slot, e) => {
                let v = self.eval(e)?;
                self.set_local(*slot, v);
            }
            StmtKind::Choose(slot, ch) => return self.exec_choose(stmt, *slot, ch, at),
            StmtKind::Assign(t, op, e) => {
                let v = self.eval(e)?;
                let place = self.place(t)?;
                let new = match op {
                    AssignOp::Set => v,
                    _ => {
                        let cur = self.read_place(&place);
                        self.combine(*op, cur, v, span)?
                    }
                };
                self.write_place(&place, new, span)?;
            }
            StmtKind::Move {
                what,
                to,
                position,
                face,
            } => return self.exec_move(what, to, *position, *face, span),
            StmtKind::Shuffle(e) => {
                let z = self.eval_zone(e)?;
                let cards = &mut self.s.zones[z as usize].cards;
                rand::seq::SliceRandom::shuffle(cards.as_mut_slice(), &mut self.s.rng);
                if self.s.record {
                    let zone = zone_label(self.p, self.l, self.s, z);
                    self.s.events.push(Event::Shuffle { zone, from: None });
                }
            }
            StmtKind::Pay(e, t) => {
                let amount = self.eval_int(e)?;
                let place = self.place(t)?;
                let cur = self.read_place(&place);
                match cur {
                    Value::Int(have) if have >= amount => {
                        self.write_place(&place, Value::Int(have - amount), span)?;
                    }
                    Value::Int(_) | Value::None => return Ok(self.fail(span)),
                    v => {
                        return Err(self.err(span, format!("cannot pay from {}", self.describe(&v))))
                    }
                }
            }
            StmtKind::Reveal(e, up) => {
                let v = self.eval(e)?;
                for c in self.cards_of(v, e.span)?.into_iter().flatten() {
                    self.s.cards[c as usize].face_up = *up;
                    if self.s.record {
                        let cs = &self.s.cards[c as usize];
                        let ev = Event::Reveal {
                            card: c,
                            kind: kind_name(self.p, cs.kind),
                            zone: zone_label(self.p, self.l, self.s, cs.zone),
                            face_up: *up,
                        };
                        self.s.events.push(ev);
                    }
                }
            }
            StmtKind::If(branches, other) => {
                for (c, b) in branches {
                    if self.eval_bool(c)? {
                        self.push_block(*b);
                        return Ok(Flow::Next);
                    }
                }
                if let Some(b) = other {
                    self.push_block(*b);
                }
            }
            StmtKind::For { list, .. } => {
                let list = self.eval_list(list)?;
                self.s.frames.push(Frame::For { at, list, idx: 0 });
            }
            StmtKind::While(..) => self.s.frames.push(Frame::While { at }),
            StmtKind::Repeat(n, body) => {
                let left = self.eval_int(n)?;
                self.s.frames.push(Frame::Repeat { left, body: *body });
            }
            StmtKind::Loop(body) => self.s.frames.push(Frame::Loop { body: *body }),
            StmtKind::Break => {
                let mut i = self.s.frames.len();
                loop {
                    if i == 0 {
                        return Err(self.err(span, "`break` outside a loop".into()));
                    }
                    i -= 1;
                    match &self.s.frames[i] {
                        f if f.is_loop() => break,
                        Frame::Call => return Err(self.err(span, "`break` outside a loop".into())),
                        _ => {}
                    }
                }
                self.unwind_to(i);
            }
            StmtKind::Require(c) => {
                if !self.eval_bool(c)? {
                    return Ok(self.fail(span));
                }
            }
            StmtKind::Strict(b) => {
                self.s.frames.push(Frame::Strict);
                self.push_block(*b);
            }
            StmtKind::Stop => {
                let i = self
                    .s
                    .frames
                    .iter()
                    .rposition(|f| matches!(f, Frame::Call))
                    .unwrap_or(0);
                self.unwind_to(i);
            }
            StmtKind::Perform {
                ability,
                card,
                as_card,
                by,
            } => {
                let v = self.eval(card)?;
                let Value::Card(c) = v else {
                    if v.is_none() {
                        return Ok(self.fail(span));
                    }
                    return Err(self.err(
                        card.span,
                        format!("expected a card, found {}", self.describe(&v)),
                    ));
                };
                let c = self.as_card(&Value::Card(c), card.span)?;
                let kind = self.s.cards[c as usize].kind as usize;
                let p: &'a Program = self.p;
                let Some(body) = p
                    .kinds
                    .get(kind)
                    .and_then(|k| k.abilities.get(ability.index()))
                    .and_then(|b| b.as_ref())
                else {
                    return Ok(self.fail(span));
                };
                let this = match as_card {
                    Some(e) => self.eval_card(e)?,
                    None => c,
                };
                let you = match by {
                    Some(e) => self.eval_player(e)?,
                    None => self.s.card_owner(c).unwrap_or(self.s.active),
                };
                let locals = self.s.take_locals(body.slots as usize);
                self.push_call(
                    Ctx {
                        locals,
                        you: Some(you),
                        this: Some(this),
                    },
                    body.block,
                );
            }
            StmtKind::Emit(ev, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(a)?);
                }
                self.emit(*ev, vals);
            }
            StmtKind::Call(proc, args) => {
                let p: &'a Program = self.p;
                let Some(def) = p.procs.get(proc.index()) else {
                    return Err(self.err(span, "unknown procedure".into()));
                };
                let mut locals = self.s.take_locals(0);
                for a in args {
                    locals.push(self.eval(a)?);
                }
                locals.resize((def.body.slots as usize).max(locals.len()), Value::None);
                let (you, this) = (self.you(), self.this());
                self.push_call(Ctx { locals, you, this }, def.body.block);
            }
            StmtKind::Turn(e, body) => {
                let player = self.eval_player(e)?;
                if !self.s.living(player) {
                    return Ok(Flow::Next);
                }
                if self.s.turn >= self.s.max_turns {
                    return Ok(Flow::Stop(Stop::Over(Outcome {
                        winners: Vec::new(),
                        reason: format!("turn limit of {} turns reached", self.s.max_turns),
                        finished: false,
                    })));
                }
                let prev = self.s.active;
                self.s.frames.push(Frame::Turn {
                    player,
                    prev,
                    stage: TurnStage::Body,
                    body: *body,
                });
                self.s.active = player;
                self.s.turn += 1;
                let name = self.s.name(player);
                self.s.push_event(Event::Turn {
                    turn: self.s.turn,
                    player,
                    name,
                });
                let ev = self.p.turn_start;
                self.emit(ev, vec![Value::Player(player)]);
            }
            StmtKind::Phase(name, body) => {
                self.s.frames.push(Frame::Phase { at });
                if self.s.record {
                    self.s.events.push(Event::Phase { name: name.clone() });
                }
                self.push_block(*body);
            }
            StmtKind::EndTurn => {
                let Some(i) = self
                    .s
                    .frames
                    .iter()
                    .rposition(|f| matches!(f, Frame::Turn { .. }))
                else {
                    return Err(self.err(span, "`end turn` outside a turn".into()));
                };
                self.unwind_to(i + 1);
                if let Some(Frame::Turn { stage, .. }) = self.s.frames.last_mut() {
                    if *stage == TurnStage::Body {
                        *stage = TurnStage::End;
                    }
                }
            }
            StmtKind::EndPhase => {
                let Some(i) = self
                    .s
                    .frames
                    .iter()
                    .rposition(|f| matches!(f, Frame::Phase { .. }))
                else {
                    return Err(self.err(span, "`end phase` outside a phase".into()));
                };
                self.unwind_to(i);
            }
            StmtKind::Actions { by, mode, .. } => {
                let decider = self.eval_player(by)?;
                let left = match mode {
                    crate::program::MenuMode::Times(n) => Some(self.eval_int(n)?),
                    _ => None,
                };
                self.s.frames.push(Frame::Menu(Box::new(MenuFrame {
                    at,
                    decider,
                    left,
                    taken: 0,
                    offered: Vec::new(),
                })));
            }
            StmtKind::ChooseBranch {
                by,
                prompt,
                branches,
            } => return self.exec_branch(stmt, by.as_ref(), prompt.as_ref(), branches),
            StmtKind::Simultaneously { players, .. } => {
                let v = self.eval(players)?;
                let list = match v {
                    Value::Player(_) => vec![v],
                    v => self.as_list(v, players.span)?.to_vec(),
                };
                let mut ps = Vec::with_capacity(list.len());
                for v in &list {
                    ps.push(self.as_player(v, players.span)?);
                }
                self.s
                    .frames
                    .push(Frame::Simul(Box::new(SimulFrame::new(at, ps))));
            }
            StmtKind::Eliminate(e) => {
                let v = self.eval(e)?;
                for p in self.players_of(v, e.span)? {
                    if self.s.living(p) {
                        self.s.eliminated[p as usize] = true;
                        let name = self.s.name(p);
                        self.s.push_event(Event::Eliminated { player: p, name });
                    }
                }
            }
            StmtKind::Win(e, reason) => {
                let v = self.eval(e)?;
                let mut winners = Vec::new();
                for p in self.players_of(v, e.span)? {
                    if !winners.contains(&p) {
                        winners.push(p);
                    }
                }
                let reason = self.text(reason)?;
                return Ok(Flow::Stop(Stop::Over(Outcome {
                    winners,
                    reason,
                    finished: true,
                })));
            }
            StmtKind::Log(t) => {
                let text = self.text(t)?;
                self.s.push_event(Event::Log { text });
            }
        }
        Ok(Flow::Next)
    }

    fn players_of(&self, v: Value, span: Span) -> R<Vec<u8>> {
        match v {
            Value::Player(p) => Ok(vec![self.as_player(&Value::Player(p), span)?]),
            v => {
                let l = self.as_list(v, span)?;
                l.iter().map(|x| self.as_player(x, span)).collect()
            }
        }
    }

    /// The cards named by a value: a card, a list of cards or a zone; `None` entries for `none`.
    fn cards_of(&self, v: Value, span: Span) -> R<Vec<Option<u32>>> {
        match v {
            Value::None => Ok(vec![None]),
            Value::Card(c) => Ok(vec![Some(self.as_card(&Value::Card(c), span)?)]),
            Value::Zone(_) | Value::List(_) => {
                let l = self.as_list(v, span)?;
                l.iter()
                    .map(|x| match x {
                        Value::None => Ok(None),
                        x => self.as_card(x, span).map(Some),
                    })
                    .collect()
            }
            v => Err(self.err(span, format!("expected cards, found {}", self.describe(&v)))),
        }
    }

    fn exec_move(
        &mut self,
        what: &Expr,
        to: &Expr,
        position: Position,
        face: Option<Face>,
        span: Span,
    ) -> R<Flow> {
        self.s.short = false;
        let v = self.eval(what)?;
        let mut failed = self.s.short;
        let target = self.eval_zone(to)?;
        let cards = self.cards_of(v, what.span)?;
        for c in cards {
            match c {
                Some(c) => {
                    if !self.move_card(c, target, position, face)? {
                        failed = true;
                    }
                }
                None => failed = true,
            }
        }
        Ok(if failed { self.fail(span) } else { Flow::Next })
    }

    /// Moves one card; false when the target zone is full.
    pub fn move_card(
        &mut self,
        c: u32,
        target: u32,
        position: Position,
        face: Option<Face>,
    ) -> R<bool> {
        let p: &'a Program = self.p;
        let from = self.s.cards[c as usize].zone;
        let def = self.s.zones[target as usize].def;
        if from != target {
            if let Some(max) = p.zones.get(def.index()).and_then(|d| d.max.as_ref()) {
                let you = self.s.zone_owner(target);
                let this = match self.s.zones[target as usize].holder {
                    Holder::Card(h) => Some(h),
                    _ => None,
                };
                let base = self.s.ctxs.len();
                self.s.ctxs.push(Ctx {
                    locals: Vec::new(),
                    you: you.or(Some(self.s.active)),
                    this,
                });
                let m = self.eval_int(max);
                self.s.truncate_ctxs(base);
                if self.s.zones[target as usize].cards.len() as i64 >= m? {
                    return Ok(false);
                }
            }
        }
        let old_face = self.s.cards[c as usize].face_up;
        let cards = &mut self.s.zones[from as usize].cards;
        if let Some(i) = cards.iter().rposition(|&x| x == c) {
            cards.remove(i);
        }
        let up = match face {
            Some(Face::Up) => true,
            Some(Face::Down) => false,
            None => State::default_face(p, def),
        };
        let cards = &mut self.s.zones[target as usize].cards;
        match position {
            Position::Top => cards.push(c),
            Position::Bottom => cards.insert(0, c),
        }
        let cs = &mut self.s.cards[c as usize];
        cs.zone = target;
        cs.face_up = up;
        if self.s.record {
            let seen = self.s.seen_mask(p, from, old_face) | self.s.seen_mask(p, target, up);
            let ev = Event::Move {
                card: c,
                kind: kind_name(p, self.s.cards[c as usize].kind),
                from: zone_label(p, self.l, self.s, from),
                to: zone_label(p, self.l, self.s, target),
                face_up: up,
                seen,
            };
            self.s.events.push(ev);
        }
        Ok(true)
    }
}

/// A variable place, resolved.
pub(crate) enum Place {
    Local(u16),
    Global(usize, usize),
    Player(usize, u8),
    Card(usize, u32),
}

impl<'a> Mach<'a> {
    fn place(&mut self, t: &Target) -> R<Place> {
        Ok(match t {
            Target::Local(s) => Place::Local(*s),
            Target::Global(v) => Place::Global(v.index(), self.l.var(*v)),
            Target::Player(v, e) => Place::Player(v.index(), self.eval_player(e)?),
            Target::Card(v, e) => Place::Card(v.index(), self.eval_card(e)?),
        })
    }

    fn read_place(&self, pl: &Place) -> Value {
        match *pl {
            Place::Local(s) => self.local(s),
            Place::Global(_, i) => self.s.globals.get(i).cloned().unwrap_or_default(),
            Place::Player(v, p) => {
                let i = p as usize * self.l.n_pvars + self.l.var(VarId(v as u16));
                self.s.pvars.get(i).cloned().unwrap_or_default()
            }
            Place::Card(v, c) => {
                let i = c as usize * self.l.n_cvars + self.l.var(VarId(v as u16));
                self.s.cvars.get(i).cloned().unwrap_or_default()
            }
        }
    }

    fn write_place(&mut self, pl: &Place, mut v: Value, span: Span) -> R<()> {
        let p: &'a Program = self.p;
        let (var, you, this) = match *pl {
            Place::Local(s) => {
                self.set_local(s, v);
                return Ok(());
            }
            Place::Global(var, _) => (var, self.you(), self.this()),
            Place::Player(var, pl) => (var, Some(pl), self.this()),
            Place::Card(var, c) => (var, self.you(), Some(c)),
        };
        if let (Some(def), Value::Int(mut x)) = (p.vars.get(var), &v) {
            if def.min.is_some() || def.max.is_some() {
                let base = self.s.ctxs.len();
                self.s.ctxs.push(Ctx {
                    locals: Vec::new(),
                    you,
                    this,
                });
                let lo = def.min.as_ref().map(|e| self.eval_int(e)).transpose();
                let hi = def.max.as_ref().map(|e| self.eval_int(e)).transpose();
                self.s.truncate_ctxs(base);
                if let Some(hi) = hi? {
                    x = x.min(hi);
                }
                if let Some(lo) = lo? {
                    x = x.max(lo);
                }
                v = Value::Int(x);
            }
        }
        let slot = self.l.var_slot.get(var).copied().unwrap_or(0) as usize;
        let cell = match *pl {
            Place::Global(..) => self.s.globals.get_mut(slot),
            Place::Player(_, pl) => self.s.pvars.get_mut(pl as usize * self.l.n_pvars + slot),
            Place::Card(_, c) => self.s.cvars.get_mut(c as usize * self.l.n_cvars + slot),
            Place::Local(_) => None,
        };
        match cell {
            Some(cell) => {
                *cell = v;
                Ok(())
            }
            None => Err(self.err(span, "unknown variable".into())),
        }
    }

    fn combine(&self, op: AssignOp, cur: Value, v: Value, span: Span) -> R<Value> {
        match (cur, v) {
            (Value::Int(a), Value::Int(b)) => {
                let r = if op == AssignOp::Sub {
                    a.checked_sub(b)
                } else {
                    a.checked_add(b)
                };
                r.map(Value::Int)
                    .ok_or_else(|| self.err(span, "arithmetic overflow".into()))
            }
            (Value::List(a), b) => {
                let mut out = a.to_vec();
                let items: Vec<Value> = match b {
                    Value::List(l) => l.to_vec(),
                    Value::Zone(_) => self.as_list(b, span)?.to_vec(),
                    x => vec![x],
                };
                if op == AssignOp::Sub {
                    out.retain(|x| !items.contains(x));
                } else {
                    out.extend(items);
                    if out.len() > super::eval::MAX_LIST {
                        return Err(self.err(span, "this list grew too long".into()));
                    }
                }
                Ok(Value::list(out))
            }
            (Value::None, b) if op == AssignOp::Add => Ok(b),
            (a, b) => Err(self.err(
                span,
                format!(
                    "cannot combine {} and {}",
                    self.describe(&a),
                    self.describe(&b)
                ),
            )),
        }
    }
}
