//! Engine stage: game creation, the explicit frame stack and the execution of statements.

use super::decide::{ChooseMany, MenuFrame, SimulFrame};
use super::state::{Ctx, Layout, State};
use super::trace::Event;
use super::{Outcome, RuntimeError};
use crate::program::{BlockId, Body, Expr, ProcId, Program, Stmt, StmtKind};
use crate::value::Value;
use cardgame_grammar::ast::Span;
use std::sync::Arc;

/// Why decisions are refused inside checks.
const CHECK: &str = "a `check` block";
/// Nested runs (given, do, checks) inside each other before a runtime error.
const MAX_NESTED: usize = 8;

/// Frames on the stack before a runtime error (endless recursion of procedures).
const MAX_FRAMES: usize = 20_000;

pub(super) type R<T> = Result<T, RuntimeError>;

/// The engine at work: the program, the layout and the state, borrowed together.
pub(crate) struct Mach<'a> {
    pub p: &'a Program,
    pub l: &'a Layout,
    pub s: &'a mut State,
    /// While a compiled statement that draws inside its expressions runs: the copy of the game's
    /// generator its closures draw from (closures/draws.rs, `Draws`); `None` everywhere else.
    pub draws: Option<Box<crate::engine::closures::Draws>>,
    /// Where the first closure of the statement running gave way (`None`: none did yet), and the
    /// runtime error it met there, if that is why (closures/env.rs, `Fault`): the segment raises
    /// it where the statement gives way (closures/segments.rs). The walker evaluates in the same
    /// order, so the first closure that gives way is where it would fail first, if it fails.
    pub fault: Option<Option<crate::engine::closures::Fault>>,
}

/// Why the run loop stopped.
#[derive(Debug)]
pub(crate) enum Stop {
    /// A decision is posed: the game's status holds it.
    Decision,
    /// Boxed: a step's result stays two words wide.
    Over(Box<Outcome>),
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

/// The next item of a `for` loop, read from its list.
enum Item {
    Card(u32),
    Player(u8),
    Other(Value),
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
#[repr(u8)]
pub(crate) enum Frame {
    /// A body with its own context (the top of `State::ctxs`).
    Call,
    /// Under the `Call` of `let x = proc(args)`: the caller's slot for the result. Reached when
    /// the procedure ends without `return` (the result is none); `return` pops it itself.
    Result {
        slot: u16,
    },
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
    /// `round { }`: popped (at its end, by `end round` or by any unwinding), it brings back the
    /// players out for the round.
    Round,
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
    Start(Arc<Start>),
}

/// A rules test's `start PROC(args)`: the procedure, its arguments, and the test of the program's
/// they are of, whose closures give them (closures/tested.rs; `None`: the walker evaluates them).
#[derive(Debug)]
pub(crate) struct Start {
    pub proc: ProcId,
    pub args: Vec<Expr>,
    pub test: Option<usize>,
}

impl Frame {
    pub(super) fn is_loop(&self) -> bool {
        matches!(
            self,
            Frame::For { .. } | Frame::While { .. } | Frame::Repeat { .. } | Frame::Loop { .. }
        )
    }
}

impl<'a> Mach<'a> {
    /// The engine at work on state `s` of program `p`, laid out as `l`; no draws kept.
    pub(crate) fn new(p: &'a Program, l: &'a Layout, s: &'a mut State) -> Mach<'a> {
        Mach {
            p,
            l,
            s,
            draws: None,
            fault: None,
        }
    }

    /// A runtime error at `span`, with the position.
    pub fn err(&self, span: Span, message: String) -> RuntimeError {
        RuntimeError::located(self.p, message, span, self.position())
    }

    /// Counts `work` units against the budget between two decisions (a statement, an expression, a
    /// list item: see `GameConfig::max_steps`); an error at `span` once it is spent.
    #[inline]
    pub fn charge(&mut self, work: usize, span: Span) -> R<()> {
        self.s.exec_count += work as u64;
        if self.s.exec_count > self.s.fixed.max_steps {
            return Err(self.over_budget(span));
        }
        Ok(())
    }

    /// Counts work without testing the budget: for statements, whose next step tests it.
    #[inline]
    pub fn charge_later(&mut self, work: usize) {
        self.s.exec_count += work as u64;
    }

    /// The runtime error of a spent budget.
    #[cold]
    #[inline(never)]
    pub fn over_budget(&self, span: Span) -> RuntimeError {
        self.err(
            span,
            format!(
                "ran more than {} steps (statements, expressions, list items) without reaching a \
                 decision: is there a loop that never ends, or a list or a recursion too large?",
                self.s.fixed.max_steps
            ),
        )
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

    /// Runs the statement `i` of the block on top of the stack, or pops the block at its end.
    #[inline(always)]
    fn run_block(&mut self, bl: &'a crate::program::Block, b: BlockId, i: u32) -> R<Flow> {
        let Some(stmt) = bl.stmts.get(i as usize) else {
            // A block holds nothing to drop: popped without `pop_frame`'s dispatch.
            std::mem::forget(self.s.frames.pop());
            return Ok(Flow::Next);
        };
        if let Some(Frame::Block { pc, .. }) = self.s.frames.last_mut() {
            *pc = i + 1;
        }
        // On `Engine::Closures`, a compiled statement starts a segment (closures/segments.rs); any
        // other statement, or one whose closures could not answer, is the walker's. Debug builds:
        // a statement that gave way for a runtime error its closures met fails on the walker with
        // the same error (release builds raise it in `closures::run`).
        #[cfg(debug_assertions)]
        let mut fault = None;
        if self.s.fixed.closures && !self.s.recording {
            let p: &'a Program = self.p;
            if let Some(code) = super::closures::segment(p, b, i) {
                if let Some(flow) = super::closures::run(self, code, i)? {
                    return Ok(flow);
                }
                #[cfg(debug_assertions)]
                {
                    fault = self.fault.take().flatten();
                }
                // Tests count it (`Counted::walked`).
                #[cfg(test)]
                {
                    self.s.probe.counted.walked += 1;
                }
            }
        }
        #[cfg(test)]
        {
            self.s.probe.counted.statements += 1;
        }
        let done = self.exec_walked(stmt, At { block: b, idx: i });
        #[cfg(debug_assertions)]
        super::sites::check_oracle(self.p, fault, &done);
        done
    }

    pub fn stmt(&self, at: At) -> Option<&'a Stmt> {
        let p: &'a Program = self.p;
        p.blocks.get(at.block.index())?.stmts.get(at.idx as usize)
    }

    pub fn push_call(&mut self, ctx: Ctx, block: BlockId) {
        self.s.ctxs.push(ctx);
        // Frames are written where they go (`resize_with`): a frame built first and then copied
        // onto the stack was read back in wider pieces than it had been written, and the copy
        // stalled the processor.
        let n = self.s.frames.len();
        let mut call = true;
        self.s.frames.resize_with(n + 2, || {
            if std::mem::take(&mut call) {
                Frame::Call
            } else {
                Frame::Block { block, pc: 0 }
            }
        });
    }

    pub fn push_block(&mut self, block: BlockId) {
        self.s.frames.push(Frame::Block { block, pc: 0 });
    }

    pub fn pop_frame(&mut self) {
        match self.s.frames.pop() {
            // Frames that hold nothing to drop are forgotten rather than dropped: the generic drop
            // of a frame (a call and a dispatch on its kind) was the most frequent drop of the
            // machine.
            Some(
                f @ (Frame::Block { .. }
                | Frame::Strict
                | Frame::Phase { .. }
                | Frame::While { .. }
                | Frame::Repeat { .. }
                | Frame::Loop { .. }
                | Frame::Result { .. }),
            ) => std::mem::forget(f),
            Some(f @ Frame::Call) => {
                std::mem::forget(f);
                self.s.pop_ctx()
            }
            Some(Frame::Round) => self.round_ended(),
            Some(f @ Frame::Turn { prev, .. }) => {
                std::mem::forget(f);
                self.s.active = prev
            }
            Some(Frame::Menu(m)) => self.s.recycled.get().keep_menu(m),
            _ => {}
        }
    }

    /// Leaves the procedure, ability or trigger being run (`stop`, `return`): unwinds to its call frame.
    pub fn leave_call(&mut self) {
        let i = self
            .s
            .frames
            .iter()
            .rposition(|f| matches!(f, Frame::Call))
            .unwrap_or(0);
        self.unwind_to(i);
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
            self.s.head = self.s.exec_count;
            self.s.exec_count += 1;
            if self.s.exec_count > self.s.fixed.max_steps {
                let span = self.current_span();
                return Err(self.over_budget(span));
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
                    match p.blocks.get(b.index()) {
                        Some(bl) => self.run_block(bl, b, i)?,
                        None => {
                            std::mem::forget(self.s.frames.pop());
                            Flow::Next
                        }
                    }
                }
                Frame::Call | Frame::Strict | Frame::Phase { .. } | Frame::Round => {
                    self.pop_frame();
                    Flow::Next
                }
                Frame::Result { slot } => {
                    let slot = *slot;
                    self.pop_frame();
                    self.set_local(slot, Value::None);
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
                        // By its closure (not while a guard's reads are noted), else by the walker.
                        let on = self.s.fixed.closures && !self.s.recording;
                        let holds =
                            (p.closures.as_deref().filter(|_| on)).and_then(|k| k.holds(self, at));
                        if holds.map_or_else(|| self.eval_bool(c), Ok)? {
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
                        Some(o) => Flow::Stop(Stop::Over(Box::new(o))),
                        None => Flow::Next,
                    }
                }
                Frame::Start(start) => {
                    let start = start.clone();
                    self.pop_frame();
                    let Some(def) = p.procs.get(start.proc.index()) else {
                        return Err(self.err(p.header, "unknown start procedure".into()));
                    };
                    let on = self.s.fixed.closures && !self.s.recording;
                    let closures = p.closures.as_deref().filter(|_| on);
                    let mut locals = Vec::new();
                    for (i, a) in start.args.iter().enumerate() {
                        let compiled = (closures.zip(start.test))
                            .and_then(|(cl, t)| cl.start_arg(t, i, (p, self.s, self.l)));
                        let site = super::sites::Site::Start;
                        locals.push(self.answered_at(site, a, compiled, Mach::eval_at)?);
                    }
                    crate::engine::state::grow_locals(&mut locals, def.body.slots as usize);
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

    /// The span of the statement running at the top of the stack (for errors); the `game` header when
    /// no statement runs.
    pub(crate) fn current_span(&self) -> Span {
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
        self.p.header
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
            return Err(self.err(self.current_span(), format!("{why} nested too deeply")));
        }
        let outer = self.s.outer_phase;
        self.s.outer_phase = self.innermost_phase().or(outer);
        let spare = std::mem::take(&mut self.s.spare_frames.0);
        let frames = std::mem::replace(&mut self.s.frames, spare);
        let base = self.s.ctxs.len();
        self.s.nested += 1;
        let prev = self.s.no_decide.replace(why);
        let locals = self.s.take_locals(body.slots as usize);
        self.push_call(Ctx { locals, you, this }, body.block);
        let head = self.s.head;
        let r = self.run();
        self.s.head = head;
        self.s.nested -= 1;
        self.s.outer_phase = outer;
        let mut used = std::mem::replace(&mut self.s.frames, frames);
        used.clear();
        self.s.spare_frames.0 = used;
        self.s.truncate_ctxs(base);
        self.s.no_decide = prev;
        match r? {
            Stop::Empty => Ok(None),
            Stop::Over(o) => Ok(Some(*o)),
            Stop::Decision => {
                let span = match &self.s.status {
                    super::Status::Decision(d) => d.span,
                    _ => self.current_span(),
                };
                Err(self.err(span, format!("{why} cannot ask for a decision")))
            }
        }
    }

    /// Runs every `check` block; a `win` ends the game.
    pub fn run_checks(&mut self) -> R<Option<Outcome>> {
        let p: &'a Program = self.p;
        // Checks do not run again inside a check (a `turn` there would start them over).
        if self.s.no_decide == Some(CHECK) {
            return Ok(None);
        }
        for (i, c) in p.checks.iter().enumerate() {
            if p.guarded_checks.get(i) == Some(&true) && !self.check_needed(i, *c) {
                continue;
            }
            if let Some(o) = self.run_nested(*c, None, None, CHECK)? {
                return Ok(Some(o));
            }
        }
        Ok(None)
    }

    /// Whether a guarded check (only `if`s, pure conditions) has work to do: some condition holds, or
    /// one fails (the check then runs in full, which reports the error where it belongs). Testing
    /// pure conditions changes nothing, so a check none of whose conditions holds can be skipped.
    pub(crate) fn some_guard_holds(&mut self, body: Body) -> bool {
        let p: &'a Program = self.p;
        let Some(block) = p.blocks.get(body.block.index()) else {
            return true;
        };
        let base = self.s.ctxs.len();
        let locals = self.s.take_locals(body.slots as usize);
        self.s.push_ctx(locals, None, None);
        let mut holds = false;
        'stmts: for st in &block.stmts {
            let StmtKind::If(branches, _) = &st.kind else {
                holds = true;
                break;
            };
            for (c, _) in branches {
                if !matches!(self.eval_bool(c), Ok(false)) {
                    holds = true;
                    break 'stmts;
                }
            }
        }
        self.s.truncate_ctxs(base);
        holds
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
            // A card or a player is written into the local where it goes: a whole value copied
            // through memory is read back in wider pieces than it was written, which stalls.
            let item = match list.get(*idx as usize) {
                None => {
                    self.pop_frame();
                    return Ok(Flow::Next);
                }
                Some(&Value::Card(c)) => Item::Card(c),
                Some(&Value::Player(p)) => Item::Player(p),
                Some(v) => Item::Other(v.clone()),
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
            match item {
                Item::Card(c) => self.set_local(*slot, Value::Card(c)),
                Item::Player(p) => self.set_local(*slot, Value::Player(p)),
                Item::Other(v) => self.set_local(*slot, v),
            }
            if let Some(f) = filter {
                // By its closure (not while a guard's reads are noted), as the compiled loop's
                // filter: an item that fails it is a unit of work. Else by the walker.
                let on = self.s.fixed.closures && !self.s.recording;
                let closures = self.p.closures.as_deref().filter(|_| on);
                match closures.and_then(|k| k.holds(self, at)) {
                    Some(true) => {}
                    Some(false) => {
                        let span = self.stmt(at).map_or(f.span, |st| st.span);
                        self.charge(1, span)?;
                        continue;
                    }
                    None if self.eval_bool(f)? => {}
                    None => continue,
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
                self.emit(ev, &[Value::Player(player)]);
            }
            TurnStage::Checks => {
                if let Some(o) = self.run_checks()? {
                    return Ok(Flow::Stop(Stop::Over(Box::new(o))));
                }
                self.pop_frame();
            }
        }
        Ok(Flow::Next)
    }
}
