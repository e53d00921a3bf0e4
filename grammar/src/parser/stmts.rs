//! Grammar stage: building blocks and statements from pest pairs.

use super::builder::*;
use super::*;

impl Builder<'_> {
    pub(super) fn block(&mut self, p: P<'_>, d: usize) -> R<Block> {
        let span = self.sp(&p);
        if self.deep(d, span) {
            return Ok(Block {
                stmts: Vec::new(),
                span,
            });
        }
        let stmts = kids(&p)
            .rest()
            .map(|s| self.stmt(s, d + 1))
            .collect::<R<_>>()?;
        Ok(Block { stmts, span })
    }

    pub(super) fn opt_expr(&mut self, k: &mut Kids<'_>, r: Rule, d: usize) -> R<Option<Expr>> {
        match k.take(r) {
            Some(c) => Ok(Some(self.expr(kids(&c).next()?, d)?)),
            None => Ok(None),
        }
    }

    fn opt_text(&mut self, k: &mut Kids<'_>, r: Rule, d: usize) -> R<Option<Text>> {
        match k.take(r) {
            Some(c) => Ok(Some(self.text(kids(&c).next()?, d)?)),
            None => Ok(None),
        }
    }

    fn stmt(&mut self, p: P<'_>, d: usize) -> R<Stmt> {
        let span = self.sp(&p);
        if self.deep(d, span) {
            return Ok(Stmt {
                kind: StmtKind::Stop,
                span,
            });
        }
        let d = d + 1;
        let rule = p.as_rule();
        let mut k = kids(&p);
        let kind = match rule {
            Rule::stmt_let_choose => {
                let name = self.ident(&k.next()?);
                let c = self.choose(k.next()?, d)?;
                StmtKind::LetChoose(name, c)
            }
            Rule::stmt_assign_choose => {
                let target = self.expr(k.next()?, d)?;
                let _op = k.take(Rule::set_op);
                let c = self.choose(k.next()?, d)?;
                StmtKind::AssignChoose(target, c)
            }
            Rule::stmt_let => {
                let name = self.ident(&k.next()?);
                let ty = match k.take(Rule::let_type) {
                    Some(t) => Some(self.type_expr(kids(&t).next()?)?),
                    None => None,
                };
                StmtKind::Let(name, ty, self.expr(k.next()?, d)?)
            }
            Rule::stmt_move => {
                let what = self.expr(k.next()?, d)?;
                let to = self.expr(k.next()?, d)?;
                let position = k.take(Rule::move_position).map(|m| match first_rule(&m) {
                    Some(Rule::k_bottom) => Position::Bottom,
                    _ => Position::Top,
                });
                let face = k.take(Rule::move_face).map(|m| {
                    if has_child(&m, Rule::k_down) {
                        Face::Down
                    } else {
                        Face::Up
                    }
                });
                StmtKind::Move {
                    what,
                    to,
                    position,
                    face,
                }
            }
            Rule::stmt_shuffle => StmtKind::Shuffle(self.expr(k.next()?, d)?),
            Rule::stmt_pay => {
                let amount = self.expr(k.next()?, d)?;
                StmtKind::Pay(amount, self.expr(k.next()?, d)?)
            }
            Rule::stmt_reveal => StmtKind::Reveal(self.expr(k.next()?, d)?),
            Rule::stmt_hide => StmtKind::Hide(self.expr(k.next()?, d)?),
            Rule::stmt_show => {
                let cards = self.expr(k.next()?, d)?;
                StmtKind::Show(cards, self.expr(k.next()?, d)?)
            }
            Rule::stmt_if => {
                let cond = self.expr(k.next()?, d)?;
                let block = self.block(k.next()?, d)?;
                let mut branches = vec![(cond, block)];
                let mut otherwise = None;
                for c in k.rest() {
                    let mut ck = kids(&c);
                    match c.as_rule() {
                        Rule::else_if => {
                            let cond = self.expr(ck.next()?, d)?;
                            let block = self.block(ck.next()?, d)?;
                            branches.push((cond, block));
                        }
                        Rule::else_block => otherwise = Some(self.block(ck.next()?, d)?),
                        _ => return Err(Bug),
                    }
                }
                StmtKind::If {
                    branches,
                    otherwise,
                }
            }
            Rule::stmt_for => {
                let names = k.next()?;
                let vars = if names.as_rule() == Rule::for_names {
                    kids(&names).rest().map(|n| self.ident(&n)).collect()
                } else {
                    vec![self.ident(&names)]
                };
                let list = self.expr(k.next()?, d)?;
                let filter = self.opt_expr(&mut k, Rule::where_clause, d)?;
                let body = self.block(k.next()?, d)?;
                StmtKind::For {
                    vars,
                    list,
                    filter,
                    body,
                }
            }
            Rule::stmt_while => {
                let cond = self.expr(k.next()?, d)?;
                StmtKind::While(cond, self.block(k.next()?, d)?)
            }
            Rule::stmt_repeat => {
                let n = self.expr(k.next()?, d)?;
                StmtKind::Repeat(n, self.block(k.next()?, d)?)
            }
            Rule::stmt_loop => StmtKind::Loop(self.block(k.next()?, d)?),
            Rule::stmt_break => StmtKind::Break,
            Rule::stmt_require => StmtKind::Require(self.expr(k.next()?, d)?),
            Rule::stmt_strict => StmtKind::Strict(self.block(k.next()?, d)?),
            Rule::stmt_stop => StmtKind::Stop,
            Rule::stmt_return => StmtKind::Return(self.expr(k.next()?, d)?),
            Rule::stmt_perform => {
                let ability = self.ident(&k.next()?);
                let card = self.expr(k.next()?, d)?;
                let as_card = self.opt_expr(&mut k, Rule::as_clause, d)?;
                let by = self.opt_expr(&mut k, Rule::by_clause, d)?;
                StmtKind::Perform {
                    ability,
                    card,
                    as_card,
                    by,
                }
            }
            Rule::stmt_emit => {
                let name = self.ident(&k.next()?);
                let args = k.rest().map(|a| self.expr(a, d)).collect::<R<_>>()?;
                StmtKind::Emit(name, args)
            }
            Rule::stmt_call => {
                let name = self.ident(&k.next()?);
                let args = k.rest().map(|a| self.expr(a, d)).collect::<R<_>>()?;
                StmtKind::Call(name, args)
            }
            Rule::stmt_turn => {
                let who = self.expr(k.next()?, d)?;
                StmtKind::Turn(who, self.block(k.next()?, d)?)
            }
            Rule::stmt_phase => {
                let name = self.ident(&k.next()?);
                StmtKind::Phase(name, self.block(k.next()?, d)?)
            }
            Rule::stmt_round => StmtKind::Round(self.block(k.next()?, d)?),
            Rule::stmt_end_turn => StmtKind::EndTurn,
            Rule::stmt_end_phase => StmtKind::EndPhase,
            Rule::stmt_end_round => StmtKind::EndRound,
            Rule::stmt_actions => {
                let by = self.expr(k.next()?, d)?;
                let mode_pair = k.next()?;
                let mode_inner = mode_pair.into_inner().next().ok_or(Bug)?;
                let mode = match mode_inner.as_rule() {
                    Rule::mode_until_pass => MenuMode::UntilPass,
                    Rule::mode_once_or_pass => MenuMode::OnceOrPass,
                    Rule::mode_once => MenuMode::Once,
                    Rule::mode_times => MenuMode::Times(self.expr(kids(&mode_inner).next()?, d)?),
                    _ => return Err(Bug),
                };
                let actions = k.rest().map(|a| self.ident(&a)).collect();
                StmtKind::Actions { by, mode, actions }
            }
            Rule::stmt_choose_branch => {
                let by = self.opt_expr(&mut k, Rule::by_clause, d)?;
                let prompt = self.opt_text(&mut k, Rule::prompt_clause, d)?;
                let mut branches = Vec::new();
                for b in k.rest() {
                    let bspan = self.sp(&b);
                    let mut bk = kids(&b);
                    let label = self.text(bk.next()?, d)?;
                    let condition = self.opt_expr(&mut bk, Rule::action_if, d)?;
                    let body = self.block(bk.next()?, d)?;
                    branches.push(Branch {
                        label,
                        condition,
                        body,
                        span: bspan,
                    });
                }
                StmtKind::ChooseBranch {
                    by,
                    prompt,
                    branches,
                }
            }
            Rule::stmt_simultaneously => {
                let player = self.ident(&k.next()?);
                let players = self.expr(k.next()?, d)?;
                let (count, var, domain) = self.choose_head(k.next()?, d)?;
                let filter = self.opt_expr(&mut k, Rule::where_clause, d)?;
                let prompt = self.opt_text(&mut k, Rule::prompt_clause, d)?;
                let body = self.block(k.next()?, d)?;
                StmtKind::Simultaneously {
                    player,
                    players,
                    count,
                    var,
                    domain,
                    filter,
                    prompt,
                    body,
                }
            }
            Rule::stmt_eliminate => {
                let who = self.expr(k.next()?, d)?;
                if k.take(Rule::for_round).is_some() {
                    StmtKind::OutForRound(who)
                } else {
                    StmtKind::Eliminate(who)
                }
            }
            Rule::stmt_win => {
                let first = k.next()?;
                let reason = k.next()?;
                let reason = if reason.as_rule() == Rule::text {
                    WinReason::Text(self.text(reason, d)?)
                } else {
                    WinReason::Expr(self.expr(reason, d)?)
                };
                if first.as_rule() == Rule::win_team {
                    let team = self.expr(kids(&first).next()?, d)?;
                    StmtKind::WinTeam(team, reason)
                } else {
                    let who = self.expr(first, d)?;
                    StmtKind::Win(who, reason)
                }
            }
            Rule::stmt_log => {
                let text = self.text(k.next()?, d)?;
                match k.take(Rule::expr) {
                    Some(to) => StmtKind::LogTo(text, self.expr(to, d)?),
                    None => StmtKind::Log(text),
                }
            }
            Rule::stmt_stat => {
                let name = self.ident(&k.next()?);
                let key = match k.take(Rule::index_access) {
                    Some(i) => Some(self.expr(kids(&i).next()?, d + 1)?),
                    None => None,
                };
                let op = match k.next()?.as_str() {
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    _ => AssignOp::Set,
                };
                let value = self.expr(k.next()?, d)?;
                match key {
                    Some(key) => StmtKind::StatAt(name, key, op, value),
                    None => StmtKind::Stat(name, op, value),
                }
            }
            Rule::stmt_assign => {
                let target = self.expr(k.next()?, d)?;
                let op = match k.next()?.as_str() {
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    _ => AssignOp::Set,
                };
                let value = self.expr(k.next()?, d)?;
                StmtKind::Assign(target, op, value)
            }
            _ => return Err(Bug),
        };
        Ok(Stmt { kind, span })
    }

    pub(super) fn choose(&mut self, p: P<'_>, d: usize) -> R<Choose> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let (count, var, domain) = self.choose_head(k.next()?, d)?;
        let filter = self.opt_expr(&mut k, Rule::where_clause, d)?;
        let by = self.opt_expr(&mut k, Rule::by_clause, d)?;
        let prompt = self.opt_text(&mut k, Rule::prompt_clause, d)?;
        Ok(Choose {
            count,
            var,
            domain,
            filter,
            by,
            prompt,
            span,
        })
    }

    /// `[count] x in L` of a `choose` or a `simultaneously ... choose`.
    fn choose_head(&mut self, head: P<'_>, d: usize) -> R<(ChooseCount, Ident, Expr)> {
        let mut hk = kids(&head);
        let count = if head.as_rule() == Rule::choose_counted {
            let c = hk.next()?;
            let inner = c.clone().into_inner().next().ok_or(Bug)?;
            match inner.as_rule() {
                Rule::choose_up_to => ChooseCount::UpTo(self.expr(kids(&inner).next()?, d)?),
                Rule::choose_any => ChooseCount::Any,
                Rule::choose_order => ChooseCount::Order,
                _ => ChooseCount::Exactly(self.expr(inner, d)?),
            }
        } else {
            ChooseCount::One
        };
        let var = self.ident(&hk.next()?);
        let domain = self.expr(hk.next()?, d)?;
        Ok((count, var, domain))
    }
}
