//! Engine stage: decisions: choices, branches, action menus and simultaneous choices, asked and answered
//! (their options are listed in `options.rs`).

use super::exec::{At, Flow, Frame, Mach, Stop};
use super::label::distinct_labels;
use super::state::Ctx;
use super::trace::Event;
use super::{Decision, RuntimeError};
use crate::program::{
    BranchIr, Choose, ChooseCount, Expr, MenuMode, Program, Stmt, StmtKind, TextIr,
};
use crate::value::Value;
use cardgame_grammar::ast::Span;

pub(crate) use super::pending::{Args, ChooseMany, MenuFrame, MenuOption, SimulFrame};

type R<T> = Result<T, RuntimeError>;

/// A part of a decision statement that is a word: who decides (`by`), the number of a `choose N`,
/// `up to N` or of a menu's `times N`, a branch's condition (by its place among the branches).
#[derive(Clone, Copy)]
pub(crate) enum Part {
    By,
    Count,
    Condition(usize),
}

/// The words a compiled decision statement's closures give for its parts (closures/decisions.rs),
/// asked where the walker evaluates each part, in its order; `None` for a part, or no `Words` at
/// all: the walker evaluates it.
pub(crate) type Words<'w, 'a> = Option<&'w mut dyn FnMut(&mut Mach<'a>, Part) -> Option<i64>>;

impl<'a> Mach<'a> {
    /// Who decides: `by`, else `you`, else the active player; always a seat.
    fn decider(&mut self, by: Option<&Expr>, span: Span, words: &mut Words<'_, 'a>) -> R<u8> {
        let (p, span) = match by {
            Some(e) => match self.word(words, Part::By) {
                Some(w) if (0..self.s.players as i64 + self.s.participants as i64).contains(&w) => {
                    (w as u8, e.span)
                }
                _ => (self.eval_player(e)?, e.span),
            },
            None => (self.you().unwrap_or(self.s.active), span),
        };
        self.seat_only(p, span, "takes no decision")
    }

    /// The word the closures give for `part` (`Words`), if any.
    fn word(&mut self, words: &mut Words<'_, 'a>, part: Part) -> Option<i64> {
        words.as_mut().and_then(|f| f(self, part))
    }

    /// `actions by P MODE [...]`: its frame pushed (the loop lists and asks its menu, `step_menu`),
    /// who decides and `times N` by the closures' words where they give them.
    pub(crate) fn exec_actions(
        &mut self,
        stmt: &'a Stmt,
        at: At,
        mut words: Words<'_, 'a>,
    ) -> R<Flow> {
        let StmtKind::Actions { by, mode, .. } = &stmt.kind else {
            return Ok(Flow::Next);
        };
        let decider = match self.word(&mut words, Part::By) {
            Some(w) if (0..self.s.players as i64 + self.s.participants as i64).contains(&w) => {
                w as u8
            }
            _ => self.eval_player(by)?,
        };
        self.seat_only(decider, by.span, "takes no decision")?;
        let left = match mode {
            MenuMode::Times(n) => match self.word(&mut words, Part::Count) {
                Some(w) => Some(w),
                None => Some(self.eval_int_at(super::sites::Site::Decide, n)?),
            },
            MenuMode::Once | MenuMode::OnceOrPass | MenuMode::UntilPass => None,
        };
        let menu = self.s.recycled.get().menu_frame(MenuFrame {
            at,
            decider,
            left,
            taken: 0,
            offered: Vec::new(),
        });
        self.s.frames.push(Frame::Menu(menu));
        Ok(Flow::Next)
    }

    /// `p` when it is a seat; a participant (`participant NAME`) plays by the script's statements
    /// only: it takes no turn and no decision, and asking it for one is an error.
    pub(crate) fn seat_only(&self, p: u8, span: Span, what: &str) -> R<u8> {
        if p < self.s.players {
            return Ok(p);
        }
        Err(self.err(
            span,
            format!(
                "{} is a participant, not a seat: it {what}; the script decides for it",
                self.s.name(p)
            ),
        ))
    }

    /// A decision's prompt as `decider` sees it.
    /// `at`: where the statement that asks stands (its prompt may be compiled there).
    fn prompt(
        &mut self,
        t: Option<&TextIr>,
        default: &str,
        decider: u8,
        at: Option<At>,
    ) -> R<String> {
        match t {
            Some(t) => {
                let buffer = std::mem::take(&mut self.s.recycled.get().prompt);
                self.text_at(t, (at, 0), buffer, Some(decider))
            }
            None => Ok(self.s.recycled.get().prompt(default)),
        }
    }

    /// Before asking: decisions must be allowed here, and the checks run first.
    fn before_decision(&mut self, span: Span) -> R<Option<Stop>> {
        if let Some(why) = self.s.no_decide {
            return Err(self.err(span, format!("{why} cannot ask for a decision")));
        }
        Ok(self.run_checks()?.map(|o| Stop::Over(Box::new(o))))
    }

    /// Poses a decision: it becomes the game's status, where `Game` reads it (the stop that says so
    /// stays small, and so does every step's result that passes it on).
    fn decision(
        &mut self,
        player: u8,
        prompt: String,
        mut options: Vec<String>,
        simultaneous: bool,
        span: Span,
    ) -> Stop {
        if !self.s.unlabelled {
            distinct_labels(&mut options);
        }
        self.s.status = super::Status::Decision(Decision {
            player,
            prompt,
            options,
            simultaneous,
            span,
        });
        Stop::Decision
    }

    /// The elements of a domain that pass the filter (with the binder in `var`).
    fn domain(&mut self, var: u16, domain: &Expr, filter: Option<&Expr>) -> R<Vec<Value>> {
        let list = self.eval_items(domain)?;
        let mut out = Vec::with_capacity(list.len());
        let mut r = Ok(());
        // Filtering changes nothing: pure function calls may be remembered meanwhile.
        self.s.remember();
        for v in list.iter() {
            if let Some(f) = filter {
                self.set_local(var, v.clone());
                match self.eval_bool(f) {
                    Ok(true) => {}
                    Ok(false) => continue,
                    Err(e) => {
                        r = Err(e);
                        break;
                    }
                }
            }
            out.push(v.clone());
        }
        self.s.forget();
        self.s.give_back(list);
        r.map(|()| out)
    }

    pub fn exec_choose(
        &mut self,
        stmt: &'a Stmt,
        slot: u16,
        ch: &'a Choose,
        at: At,
        mut words: Words<'_, 'a>,
    ) -> R<Flow> {
        let span = stmt.span;
        if let Some(stop) = self.before_decision(span)? {
            return Ok(Flow::Stop(stop));
        }
        let decider = self.decider(ch.by.as_ref(), span, &mut words)?;
        // The candidates by the closures where they compiled, else by the walker.
        let p: &'a crate::program::Program = self.p;
        let closures = p.closures.as_deref().filter(|_| self.s.fixed.closures);
        let cands = match closures.and_then(|k| k.candidates(self, at)) {
            Some(cands) => cands,
            None => self.domain(ch.var, &ch.domain, ch.filter.as_ref())?,
        };
        match &ch.count {
            ChooseCount::One => {
                let offered = self.dedupe(cands, decider);
                if offered.is_empty() {
                    self.set_local(slot, Value::None);
                    return Ok(self.fail(span));
                }
                let prompt = self.prompt(ch.prompt.as_ref(), "Choose one", decider, Some(at))?;
                let labels = self.labels(&offered, decider);
                let d = self.decision(decider, prompt, labels, false, span);
                self.s.frames.push(Frame::ChooseOne { slot, offered });
                Ok(Flow::Stop(d))
            }
            count => {
                let (n, with_done, default) = self.count_of(count, cands.len(), &mut words)?;
                if !with_done && cands.len() < n {
                    self.set_local(slot, Value::list(cands));
                    return Ok(self.fail(span));
                }
                let prompt = self.prompt(ch.prompt.as_ref(), &default, decider, Some(at))?;
                let many = ChooseMany::new(slot, decider, prompt, span, cands, count, n, with_done);
                self.s.frames.push(Frame::ChooseMany(Box::new(many)));
                // The frame asks at once (the checks have just run).
                self.pose_many(false)
            }
        }
    }

    pub fn step_many(&mut self) -> R<Flow> {
        self.pose_many(true)
    }

    fn pose_many(&mut self, checks: bool) -> R<Flow> {
        if let Some(Frame::ChooseMany(f)) = self.s.frames.last_mut() {
            if f.order && f.candidates.len() == 1 {
                // The last element of an order has one place left: nothing to ask.
                let v = f.candidates.remove(0);
                f.picked.push(v);
                f.left = 0;
            }
        }
        let Some(Frame::ChooseMany(f)) = self.s.frames.last() else {
            return Ok(Flow::Next);
        };
        if f.left == 0 || f.candidates.is_empty() {
            let (slot, picked) = (f.slot, Value::list(f.picked.clone()));
            self.s.frames.pop();
            self.set_local(slot, picked);
            return Ok(Flow::Next);
        }
        let span = f.span;
        if checks {
            if let Some(stop) = self.before_decision(span)? {
                return Ok(Flow::Stop(stop));
            }
        }
        let Some(Frame::ChooseMany(f)) = self.s.frames.last() else {
            return Ok(Flow::Next);
        };
        let offered = self.distinct(&f.candidates, f.decider);
        let mut labels = self.s.recycled.get().labels();
        let wanted = self.wants_labels();
        self.many_labels(f, &offered, f.decider, wanted, &mut labels);
        self.s.unlabelled |= !wanted;
        let (decider, prompt) = (f.decider, self.s.recycled.get().prompt(&f.prompt));
        let d = self.decision(decider, prompt, labels, false, span);
        if let Some(Frame::ChooseMany(f)) = self.s.frames.last_mut() {
            f.offered = offered;
        }
        Ok(Flow::Stop(d))
    }

    pub fn exec_branch(
        &mut self,
        stmt: &'a Stmt,
        by: Option<&'a Expr>,
        prompt: Option<&'a TextIr>,
        branches: &'a [BranchIr],
        at: At,
        mut words: Words<'_, 'a>,
    ) -> R<Flow> {
        let span = stmt.span;
        if let Some(stop) = self.before_decision(span)? {
            return Ok(Flow::Stop(stop));
        }
        let decider = self.decider(by, span, &mut words)?;
        let mut labels = Vec::new();
        let mut blocks = Vec::new();
        for (k, b) in branches.iter().enumerate() {
            if let Some(c) = &b.condition {
                let holds = match self.word(&mut words, Part::Condition(k)) {
                    Some(w) => w != 0,
                    None => self.eval_bool(c)?,
                };
                if !holds {
                    continue;
                }
            }
            let label = self.text_at(&b.label, (Some(at), k + 1), String::new(), Some(decider))?;
            labels.push(label);
            blocks.push(b.body);
        }
        if blocks.is_empty() {
            return Ok(self.fail(span));
        }
        let prompt = self.prompt(prompt, "Choose one", decider, Some(at))?;
        let d = self.decision(decider, prompt, labels, false, span);
        self.s.frames.push(Frame::Branch { blocks });
        Ok(Flow::Stop(d))
    }

    pub fn step_menu(&mut self) -> R<Flow> {
        let Some(Frame::Menu(m)) = self.s.frames.last() else {
            return Ok(Flow::Next);
        };
        let (at, decider, left, taken) = (m.at, m.decider, m.left, m.taken);
        let Some(Stmt {
            kind: StmtKind::Actions { mode, actions, .. },
            span,
            ..
        }) = self.stmt(at)
        else {
            self.pop_frame();
            return Ok(Flow::Next);
        };
        let done = match mode {
            MenuMode::Once | MenuMode::OnceOrPass => taken > 0,
            MenuMode::Times(_) => left.unwrap_or(0) <= 0,
            MenuMode::UntilPass => false,
        };
        if done {
            self.pop_frame();
            return Ok(Flow::Next);
        }
        if let Some(stop) = self.before_decision(*span)? {
            return Ok(Flow::Stop(stop));
        }
        let (offered, mut labels) = match self.closures_menu(decider, actions) {
            Some(offered) => {
                let labels = self.labels_of(&offered, decider)?;
                (offered, labels)
            }
            None => self.menu_options(decider, actions)?,
        };
        for (a, _) in &offered {
            self.s.tally.mark(super::stats::Mark::Offered, a.index());
        }
        let pass = matches!(mode, MenuMode::UntilPass | MenuMode::OnceOrPass);
        if offered.is_empty() && !pass {
            self.pop_frame();
            return Ok(Flow::Next);
        }
        if pass {
            labels.push(self.s.recycled.get().pass());
        }
        let prompt = self.s.recycled.get().prompt("Choose an action");
        let d = self.decision(decider, prompt, labels, false, *span);
        if let Some(Frame::Menu(m)) = self.s.frames.last_mut() {
            let old = std::mem::replace(&mut m.offered, offered);
            self.s.recycled.get().keep_options(old);
        }
        Ok(Flow::Stop(d))
    }

    /// `simultaneously q in L ...`: its frame pushed for the seats of `v`, the value of its list
    /// `L` (a player or a list of players; at `span`), each seat's decision posed from it
    /// (`step_simul`).
    pub(crate) fn push_simul(&mut self, v: Value, span: Span, at: At) -> R<()> {
        let list = match v {
            Value::Player(_) => vec![v],
            v => self.as_list(v, span)?.to_vec(),
        };
        let mut ps = Vec::with_capacity(list.len());
        for v in &list {
            let q = self.as_player(v, span)?;
            ps.push(self.seat_only(q, span, "takes no decision")?);
        }
        (self.s.frames).push(Frame::Simul(Box::new(SimulFrame::new(at, ps))));
        Ok(())
    }

    pub fn step_simul(&mut self) -> R<Flow> {
        let Some(Frame::Simul(f)) = self.s.frames.last() else {
            return Ok(Flow::Next);
        };
        let at = f.at;
        let Some(Stmt {
            kind:
                StmtKind::Simultaneously {
                    player,
                    count,
                    var,
                    domain,
                    filter,
                    prompt,
                    body,
                    ..
                },
            span,
            ..
        }) = self.stmt(at)
        else {
            self.s.frames.pop();
            return Ok(Flow::Next);
        };
        if f.running {
            let Some(&q) = f.players.get(f.idx) else {
                self.s.frames.pop();
                return Ok(Flow::Next);
            };
            let answer = f.answers.get(f.idx).cloned().unwrap_or_default();
            if let Some(Frame::Simul(f)) = self.s.frames.last_mut() {
                f.idx += 1;
            }
            self.set_local(*player, Value::Player(q));
            self.set_local(*var, answer);
            self.push_block(*body);
            return Ok(Flow::Next);
        }
        loop {
            let Some(Frame::Simul(f)) = self.s.frames.last_mut() else {
                return Ok(Flow::Next);
            };
            let Some(&q) = f.players.get(f.idx) else {
                // Everyone has chosen: show the choices, then resolve in order.
                f.running = true;
                f.idx = 0;
                let events = std::mem::take(&mut f.events);
                for e in events {
                    self.s.push_event(e);
                }
                return Ok(Flow::Next);
            };
            self.set_local(*player, Value::Player(q));
            if !matches!(count, ChooseCount::One) {
                match self.pose_simul_many(
                    at,
                    q,
                    count,
                    *var,
                    domain,
                    filter.as_ref(),
                    prompt.as_ref(),
                    *span,
                )? {
                    Some(flow) => return Ok(flow),
                    None => continue,
                }
            }
            let saved_you = self.you();
            self.set_you(Some(q));
            // The candidates by the closures where they compiled, else by the walker.
            let p: &'a crate::program::Program = self.p;
            let closures = p.closures.as_deref().filter(|_| self.s.fixed.closures);
            let opts = match closures.and_then(|k| k.candidates(self, at)) {
                Some(cands) => Ok(cands),
                None => self.domain(*var, domain, filter.as_ref()),
            };
            self.set_you(saved_you);
            let offered = self.dedupe(opts?, q);
            if offered.is_empty() {
                if let Some(Frame::Simul(f)) = self.s.frames.last_mut() {
                    f.answers.push(Value::None);
                    f.idx += 1;
                }
                continue;
            }
            if let Some(stop) = self.before_decision(*span)? {
                return Ok(Flow::Stop(stop));
            }
            let prompt = self.prompt(prompt.as_ref(), "Choose one", q, None)?;
            // Labelled when someone reads them (`labels`), as a single choice's.
            let labels = self.labels(&offered, q);
            let d = self.decision(q, prompt, labels, true, *span);
            if let Some(Frame::Simul(f)) = self.s.frames.last_mut() {
                f.offered = offered;
            }
            return Ok(Flow::Stop(d));
        }
    }

    /// How many elements a choice of several takes (of `candidates` available), whether it offers
    /// `done`, and its default prompt.
    fn count_of(
        &mut self,
        count: &ChooseCount,
        candidates: usize,
        words: &mut Words<'_, 'a>,
    ) -> R<(usize, bool, String)> {
        Ok(match count {
            ChooseCount::Exactly(e) => {
                let n = match self.word(words, Part::Count) {
                    Some(w) => w,
                    None => self.eval_int_at(super::sites::Site::Decide, e)?,
                };
                let n = n.max(0) as usize;
                (n, false, format!("Choose {n}"))
            }
            ChooseCount::UpTo(e) => {
                let n = match self.word(words, Part::Count) {
                    Some(w) => w,
                    None => self.eval_int_at(super::sites::Site::Decide, e)?,
                };
                let n = n.max(0) as usize;
                (n, true, format!("Choose up to {n}"))
            }
            ChooseCount::Order => (candidates, false, "Choose the next".to_string()),
            _ => (candidates, true, "Choose any".to_string()),
        })
    }

    /// The next decision of player `q` choosing several elements in a `simultaneously`: the choice
    /// starts (its candidates listed and its count evaluated with `you` = q), goes on one element at
    /// a time as `choose N`/`up to N`/`any`/`order` do, and ends with the list of the elements chosen
    /// as q's answer. `None`: q's answer is complete, go on with the next player. With fewer
    /// candidates than `choose N` asks for, q gets all of them (a simultaneous choice does not fail).
    #[allow(clippy::too_many_arguments)]
    fn pose_simul_many(
        &mut self,
        at: At,
        q: u8,
        count: &ChooseCount,
        var: u16,
        domain: &Expr,
        filter: Option<&Expr>,
        prompt: Option<&TextIr>,
        span: Span,
    ) -> R<Option<Flow>> {
        let started = matches!(self.s.frames.last(), Some(Frame::Simul(f)) if f.picking.is_some());
        if !started {
            let saved_you = self.you();
            self.set_you(Some(q));
            // The candidates and their number by the closures where they compiled, else by
            // the walker.
            let p: &'a crate::program::Program = self.p;
            let closures = p.closures.as_deref().filter(|_| self.s.fixed.closures);
            let r = (|| -> R<(Vec<Value>, usize, bool, String)> {
                let cands = match closures.and_then(|k| k.candidates(self, at)) {
                    Some(cands) => cands,
                    None => self.domain(var, domain, filter)?,
                };
                let mut counted = |m: &mut Mach<'a>, part| match part {
                    Part::Count => closures.and_then(|k| k.simul_count(m, at)),
                    Part::By | Part::Condition(_) => None,
                };
                let mut words: Words<'_, 'a> = Some(&mut counted);
                let (n, with_done, default) = self.count_of(count, cands.len(), &mut words)?;
                Ok((cands, n, with_done, default))
            })();
            let prompt = match r {
                Ok((_, _, _, ref default)) => self.prompt(prompt, default, q, None),
                Err(_) => Ok(String::new()),
            };
            self.set_you(saved_you);
            let (cands, n, with_done, _) = r?;
            let prompt = prompt?;
            if let Some(Frame::Simul(f)) = self.s.frames.last_mut() {
                let many = ChooseMany::new(var, q, prompt, span, cands, count, n, with_done);
                f.picking = Some(Box::new(many));
            }
        }
        let Some(Frame::Simul(f)) = self.s.frames.last_mut() else {
            return Ok(Some(Flow::Next));
        };
        let Some(pk) = f.picking.as_mut() else {
            return Ok(Some(Flow::Next));
        };
        if pk.order && pk.candidates.len() == 1 {
            // The last element of an order has one place left: nothing to ask.
            let v = pk.candidates.remove(0);
            pk.picked.push(v);
            pk.left = 0;
        }
        if pk.left == 0 || pk.candidates.is_empty() {
            let picked = std::mem::take(&mut pk.picked);
            f.picking = None;
            f.answers.push(Value::list(picked));
            f.idx += 1;
            return Ok(None);
        }
        if let Some(stop) = self.before_decision(span)? {
            return Ok(Some(Flow::Stop(stop)));
        }
        // Labelled when someone reads them, as a choice of several elements' (`pose_many`).
        let mut labels = self.s.recycled.get().labels();
        let wanted = self.wants_labels();
        let Some(Frame::Simul(f)) = self.s.frames.last() else {
            return Ok(Some(Flow::Next));
        };
        let Some(pk) = f.picking.as_ref() else {
            return Ok(Some(Flow::Next));
        };
        let offered = self.distinct(&pk.candidates, q);
        self.many_labels(pk, &offered, q, wanted, &mut labels);
        self.s.unlabelled |= !wanted;
        let d = self.decision(q, pk.prompt.clone(), labels, true, span);
        if let Some(Frame::Simul(f)) = self.s.frames.last_mut() {
            if let Some(pk) = f.picking.as_mut() {
                pk.offered = offered;
            }
        }
        Ok(Some(Flow::Stop(d)))
    }

    /// Whether a chosen value is a card that not everybody can see.
    fn secret(&self, v: &Value) -> bool {
        match v {
            Value::Card(c) => self
                .s
                .cards
                .get(*c as usize)
                .is_some_and(|_| self.s.card_seen_mask(self.p, *c) != u64::MAX),
            _ => false,
        }
    }

    /// Applies option `opt` of the pending decision `d` to the frame that asked.
    pub fn answer(&mut self, d: &Decision, opt: usize) -> R<()> {
        let mut event = if self.s.record {
            Some(Event::Decision {
                player: d.player,
                prompt: d.prompt.clone(),
                options: d.options.clone(),
                chosen: d.options.get(opt).cloned().unwrap_or_default(),
                hidden: None,
            })
        } else {
            None
        };
        let mut chosen_value = Value::None;
        let mut hidden: Option<&'static str> = None;
        match self.s.frames.last_mut() {
            Some(Frame::ChooseOne { slot, offered }) => {
                let (slot, v) = (*slot, offered.get(opt).cloned().unwrap_or_default());
                self.s.frames.pop();
                chosen_value = v.clone();
                self.set_local(slot, v);
            }
            Some(Frame::ChooseMany(f)) => match f.offered.get(opt) {
                Some(&i) if i < f.candidates.len() => {
                    let v = f.candidates.remove(i);
                    chosen_value = v.clone();
                    f.picked.push(v);
                    f.left = f.left.saturating_sub(1);
                }
                _ => f.left = 0,
            },
            Some(Frame::Branch { blocks }) => {
                let b = blocks.get(opt).copied();
                self.s.frames.pop();
                if let Some(b) = b {
                    self.push_block(b);
                }
            }
            // The options are listed again before the next decision of this menu: take this one.
            Some(Frame::Menu(m)) => {
                match (opt < m.offered.len()).then(|| m.offered.swap_remove(opt)) {
                    Some((a, args)) => {
                        m.taken += 1;
                        if let Some(l) = &mut m.left {
                            *l -= 1;
                        }
                        let decider = m.decider;
                        let p: &'a Program = self.p;
                        let Some(def) = p.actions.get(a.index()) else {
                            return Err(self.err(d.span, "unknown action".into()));
                        };
                        // Only the recorded event says what was hidden.
                        if event.is_some() && args.iter().any(|v| self.secret(v)) {
                            hidden = Some("an action");
                        }
                        for v in args.iter() {
                            self.note_chosen(v);
                        }
                        let mut locals = self.s.take_locals(0);
                        match args {
                            Args::One(v) => locals.push(v),
                            Args::Many(vs) => locals.extend(vs),
                        }
                        crate::engine::state::grow_locals(&mut locals, def.body.slots as usize);
                        self.push_call(
                            Ctx {
                                locals,
                                you: Some(decider),
                                this: None,
                            },
                            def.body.block,
                        );
                    }
                    None => {
                        self.pop_frame();
                    }
                }
            }
            Some(Frame::Simul(f)) => {
                let v = match f.picking.as_mut() {
                    // One element of a choice of several: the player's answer goes on.
                    Some(pk) => match pk.offered.get(opt) {
                        Some(&i) if i < pk.candidates.len() => {
                            let v = pk.candidates.remove(i);
                            pk.picked.push(v.clone());
                            pk.left = pk.left.saturating_sub(1);
                            v
                        }
                        _ => {
                            pk.left = 0;
                            Value::None
                        }
                    },
                    None => {
                        let v = f.offered.get(opt).cloned().unwrap_or_default();
                        f.answers.push(v.clone());
                        f.idx += 1;
                        v
                    }
                };
                let chosen = v.clone();
                let secret = self.secret(&v);
                if let Some(Event::Decision { hidden: h, .. }) = &mut event {
                    *h = secret.then(|| "a card".to_string());
                }
                if let (Some(Frame::Simul(f)), Some(e)) = (self.s.frames.last_mut(), event) {
                    f.events.push(e);
                }
                self.note_chosen(&chosen);
                return Ok(());
            }
            _ => return Err(self.err(d.span, "no frame is waiting for this decision".into())),
        }
        self.note_chosen(&chosen_value);
        if let Some(mut e) = event {
            if self.secret(&chosen_value) {
                hidden = Some("a card");
            }
            if let Event::Decision { hidden: h, .. } = &mut e {
                *h = hidden.map(str::to_string);
            }
            self.s.push_event(e);
        }
        Ok(())
    }

    /// Notes the card kind of a chosen value (a card, or a kind) for simulation figures.
    fn note_chosen(&mut self, v: &Value) {
        let kind = match v {
            Value::Card(c) => self.s.cards.get(*c as usize).map(|c| c.kind as usize),
            Value::Kind(k) => Some(*k as usize),
            _ => None,
        };
        if let Some(k) = kind {
            self.s.tally.mark(super::stats::Mark::Chosen, k);
        }
    }
}
