//! Checks stage: content that can never matter, found on the lowered program: a card that no rule
//! can take out of the box (W005).
//!
//! Every card starts in the built-in zone `box`; a card stays there unless a rule (setup, the flow, a
//! check, a procedure, an action, an ability, a trigger or a function) reads the box in a way that can
//! yield it. The analysis is conservative: it warns only when it is sure. A read of the box that yields
//! cards is one of:
//! - `cards("Kind", box)` with a kind written out: that kind;
//! - `filter(c in box where C)`: the kinds for which C may hold, C being worked out for each kind
//!   from what is fixed on the card (its kind, its tags, its constant properties), anything else
//!   (a variable, an option, a function) counting as "may hold";
//! - any other use of `box` (`move box to supply`, `top of box`, `cards(k, box)` with `k` computed, a
//!   procedure's argument): every kind.
//!
//! Reads that only look (`count(box)`, `any(c in box where ...)`, `x in box`, `c.zone == box`,
//! `kinds(box)`) and statements that put cards into the box, shuffle or reveal it take nothing out.
//! Rules tests are not rules: a card only a test takes out is still warned. A card with a trigger
//! that works in the box (`on E(...) in box`) matters there and is not warned.

use super::Compiler;
use crate::diag::Diagnostic;
use crate::program::*;
use crate::value::Value;
use cardgame_grammar::ast::Span;
use std::collections::HashSet;

struct Walk<'p> {
    p: &'p Program,
    /// Per kind: some rule may take it out of the box.
    out: Vec<bool>,
    blocks: HashSet<u16>,
}

impl Walk<'_> {
    fn is_box(&self, e: &Expr) -> bool {
        matches!(&e.kind, ExprKind::Zone(z, None) if *z == self.p.box_zone)
    }

    fn all(&mut self) {
        self.out.iter_mut().for_each(|o| *o = true);
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Zone(z, None) if *z == self.p.box_zone => return self.all(),
            ExprKind::Builtin(Builtin::Cards, args) if args.len() == 2 && self.is_box(&args[1]) => {
                match &args[0].kind {
                    ExprKind::Const(Value::Kind(k)) => {
                        if let Some(o) = self.out.get_mut(*k as usize) {
                            *o = true;
                        }
                    }
                    _ => self.all(),
                }
                return self.expr(&args[0]);
            }
            ExprKind::Builtin(Builtin::Size | Builtin::Kinds, args)
                if args.len() == 1 && self.is_box(&args[0]) =>
            {
                return
            }
            ExprKind::Aggregate {
                op,
                value,
                slot,
                list,
                filter,
            } if self.is_box(list) => {
                match op {
                    Aggregate::Filter => {
                        for k in 0..self.out.len() {
                            let may = filter
                                .as_ref()
                                .is_none_or(|f| truth(self.p, f, *slot, k) != Some(false));
                            if may {
                                self.out[k] = true;
                            }
                        }
                    }
                    Aggregate::Sort
                    | Aggregate::Map
                    | Aggregate::Flatten
                    | Aggregate::TakeWhile => self.all(),
                    _ => {}
                }
                if let Some(v) = value {
                    self.expr(v);
                }
                if let Some(f) = filter {
                    self.expr(f);
                }
                return;
            }
            ExprKind::Binary(BinOp::Eq | BinOp::Ne | BinOp::In, a, b)
                if self.is_box(a) || self.is_box(b) =>
            {
                for x in [a, b] {
                    if !self.is_box(x) {
                        self.expr(x);
                    }
                }
                return;
            }
            _ => {}
        }
        e.children(&mut |c| self.expr(c));
    }

    fn text(&mut self, t: &TextIr) {
        for part in &t.parts {
            if let TextPartIr::Expr(x) = part {
                self.expr(x);
            }
        }
    }

    /// An expression where putting the box itself takes nothing out (a destination, a shuffle).
    fn place(&mut self, e: &Expr) {
        if !self.is_box(e) {
            self.expr(e);
        }
    }

    fn block(&mut self, b: BlockId) {
        if !self.blocks.insert(b.0) {
            return;
        }
        let p = self.p;
        for st in &p.block(b).stmts {
            self.stmt(st);
        }
    }

    fn body(&mut self, b: &Body) {
        self.block(b.block);
    }

    fn choose(&mut self, c: &Choose) {
        match &c.count {
            ChooseCount::Exactly(n) | ChooseCount::UpTo(n) => self.expr(n),
            _ => {}
        }
        self.expr(&c.domain);
        for x in [&c.filter, &c.by].into_iter().flatten() {
            self.expr(x);
        }
        if let Some(t) = &c.prompt {
            self.text(t);
        }
    }

    fn target(&mut self, t: &Target) {
        if let Target::Player(_, e) | Target::Card(_, e) = t {
            self.expr(e);
        }
    }

    fn stmt(&mut self, st: &Stmt) {
        match &st.kind {
            StmtKind::Let(_, e)
            | StmtKind::Require(e)
            | StmtKind::Eliminate(e)
            | StmtKind::OutForRound(e)
            | StmtKind::Stat(_, _, e)
            | StmtKind::Return(e) => self.expr(e),
            StmtKind::StatAt(_, k, _, e) => {
                self.expr(k);
                self.expr(e);
            }
            StmtKind::Choose(_, c) => self.choose(c),
            StmtKind::Assign(t, _, e) => {
                self.target(t);
                self.expr(e);
            }
            StmtKind::Move { what, to, .. } => {
                self.expr(what);
                self.place(to);
            }
            StmtKind::Shuffle(e) | StmtKind::Reveal(e, _) => self.place(e),
            StmtKind::Show(e, p) => {
                self.place(e);
                self.expr(p);
            }
            StmtKind::Pay(e, t) => {
                self.expr(e);
                self.target(t);
            }
            StmtKind::If(branches, otherwise) => {
                for (c, b) in branches {
                    self.expr(c);
                    self.block(*b);
                }
                if let Some(b) = otherwise {
                    self.block(*b);
                }
            }
            StmtKind::For {
                list, filter, body, ..
            } => {
                self.expr(list);
                if let Some(f) = filter {
                    self.expr(f);
                }
                self.block(*body);
            }
            StmtKind::While(e, b) | StmtKind::Repeat(e, b) | StmtKind::Turn(e, b) => {
                self.expr(e);
                self.block(*b);
            }
            StmtKind::Loop(b)
            | StmtKind::Strict(b)
            | StmtKind::Phase(_, b)
            | StmtKind::Round(b) => self.block(*b),
            StmtKind::Break
            | StmtKind::Stop
            | StmtKind::EndTurn
            | StmtKind::EndPhase
            | StmtKind::EndRound => {}
            StmtKind::Perform {
                card, as_card, by, ..
            } => {
                self.expr(card);
                for x in [as_card, by].into_iter().flatten() {
                    self.expr(x);
                }
            }
            StmtKind::Emit(_, args) | StmtKind::Call(_, args) | StmtKind::CallLet(_, _, args) => {
                args.iter().for_each(|a| self.expr(a));
            }
            StmtKind::Actions { by, mode, .. } => {
                self.expr(by);
                if let MenuMode::Times(n) = mode {
                    self.expr(n);
                }
            }
            StmtKind::ChooseBranch {
                by,
                prompt,
                branches,
            } => {
                if let Some(b) = by {
                    self.expr(b);
                }
                if let Some(t) = prompt {
                    self.text(t);
                }
                for br in branches {
                    self.text(&br.label);
                    if let Some(c) = &br.condition {
                        self.expr(c);
                    }
                    self.block(br.body);
                }
            }
            StmtKind::Simultaneously {
                players,
                count,
                domain,
                filter,
                prompt,
                body,
                ..
            } => {
                self.expr(players);
                if let ChooseCount::Exactly(n) | ChooseCount::UpTo(n) = count {
                    self.expr(n);
                }
                self.expr(domain);
                if let Some(f) = filter {
                    self.expr(f);
                }
                if let Some(t) = prompt {
                    self.text(t);
                }
                self.block(*body);
            }
            StmtKind::Win(e, t) | StmtKind::WinTeam(e, t) => {
                self.expr(e);
                self.text(t);
            }
            StmtKind::Log(t) => self.text(t),
            StmtKind::LogTo(t, p) => {
                self.text(t);
                self.expr(p);
            }
        }
    }

    fn trigger(&mut self, t: &TriggerDef) {
        if let Some(c) = &t.condition {
            self.expr(c);
        }
        self.body(&t.body);
    }
}

/// Whether `e` holds when the binder `slot` is a card of kind `k`, when that is fixed by the card alone.
fn truth(p: &Program, e: &Expr, slot: Slot, k: usize) -> Option<bool> {
    let card = |x: &Expr| matches!(x.kind, ExprKind::Local(s) if s == slot);
    let def = p.kinds.get(k)?;
    match &e.kind {
        ExprKind::Const(Value::Bool(b)) => Some(*b),
        ExprKind::IsKind(x, kind, negated) if card(x) => Some((kind.index() == k) != *negated),
        ExprKind::IsTag(x, tag, negated) if card(x) => Some(def.tags.contains(tag) != *negated),
        ExprKind::Unary(UnOp::Not, a) => truth(p, a, slot, k).map(|b| !b),
        ExprKind::Binary(BinOp::And, a, b) => match (truth(p, a, slot, k), truth(p, b, slot, k)) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        },
        ExprKind::Binary(BinOp::Or, a, b) => match (truth(p, a, slot, k), truth(p, b, slot, k)) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), Some(false)) => Some(false),
            _ => None,
        },
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (value(p, a, slot, k)?, value(p, b, slot, k)?);
            match (op, &x, &y) {
                (BinOp::Eq, _, _) => Some(x == y),
                (BinOp::Ne, _, _) => Some(x != y),
                (BinOp::Lt, Value::Int(i), Value::Int(j)) => Some(i < j),
                (BinOp::Le, Value::Int(i), Value::Int(j)) => Some(i <= j),
                (BinOp::Gt, Value::Int(i), Value::Int(j)) => Some(i > j),
                (BinOp::Ge, Value::Int(i), Value::Int(j)) => Some(i >= j),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The value of `e` when the binder `slot` is a card of kind `k`, when it is fixed by the card alone.
fn value(p: &Program, e: &Expr, slot: Slot, k: usize) -> Option<Value> {
    let card = |x: &Expr| matches!(x.kind, ExprKind::Local(s) if s == slot);
    let def = p.kinds.get(k)?;
    match &e.kind {
        ExprKind::Const(v) => Some(v.clone()),
        ExprKind::Field(Field::Kind, x) if card(x) => Some(Value::Kind(k as u16)),
        ExprKind::TagOf(g, x) if card(x) => Some(
            def.tags
                .iter()
                .find(|t| p.tags.get(t.index()).is_some_and(|t| t.group == *g))
                .map_or(Value::None, |t| Value::Tag(t.0)),
        ),
        ExprKind::Prop(prop, x) if card(x) => {
            let own = def.props.get(prop.index())?.as_ref();
            let v = own.or_else(|| p.props.get(prop.index()).map(|d| &d.default))?;
            match &v.kind {
                ExprKind::Const(c) => Some(c.clone()),
                _ => None,
            }
        }
        _ => None,
    }
}

impl Compiler<'_> {
    /// W005: cards with copies that no rule can take out of the box (see the module's documentation).
    pub(crate) fn warn_boxed(&mut self) {
        let p = &self.p;
        let mut w = Walk {
            p,
            out: vec![false; p.kinds.len()],
            blocks: HashSet::new(),
        };
        for b in [&p.setup, &p.flow].into_iter().flatten() {
            w.body(b);
        }
        p.checks.iter().for_each(|b| w.body(b));
        p.procs.iter().for_each(|d| w.body(&d.body));
        p.fns.iter().for_each(|f| w.expr(&f.body));
        p.triggers.iter().for_each(|t| w.trigger(t));
        for a in &p.actions {
            a.params.iter().for_each(|x| w.expr(x));
            if let Some(c) = &a.condition {
                w.expr(c);
            }
            if let Some(l) = &a.label {
                w.text(l);
            }
            w.body(&a.body);
        }
        for kind in &p.kinds {
            kind.abilities.iter().flatten().for_each(|b| w.body(b));
            kind.triggers.iter().for_each(|t| w.trigger(t));
            kind.props.iter().flatten().for_each(|x| w.expr(x));
        }
        for v in &p.vars {
            w.expr(&v.init);
        }
        let out = w.out;
        // The cards that stay in the box, by declaration: a family's cards share their
        // declaration's span, and are said once for the family.
        let mut stuck: Vec<(Span, Vec<&str>, usize)> = Vec::new();
        for (kind, out) in p.kinds.iter().zip(out) {
            let none = matches!(kind.copies.kind, ExprKind::Const(Value::Int(0)));
            // A card trigger that works from the box matters without leaving it.
            let acts = kind.triggers.iter().any(|t| t.zone == Some(p.box_zone));
            let declared = match stuck.last_mut() {
                Some(last) if last.0 == kind.span => last,
                _ => {
                    stuck.push((kind.span, Vec::new(), 0));
                    stuck.last_mut().expect("just pushed")
                }
            };
            declared.2 += 1;
            if !out && !none && !acts {
                declared.1.push(&kind.name);
            }
        }
        let mut warnings = Vec::new();
        for (span, names, declared) in stuck {
            let (message, label, help) = match names.as_slice() {
                [] => continue,
                [name] if declared == 1 => (
                    format!("no rule takes \"{name}\" out of the box: it is never in play"),
                    "stays in the box",
                    "move it where the game starts in `setup` (`move cards(\"NAME\", box) to ZONE`), or remove the card (rules tests do not count)",
                ),
                _ => {
                    let shown: Vec<String> = names.iter().take(3).map(|n| format!("\"{n}\"")).collect();
                    let more = if names.len() > 3 { ", ..." } else { "" };
                    let which = if names.len() == declared {
                        format!("the {declared} cards of this family")
                    } else {
                        format!("{} of this family's {declared} cards", names.len())
                    };
                    (
                        format!(
                            "no rule takes {which} ({}{more}) out of the box: they are never in play",
                            shown.join(", ")
                        ),
                        "they stay in the box",
                        "move them where the game starts in `setup` (`move box to ZONE` moves every card, `move cards(\"NAME\", box) to ZONE` one kind), or remove the family (rules tests do not count)",
                    )
                }
            };
            warnings.push(
                Diagnostic::warning("W005", span, message)
                    .label(label)
                    .help(help),
            );
        }
        self.diags.extend(warnings);
    }
}
