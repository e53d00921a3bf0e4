//! Engine stage: decisions: choices, branches, action menus and simultaneous choices, asked and answered
//! (their options are listed in `options.rs`).

use super::exec::{At, Flow, Frame, Mach, Stop};
use super::label::distinct_labels;
use super::state::Ctx;
use super::trace::Event;
use super::{Decision, RuntimeError};
use crate::program::{
    ActionId, BranchIr, Choose, ChooseCount, Expr, MenuMode, Program, Stmt, StmtKind, TextIr,
};
use crate::value::Value;
use cardgame_grammar::ast::Span;

type R<T> = Result<T, RuntimeError>;

/// An action with its arguments, as offered in a menu.
pub(crate) type MenuOption = (ActionId, Args);

/// An action's arguments as offered: one (most actions take one card) kept in place, so that listing
/// a menu and copying a game waiting on one allocate nothing per option; none or several in a vector.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Args {
    One(Value),
    Many(Vec<Value>),
}

impl Args {
    pub fn from_slice(args: &[Value]) -> Args {
        match args {
            [v] => Args::One(v.clone()),
            _ => Args::Many(args.to_vec()),
        }
    }
}

impl std::ops::Deref for Args {
    type Target = [Value];
    fn deref(&self) -> &[Value] {
        match self {
            Args::One(v) => std::slice::from_ref(v),
            Args::Many(v) => v,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct MenuFrame {
    pub at: At,
    pub decider: u8,
    /// Actions left for `times N`.
    pub left: Option<i64>,
    pub taken: u32,
    /// The options of the pending decision (before `pass`).
    pub offered: Vec<MenuOption>,
}

#[derive(Clone, Debug)]
pub(crate) struct ChooseMany {
    pub slot: u16,
    pub decider: u8,
    pub prompt: String,
    pub span: Span,
    pub candidates: Vec<Value>,
    pub picked: Vec<Value>,
    pub left: usize,
    pub with_done: bool,
    /// `choose order`: the last candidate is placed without asking.
    pub order: bool,
    /// Indices into `candidates` of the pending decision's options (before `done`).
    pub offered: Vec<usize>,
}

impl ChooseMany {
    #[allow(clippy::too_many_arguments)]
    fn new(
        slot: u16,
        decider: u8,
        prompt: String,
        span: Span,
        candidates: Vec<Value>,
        count: &ChooseCount,
        left: usize,
        with_done: bool,
    ) -> Self {
        ChooseMany {
            slot,
            decider,
            prompt,
            span,
            candidates,
            picked: Vec::new(),
            left,
            with_done,
            order: matches!(count, ChooseCount::Order),
            offered: Vec::new(),
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct SimulFrame {
    pub at: At,
    pub players: Vec<u8>,
    pub idx: usize,
    pub answers: Vec<Value>,
    pub offered: Vec<Value>,
    /// Decision events, shown once everyone has chosen.
    pub events: Vec<Event>,
    pub running: bool,
    /// The choice of several elements the player at `idx` is making (`choose N`, `up to N`, `any`,
    /// `order`), one decision per element.
    pub picking: Option<Box<ChooseMany>>,
}

impl SimulFrame {
    pub fn new(at: At, players: Vec<u8>) -> Self {
        SimulFrame {
            at,
            players,
            idx: 0,
            answers: Vec::new(),
            offered: Vec::new(),
            events: Vec::new(),
            running: false,
            picking: None,
        }
    }
}

impl<'a> Mach<'a> {
    /// Who decides: `by`, else `you`, else the active player; always a seat.
    fn decider(&mut self, by: Option<&Expr>, span: Span) -> R<u8> {
        let (p, span) = match by {
            Some(e) => (self.eval_player(e)?, e.span),
            None => (self.you().unwrap_or(self.s.active), span),
        };
        self.seat_only(p, span, "takes no decision")
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

    pub fn exec_choose(&mut self, stmt: &'a Stmt, slot: u16, ch: &'a Choose, at: At) -> R<Flow> {
        let span = stmt.span;
        if let Some(stop) = self.before_decision(span)? {
            return Ok(Flow::Stop(stop));
        }
        let decider = self.decider(ch.by.as_ref(), span)?;
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
                let (n, with_done, default) = self.count_of(count, cands.len())?;
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
    ) -> R<Flow> {
        let span = stmt.span;
        if let Some(stop) = self.before_decision(span)? {
            return Ok(Flow::Stop(stop));
        }
        let decider = self.decider(by, span)?;
        let mut labels = Vec::new();
        let mut blocks = Vec::new();
        for (k, b) in branches.iter().enumerate() {
            if let Some(c) = &b.condition {
                if !self.eval_bool(c)? {
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
    fn count_of(&mut self, count: &ChooseCount, candidates: usize) -> R<(usize, bool, String)> {
        Ok(match count {
            ChooseCount::Exactly(e) => {
                let n = self.eval_int(e)?.max(0) as usize;
                (n, false, format!("Choose {n}"))
            }
            ChooseCount::UpTo(e) => {
                let n = self.eval_int(e)?.max(0) as usize;
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
            let r = (|| -> R<(Vec<Value>, usize, bool, String)> {
                let cands = self.domain(var, domain, filter)?;
                let (n, with_done, default) = self.count_of(count, cands.len())?;
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
