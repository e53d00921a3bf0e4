//! Checks stage: lowering of card definitions, menu actions and triggers.

use super::scope::{BodyKind, Ctx};
use super::{Compiler, Sym};
use crate::diag::Diagnostic;
use crate::program::*;
use crate::value::Value;
use cardgame_grammar::ast;

impl Compiler<'_> {
    pub(super) fn lower_card(&mut self, cd: &ast::CardDecl) {
        if cd.family.is_empty() {
            if let Some(name) = cd.name.plain() {
                self.lower_kind(cd, &name);
            }
            return;
        }
        let members = self
            .families
            .get(&cd.span.start)
            .cloned()
            .unwrap_or_default();
        for m in members {
            self.family_consts = m.consts;
            self.lower_kind(cd, &m.name);
        }
        self.family_consts = Vec::new();
    }

    /// Lowers the card `name` declared by `cd` (one card, or one of a family's).
    fn lower_kind(&mut self, cd: &ast::CardDecl, name: &str) {
        let Some(&kid) = self.kinds.get(name) else {
            return;
        };
        if self.p.kinds[kid.index()].span != cd.name.span {
            return; // a duplicate definition, already reported
        }
        let mut tags = vec![];
        let mut copies = None;
        let mut text = String::new();
        let mut props: Vec<Option<Expr>> = vec![None; self.p.props.len()];
        let mut abilities: Vec<Option<Body>> = vec![None; self.p.abilities.len()];
        let mut triggers = vec![];
        for item in &cd.items {
            match item {
                ast::CardItem::Is(names, _) => {
                    for n in names {
                        if let Some((_, Value::Tag(t), _)) =
                            self.family_consts.iter().find(|(k, _, _)| *k == n.name)
                        {
                            tags.push(TagId(*t));
                            continue;
                        }
                        match self.lookup(n) {
                            Some(Sym::Tag(t)) => tags.push(t),
                            _ => self.unknown_tag(n, Some("declare it in a `tags` group".into())),
                        }
                    }
                }
                ast::CardItem::Copies(e, _) => {
                    let lowered = self.pure_expr(e, &Ty::Int);
                    if let ExprKind::Const(Value::Int(n)) = lowered.kind {
                        if !(0..=MAX_COPIES).contains(&n) {
                            self.error(
                                Diagnostic::error(
                                    "E308",
                                    e.span,
                                    format!("{n} copies of a card are not possible"),
                                )
                                .label("copy count")
                                .help(format!("a card has from 0 to {MAX_COPIES} copies")),
                            );
                        } else if n == 0 {
                            self.error(
                                Diagnostic::warning(
                                    "W003",
                                    e.span,
                                    format!("`{}` has no copies: it is never in the game", self.p.kinds[kid.index()].name),
                                )
                                .label("no copies")
                                .help("give it copies, or remove the card (a count that depends on the players or an option is not warned)"),
                            );
                        }
                    }
                    copies = Some(lowered);
                }
                ast::CardItem::Text(t, _) => text = self.card_text(t),
                ast::CardItem::Property(n, e, span) => match self.lookup(n) {
                    Some(Sym::Prop(pid)) => {
                        if props[pid.index()].is_some() {
                            self.error(
                                Diagnostic::error(
                                    "E101",
                                    *span,
                                    format!("`{}` is given twice on this card", n.name),
                                )
                                .label("second value")
                                .help("give each property once per card; remove one of the two"),
                            );
                        }
                        let ty = self.p.props[pid.index()].ty.ty();
                        let mut cx = Ctx::new(BodyKind::Pure);
                        let e = self.expr_expect(&mut cx, e, &ty);
                        props[pid.index()] = Some(e);
                    }
                    _ => self.unknown_property(
                        n,
                        &["is", "copies", "text", "ability", "on"],
                        "declare it with `property NAME: int = 0`",
                    ),
                },
                ast::CardItem::Ability(n, b, _) => match self.lookup(n) {
                    Some(Sym::Ability(aid)) => {
                        let body = self.body(b, BodyKind::Statements);
                        abilities[aid.index()] = Some(body);
                    }
                    _ => self.unknown_ability(n),
                },
                ast::CardItem::Trigger(t) => {
                    if let Some(def) = self.lower_trigger(t, true) {
                        triggers.push(def);
                    }
                }
            }
        }
        tags.sort();
        tags.dedup();
        let k = &mut self.p.kinds[kid.index()];
        k.tags = tags;
        k.copies = copies.unwrap_or(Expr::new(ExprKind::Const(Value::Int(1)), cd.span));
        k.text = text;
        k.props = props;
        k.abilities = abilities;
        k.triggers = triggers;
    }

    pub(super) fn lower_action(&mut self, a: &ast::ActionDecl) {
        let Some((Sym::Action(id), _)) = self.syms.get(&a.name.name).copied() else {
            return;
        };
        let mut cx = Ctx::new(BodyKind::Statements);
        let mut params = vec![];
        let mut tys = vec![];
        // The engine puts parameter i in slot i: reserve those slots before any binder of a domain
        // (`c in sort(x in L by E)`) takes one.
        let slots: Vec<_> = a.params.iter().map(|_| cx.hidden_slot()).collect();
        for (prm, slot) in a.params.iter().zip(slots) {
            let (dom, ty) = self.expr(&mut cx, &prm.domain);
            let elem = self.list_elem(&ty, prm.domain.span);
            cx.name_slot(&prm.name.name, slot, elem.clone(), prm.name.span);
            params.push(dom);
            tys.push(elem);
        }
        self.action_param_tys.insert(id, tys);
        let label = a.label.as_ref().map(|t| self.text(&mut cx, t));
        let condition = a
            .condition
            .as_ref()
            .map(|c| self.expr_expect(&mut cx, c, &Ty::Bool));
        let block = self.block(&mut cx, &a.body);
        let def = &mut self.p.actions[id.index()];
        def.params = params;
        def.label = label;
        def.condition = condition;
        def.body = Body {
            block,
            slots: cx.max,
        };
    }

    pub(super) fn lower_trigger(
        &mut self,
        t: &ast::TriggerDecl,
        on_card: bool,
    ) -> Option<TriggerDef> {
        let event = match self.lookup(&t.event) {
            Some(Sym::Event(e)) => e,
            _ => {
                self.unknown_name(&t.event.name, t.event.span, &super::UNKNOWN_EVENT);
                return None;
            }
        };
        let params = self.p.events[event.index()].params.clone();
        if params.len() != t.bindings.len() {
            self.error(
                Diagnostic::error(
                    "E111",
                    t.event.span,
                    format!(
                        "the event `{}` has {} values but {} names are given",
                        t.event.name,
                        params.len(),
                        t.bindings.len()
                    ),
                )
                .label("wrong number of names")
                .help(format!(
                    "name {} value(s): `on {}(a, b) ...`",
                    params.len(),
                    t.event.name
                )),
            );
            return None;
        }
        let mut cx = Ctx::new(BodyKind::Statements);
        for (b, ty) in t.bindings.iter().zip(params) {
            cx.bind_at(&b.name, ty, b.span);
        }
        let zone = match (&t.zone, on_card) {
            (Some(z), true) => match self.lookup(z) {
                Some(Sym::Zone(zid)) => Some(zid),
                _ => {
                    let help = self.suggest(&z.name, |s| matches!(s, Sym::Zone(_)), &[]);
                    self.error(
                        Diagnostic::error("E102", z.span, format!("no zone is named `{}`", z.name))
                            .label("unknown zone")
                            .help_or(help, "a trigger of a card is active in one of the script's zones (`zone NAME ...`)"),
                    );
                    None
                }
            },
            (Some(z), false) => {
                self.error(
                    Diagnostic::error(
                        "E204",
                        z.span,
                        "only a trigger printed on a card can say `in ZONE`",
                    )
                    .label("global trigger")
                    .help("move the trigger into a `card` block, or remove `in ZONE` to listen everywhere"),
                );
                None
            }
            (None, true) => {
                self.error(
                    Diagnostic::error(
                        "E204",
                        t.span,
                        "a card's trigger must say in which zone the card has to lie",
                    )
                    .label("no `in ZONE`")
                    .help("for example `on crafted(c, p) in owned { ... }`"),
                );
                None
            }
            (None, false) => None,
        };
        let condition = t
            .condition
            .as_ref()
            .map(|c| self.expr_expect(&mut cx, c, &Ty::Bool));
        let block = self.block(&mut cx, &t.body);
        Some(TriggerDef {
            event,
            condition,
            zone,
            body: Body {
                block,
                slots: cx.max,
            },
            span: t.span,
        })
    }
}
