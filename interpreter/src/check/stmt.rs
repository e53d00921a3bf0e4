//! Checks stage: checking and lowering statements and blocks.

use super::expr::{fits, untyped};
use super::scope::{BodyKind, Ctx};
use super::{Compiler, Sym};
use crate::diag::Diagnostic;
use crate::program::*;
use cardgame_grammar::ast::{self, Position, Scope, Span};

impl Compiler<'_> {
    pub(crate) fn block(&mut self, cx: &mut Ctx, b: &ast::Block) -> BlockId {
        cx.push_block();
        let mut out = Vec::with_capacity(b.stmts.len());
        for s in &b.stmts {
            if let Some(st) = self.stmt(cx, s) {
                out.push(st);
            }
        }
        cx.pop();
        self.push_block(out)
    }

    /// Why a `win` ends the game: a written text, or an expression that must be a text (shown as
    /// a text of one part).
    fn win_reason(&mut self, cx: &mut Ctx, reason: &ast::WinReason) -> TextIr {
        match reason {
            ast::WinReason::Text(t) => self.text(cx, t),
            ast::WinReason::Expr(e) => {
                let (x, ty) = self.expr(cx, e);
                if !fits(&ty, &Ty::Text) {
                    self.error(
                        Diagnostic::error(
                            "E201",
                            e.span,
                            format!(
                                "the reason a game ends is a text, not {} {ty}",
                                crate::diag::article(&ty.to_string())
                            ),
                        )
                        .label(format!("this is {} {ty}", crate::diag::article(&ty.to_string())))
                        .help("write the reason as a text: `win [p] \"most points\"`, `win [p] \"{p} has {n} points\"`, or a text variable or function (`win [p] why`)"),
                    );
                }
                TextIr {
                    parts: vec![TextPartIr::Expr(x)],
                }
            }
        }
    }

    fn no_decision(&mut self, cx: &Ctx, span: Span, what: &str) -> bool {
        if cx.kind == BodyKind::Check {
            self.error(
                Diagnostic::error("E203", span, format!("a `check` block cannot {what}"))
                    .label("a decision inside a check")
                    .help("checks run whenever the engine pauses; they only test the position and end the game"),
            );
            return false;
        }
        true
    }

    /// E209: `name` gives no value to keep.
    fn no_result(&mut self, name: &ast::Ident, span: Span) {
        self.error(
            Diagnostic::error(
                "E209",
                span,
                format!("the procedure `{}` gives no value", name.name),
            )
            .label("no result to keep")
            .help(format!(
                "declare the type of its result and `return` one: `proc {}(...): int {{ ... return n }}`; or call it as a statement",
                name.name
            )),
        );
    }

    /// The local that `x = choose ...` or `x = proc(...)` gives a new value of type `ty` (E202 for
    /// anything else: a decision's result goes to a local first).
    fn result_local(&mut self, cx: &mut Ctx, t: &ast::Expr, ty: &Ty, what: &str) -> Option<Slot> {
        if let ast::ExprKind::Name(id) = &t.kind {
            if let Some((slot, lty)) = cx.get(&id.name) {
                self.refer_local(cx, id);
                if untyped(&lty) {
                    cx.refine(&id.name, ty.clone());
                } else if !fits(ty, &lty) {
                    self.type_error(t.span, &lty, ty);
                }
                return Some(slot);
            }
        }
        self.error(
            Diagnostic::error("E202", t.span, format!("{what} is kept in a local name"))
                .label("not a local")
                .help("keep it with `let x = ...` (or assign a local declared before), then write `T = x`"),
        );
        None
    }

    /// `name(args)` when `name` is a procedure (not hidden by a local): the value of a `let`.
    fn proc_called<'e>(
        &self,
        cx: &Ctx,
        e: &'e ast::Expr,
    ) -> Option<(&'e ast::Ident, &'e [ast::Expr])> {
        let ast::ExprKind::Call(name, args) = &e.kind else {
            return None;
        };
        if cx.get(&name.name).is_some() {
            return None;
        }
        match self.syms.get(&name.name) {
            Some((Sym::Proc(_), _)) => Some((name, args)),
            _ => None,
        }
    }

    fn target(&mut self, cx: &mut Ctx, e: &ast::Expr) -> Option<(Target, Ty)> {
        match &e.kind {
            ast::ExprKind::Name(id) => {
                if let Some((slot, ty)) = cx.get(&id.name) {
                    self.refer_local(cx, id);
                    return Some((Target::Local(slot), ty));
                }
                match self.lookup(id) {
                    Some(Sym::Var(v)) if self.p.vars[v.index()].scope == Scope::Shared => {
                        *self.writes.entry(id.name.clone()).or_default() += 1;
                        Some((Target::Global(v), self.p.vars[v.index()].ty.clone()))
                    }
                    _ => {
                        let (_, _) = self.expr(cx, e);
                        if self.diags.last().is_none_or(|d| d.span != e.span) {
                            self.error(
                                Diagnostic::error("E202", e.span, format!("`{}` cannot be changed", id.name))
                                    .label("not a variable")
                                    .help("only variables declared with `var` and local names can be written"),
                            );
                        }
                        None
                    }
                }
            }
            ast::ExprKind::Field(_, _) => {
                let (x, ty) = self.expr(cx, e);
                let var = match &x.kind {
                    ExprKind::PlayerVar(v, _) | ExprKind::CardVar(v, _) => {
                        Some(self.p.vars[v.index()].name.clone())
                    }
                    _ => None,
                };
                if let Some(name) = var {
                    *self.writes.entry(name).or_default() += 1;
                }
                match x.kind {
                    ExprKind::PlayerVar(v, b) => Some((Target::Player(v, *b), ty)),
                    ExprKind::CardVar(v, b) => Some((Target::Card(v, *b), ty)),
                    ExprKind::Const(_) => None, // an error was already reported
                    _ => {
                        self.error(
                            Diagnostic::error("E202", e.span, "this cannot be changed")
                                .label("not a variable")
                                .help("properties, zones and built-in fields are read-only; declare a `var` to keep a changing value"),
                        );
                        None
                    }
                }
            }
            _ => {
                self.error(
                    Diagnostic::error("E202", e.span, "only a variable can be changed")
                        .label("not a variable")
                        .help("change a declared `var` (`coins`, `p.coins`, `c.charge`) or a local from `let`"),
                );
                None
            }
        }
    }

    fn cards_expr(&mut self, cx: &mut Ctx, e: &ast::Expr) -> Expr {
        let (x, ty) = self.expr(cx, e);
        if !(fits(&ty, &Ty::Card) || fits(&ty, &Ty::List(Box::new(Ty::Card)))) {
            self.error(
                Diagnostic::error(
                    "E201",
                    e.span,
                    format!("expected a card, a list of cards or a zone, found a {ty}"),
                )
                .label(format!("a {ty}"))
                .help("`move` takes a card, a list of cards (`top 2 of Z`, `filter(...)`) or a whole zone"),
            );
        }
        x
    }

    /// The `by` of a decision: a player, and not a participant.
    fn opt_player(&mut self, cx: &mut Ctx, e: &Option<ast::Expr>) -> Option<Expr> {
        let x = e.as_ref().map(|e| self.expr_expect(cx, e, &Ty::Player));
        if let Some(x) = &x {
            self.seat_needed(x, "takes no decision");
        }
        x
    }

    pub(super) fn stmt(&mut self, cx: &mut Ctx, s: &ast::Stmt) -> Option<Stmt> {
        use ast::StmtKind as S;
        let span = s.span;
        let kind = match &s.kind {
            S::Let(id, declared, e) if self.proc_called(cx, e).is_some() => {
                let (name, args) = self.proc_called(cx, e)?;
                let Some(Sym::Proc(p)) = self.lookup(name) else {
                    return None;
                };
                let params = self.p.procs[p.index()].params.clone();
                let ret = self.p.procs[p.index()].ret.clone();
                let xs = self.arguments(cx, name, name.span, &params, args)?;
                let Some(ty) = ret else {
                    self.no_result(name, e.span);
                    // The name is declared all the same: its uses are not errors of their own.
                    cx.bind_at(&id.name, Ty::Any, id.span);
                    return None;
                };
                let ty = match declared.as_ref().map(super::decls::lower_type) {
                    Some(want) => {
                        if !fits(&ty, &want) {
                            self.type_error(e.span, &want, &ty);
                        }
                        want
                    }
                    None => ty,
                };
                let slot = cx.bind_at(&id.name, ty, id.span);
                StmtKind::CallLet(slot, p, xs)
            }
            S::AssignChoose(t, ch) => {
                self.no_decision(cx, span, "ask for a choice");
                let (choose, ty) = self.choose(cx, ch);
                let slot = self.result_local(cx, t, &ty, "a choice")?;
                StmtKind::Choose(slot, choose)
            }
            S::Assign(t, ast::AssignOp::Set, e) if self.proc_called(cx, e).is_some() => {
                let (name, args) = self.proc_called(cx, e)?;
                let Some(Sym::Proc(p)) = self.lookup(name) else {
                    return None;
                };
                let params = self.p.procs[p.index()].params.clone();
                let xs = self.arguments(cx, name, name.span, &params, args)?;
                let Some(ty) = self.p.procs[p.index()].ret.clone() else {
                    self.no_result(name, e.span);
                    return None;
                };
                let slot = self.result_local(cx, t, &ty, "a procedure's result")?;
                StmtKind::CallLet(slot, p, xs)
            }
            S::Return(e) => match cx.ret.clone() {
                Some(Some(ty)) => StmtKind::Return(self.expr_expect(cx, e, &ty)),
                found => {
                    let (_, _) = self.expr(cx, e);
                    let (label, help) = match found {
                        Some(None) => (
                            "this procedure declares no result",
                            "declare the type of its result after the parameters: `proc name(p: player): int { ... }`; `stop` leaves a procedure without one",
                        ),
                        _ => (
                            "not in a procedure",
                            "only a procedure declared with a result type returns a value; `stop` leaves an ability, a trigger or an action",
                        ),
                    };
                    self.error(
                        Diagnostic::error(
                            "E208",
                            span,
                            "`return` outside a procedure with a result".to_string(),
                        )
                        .label(label)
                        .help(help),
                    );
                    return None;
                }
            },
            S::Let(id, declared, e) => {
                let (x, ty) = self.let_value(cx, declared.as_ref(), e);
                let slot = cx.bind_at(&id.name, ty, id.span);
                StmtKind::Let(slot, x)
            }
            S::LetChoose(id, ch) => {
                self.no_decision(cx, span, "ask for a choice");
                let (choose, ty) = self.choose(cx, ch);
                let slot = cx.bind_at(&id.name, ty, id.span);
                StmtKind::Choose(slot, choose)
            }
            S::Assign(t, op, e) => {
                let (target, ty) = self.target(cx, t)?;
                let op = match op {
                    ast::AssignOp::Set => AssignOp::Set,
                    ast::AssignOp::Add => AssignOp::Add,
                    ast::AssignOp::Sub => AssignOp::Sub,
                };
                if op != AssignOp::Set && !fits(&ty, &Ty::Int) {
                    self.error(
                        Diagnostic::error(
                            "E201",
                            span,
                            format!("`+=` and `-=` change numbers; this is a {ty}"),
                        )
                        .label("not a number")
                        .help("to set the value, write `=`; lists grow with `+`: `x = x + [v]`"),
                    );
                }
                let x = match (&target, &t.kind) {
                    // A local started as `[]` or `none` takes the type of the first value
                    // given to it, so that `for p in order` then knows `p` is a player.
                    (Target::Local(_), ast::ExprKind::Name(id))
                        if op == AssignOp::Set && untyped(&ty) =>
                    {
                        let (x, got) = self.expr(cx, e);
                        if !fits(&got, &ty) {
                            self.type_error(e.span, &ty, &got);
                        } else if !untyped(&got) {
                            cx.refine(&id.name, got);
                        }
                        x
                    }
                    _ => self.expr_expect(cx, e, &ty),
                };
                StmtKind::Assign(target, op, x)
            }
            S::Move {
                what,
                to,
                position,
                face,
            } => {
                let what = self.cards_expr(cx, what);
                let to = self.expr_expect(cx, to, &Ty::Zone);
                StmtKind::Move {
                    what,
                    to,
                    position: position.unwrap_or(Position::Top),
                    face: *face,
                }
            }
            S::Shuffle(z) => StmtKind::Shuffle(self.expr_expect(cx, z, &Ty::Zone)),
            S::Pay(amount, from) => {
                let amount = self.expr_expect(cx, amount, &Ty::Int);
                let (t, ty) = self.target(cx, from)?;
                if !fits(&ty, &Ty::Int) {
                    self.type_error(from.span, &Ty::Int, &ty);
                }
                StmtKind::Pay(amount, t)
            }
            S::Reveal(e) => StmtKind::Reveal(self.cards_expr(cx, e), true),
            S::Hide(e) => StmtKind::Reveal(self.cards_expr(cx, e), false),
            S::Show(e, p) => {
                let cards = self.cards_expr(cx, e);
                StmtKind::Show(cards, self.expr_expect(cx, p, &Ty::Player))
            }
            S::If {
                branches,
                otherwise,
            } => {
                let bs = branches
                    .iter()
                    .map(|(c, b)| {
                        let c = self.expr_expect(cx, c, &Ty::Bool);
                        (c, self.block(cx, b))
                    })
                    .collect();
                let o = otherwise.as_ref().map(|b| self.block(cx, b));
                StmtKind::If(bs, o)
            }
            S::For {
                vars,
                list,
                filter,
                body,
            } => {
                let (l, lt) = self.expr(cx, list);
                let elem = self.list_elem(&lt, list.span);
                cx.push_block();
                let (slot, parts) = match vars.as_slice() {
                    [var] => (cx.bind_at(&var.name, elem, var.span), Vec::new()),
                    _ => self.taken_apart(cx, vars, elem, list.span),
                };
                let filter = filter.as_ref().map(|f| {
                    let mut f = self.expr_expect(cx, f, &Ty::Bool);
                    // The names are set before the condition reads them.
                    for (part, at) in parts.iter().rev() {
                        let span = f.span;
                        f = Expr::new(
                            ExprKind::Let(*part, Box::new(at.clone()), Box::new(f)),
                            span,
                        );
                    }
                    f
                });
                cx.loops += 1;
                let body = if parts.is_empty() {
                    self.block(cx, body)
                } else {
                    let lets = parts
                        .into_iter()
                        .map(|(part, at)| Stmt::new(StmtKind::Let(part, at), span))
                        .collect();
                    self.block_after(cx, lets, body)
                };
                cx.loops -= 1;
                cx.pop();
                StmtKind::For {
                    slot,
                    list: l,
                    filter,
                    body,
                }
            }
            S::While(c, b) => {
                let c = self.expr_expect(cx, c, &Ty::Bool);
                cx.loops += 1;
                let b = self.block(cx, b);
                cx.loops -= 1;
                StmtKind::While(c, b)
            }
            S::Repeat(n, b) => {
                let n = self.expr_expect(cx, n, &Ty::Int);
                cx.loops += 1;
                let b = self.block(cx, b);
                cx.loops -= 1;
                StmtKind::Repeat(n, b)
            }
            S::Loop(b) => {
                cx.loops += 1;
                let b = self.block(cx, b);
                cx.loops -= 1;
                StmtKind::Loop(b)
            }
            S::Break => {
                if cx.loops == 0 {
                    self.error(
                        Diagnostic::error("E205", span, "`break` outside a loop")
                            .label("no loop to leave")
                            .help("use `stop` to leave a procedure or an ability"),
                    );
                }
                StmtKind::Break
            }
            S::Require(c) => StmtKind::Require(self.expr_expect(cx, c, &Ty::Bool)),
            S::Strict(b) => StmtKind::Strict(self.block(cx, b)),
            S::Stop => StmtKind::Stop,
            S::Perform {
                ability,
                card,
                as_card,
                by,
            } => {
                let ab = match self.lookup(ability) {
                    Some(Sym::Ability(a)) => a,
                    _ => {
                        self.unknown_ability(ability);
                        return None;
                    }
                };
                self.performed.insert(ab);
                let card = self.expr_expect(cx, card, &Ty::Card);
                let as_card = as_card.as_ref().map(|c| self.expr_expect(cx, c, &Ty::Card));
                let by = self.opt_player(cx, by);
                StmtKind::Perform {
                    ability: ab,
                    card,
                    as_card,
                    by,
                }
            }
            S::Emit(ev, args) => {
                let id = match self.lookup(ev) {
                    Some(Sym::Event(e)) => e,
                    _ => {
                        self.unknown_name(&ev.name, ev.span, &super::UNKNOWN_EVENT);
                        return None;
                    }
                };
                let params = self.p.events[id.index()].params.clone();
                let xs = self.arguments(cx, ev, ev.span, &params, args)?;
                StmtKind::Emit(id, xs)
            }
            S::Call(name, args) => match self.lookup(name) {
                Some(Sym::Proc(p)) => {
                    let params = self.p.procs[p.index()].params.clone();
                    let xs = self.arguments(cx, name, name.span, &params, args)?;
                    StmtKind::Call(p, xs)
                }
                Some(Sym::Fn(_)) => {
                    self.error(
                        Diagnostic::error(
                            "E201",
                            name.span,
                            format!("`{}` is a function: its value must be used", name.name),
                        )
                        .label("value not used")
                        .help("keep the value (`let x = f(...)`, or use it in a condition), or make it a `proc` if it should act"),
                    );
                    return None;
                }
                _ => {
                    self.unknown_name(&name.name, name.span, &super::UNKNOWN_PROC);
                    return None;
                }
            },
            S::Turn(p, b) => {
                let p = self.expr_expect(cx, p, &Ty::Player);
                self.seat_needed(&p, "takes no turn");
                StmtKind::Turn(p, self.block(cx, b))
            }
            S::Phase(n, b) => StmtKind::Phase(n.name.clone(), self.block(cx, b)),
            S::Round(b) => self.round(cx, span, b),
            S::EndTurn => StmtKind::EndTurn,
            S::EndPhase => StmtKind::EndPhase,
            S::EndRound => {
                self.round_used(span, "end round");
                StmtKind::EndRound
            }
            S::Actions { by, mode, actions } => {
                self.no_decision(cx, span, "offer actions");
                let by = self.expr_expect(cx, by, &Ty::Player);
                self.seat_needed(&by, "takes no decision");
                let mode = match mode {
                    ast::MenuMode::UntilPass => MenuMode::UntilPass,
                    ast::MenuMode::Once => MenuMode::Once,
                    ast::MenuMode::OnceOrPass => MenuMode::OnceOrPass,
                    ast::MenuMode::Times(n) => MenuMode::Times(self.expr_expect(cx, n, &Ty::Int)),
                };
                let mut ids = vec![];
                for a in actions {
                    match self.lookup(a) {
                        // Named twice: its options are offered once.
                        Some(Sym::Action(id)) if ids.contains(&id) => self.error(
                            Diagnostic::warning(
                                "W006",
                                a.span,
                                format!("the action `{}` is named twice in this menu", a.name),
                            )
                            .label("named a second time")
                            .help("its options are offered once: remove the second name"),
                        ),
                        Some(Sym::Action(id)) => ids.push(id),
                        _ => {
                            self.unknown_name(&a.name, a.span, &super::UNKNOWN_ACTION);
                        }
                    }
                }
                StmtKind::Actions {
                    by,
                    mode,
                    actions: ids,
                }
            }
            S::ChooseBranch {
                by,
                prompt,
                branches,
            } => {
                self.no_decision(cx, span, "ask for a choice");
                let by = self.opt_player(cx, by);
                let prompt = prompt.as_ref().map(|t| self.text(cx, t));
                let bs = branches
                    .iter()
                    .map(|br| BranchIr {
                        label: self.text(cx, &br.label),
                        condition: br
                            .condition
                            .as_ref()
                            .map(|c| self.expr_expect(cx, c, &Ty::Bool)),
                        body: self.block(cx, &br.body),
                    })
                    .collect();
                StmtKind::ChooseBranch {
                    by,
                    prompt,
                    branches: bs,
                }
            }
            S::Simultaneously {
                player,
                players,
                count,
                var,
                domain,
                filter,
                prompt,
                body,
            } => {
                self.no_decision(cx, span, "ask for a choice");
                let players = self.expr_expect(cx, players, &Ty::List(Box::new(Ty::Player)));
                cx.push();
                let pslot = cx.bind_at(&player.name, Ty::Player, player.span);
                let (d, dt) = self.expr(cx, domain);
                let elem = self.list_elem(&dt, domain.span);
                // The count may read the player who chooses (`choose q.picks x in ...`).
                let count = match count {
                    ast::ChooseCount::One => ChooseCount::One,
                    ast::ChooseCount::Exactly(n) => {
                        ChooseCount::Exactly(self.expr_expect(cx, n, &Ty::Int))
                    }
                    ast::ChooseCount::UpTo(n) => {
                        ChooseCount::UpTo(self.expr_expect(cx, n, &Ty::Int))
                    }
                    ast::ChooseCount::Any => ChooseCount::Any,
                    ast::ChooseCount::Order => ChooseCount::Order,
                };
                let var_ty = match count {
                    ChooseCount::One => elem,
                    _ => Ty::List(Box::new(elem)),
                };
                let vslot = cx.bind_at(&var.name, var_ty, var.span);
                let filter = filter.as_ref().map(|f| self.expr_expect(cx, f, &Ty::Bool));
                let prompt = prompt.as_ref().map(|t| self.text(cx, t));
                let body = self.block(cx, body);
                cx.pop();
                StmtKind::Simultaneously {
                    player: pslot,
                    players,
                    count,
                    var: vslot,
                    domain: d,
                    filter,
                    prompt,
                    body,
                }
            }
            S::Eliminate(p) => StmtKind::Eliminate(self.expr_expect(cx, p, &Ty::Player)),
            S::OutForRound(p) => {
                self.round_used(span, "eliminate ... for round");
                StmtKind::OutForRound(self.expr_expect(cx, p, &Ty::Player))
            }
            S::Win(who, reason) => {
                let (x, ty) = self.expr(cx, who);
                if !(fits(&ty, &Ty::Player) || fits(&ty, &Ty::List(Box::new(Ty::Player)))) {
                    self.error(
                        Diagnostic::error(
                            "E201",
                            who.span,
                            format!("the winners are a player or a list of players, not a {ty}"),
                        )
                        .label(format!("a {ty}"))
                        .help("write `win [p] \"why\"`, `win filter(p in everyone where ...) \"why\"` or `win [] \"why\"` for no winner"),
                    );
                }
                StmtKind::Win(x, self.win_reason(cx, reason))
            }
            S::WinTeam(team, reason) => {
                let Some(tv) = self.p.teams else {
                    if self.teams_declared {
                        // `teams by` has its own error already.
                        return None;
                    }
                    self.error(
                        Diagnostic::error(
                            "E312",
                            team.span,
                            "`win team` needs the teams: the game header has no `teams by VAR`",
                        )
                        .label("whose team?")
                        .help("declare a per-player variable that holds each player's team (`var team per player: int = 0`, set in `setup`) and write `teams by team` in the game header"),
                    );
                    return None;
                };
                let ty = self.p.vars[tv.index()].ty.clone();
                let x = self.expr_expect(cx, team, &ty);
                StmtKind::WinTeam(x, self.win_reason(cx, reason))
            }
            S::Log(t) => StmtKind::Log(self.text(cx, t)),
            S::LogTo(t, p) => {
                let t = self.text(cx, t);
                let p = self.expr_expect(cx, p, &Ty::Player);
                self.seat_needed(&p, "reads no log");
                StmtKind::LogTo(t, p)
            }
            S::Stat(name, op, value) => self.stat_stmt(cx, name, None, *op, value, span)?,
            S::StatAt(name, key, op, value) => {
                self.stat_stmt(cx, name, Some(key), *op, value, span)?
            }
        };
        Some(Stmt::new(kind, span))
    }

    /// The values of a call, an emit or a test's `start`: one per parameter, each of its type.
    pub(crate) fn arguments(
        &mut self,
        cx: &mut Ctx,
        name: &ast::Ident,
        span: Span,
        params: &[Ty],
        args: &[ast::Expr],
    ) -> Option<Vec<Expr>> {
        if params.len() != args.len() {
            self.error(
                Diagnostic::error(
                    "E111",
                    span,
                    format!(
                        "`{}` takes {} value(s), {} given",
                        name.name,
                        params.len(),
                        args.len()
                    ),
                )
                .label("wrong number of values")
                .help(format!(
                    "give `{}` exactly {} value(s)",
                    name.name,
                    params.len()
                )),
            );
            return None;
        }
        Some(
            args.iter()
                .zip(params)
                .map(|(a, t)| self.expr_expect(cx, a, t))
                .collect(),
        )
    }

    /// A `choose` expression; returns it with the type of its result.
    pub(crate) fn choose(&mut self, cx: &mut Ctx, ch: &ast::Choose) -> (Choose, Ty) {
        let (d, dt) = self.expr(cx, &ch.domain);
        let elem = self.list_elem(&dt, ch.domain.span);
        let count = match &ch.count {
            ast::ChooseCount::One => ChooseCount::One,
            ast::ChooseCount::Exactly(n) => ChooseCount::Exactly(self.expr_expect(cx, n, &Ty::Int)),
            ast::ChooseCount::UpTo(n) => ChooseCount::UpTo(self.expr_expect(cx, n, &Ty::Int)),
            ast::ChooseCount::Any => ChooseCount::Any,
            ast::ChooseCount::Order => ChooseCount::Order,
        };
        let by = self.opt_player(cx, &ch.by);
        let prompt = ch.prompt.as_ref().map(|t| self.text(cx, t));
        cx.push();
        let var = cx.bind_at(&ch.var.name, elem.clone(), ch.var.span);
        let filter = ch
            .filter
            .as_ref()
            .map(|f| self.expr_expect(cx, f, &Ty::Bool));
        cx.pop();
        let ty = match ch.count {
            ast::ChooseCount::One => elem,
            _ => Ty::List(Box::new(elem)),
        };
        (
            Choose {
                count,
                var,
                domain: d,
                filter,
                by,
                prompt,
            },
            ty,
        )
    }
}
