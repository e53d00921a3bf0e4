//! Grammar stage: building top-level items (game, options, tables, vars, zones, cards, actions,
//! triggers, tests) from pest pairs.

use super::builder::*;
use super::*;

impl Builder<'_> {
    pub(super) fn item(&mut self, p: P<'_>) -> R<Item> {
        Ok(match p.as_rule() {
            Rule::game_decl => Item::Game(self.game(p)?),
            Rule::table_decl => Item::Table(self.table(p)?),
            Rule::tags_decl => {
                let span = self.sp(&p);
                let mut k = kids(&p);
                let group = self.ident(&k.next()?);
                let tags = k.rest().map(|t| self.ident(&t)).collect();
                Item::Tags(TagsDecl { group, tags, span })
            }
            Rule::property_decl => {
                let span = self.sp(&p);
                let mut k = kids(&p);
                let name = self.ident(&k.next()?);
                let ty = match first_rule(&k.next()?) {
                    Some(Rule::k_kinds) => PropertyType::Kinds,
                    Some(Rule::k_bool) => PropertyType::Bool,
                    _ => PropertyType::Int,
                };
                let default = match k.q.pop_front() {
                    Some(e) => Some(self.expr(e, 1)?),
                    None => None,
                };
                Item::Property(PropertyDecl {
                    name,
                    ty,
                    default,
                    span,
                })
            }
            Rule::var_decl => Item::Var(self.var(p)?),
            Rule::zone_decl => Item::Zone(self.zone(p)?),
            Rule::spaces_decl => {
                let span = self.sp(&p);
                let diagonal = has_child(&p, Rule::k_diagonal);
                let mut k = kids(&p);
                let name = self.ident(&k.next()?);
                let width = self.expr(k.next()?, 1)?;
                let height = self.expr(k.next()?, 1)?;
                Item::Spaces(SpacesDecl {
                    name,
                    width,
                    height,
                    diagonal,
                    span,
                })
            }
            Rule::event_decl => {
                let span = self.sp(&p);
                let mut k = kids(&p);
                let name = self.ident(&k.next()?);
                let params = k.rest().map(|q| self.param(q)).collect::<R<_>>()?;
                Item::Event(EventDecl { name, params, span })
            }
            Rule::abilities_decl => {
                let span = self.sp(&p);
                let names = kids(&p).rest().map(|n| self.ident(&n)).collect();
                Item::Abilities(AbilitiesDecl { names, span })
            }
            Rule::card_decl => Item::Card(self.card(p)?),
            Rule::cards_from_decl => {
                let span = self.sp(&p);
                let mut k = kids(&p);
                let path = self.text(k.next()?, 1)?;
                let cards = k.rest().map(|c| self.card(c)).collect::<R<_>>()?;
                Item::CardsFrom(CardsFromDecl { path, cards, span })
            }
            Rule::fn_decl => {
                let span = self.sp(&p);
                let mut k = kids(&p);
                let name = self.ident(&k.next()?);
                let mut params = Vec::new();
                while let Some(q) = k.take(Rule::param) {
                    params.push(self.param(q)?);
                }
                let ret = self.type_expr(k.next()?)?;
                let mut lets = Vec::new();
                let body_pair = k.next()?;
                let body = if body_pair.as_rule() == Rule::fn_body {
                    let mut b = kids(&body_pair);
                    while let Some(l) = b.take(Rule::fn_let) {
                        let mut lk = kids(&l);
                        let n = self.ident(&lk.next()?);
                        let ty = match lk.take(Rule::let_type) {
                            Some(t) => Some(self.type_expr(kids(&t).next()?)?),
                            None => None,
                        };
                        let v = self.expr(lk.next()?, 1)?;
                        lets.push((n, ty, v));
                    }
                    self.expr(b.next()?, 1)?
                } else {
                    self.expr(body_pair, 1)?
                };
                Item::Fn(FnDecl {
                    name,
                    params,
                    ret,
                    lets,
                    body,
                    span,
                })
            }
            Rule::proc_decl => {
                let span = self.sp(&p);
                let mut k = kids(&p);
                let name = self.ident(&k.next()?);
                let mut params = Vec::new();
                while let Some(q) = k.take(Rule::param) {
                    params.push(self.param(q)?);
                }
                let ret = match k.take(Rule::type_expr) {
                    Some(t) => Some(self.type_expr(t)?),
                    None => None,
                };
                let body = self.block(k.next()?, 1)?;
                Item::Proc(ProcDecl {
                    name,
                    params,
                    ret,
                    body,
                    span,
                })
            }
            Rule::action_decl => Item::Action(self.action(p)?),
            Rule::trigger => Item::Trigger(self.trigger(p)?),
            Rule::setup_decl => Item::Setup(self.block(kids(&p).next()?, 1)?),
            Rule::flow_decl => Item::Flow(self.block(kids(&p).next()?, 1)?),
            Rule::check_decl => Item::Check(self.block(kids(&p).next()?, 1)?),
            Rule::test_decl => Item::Test(self.test(p)?),
            Rule::strategy_decl => Item::Strategy(self.strategy(p)?),
            Rule::rules_decl => {
                let s = self.strategy(p)?;
                Item::Rules(RuleSetDecl {
                    name: s.name,
                    description: s.description,
                    rules: s.rules,
                    otherwise: s.otherwise.map(|(_, _, span)| span),
                    span: s.span,
                })
            }
            Rule::stat_decl => {
                let span = self.sp(&p);
                let mut k = kids(&p);
                let name = self.ident(&k.next()?);
                let key = match k.take(Rule::stat_key_type) {
                    Some(t) => Some(self.type_expr(kids(&t).next()?)?),
                    None => None,
                };
                let description = match k.take(Rule::text) {
                    Some(t) => Some(self.text(t, 1)?),
                    None => None,
                };
                Item::Stat(StatDecl {
                    name,
                    key,
                    description,
                    span,
                })
            }
            Rule::participant_decl => {
                let span = self.sp(&p);
                let mut k = kids(&p);
                let name = self.ident(&k.next()?);
                let display = self.text(k.next()?, 1)?;
                Item::Participant(ParticipantDecl {
                    name,
                    display,
                    span,
                })
            }
            _ => return Err(Bug),
        })
    }

    pub(super) fn game(&mut self, p: P<'_>) -> R<GameDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.text(k.next()?, 1)?;
        let mut players: Option<PlayerRange> = None;
        let mut options = Vec::new();
        let mut teams = None;
        for c in k.rest() {
            match c.as_rule() {
                Rule::game_teams => {
                    if teams.is_some() {
                        self.duplicate("`teams by`", self.sp(&c));
                    }
                    teams = Some(self.ident(&kids(&c).next()?));
                }
                Rule::game_players => {
                    let r = self.player_range(kids(&c).next()?)?;
                    if players.is_some() {
                        self.duplicate("`players`", self.sp(&c));
                    }
                    players = Some(r);
                }
                Rule::option_decl => options.push(self.option(c)?),
                _ => return Err(Bug),
            }
        }
        Ok(GameDecl {
            name,
            players,
            options,
            teams,
            span,
        })
    }

    pub(super) fn player_range(&mut self, p: P<'_>) -> R<PlayerRange> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let min = self.int_value(&k.next()?);
        let max = match k.q.pop_front() {
            Some(q) => self.int_value(&q),
            None => min,
        };
        Ok(PlayerRange { min, max, span })
    }

    pub(super) fn option(&mut self, p: P<'_>) -> R<OptionDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.ident(&k.next()?);
        let kind_pair = k.next()?;
        let inner = kids(&kind_pair).next()?;
        let mut value_players = Vec::new();
        let kind = match inner.as_rule() {
            Rule::opt_bool => OptionKind::Bool,
            Rule::opt_int => {
                let mut ik = kids(&inner);
                let min = self.int_value(&ik.next()?);
                let max = self.int_value(&ik.next()?);
                OptionKind::Int { min, max }
            }
            Rule::opt_one_of => {
                let mut names = Vec::new();
                for v in kids(&inner).rest() {
                    let mut vk = kids(&v);
                    names.push(self.ident(&vk.next()?));
                    let mut ranges = Vec::new();
                    if let Some(counts) = vk.q.pop_front() {
                        for r in kids(&counts).rest() {
                            ranges.push(self.player_range(r)?);
                        }
                    }
                    value_players.push(ranges);
                }
                OptionKind::OneOf(names)
            }
            _ => return Err(Bug),
        };
        let default = self.expr(k.next()?, 1)?;
        let description = match k.q.pop_front() {
            Some(t) => Some(self.text(t, 1)?),
            None => None,
        };
        Ok(OptionDecl {
            name,
            kind,
            default,
            description,
            value_players,
            span,
        })
    }

    pub(super) fn table(&mut self, p: P<'_>) -> R<TableDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let columns = kids(&k.next()?).rest().map(|c| self.ident(&c)).collect();
        let mut rows = Vec::new();
        for row in k.rest() {
            let rspan = self.sp(&row);
            let mut rk = kids(&row);
            let players = self.int_value(&rk.next()?);
            let values = rk.rest().map(|v| self.expr(v, 1)).collect::<R<_>>()?;
            rows.push(TableRow {
                players,
                values,
                span: rspan,
            });
        }
        Ok(TableDecl {
            columns,
            rows,
            span,
        })
    }

    pub(super) fn scope(&self, k: &mut Kids<'_>) -> Scope {
        match k.take(Rule::scope) {
            None => Scope::Shared,
            Some(s) => match s.into_inner().nth(1).map(|w| w.as_rule()) {
                Some(Rule::k_card) => Scope::PerCard,
                Some(Rule::k_space) => Scope::PerSpace,
                _ => Scope::PerPlayer,
            },
        }
    }

    pub(super) fn var(&mut self, p: P<'_>) -> R<VarDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.ident(&k.next()?);
        let scope = self.scope(&mut k);
        let private = p
            .clone()
            .into_inner()
            .any(|c| c.as_rule() == Rule::k_private);
        let shown = p.clone().into_inner().any(|c| c.as_rule() == Rule::k_shown);
        let ty = self.type_expr(k.next()?)?;
        let init = self.expr(k.next()?, 1)?;
        let mut min = None;
        let mut max = None;
        for b in k.rest() {
            let bspan = self.sp(&b);
            let rule = b.as_rule();
            let e = self.expr(kids(&b).next()?, 1)?;
            let slot = if rule == Rule::var_min {
                &mut min
            } else {
                &mut max
            };
            let again = slot.is_some();
            *slot = Some(e);
            if again {
                let what = if rule == Rule::var_min {
                    "`min`"
                } else {
                    "`max`"
                };
                self.duplicate(what, bspan);
            }
        }
        Ok(VarDecl {
            name,
            scope,
            private,
            shown,
            ty,
            init,
            min,
            max,
            span,
        })
    }

    /// A type; `list of` nesting is unwound without recursion.
    pub(super) fn type_expr(&mut self, p: P<'_>) -> R<TypeExpr> {
        let mut lists: Vec<Span> = Vec::new();
        let mut cur = p;
        loop {
            let span = self.sp(&cur);
            let inner = cur.clone().into_inner().next().ok_or(Bug)?;
            if inner.as_rule() == Rule::type_list {
                lists.push(span);
                cur = kids(&inner).next()?;
                continue;
            }
            let base = match inner.as_rule() {
                Rule::k_int => TypeExpr::Int(span),
                Rule::k_bool => TypeExpr::Bool(span),
                Rule::k_text => TypeExpr::Text(span),
                Rule::k_player => TypeExpr::Player(span),
                Rule::k_card => TypeExpr::Card(span),
                Rule::k_kind => TypeExpr::Kind(span),
                Rule::k_tag => TypeExpr::Tag(span),
                Rule::k_space => TypeExpr::Space(span),
                Rule::k_zone => TypeExpr::Zone(span),
                _ => return Err(Bug),
            };
            if lists.len() > MAX_TREE_DEPTH {
                self.deep(lists.len(), span);
                return Ok(base);
            }
            let mut t = base;
            while let Some(s) = lists.pop() {
                t = TypeExpr::List(Box::new(t), s);
            }
            return Ok(t);
        }
    }

    pub(super) fn zone(&mut self, p: P<'_>) -> R<ZoneDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.ident(&k.next()?);
        let scope = self.scope(&mut k);
        let mut attrs = Vec::new();
        for a in k.rest() {
            let inner = a.clone().into_inner().next().ok_or(Bug)?;
            let s = self.sp(&inner);
            attrs.push(match inner.as_rule() {
                Rule::k_pile => ZoneAttr::Pile(s),
                Rule::k_set => ZoneAttr::Set(s),
                Rule::k_public => ZoneAttr::Public(s),
                Rule::k_owner => ZoneAttr::Owner(s),
                Rule::k_others => ZoneAttr::Others(s),
                Rule::k_hidden => ZoneAttr::Hidden(s),
                Rule::zone_refill => ZoneAttr::RefillFrom(self.ident(&kids(&inner).next()?)),
                Rule::zone_max => ZoneAttr::Max(self.expr(kids(&inner).next()?, 1)?),
                Rule::zone_shown => {
                    ZoneAttr::ShownBy(kids(&inner).rest().map(|i| self.ident(&i)).collect())
                }
                _ => return Err(Bug),
            });
        }
        Ok(ZoneDecl {
            name,
            scope,
            attrs,
            span,
        })
    }

    pub(super) fn param(&mut self, p: P<'_>) -> R<Param> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.ident(&k.next()?);
        let ty = self.type_expr(k.next()?)?;
        Ok(Param { name, ty, span })
    }

    pub(super) fn card(&mut self, p: P<'_>) -> R<CardDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.text(k.next()?, 1)?;
        let mut family = Vec::new();
        if let Some(f) = k.take(Rule::card_family) {
            for b in kids(&f).rest() {
                let bspan = self.sp(&b);
                let row = has_child(&b, Rule::lparen);
                let parts: Vec<P<'_>> = kids(&b).rest().collect();
                let (list, names) = parts.split_last().ok_or(Bug)?;
                family.push(FamilyBinder {
                    names: names.iter().map(|n| self.ident(n)).collect(),
                    row,
                    list: self.expr(list.clone(), 1)?,
                    span: bspan,
                });
            }
        }
        let mut items = Vec::new();
        for c in k.rest() {
            let s = self.sp(&c);
            items.push(match c.as_rule() {
                Rule::card_is => CardItem::Is(kids(&c).rest().map(|t| self.ident(&t)).collect(), s),
                Rule::card_copies => CardItem::Copies(self.expr(kids(&c).next()?, 1)?, s),
                Rule::card_text => CardItem::Text(self.text(kids(&c).next()?, 1)?, s),
                Rule::card_ability => {
                    let mut ck = kids(&c);
                    let n = self.ident(&ck.next()?);
                    let b = self.block(ck.next()?, 1)?;
                    CardItem::Ability(n, b, s)
                }
                Rule::trigger => CardItem::Trigger(self.trigger(c)?),
                Rule::card_property => {
                    let mut ck = kids(&c);
                    let n = self.ident(&ck.next()?);
                    let e = self.expr(ck.next()?, 1)?;
                    CardItem::Property(n, e, s)
                }
                _ => return Err(Bug),
            });
        }
        Ok(CardDecl {
            name,
            family,
            items,
            span,
        })
    }

    pub(super) fn action(&mut self, p: P<'_>) -> R<ActionDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.ident(&k.next()?);
        let mut params = Vec::new();
        while let Some(a) = k.take(Rule::action_param) {
            let aspan = self.sp(&a);
            let mut ak = kids(&a);
            let pname = self.ident(&ak.next()?);
            let domain = self.expr(ak.next()?, 1)?;
            params.push(ActionParam {
                name: pname,
                domain,
                span: aspan,
            });
        }
        let label = match k.take(Rule::action_label) {
            Some(l) => Some(self.text(kids(&l).next()?, 1)?),
            None => None,
        };
        let condition = match k.take(Rule::action_if) {
            Some(c) => Some(self.expr(kids(&c).next()?, 1)?),
            None => None,
        };
        let body = self.block(k.next()?, 1)?;
        Ok(ActionDecl {
            name,
            params,
            label,
            condition,
            body,
            span,
        })
    }

    pub(super) fn trigger(&mut self, p: P<'_>) -> R<TriggerDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let event = self.ident(&k.next()?);
        let mut bindings = Vec::new();
        while let Some(b) = k.take(Rule::ident) {
            bindings.push(self.ident(&b));
        }
        let zone = match k.take(Rule::trigger_zone) {
            Some(z) => Some(self.ident(&kids(&z).next()?)),
            None => None,
        };
        let condition = match k.take(Rule::action_if) {
            Some(c) => Some(self.expr(kids(&c).next()?, 1)?),
            None => None,
        };
        let body = self.block(k.next()?, 1)?;
        Ok(TriggerDecl {
            event,
            bindings,
            zone,
            condition,
            body,
            span,
        })
    }

    pub(super) fn test(&mut self, p: P<'_>) -> R<TestDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.text(k.next()?, 1)?;
        let mut t = TestDecl {
            name,
            players: None,
            seed: None,
            options: Vec::new(),
            names: Vec::new(),
            given: None,
            start: None,
            steps: Vec::new(),
            span,
        };
        let mut names_given = false;
        for c in k.rest() {
            let s = self.sp(&c);
            let rule = c.as_rule();
            let mut ck = kids(&c);
            match rule {
                Rule::test_players => {
                    let n = self.int_value(&ck.next()?);
                    if t.players.is_some() {
                        self.duplicate("`players`", s);
                    }
                    t.players = Some((n, s));
                }
                Rule::test_seed => {
                    let lit = ck.next()?;
                    let n = match lit.as_str().parse::<u64>() {
                        Ok(n) => n,
                        Err(_) => {
                            self.error(
                                SyntaxError::NUMBER,
                                format!("the seed `{}` is not a whole number from 0 to 18446744073709551615", lit.as_str()),
                                self.sp(&lit),
                                "not a seed",
                                None,
                            );
                            0
                        }
                    };
                    if t.seed.is_some() {
                        self.duplicate("`seed`", s);
                    }
                    t.seed = Some((n, s));
                }
                Rule::test_option => {
                    let n = self.ident(&ck.next()?);
                    let v = self.expr(ck.next()?, 1)?;
                    t.options.push((n, v));
                }
                Rule::test_names => {
                    if names_given {
                        self.duplicate("`names`", s);
                    }
                    names_given = true;
                    t.names = ck.rest().map(|n| self.ident(&n)).collect();
                }
                Rule::test_given => {
                    let b = self.block(ck.next()?, 1)?;
                    if t.given.is_some() {
                        self.duplicate("`given`", s);
                    }
                    t.given = Some(b);
                }
                Rule::test_start => {
                    let n = self.ident(&ck.next()?);
                    let args = ck.rest().map(|a| self.expr(a, 1)).collect::<R<_>>()?;
                    if t.start.is_some() {
                        self.duplicate("`start`", s);
                    }
                    t.start = Some((n, args, s));
                }
                _ => {
                    let kind = match rule {
                        Rule::step_choose => TestStepKind::Choose(self.text(ck.next()?, 1)?),
                        Rule::step_options_has => {
                            TestStepKind::OptionsHas(self.text(ck.next()?, 1)?)
                        }
                        Rule::step_options_lacks => {
                            TestStepKind::OptionsLacks(self.text(ck.next()?, 1)?)
                        }
                        Rule::step_decider => TestStepKind::Decider(self.expr(ck.next()?, 1)?),
                        Rule::step_winners => TestStepKind::Winners(self.expr(ck.next()?, 1)?),
                        Rule::step_over => TestStepKind::Over,
                        Rule::step_not_over => TestStepKind::NotOver,
                        Rule::step_log => TestStepKind::Log(self.text(ck.next()?, 1)?),
                        Rule::step_strategy_picks => {
                            let name = self.ident(&ck.next()?);
                            TestStepKind::StrategyPicks(name, self.text(ck.next()?, 1)?)
                        }
                        Rule::step_expect => TestStepKind::Expect(self.expr(ck.next()?, 1)?),
                        Rule::step_do => TestStepKind::Do(self.block(ck.next()?, 1)?),
                        _ => return Err(Bug),
                    };
                    t.steps.push(TestStep { kind, span: s });
                }
            }
        }
        Ok(t)
    }

    /// A strategy, or a rule set (`rules_decl`, the same shape), read as a strategy.
    pub(super) fn strategy(&mut self, p: P<'_>) -> R<StrategyDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.ident(&k.next()?);
        let description = match k.take(Rule::text) {
            Some(t) => Some(self.text(t, 1)?),
            None => None,
        };
        let mut rules = Vec::new();
        let mut otherwise = None;
        for c in k.rest() {
            let s = self.sp(&c);
            match c.as_rule() {
                Rule::strategy_rule => {
                    let mut rk = kids(&c);
                    let t = rk.next()?;
                    let tspan = self.sp(&t);
                    let target = match t.as_rule() {
                        Rule::target_pass => StrategyTarget::Pass(tspan),
                        Rule::target_branch => {
                            StrategyTarget::Branch(self.text(kids(&t).next()?, 1)?)
                        }
                        Rule::target_choose => {
                            let mut tk = kids(&t);
                            let binder = self.ident(&tk.next()?);
                            let mut ty = None;
                            let mut prompt = None;
                            for q in tk.rest() {
                                if q.as_rule() == Rule::text {
                                    prompt = Some(self.text(q, 1)?);
                                } else {
                                    ty = Some(self.type_expr(q)?);
                                }
                            }
                            StrategyTarget::Choose { binder, ty, prompt }
                        }
                        Rule::target_action => {
                            let mut tk = kids(&t);
                            let action = self.ident(&tk.next()?);
                            let params = tk.rest().map(|q| self.ident(&q)).collect();
                            StrategyTarget::Action { action, params }
                        }
                        _ => return Err(Bug),
                    };
                    let mut condition = None;
                    let mut by = None;
                    for q in rk.rest() {
                        let rule = q.as_rule();
                        let e = self.expr(kids(&q).next()?, 1)?;
                        match rule {
                            Rule::strategy_if => condition = Some(e),
                            Rule::strategy_by => by = Some(e),
                            _ => return Err(Bug),
                        }
                    }
                    rules.push(RuleItem::Prefer(Box::new(StrategyRule {
                        target,
                        condition,
                        by,
                        span: s,
                    })));
                }
                Rule::strategy_use => {
                    let name = self.ident(&kids(&c).next()?);
                    rules.push(RuleItem::Use { name, span: s });
                }
                Rule::strategy_otherwise => {
                    let mut ok = kids(&c);
                    let agent = self.ident(&ok.next()?);
                    let count = ok.next().ok().map(|n| self.int_value(&n));
                    otherwise = Some((agent, count, s));
                }
                _ => return Err(Bug),
            }
        }
        Ok(StrategyDecl {
            name,
            description,
            rules,
            otherwise,
            span,
        })
    }
}
