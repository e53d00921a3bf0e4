//! Engine stage: the execution of statements (moves, variables, loops, turns, failure).

use super::eval::MAX_DEPTH;
use super::exec::{At, Flow, Frame, Mach, Stop, TurnStage};
use super::label::{kind_name, zone_label};
use super::state::{Ctx, Holder};
use super::trace::Event;
use super::{Outcome, RuntimeError};
use crate::program::{AssignOp, Expr, ExprKind, Program, Stmt, StmtKind, Target, TextIr, VarId};
use crate::value::Value;
use cardgame_grammar::ast::{Face, Position, Span};

type R<T> = Result<T, RuntimeError>;

impl<'a> Mach<'a> {
    /// `break`: unwinds the innermost loop's frame, in the procedure being run (compiled loops
    /// running inline catch their `break` themselves: closures/stmts.rs).
    pub(crate) fn leave_loop(&mut self, span: Span) -> R<()> {
        let inside = |f: &Frame| f.is_loop() || matches!(f, Frame::Call);
        match self.s.frames.iter().rposition(inside) {
            Some(i) if self.s.frames[i].is_loop() => {
                self.unwind_to(i);
                Ok(())
            }
            _ => Err(self.err(span, "`break` outside a loop".into())),
        }
    }

    /// A turn past the turn limit: the game ends with no winner.
    pub(crate) fn turn_limit(&self) -> Flow {
        Flow::Stop(Stop::Over(Box::new(Outcome {
            winners: Vec::new(),
            participants: Vec::new(),
            reason: format!("turn limit of {} turns reached", self.s.fixed.max_turns),
            finished: false,
            flow_ended: false,
        })))
    }

    /// Executes one statement, every form, reporting what it reports.
    pub(crate) fn exec_walked(&mut self, stmt: &'a Stmt, at: At) -> R<Flow> {
        let span = stmt.span;
        match &stmt.kind {
            StmtKind::Let(slot, e) => {
                let v = self.eval(e)?;
                self.set_local(*slot, v);
            }
            StmtKind::Choose(slot, ch) => return self.exec_choose(stmt, *slot, ch, at, None),
            StmtKind::Assign(t, op, e) => {
                let v = self.eval(e)?;
                self.assign_value(t, *op, v, span)?;
            }
            StmtKind::Move {
                what,
                to,
                position,
                face,
            } => return self.exec_move(what, to, *position, *face, span),
            StmtKind::Shuffle(e) => {
                let z = self.eval_zone(e)?;
                self.shuffle_zone(z);
            }
            StmtKind::Pay(e, t) => {
                let amount = self.eval_int(e)?;
                let place = self.place(t)?;
                let cur = self.read_place(&place);
                match cur {
                    Value::Int(have) if have >= amount => {
                        // A negative amount adds: past the largest number it is an overflow.
                        let Some(left) = have.checked_sub(amount) else {
                            return Err(self.err(span, "arithmetic overflow".into()));
                        };
                        self.write_place(&place, Value::Int(left), span)?;
                    }
                    Value::Int(_) | Value::None => return Ok(self.fail(span)),
                    v => {
                        return Err(self.err(span, format!("cannot pay from {}", self.describe(&v))))
                    }
                }
            }
            StmtKind::Show(e, who) => {
                let v = self.eval(e)?;
                let seat = self.eval_player(who)?;
                self.show_value(v, seat, e.span)?;
            }
            StmtKind::Reveal(e, up) => {
                let v = self.eval(e)?;
                self.reveal_value(v, *up, e.span)?;
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
            StmtKind::Break => self.leave_loop(span)?,
            StmtKind::Require(c) => {
                if !self.eval_bool(c)? {
                    return Ok(self.fail(span));
                }
            }
            StmtKind::Strict(b) => {
                self.s.frames.push(Frame::Strict);
                self.push_block(*b);
            }
            StmtKind::Stop => self.leave_call(),
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
                let nk = p.kinds.len();
                if self.s.tally.performed.is_empty() {
                    self.s.tally.performed = vec![0; self.s.players as usize * nk];
                }
                let performer = self
                    .s
                    .cards
                    .get(this as usize)
                    .map_or(kind, |cs| cs.kind as usize);
                if let Some(n) = self
                    .s
                    .tally
                    .performed
                    .get_mut(you as usize * nk + performer)
                {
                    *n += 1;
                }
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
                    self.eval_push(a, &mut vals)?;
                }
                self.emit(*ev, &vals);
            }
            StmtKind::Return(e) => {
                let v = self.eval(e)?;
                self.leave_call();
                if let Some(&Frame::Result { slot }) = self.s.frames.last() {
                    self.pop_frame();
                    self.set_local(slot, v);
                }
            }
            StmtKind::Call(proc, args) | StmtKind::CallLet(_, proc, args) => {
                let p: &'a Program = self.p;
                let Some(def) = p.procs.get(proc.index()) else {
                    return Err(self.err(span, "unknown procedure".into()));
                };
                if let StmtKind::CallLet(slot, ..) = &stmt.kind {
                    self.s.frames.push(Frame::Result { slot: *slot });
                }
                let mut locals = self.s.take_locals(0);
                for a in args {
                    self.eval_push(a, &mut locals)?;
                }
                crate::engine::state::grow_locals(&mut locals, def.body.slots as usize);
                let (you, this) = (self.you(), self.this());
                self.push_call(Ctx { locals, you, this }, def.body.block);
            }
            StmtKind::Turn(e, body) => {
                let player = self.eval_player(e)?;
                self.seat_only(player, e.span, "takes no turn")?;
                if !self.s.living(player) {
                    return Ok(Flow::Next);
                }
                if self.s.turn >= self.s.fixed.max_turns {
                    return Ok(self.turn_limit());
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
                self.s.turn_steps = self.s.steps;
                if self.s.record {
                    let name = self.s.name(player);
                    self.s.events.push(Event::Turn {
                        turn: self.s.turn,
                        player,
                        name,
                    });
                }
                let ev = self.p.turn_start;
                self.emit(ev, &[Value::Player(player)]);
            }
            StmtKind::Phase(name, body) => {
                self.s.frames.push(Frame::Phase { at });
                if self.s.record {
                    self.s.events.push(Event::Phase { name: name.clone() });
                }
                self.push_block(*body);
            }
            StmtKind::Round(body) => return self.start_round(*body, span),
            StmtKind::EndRound => return self.leave_round(span),
            StmtKind::OutForRound(e) => return self.out_for_round(e),
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
            StmtKind::Actions { .. } => return self.exec_actions(stmt, at, None),
            StmtKind::ChooseBranch {
                by,
                prompt,
                branches,
            } => return self.exec_branch(stmt, by.as_ref(), prompt.as_ref(), branches, at, None),
            StmtKind::Simultaneously { players, .. } => {
                let v = self.eval(players)?;
                self.push_simul(v, players.span, at)?;
            }
            StmtKind::Eliminate(e) => {
                let v = self.eval(e)?;
                self.eliminate_value(v, e.span)?;
            }
            StmtKind::WinTeam(e, reason) => {
                let team = self.eval(e)?;
                return self.win_of(team, true, e.span, reason, at);
            }
            StmtKind::Win(e, reason) => {
                let v = self.eval(e)?;
                return self.win_of(v, false, e.span, reason, at);
            }
            StmtKind::Stat(id, op, e) => {
                // Recorded for `cardgame sim`, never shown in the trace.
                let v = self.eval_int(e)?;
                let t = &mut self.s.tally;
                let i = *id as usize;
                match op {
                    AssignOp::Set => t.records.push((*id, self.s.turn, v)),
                    _ => {
                        if t.counters.len() <= i {
                            t.counters.resize(i + 1, 0);
                        }
                        let v = if *op == AssignOp::Sub {
                            v.saturating_neg()
                        } else {
                            v
                        };
                        t.counters[i] = t.counters[i].saturating_add(v);
                    }
                }
            }
            StmtKind::StatAt(id, k, op, e) => {
                // Recorded for `cardgame sim` per key (and with every key together).
                let key = self.eval(k)?;
                let v = self.eval_int(e)?;
                let turn = self.s.turn;
                self.s.tally.record_at(*id, turn, key, *op, v);
            }
            StmtKind::LogTo(t, p) => {
                let player = self.eval_player(p)?;
                self.seat_only(player, p.span, "reads no log")?;
                if self.s.record {
                    let text = self.text_at(t, (Some(at), 0), String::new(), None)?;
                    self.s.events.push(Event::Told { player, text });
                } else {
                    let buffer = std::mem::take(&mut self.s.recycled.get().text);
                    self.s.recycled.get().text = self.text_at(t, (Some(at), 0), buffer, None)?;
                }
            }
            StmtKind::Log(t) => {
                if self.s.record {
                    self.log_event(t, at)?;
                } else if !self.text_is_plain(t) {
                    // Nobody records: the text is built only for the errors it could meet (a text
                    // that cannot fail is not built at all), in a recycled buffer.
                    let buffer = std::mem::take(&mut self.s.recycled.get().text);
                    self.s.recycled.get().text = self.text_at(t, (Some(at), 0), buffer, None)?;
                }
            }
        }
        Ok(Flow::Next)
    }

    /// The game's end by `win V REASON` (`team`: `win team V REASON`, `V` the team's value) of
    /// the statement at `at`, `V` evaluated (at `span`): its winners, then its reason's text.
    pub(crate) fn win_of(
        &mut self,
        v: Value,
        team: bool,
        span: Span,
        reason: &TextIr,
        at: At,
    ) -> R<Flow> {
        let mut winners = Vec::new();
        let mut participants = Vec::new();
        if team {
            if let Some(var) = self.p.teams {
                winners = (0..self.s.players)
                    .filter(|&p| {
                        let i = p as usize * self.l.n_pvars + self.l.var(var);
                        self.s.pvars.get(i) == Some(&v)
                    })
                    .collect();
            }
        } else {
            for p in self.players_of(v, span)? {
                if p >= self.s.players {
                    let name = self.s.name(p);
                    if !participants.contains(&name) {
                        participants.push(name);
                    }
                } else if !winners.contains(&p) {
                    winners.push(p);
                }
            }
        }
        let reason = self.text_at(reason, (Some(at), 0), String::new(), None)?;
        Ok(Flow::Stop(Stop::Over(Box::new(Outcome {
            winners,
            participants,
            reason,
            finished: true,
            flow_ended: false,
        }))))
    }

    /// `log T` of the statement at `at` while events are recorded: its text built, the event kept.
    pub(crate) fn log_event(&mut self, t: &TextIr, at: At) -> R<()> {
        let text = self.text_at(t, (Some(at), 0), String::new(), None)?;
        self.s.events.push(Event::Log { text });
        Ok(())
    }

    /// `shuffle Z` of zone instance `z` (in range): its cards in an order the generator draws.
    pub(crate) fn shuffle_zone(&mut self, z: u32) {
        self.charge_later(self.s.zones[z as usize].cards.len());
        self.s.note_draw();
        let zi = &mut self.s.zones[z as usize];
        zi.changed();
        rand::seq::SliceRandom::shuffle(zi.cards.as_mut_slice(), &mut self.s.rng);
        if self.s.record {
            let zone = zone_label(self.p, self.l, self.s, z);
            self.s.events.push(Event::Shuffle { zone, from: None });
        }
    }

    /// `eliminate P` of `P`'s value `v`, a player or a list of them (the closures' too,
    /// closures/stmts.rs), failing where `v` holds what is not a seat.
    pub(crate) fn eliminate_value(&mut self, v: Value, span: Span) -> R<()> {
        for p in self.players_of(v, span)? {
            if self.s.put_out(p, false) && self.s.record {
                let name = self.s.name(p);
                self.s.events.push(Event::Eliminated { player: p, name });
            }
        }
        Ok(())
    }

    pub(super) fn players_of(&mut self, v: Value, span: Span) -> R<Vec<u8>> {
        match v {
            Value::Player(p) => Ok(vec![self.as_player(&Value::Player(p), span)?]),
            v => {
                let l = self.as_list(v, span)?;
                l.iter().map(|x| self.as_player(x, span)).collect()
            }
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
        if let ExprKind::Pile {
            position: from,
            count: Some(n),
            zone,
        } = &what.kind
        {
            if !self.s.recording && self.s.depth < MAX_DEPTH {
                return self.move_pile(what.span, *from, n, zone, to, position, face, span);
            }
        }
        self.s.short = false;
        let v = self.eval(what)?;
        let failed = self.s.short;
        let target = self.eval_zone(to)?;
        self.move_value(v, failed, target, position, face, what.span, span)
    }

    /// `move top N of Z to W` (or `bottom`): the walker's evaluation of the pile (its node, the zone,
    /// N, the refill, the short flag) and then of the move, with the same work and errors, but the
    /// cards copied as ids into a recycled vector instead of a list of values.
    #[allow(clippy::too_many_arguments)]
    fn move_pile(
        &mut self,
        pile_span: Span,
        from: Position,
        n: &Expr,
        zone: &Expr,
        to: &Expr,
        position: Position,
        face: Option<Face>,
        span: Span,
    ) -> R<Flow> {
        self.s.short = false;
        self.charge(1, pile_span)?;
        self.s.depth += 1;
        let z = self.eval_zone(zone);
        let n = z.and_then(|z| Ok((z, self.eval_int(n)?.max(0) as usize)));
        let (z, n) = match n {
            Ok(zn) => zn,
            Err(e) => {
                self.s.depth -= 1;
                return Err(e);
            }
        };
        let mut ids = std::mem::take(&mut self.s.recycled.get().ids);
        self.pile_ids(z, n, from, &mut ids);
        self.s.depth -= 1;
        let short = self.s.short;
        let target = self.eval_zone(to)?;
        self.charge_later(ids.len());
        let moved = self.move_ids(ids, target, position, face)?;
        Ok(if short || !moved {
            self.fail(span)
        } else {
            Flow::Next
        })
    }

    /// Moves the cards `ids` in order, then keeps the vector for the next move; false when a target
    /// zone was full for one of them.
    pub(crate) fn move_ids(
        &mut self,
        ids: Vec<u32>,
        target: u32,
        position: Position,
        face: Option<Face>,
    ) -> R<bool> {
        let mut all = true;
        for &c in &ids {
            if !self.move_card(c, target, position, face)? {
                all = false;
            }
        }
        self.s.recycled.get().ids = ids;
        Ok(all)
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
        let def = self.s.zones.def(target as usize);
        if from != target {
            if let Some(max) = p.zones.get(def.index()).and_then(|d| d.max.as_ref()) {
                let you = self.s.zone_owner(target);
                let this = match self.s.zones.holder(target as usize) {
                    Some(Holder::Card(h)) => Some(h),
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
        if from != target && self.s.steps > 0 {
            let kind = self.s.cards[c as usize].kind as usize;
            self.s.tally.mark(super::stats::Mark::Moved, kind);
        }
        self.s.moved();
        let zone = &mut self.s.zones[from as usize];
        zone.changed();
        let cards = &mut zone.cards;
        // The work is the distance from the top (found from there, and shifted).
        let mut work = 1;
        if let Some(i) = cards.iter().rposition(|&x| x == c) {
            work += cards.len() - i;
            cards.remove(i);
        }
        let up = self.face_in(target, face);
        let zone = &mut self.s.zones[target as usize];
        zone.changed();
        let cards = &mut zone.cards;
        match position {
            Position::Top => cards.push(c),
            Position::Bottom => {
                work += cards.len();
                cards.insert(0, c);
            }
        }
        self.charge_later(work);
        let known = self.s.unshow(c);
        let cs = &mut self.s.cards[c as usize];
        cs.zone = target;
        cs.face_up = up;
        if self.s.record {
            let seen =
                self.s.seen_mask(p, from, old_face) | self.s.seen_mask(p, target, up) | known;
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
    /// `t = v`, `t += v`, `t -= v` of a value already evaluated: the place after the value.
    pub(crate) fn assign_value(&mut self, t: &Target, op: AssignOp, v: Value, span: Span) -> R<()> {
        let place = self.place(t)?;
        let new = match op {
            AssignOp::Set => v,
            AssignOp::Add | AssignOp::Sub => {
                let cur = self.read_place(&place);
                self.combine(op, cur, v, span)?
            }
        };
        self.write_place(&place, new, span)
    }

    #[inline(always)]
    pub(crate) fn place(&mut self, t: &Target) -> R<Place> {
        Ok(match t {
            Target::Local(s) => Place::Local(*s),
            Target::Global(v) => Place::Global(v.index(), self.l.var(*v)),
            Target::Player(v, e) => Place::Player(v.index(), self.eval_player(e)?),
            Target::Card(v, e) => Place::Card(v.index(), self.eval_card(e)?),
        })
    }

    pub(crate) fn read_place(&self, pl: &Place) -> Value {
        match *pl {
            Place::Local(s) => self.local(s),
            Place::Global(_, i) => self.s.globals.get(i).cloned().unwrap_or_default(),
            Place::Player(v, p) => {
                let i = p as usize * self.l.n_pvars + self.l.var(VarId(v as u16));
                self.s.pvars.get(i).cloned().unwrap_or_default()
            }
            Place::Card(v, c) => {
                let i = c as usize * self.l.n_cvars + self.l.var(VarId(v as u16));
                self.s.cvars.get(self.l, i).cloned().unwrap_or_default()
            }
        }
    }

    pub(crate) fn write_place(&mut self, pl: &Place, mut v: Value, span: Span) -> R<()> {
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
            let constant = |b: &Option<Expr>| match b.as_ref().map(|e| &e.kind) {
                None => Some(None),
                Some(ExprKind::Const(Value::Int(i))) => Some(Some(*i)),
                Some(_) => None,
            };
            if let (Some(lo), Some(hi)) = (constant(&def.min), constant(&def.max)) {
                // Constant bounds (`min 0 max 10`): nothing to evaluate, no context to push.
                if let Some(hi) = hi {
                    x = x.min(hi);
                }
                if let Some(lo) = lo {
                    x = x.max(lo);
                }
                v = Value::Int(x);
            } else if def.min.is_some() || def.max.is_some() {
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
            Place::Card(_, c) => self
                .s
                .cvars
                .get_mut(self.l, c as usize * self.l.n_cvars + slot),
            Place::Local(_) => None,
        };
        match cell {
            Some(cell) => {
                *cell = v;
                self.s.wrote_var(var);
                Ok(())
            }
            None => Err(self.err(span, "unknown variable".into())),
        }
    }

    pub(crate) fn combine(&mut self, op: AssignOp, cur: Value, v: Value, span: Span) -> R<Value> {
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
                self.charge_later(out.len() + items.len());
                if op == AssignOp::Sub {
                    if items.len() <= 16 {
                        out.retain(|x| !items.contains(x));
                    } else {
                        let gone: std::collections::HashSet<&Value> = items.iter().collect();
                        out.retain(|x| !gone.contains(x));
                    }
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
