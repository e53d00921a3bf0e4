//! Checks stage: declarations — the header, tags, properties, variables, zones, cards and the
//! signatures of functions, procedures, actions and events (options and tables: options.rs).

use super::scope::{BodyKind, Ctx};
use super::{Compiler, Sym};
use crate::diag::Diagnostic;
use crate::program::*;
use crate::value::Value;
use cardgame_grammar::ast::{self, Scope, Span};

pub(crate) fn lower_type(t: &ast::TypeExpr) -> Ty {
    match t {
        ast::TypeExpr::Int(_) => Ty::Int,
        ast::TypeExpr::Bool(_) => Ty::Bool,
        ast::TypeExpr::Text(_) => Ty::Text,
        ast::TypeExpr::Player(_) => Ty::Player,
        ast::TypeExpr::Card(_) => Ty::Card,
        ast::TypeExpr::Kind(_) => Ty::Kind,
        ast::TypeExpr::Tag(_) => Ty::Tag,
        ast::TypeExpr::Space(_) => Ty::Space,
        ast::TypeExpr::Zone(_) => Ty::Zone,
        ast::TypeExpr::List(inner, _) => Ty::List(Box::new(lower_type(inner))),
    }
}

pub(super) fn placeholder() -> Expr {
    Expr::new(ExprKind::Const(Value::None), Span::default())
}

fn empty_body() -> Body {
    Body {
        block: BlockId(0),
        slots: 0,
    }
}

impl Compiler<'_> {
    /// Pass 1: give every top-level name its id, so bodies can refer to anything in any order.
    pub(crate) fn declare_all(&mut self, script: &ast::Script) {
        // Block 0 is an empty block, used by placeholders.
        self.push_block(vec![]);
        let mut game_seen: Option<Span> = None;
        for item in &script.items {
            match item {
                ast::Item::Game(g) => {
                    if let Some(first) = game_seen {
                        self.error(
                            Diagnostic::error("E101", g.span, "a script has one `game` header")
                                .label("second header")
                                .related(first, "first header")
                                .help("merge the two headers into one `game \"Name\" { players N..M }`"),
                        );
                        continue;
                    }
                    game_seen = Some(g.span);
                    self.p.header = g.span;
                    self.p.name = g.name.plain().unwrap_or_default();
                    match &g.players {
                        Some(r) => {
                            if r.min < 1 || r.max > 16 || r.min > r.max {
                                self.error(
                                    Diagnostic::error(
                                        "E301",
                                        r.span,
                                        "player counts must be between 1 and 16, smallest first",
                                    )
                                    .label("invalid player counts")
                                    .help("write `players 2..4` (or one count, `players 3`), each from 1 to 16"),
                                );
                            } else {
                                self.p.min_players = r.min as u8;
                                self.p.max_players = r.max as u8;
                            }
                        }
                        None => self.error(
                            Diagnostic::error(
                                "E301",
                                g.span,
                                "the game header does not say how many players it is for",
                            )
                            .label("no `players`")
                            .help("add `players 2..4` (or `players 2`) inside the header"),
                        ),
                    }
                    for o in &g.options {
                        self.declare_option(o);
                    }
                }
                ast::Item::Table(t) => {
                    for col in &t.columns {
                        let id = ColumnId(self.p.columns.len() as u16);
                        if self.declare(col, Sym::Column(id)) {
                            self.p.columns.push(ColumnDef {
                                name: col.name.clone(),
                                rows: vec![],
                            });
                        }
                    }
                }
                ast::Item::Tags(t) => {
                    let gid = GroupId(self.p.groups.len() as u16);
                    if !self.declare(&t.group, Sym::Group(gid)) {
                        continue;
                    }
                    let mut tags = vec![];
                    for tag in &t.tags {
                        let tid = TagId(self.p.tags.len() as u16);
                        if self.declare(tag, Sym::Tag(tid)) {
                            self.p.tags.push(TagDef {
                                name: tag.name.clone(),
                                group: gid,
                            });
                            tags.push(tid);
                        }
                    }
                    self.p.groups.push(GroupDef {
                        name: t.group.name.clone(),
                        tags,
                    });
                }
                ast::Item::Property(pd) => {
                    let id = PropId(self.p.props.len() as u16);
                    if self.declare(&pd.name, Sym::Prop(id)) {
                        self.p.props.push(PropDef {
                            name: pd.name.name.clone(),
                            ty: match pd.ty {
                                ast::PropertyType::Int => PropType::Int,
                                ast::PropertyType::Bool => PropType::Bool,
                                ast::PropertyType::Kinds => PropType::Kinds,
                            },
                            default: placeholder(),
                        });
                    }
                }
                ast::Item::Var(v) => {
                    let id = VarId(self.p.vars.len() as u16);
                    if self.declare(&v.name, Sym::Var(id)) {
                        if v.scope == Scope::PerSpace {
                            self.error(
                                Diagnostic::error(
                                    "E306",
                                    v.span,
                                    "variables are global, per player or per card",
                                )
                                .label("`per space` variable")
                                .help("keep what lies on a space in a zone `per space`"),
                            );
                        }
                        if v.private && v.scope != Scope::PerPlayer {
                            self.error(
                                Diagnostic::error(
                                    "E310",
                                    v.span,
                                    "only a variable `per player` can be `private`",
                                )
                                .label("`private` without an owner")
                                .help("write `var NAME per player private: T = V`: its owner alone sees it; a global or a card's variable is seen by every seat"),
                            );
                        }
                        if v.shown && v.scope == Scope::PerCard {
                            self.error(
                                Diagnostic::error(
                                    "E311",
                                    v.span,
                                    "only a global or `per player` variable can be `shown`",
                                )
                                .label("`shown` on a card's variable")
                                .help("`shown` asks `play` to show a variable at every decision, beside the players; a card's variables are not listed there"),
                            );
                        }
                        self.p.vars.push(VarDef {
                            name: v.name.name.clone(),
                            scope: v.scope,
                            private: v.private,
                            shown: v.shown,
                            ty: lower_type(&v.ty),
                            init: placeholder(),
                            min: None,
                            max: None,
                        });
                    }
                }
                ast::Item::Zone(z) => {
                    let id = ZoneId(self.p.zones.len() as u16);
                    if self.declare(&z.name, Sym::Zone(id)) {
                        let mut def = ZoneDef {
                            name: z.name.name.clone(),
                            scope: z.scope,
                            ordered: true,
                            visibility: Visibility::Public,
                            refill: None,
                            max: None,
                            shown_by: Vec::new(),
                        };
                        for a in &z.attrs {
                            match a {
                                ast::ZoneAttr::Pile(_) => def.ordered = true,
                                ast::ZoneAttr::Set(_) => def.ordered = false,
                                ast::ZoneAttr::Public(_) => def.visibility = Visibility::Public,
                                ast::ZoneAttr::Owner(_) => def.visibility = Visibility::Owner,
                                ast::ZoneAttr::Others(at) => {
                                    if matches!(z.scope, ast::Scope::Shared | ast::Scope::PerSpace)
                                    {
                                        self.error(
                                            Diagnostic::error(
                                                "E316",
                                                *at,
                                                format!(
                                                    "`others` on the zone `{}`, which has no owner",
                                                    z.name.name
                                                ),
                                            )
                                            .label("seen by all but whom?")
                                            .help("`others` (seen by every player but its owner) is for a zone `per player` (or `per card`, owned by the card's holder); a shared zone is `public` or `hidden`"),
                                        );
                                    }
                                    def.visibility = Visibility::Others;
                                }
                                ast::ZoneAttr::Hidden(_) => def.visibility = Visibility::Hidden,
                                _ => {}
                            }
                        }
                        self.p.zones.push(def);
                    }
                }
                ast::Item::Spaces(s) => {
                    if self.declare(&s.name, Sym::Spaces) {
                        self.p.spaces = Some(SpacesDef {
                            name: s.name.name.clone(),
                            width: placeholder(),
                            height: placeholder(),
                            diagonal: s.diagonal,
                            span: s.span,
                        });
                    }
                }
                ast::Item::Event(e) => {
                    let id = EventId(self.p.events.len() as u16);
                    if self.declare(&e.name, Sym::Event(id)) {
                        self.p.events.push(EventDef {
                            name: e.name.name.clone(),
                            params: e.params.iter().map(|p| lower_type(&p.ty)).collect(),
                        });
                    }
                }
                ast::Item::Abilities(a) => {
                    for n in &a.names {
                        let id = AbilityId(self.p.abilities.len() as u16);
                        if self.declare(n, Sym::Ability(id)) {
                            self.p.abilities.push(n.name.clone());
                        }
                    }
                }
                ast::Item::Card(cd) if !cd.family.is_empty() => {
                    let members = self.family_members(cd);
                    for m in &members {
                        self.declare_kind(cd, m.name.clone());
                    }
                    self.families.insert(cd.span.start, members);
                }
                ast::Item::Card(cd) => {
                    let name = match cd.name.plain() {
                        Some(n) => n,
                        None => {
                            self.error(
                                Diagnostic::error(
                                    "E302",
                                    cd.name.span,
                                    "a card name cannot contain `{...}`",
                                )
                                .label("interpolated name")
                                .help("a card name is plain text, or a family's: `card \"{rank} of {suit}\" for suit in [Clubs, Hearts], rank in 2..14 { ... }` makes one card per combination"),
                            );
                            continue;
                        }
                    };
                    self.declare_kind(cd, name);
                }
                ast::Item::Fn(f) => {
                    let id = FnId(self.p.fns.len() as u16);
                    if self.declare(&f.name, Sym::Fn(id)) {
                        self.p.fns.push(FnDef {
                            name: f.name.name.clone(),
                            params: f.params.iter().map(|p| lower_type(&p.ty)).collect(),
                            ret: lower_type(&f.ret),
                            body: placeholder(),
                            slots: 0,
                        });
                    }
                }
                ast::Item::Proc(pr) => {
                    let id = ProcId(self.p.procs.len() as u16);
                    if self.declare(&pr.name, Sym::Proc(id)) {
                        self.p.procs.push(ProcDef {
                            name: pr.name.name.clone(),
                            params: pr.params.iter().map(|p| lower_type(&p.ty)).collect(),
                            ret: pr.ret.as_ref().map(lower_type),
                            body: empty_body(),
                        });
                    }
                }
                ast::Item::Action(a) => {
                    let id = ActionId(self.p.actions.len() as u16);
                    if self.declare(&a.name, Sym::Action(id)) {
                        self.p.actions.push(ActionDef {
                            name: a.name.name.clone(),
                            params: vec![],
                            label: None,
                            condition: None,
                            parts: vec![],
                            interchangeable: vec![],
                            body: empty_body(),
                        });
                    }
                }
                ast::Item::Flow(b) => {
                    if self.p.flow.is_some() {
                        self.error(
                            Diagnostic::error("E101", b.span, "a script has one `flow`")
                                .label("second flow")
                                .help("merge the two into one `flow { ... }`"),
                        );
                    }
                    self.p.flow = Some(empty_body());
                }
                ast::Item::Setup(b) => {
                    if self.p.setup.is_some() {
                        self.error(
                            Diagnostic::error("E101", b.span, "a script has one `setup`")
                                .label("second setup")
                                .help("merge the two into one `setup { ... }`"),
                        );
                    }
                    self.p.setup = Some(empty_body());
                }
                ast::Item::Trigger(_)
                | ast::Item::Check(_)
                | ast::Item::Test(_)
                | ast::Item::Strategy(_)
                | ast::Item::Rules(_) => {}
                // Its sheet's cards follow it as `card` items (sheet.rs); a script checked without
                // its sheets has reported why.
                ast::Item::CardsFrom(_) => {}
                ast::Item::Stat(d) => self.declare_stat(d),
                ast::Item::Participant(d) => self.declare_participant(d),
            }
        }
        if game_seen.is_none() && !self.partial {
            self.error(
                Diagnostic::error("E301", Span::new(0, 0), "the script has no `game` header")
                    .label("start of the script")
                    .help("begin with `game \"Name\" { players 2..4 }`"),
            );
        }
        if self.p.flow.is_none() && !self.partial {
            self.error(
                Diagnostic::error(
                    "E304",
                    Span::new(0, 0),
                    "the script has no `flow`: nothing says how a game is played",
                )
                .label("start of the script")
                .help("add `flow { ... }` with the rounds and turns of the game"),
            );
        }
    }

    /// Pass 2: lower every body and value.
    pub(crate) fn lower_all(&mut self, script: &ast::Script) {
        // The teams first: `win team E` in any body reads them.
        let teams = script.items.iter().find_map(|i| match i {
            ast::Item::Game(g) => g.teams.as_ref(),
            _ => None,
        });
        if let Some(t) = teams {
            self.teams_declared = true;
            self.teams(t);
        }
        let mut col_base = 0usize;
        for item in &script.items {
            match item {
                ast::Item::Game(_) | ast::Item::Tags(_) | ast::Item::Abilities(_) => {}
                ast::Item::Table(t) => {
                    self.lower_table(t, col_base);
                    col_base += t.columns.len();
                }
                ast::Item::Property(pd) => {
                    let Some((Sym::Prop(id), _)) = self.syms.get(&pd.name.name).copied() else {
                        continue;
                    };
                    let (ty, default) = match pd.ty {
                        ast::PropertyType::Int => (Ty::Int, Value::Int(0)),
                        ast::PropertyType::Bool => (Ty::Bool, Value::Bool(false)),
                        ast::PropertyType::Kinds => {
                            (Ty::List(Box::new(Ty::Kind)), Value::list(vec![]))
                        }
                    };
                    let e = match &pd.default {
                        Some(d) => self.pure_expr(d, &ty),
                        None => Expr::new(ExprKind::Const(default), pd.span),
                    };
                    self.p.props[id.index()].default = e;
                }
                ast::Item::Var(v) => {
                    let Some((Sym::Var(id), _)) = self.syms.get(&v.name.name).copied() else {
                        continue;
                    };
                    let ty = lower_type(&v.ty);
                    let init = self.pure_expr(&v.init, &ty);
                    let min = v.min.as_ref().map(|m| self.pure_expr(m, &Ty::Int));
                    let max = v.max.as_ref().map(|m| self.pure_expr(m, &Ty::Int));
                    if (min.is_some() || max.is_some()) && ty != Ty::Int {
                        self.error(
                            Diagnostic::error(
                                "E201",
                                v.span,
                                "only `int` variables can have `min` or `max`",
                            )
                            .label(format!("a {ty} variable"))
                            .help("remove `min`/`max`, or make the variable an `int`"),
                        );
                    }
                    let def = &mut self.p.vars[id.index()];
                    def.init = init;
                    def.min = min;
                    def.max = max;
                }
                ast::Item::Zone(z) => self.lower_zone(z),
                ast::Item::Spaces(s) => {
                    let w = self.pure_expr(&s.width, &Ty::Int);
                    let h = self.pure_expr(&s.height, &Ty::Int);
                    self.check_board_size(s);
                    if let Some(sp) = &mut self.p.spaces {
                        sp.width = w;
                        sp.height = h;
                    }
                }
                ast::Item::Event(_) => {}
                ast::Item::Card(cd) => self.lower_card(cd),
                ast::Item::Fn(f) => {
                    let Some((Sym::Fn(id), _)) = self.syms.get(&f.name.name).copied() else {
                        continue;
                    };
                    let mut cx = Ctx::new(BodyKind::Pure);
                    for p in &f.params {
                        cx.bind_at(&p.name.name, lower_type(&p.ty), p.name.span);
                    }
                    let ret = lower_type(&f.ret);
                    let mut lets = Vec::new();
                    for (name, declared, value) in &f.lets {
                        let (v, ty) = self.let_value(&mut cx, declared.as_ref(), value);
                        let slot = cx.bind_at(&name.name, ty, name.span);
                        lets.push((slot, v));
                    }
                    let mut body = self.expr_expect(&mut cx, &f.body, &ret);
                    while let Some((slot, v)) = lets.pop() {
                        let span = v.span.join(body.span);
                        body = Expr::new(ExprKind::Let(slot, Box::new(v), Box::new(body)), span);
                    }
                    let def = &mut self.p.fns[id.index()];
                    def.body = body;
                    def.slots = cx.max;
                    self.lowered_fns.insert(id);
                }
                ast::Item::Proc(pr) => {
                    let Some((Sym::Proc(id), _)) = self.syms.get(&pr.name.name).copied() else {
                        continue;
                    };
                    let mut cx = Ctx::new(BodyKind::Statements);
                    cx.ret = Some(pr.ret.as_ref().map(lower_type));
                    for p in &pr.params {
                        cx.bind_at(&p.name.name, lower_type(&p.ty), p.name.span);
                    }
                    let block = self.block(&mut cx, &pr.body);
                    self.p.procs[id.index()].body = Body {
                        block,
                        slots: cx.max,
                    };
                }
                ast::Item::Action(a) => self.lower_action(a),
                ast::Item::Trigger(t) => {
                    if let Some(def) = self.lower_trigger(t, false) {
                        self.p.triggers.push(def);
                    }
                }
                ast::Item::Setup(b) => {
                    let mut cx = Ctx::new(BodyKind::Statements);
                    cx.no_you = Some("setup");
                    let block = self.block(&mut cx, b);
                    self.p.setup = Some(Body {
                        block,
                        slots: cx.max,
                    });
                }
                ast::Item::Flow(b) => {
                    let body = self.body(b, BodyKind::Statements);
                    self.p.flow = Some(body);
                }
                ast::Item::Check(b) => {
                    let body = self.body(b, BodyKind::Check);
                    self.p.checks.push(body);
                }
                ast::Item::Test(t) => self.lower_test(t),
                ast::Item::Strategy(_)
                | ast::Item::Rules(_)
                | ast::Item::Stat(_)
                | ast::Item::Participant(_)
                | ast::Item::CardsFrom(_) => {}
            }
        }
    }

    pub(crate) fn body(&mut self, b: &ast::Block, kind: BodyKind) -> Body {
        let mut cx = Ctx::new(kind);
        let block = self.block(&mut cx, b);
        Body {
            block,
            slots: cx.max,
        }
    }

    /// An expression outside any body (defaults, copies, sizes): no locals.
    pub(crate) fn pure_expr(&mut self, e: &ast::Expr, ty: &Ty) -> Expr {
        let mut cx = Ctx::new(BodyKind::Pure);
        self.expr_expect(&mut cx, e, ty)
    }

    /// A board whose sides are written as numbers must fit the engine's bounds (E307); a side computed
    /// from the player count or an option is checked when the game is created.
    fn check_board_size(&mut self, s: &ast::SpacesDecl) {
        let side = |e: &ast::Expr| match self.const_value(e) {
            Some(Value::Int(n)) => Some(n),
            _ => None,
        };
        let (w, h) = (side(&s.width), side(&s.height));
        let help = format!(
            "a board has from 0 to {MAX_BOARD_SIDE} spaces a side and at most {MAX_BOARD_SPACES} spaces in all"
        );
        for (n, e) in [(w, &s.width), (h, &s.height)] {
            if let Some(n) = n.filter(|n| !(0..=MAX_BOARD_SIDE).contains(n)) {
                self.error(
                    Diagnostic::error(
                        "E307",
                        e.span,
                        format!("a board side of {n} spaces is not possible"),
                    )
                    .label(if n < 0 { "negative" } else { "too large" })
                    .help(help.clone()),
                );
            }
        }
        if let (Some(w), Some(h)) = (w, h) {
            let fits = |n: i64| (0..=MAX_BOARD_SIDE).contains(&n);
            if fits(w) && fits(h) && w * h > MAX_BOARD_SPACES {
                self.error(
                    Diagnostic::error(
                        "E307",
                        s.width.span.join(s.height.span),
                        format!("a board of {w} by {h} spaces has {} spaces", w * h),
                    )
                    .label("too many spaces")
                    .help(help),
                );
            }
        }
    }

    fn lower_zone(&mut self, z: &ast::ZoneDecl) {
        let Some((Sym::Zone(id), _)) = self.syms.get(&z.name.name).copied() else {
            return;
        };
        for a in &z.attrs {
            match a {
                ast::ZoneAttr::RefillFrom(r) => {
                    match self.lookup(r) {
                        Some(Sym::Zone(rid)) => {
                            let rs = self.p.zones[rid.index()].scope;
                            if rs != z.scope && rs != Scope::Shared {
                                self.error(
                                Diagnostic::error("E305", r.span, format!("`{}` cannot refill `{}`: they are not kept the same way", r.name, z.name.name))
                                    .label("a zone of another scope")
                                    .help("a zone refills from a zone of the same owner, or from a shared one"),
                            );
                            } else if rid == id {
                                self.error(
                                Diagnostic::error(
                                    "E305",
                                    r.span,
                                    "a zone cannot refill from itself",
                                )
                                .label("itself")
                                .help("refill from another zone of the same scope, such as a discard pile"),
                            );
                            } else {
                                self.p.zones[id.index()].refill = Some(rid);
                            }
                        }
                        _ => {
                            let help = self.suggest(&r.name, |s| matches!(s, Sym::Zone(_)), &[]);
                            self.error(
                            Diagnostic::error(
                                "E102",
                                r.span,
                                format!("no zone is named `{}`", r.name),
                            )
                            .label("unknown zone")
                            .help_or(help, "a zone refills from another zone of the script (`zone NAME ...`)"),
                        );
                        }
                    }
                }
                ast::ZoneAttr::Max(e) => {
                    let e = self.pure_expr(e, &Ty::Int);
                    self.p.zones[id.index()].max = Some(e);
                }
                ast::ZoneAttr::ShownBy(names) => {
                    for n in names {
                        match self.lookup(n) {
                            Some(Sym::Prop(pid)) => {
                                self.p.zones[id.index()].shown_by.push(ShownBy::Prop(pid))
                            }
                            Some(Sym::Group(g)) => {
                                self.p.zones[id.index()].shown_by.push(ShownBy::Group(g))
                            }
                            _ => self.unknown_property(
                                n,
                                &[],
                                "a zone is shown by card properties or tag groups: `shown by suit then rank`",
                            ),
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

impl Compiler<'_> {
    /// `teams by VAR` in the header: VAR must be a per-player variable of a type whose values name
    /// teams (int, tag, player, bool); E312 otherwise.
    fn teams(&mut self, t: &ast::Ident) {
        let help = "declare the partnerships with a per-player variable set in `setup`: `var team \
                    per player: int = 0`, then `teams by team` in the game header";
        match self.lookup(t) {
            Some(Sym::Var(id)) => {
                let v = &self.p.vars[id.index()];
                if v.scope != ast::Scope::PerPlayer {
                    self.error(
                        Diagnostic::error(
                            "E312",
                            t.span,
                            format!("`{}` is not a per-player variable: it cannot give each player a team", t.name),
                        )
                        .label("not `per player`")
                        .help(help),
                    );
                } else if !matches!(v.ty, Ty::Int | Ty::Tag | Ty::Player | Ty::Bool) {
                    let ty = v.ty.clone();
                    self.error(
                        Diagnostic::error(
                            "E312",
                            t.span,
                            format!("a team is an int, a tag, a player or a bool, and `{}` is a {ty}", t.name),
                        )
                        .label(format!("a {ty}"))
                        .help(help),
                    );
                } else {
                    self.p.teams = Some(id);
                }
            }
            Some(_) => self.error(
                Diagnostic::error(
                    "E312",
                    t.span,
                    format!("`{}` is not a variable: `teams by` names the per-player variable that holds each player's team", t.name),
                )
                .label("not a variable")
                .help(help),
            ),
            None => self.unknown_name(
                &t.name,
                t.span,
                &super::UnknownKind {
                    code: "E102",
                    what: "variable",
                    is: |s| matches!(s, Sym::Var(_)),
                    builtins: &[],
                    declare: help,
                },
            ),
        }
    }
}
