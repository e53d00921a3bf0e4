//! Checks stage: resolving names in expressions, checking their types and lowering them.

use super::scope::Ctx;
use super::symbols::Target;
use super::{Compiler, Sym, BUILTIN_NAMES};
use crate::diag::{article, Diagnostic};
use crate::program::*;
use crate::value::Value;
use cardgame_grammar::ast::{self, Scope, Span};

pub(super) fn mk(kind: ExprKind, span: Span) -> Expr {
    Expr::new(kind, span)
}

pub(super) fn bad(span: Span) -> (Expr, Ty) {
    (mk(ExprKind::Const(Value::None), span), Ty::Any)
}

/// Whether a value of type `got` may stand where `want` is expected.
pub(crate) fn fits(got: &Ty, want: &Ty) -> bool {
    match (got, want) {
        (Ty::Any, _) | (_, Ty::Any) => true,
        (Ty::List(a), Ty::List(b)) => fits(a, b),
        (Ty::Zone, Ty::List(b)) => fits(&Ty::Card, b),
        (a, b) => a == b,
    }
}

/// Whether a type is not known yet: `none`, `[]`, or a list of those.
pub(crate) fn untyped(ty: &Ty) -> bool {
    match ty {
        Ty::Any => true,
        Ty::List(t) => untyped(t),
        _ => false,
    }
}

impl Compiler<'_> {
    /// The element type of something used as a list (a zone is the list of its cards).
    pub(crate) fn list_elem(&mut self, ty: &Ty, span: Span) -> Ty {
        match ty {
            Ty::List(t) => (**t).clone(),
            Ty::Zone => Ty::Card,
            Ty::Any => Ty::Any,
            other => {
                self.error(
                    Diagnostic::error(
                        "E201",
                        span,
                        format!(
                            "expected a list or a zone, found {} {other}",
                            article(&other.to_string())
                        ),
                    )
                    .label(format!("{} {other}", article(&other.to_string())))
                    .help("`in`, `for` and aggregates walk a list (`[a, b]`, `filter(...)`) or a zone (`you.hand`)"),
                );
                Ty::Any
            }
        }
    }

    /// Lower an expression that must have type `want`; text naming a card becomes that kind.
    pub(crate) fn expr_expect(&mut self, cx: &mut Ctx, e: &ast::Expr, want: &Ty) -> Expr {
        if let ast::ExprKind::Text(t) = &e.kind {
            if *want == Ty::Kind {
                return self.kind_literal(t, e.span);
            }
        }
        // The branches of an `if` take what the whole takes (a card name in a branch is a kind).
        if let ast::ExprKind::If(c, a, b) = &e.kind {
            if is_kind_or_kinds(want) {
                let c = self.expr_expect(cx, c, &Ty::Bool);
                let a = self.expr_expect(cx, a, want);
                let b = self.expr_expect(cx, b, want);
                return mk(ExprKind::If(Box::new(c), Box::new(a), Box::new(b)), e.span);
            }
        }
        if let (ast::ExprKind::List(items), Ty::List(inner)) = (&e.kind, want) {
            if **inner == Ty::Kind {
                let items = items
                    .iter()
                    .map(|i| self.expr_expect(cx, i, &Ty::Kind))
                    .collect();
                return mk(ExprKind::List(items), e.span);
            }
        }
        let (ex, ty) = self.expr(cx, e);
        if !fits(&ty, want) {
            self.type_error(e.span, want, &ty);
        }
        ex
    }

    fn kind_literal(&mut self, t: &ast::Text, span: Span) -> Expr {
        match t.plain() {
            Some(name) => match self.kind_by_name(&name, span) {
                Some(k) => mk(ExprKind::Const(Value::Kind(k.0)), span),
                None => bad(span).0,
            },
            None => {
                self.error(
                    Diagnostic::error("E201", span, "a card name cannot contain `{...}`")
                        .label("interpolated text")
                        .help("write the card's name as plain text, or compare kinds: `c.kind == d.kind`"),
                );
                bad(span).0
            }
        }
    }

    pub(crate) fn text(&mut self, cx: &mut Ctx, t: &ast::Text) -> TextIr {
        let parts = t
            .parts
            .iter()
            .map(|p| match p {
                ast::TextPart::Lit(s) => TextPartIr::Lit(s.clone()),
                ast::TextPart::Expr(e) => TextPartIr::Expr(self.expr(cx, e).0),
            })
            .collect();
        TextIr { parts }
    }

    pub(crate) fn expr(&mut self, cx: &mut Ctx, e: &ast::Expr) -> (Expr, Ty) {
        let span = e.span;
        match &e.kind {
            ast::ExprKind::Int(i) => (mk(ExprKind::Const(Value::Int(*i)), span), Ty::Int),
            ast::ExprKind::Bool(b) => (mk(ExprKind::Const(Value::Bool(*b)), span), Ty::Bool),
            ast::ExprKind::None => (mk(ExprKind::Const(Value::None), span), Ty::Any),
            ast::ExprKind::Text(t) => {
                let ir = self.text(cx, t);
                (mk(ExprKind::Text(ir), span), Ty::Text)
            }
            ast::ExprKind::List(items) => {
                let mut elem = Ty::Any;
                let mut out = vec![];
                for it in items {
                    let (x, t) = self.expr(cx, it);
                    if elem == Ty::Any {
                        elem = t;
                    } else if !fits(&t, &elem) {
                        self.type_error(it.span, &elem, &t);
                    }
                    out.push(x);
                }
                (mk(ExprKind::List(out), span), Ty::List(Box::new(elem)))
            }
            ast::ExprKind::Range(a, b) => {
                let a = self.expr_expect(cx, a, &Ty::Int);
                let b = self.expr_expect(cx, b, &Ty::Int);
                (
                    mk(ExprKind::Range(Box::new(a), Box::new(b)), span),
                    Ty::List(Box::new(Ty::Int)),
                )
            }
            ast::ExprKind::Name(id) => self.name(cx, id),
            ast::ExprKind::StatRead(name) => self.stat_read(cx, name, span),
            ast::ExprKind::Field(base, f) => self.field(cx, base, f, span),
            ast::ExprKind::Index(l, i) => {
                if let ast::ExprKind::StatRead(name) = &l.kind {
                    if let Some(read) = self.stat_key_read(cx, name, i, span) {
                        return read;
                    }
                }
                let (x, lt) = self.expr(cx, l);
                let elem = self.list_elem(&lt, l.span);
                let i = self.expr_expect(cx, i, &Ty::Int);
                (
                    mk(ExprKind::Builtin(Builtin::Index, vec![x, i]), span),
                    elem,
                )
            }
            ast::ExprKind::Call(name, args) => self.call(cx, name, args, span),
            ast::ExprKind::Unary(op, x) => match op {
                ast::UnOp::Neg => {
                    let x = self.expr_expect(cx, x, &Ty::Int);
                    if let ExprKind::Const(Value::Int(i)) = x.kind {
                        return (
                            mk(ExprKind::Const(Value::Int(i.saturating_neg())), span),
                            Ty::Int,
                        );
                    }
                    (mk(ExprKind::Unary(UnOp::Neg, Box::new(x)), span), Ty::Int)
                }
                ast::UnOp::Not => {
                    let x = self.expr_expect(cx, x, &Ty::Bool);
                    (mk(ExprKind::Unary(UnOp::Not, Box::new(x)), span), Ty::Bool)
                }
            },
            ast::ExprKind::Binary(op, a, b) => self.binary(cx, *op, a, b, span),
            ast::ExprKind::HasAbility(expr, ability) => {
                let x = self.expr_expect(cx, expr, &Ty::Card);
                match self.lookup(ability) {
                    Some(Sym::Ability(_)) => {
                        // The cards that print the ability, known when the script is checked.
                        let kinds = self.card_abilities.get(&ability.name).cloned();
                        let mut tests = kinds
                            .unwrap_or_default()
                            .into_iter()
                            .map(|k| mk(ExprKind::IsKind(Box::new(x.clone()), k, false), span));
                        let first = tests
                            .next()
                            .unwrap_or_else(|| mk(ExprKind::Const(Value::Bool(false)), span));
                        let test = tests.fold(first, |acc, t| {
                            mk(
                                ExprKind::Binary(BinOp::Or, Box::new(acc), Box::new(t)),
                                span,
                            )
                        });
                        (test, Ty::Bool)
                    }
                    _ => {
                        self.unknown_ability(ability);
                        bad(span)
                    }
                }
            }
            ast::ExprKind::Is {
                expr,
                negated,
                target,
            } => {
                let x = self.expr_expect(cx, expr, &Ty::Card);
                match &target.kind {
                    ast::ExprKind::Text(t) => {
                        let k = self.kind_literal(t, target.span);
                        match k.kind {
                            ExprKind::Const(Value::Kind(k)) => (
                                mk(ExprKind::IsKind(Box::new(x), KindId(k), *negated), span),
                                Ty::Bool,
                            ),
                            _ => bad(span),
                        }
                    }
                    ast::ExprKind::Name(n) => match self.lookup(n) {
                        Some(Sym::Tag(t)) => (
                            mk(ExprKind::IsTag(Box::new(x), t, *negated), span),
                            Ty::Bool,
                        ),
                        _ => {
                            // `c is Duke` for the card "Duke": the name is written in quotes.
                            let quoted = crate::diag::did_you_mean(
                                &n.name,
                                self.kinds.keys().map(|s| s.as_str()),
                            )
                            .map(|h| format!("{h} (a card name is written in quotes)"));
                            self.unknown_tag(n, quoted);
                            bad(span)
                        }
                    },
                    _ => {
                        self.error(
                            Diagnostic::error(
                                "E201",
                                target.span,
                                "after `is` comes a tag or a card name in quotes",
                            )
                            .label("not a tag or a card name")
                            .help("write `c is Treasure` (a tag) or `c is \"Gold\"` (a card name); to compare two values use `==`"),
                        );
                        bad(span)
                    }
                }
            }
            ast::ExprKind::If(c, a, b) => {
                let c = self.expr_expect(cx, c, &Ty::Bool);
                let (a, ta) = self.expr(cx, a);
                let (b, tb) = self.expr(cx, b);
                if !fits(&tb, &ta) {
                    self.type_error(b.span, &ta, &tb);
                }
                let ty = if ta == Ty::Any { tb } else { ta };
                (
                    mk(ExprKind::If(Box::new(c), Box::new(a), Box::new(b)), span),
                    ty,
                )
            }
            ast::ExprKind::Aggregate {
                op,
                value,
                var,
                list,
                filter,
            } => self.aggregate(
                cx,
                *op,
                value.as_deref(),
                var,
                list,
                filter.as_deref(),
                span,
            ),
            ast::ExprKind::Pile {
                position,
                count,
                zone,
            } => {
                let z = self.expr_expect(cx, zone, &Ty::Zone);
                let count = count
                    .as_ref()
                    .map(|c| Box::new(self.expr_expect(cx, c, &Ty::Int)));
                let ty = if count.is_some() {
                    Ty::List(Box::new(Ty::Card))
                } else {
                    Ty::Card
                };
                (
                    mk(
                        ExprKind::Pile {
                            position: *position,
                            count,
                            zone: Box::new(z),
                        },
                        span,
                    ),
                    ty,
                )
            }
        }
    }

    fn name(&mut self, cx: &mut Ctx, id: &ast::Ident) -> (Expr, Ty) {
        let span = id.span;
        if let Some((slot, ty)) = cx.get(&id.name) {
            self.refer_local(cx, id);
            return (mk(ExprKind::Local(slot), span), ty);
        }
        if let Some(i) = cx.names.iter().position(|n| *n == id.name) {
            return (
                mk(ExprKind::Const(Value::Player(i as u8)), span),
                Ty::Player,
            );
        }
        if let Some((v, ty)) = self.family_const(&id.name) {
            return (mk(ExprKind::Const(v), span), ty);
        }
        match id.name.as_str() {
            "you" => {
                if let Some(place) = cx.no_you {
                    self.error(
                        Diagnostic::error(
                            "E206",
                            span,
                            format!("`you` names nobody in `{place}`: no player is acting there"),
                        )
                        .label("no player here")
                        .help(
                            "name the player: `seat(1)`, or each one with `for p in everyone { ... }`"
                                .to_string(),
                        ),
                    );
                }
                return (mk(ExprKind::You, span), Ty::Player);
            }
            "this" => return (mk(ExprKind::This, span), Ty::Card),
            "active" => return (mk(ExprKind::Active, span), Ty::Player),
            "players" => return (mk(ExprKind::Players, span), Ty::Int),
            "everyone" => return (mk(ExprKind::Everyone, span), Ty::List(Box::new(Ty::Player))),
            "turn_number" => return (mk(ExprKind::TurnNumber, span), Ty::Int),
            _ => {}
        }
        match self.lookup(id) {
            Some(Sym::Var(v)) => {
                let def = &self.p.vars[v.index()];
                if def.scope != Scope::Shared {
                    let what = if def.scope == Scope::PerPlayer {
                        "player"
                    } else {
                        "card"
                    };
                    self.error(
                        Diagnostic::error(
                            "E106",
                            span,
                            format!("`{}` is kept per {what}", id.name),
                        )
                        .label(format!("which {what}'s?"))
                        .help(format!(
                            "write it after a {what}, as in `{}.{}`",
                            if what == "player" { "you" } else { "this" },
                            id.name
                        )),
                    );
                    return bad(span);
                }
                (mk(ExprKind::Global(v), span), def.ty.clone())
            }
            Some(Sym::Option(o)) => {
                let ty = match self.p.options[o.index()].kind {
                    OptionKind::Bool => Ty::Bool,
                    _ => Ty::Int,
                };
                (mk(ExprKind::Option(o), span), ty)
            }
            Some(Sym::OptionValue(_, i)) => (mk(ExprKind::Const(Value::Int(i)), span), Ty::Int),
            Some(Sym::Column(c)) => (mk(ExprKind::Column(c), span), Ty::Int),
            Some(Sym::Tag(t)) => (mk(ExprKind::Const(Value::Tag(t.0)), span), Ty::Tag),
            Some(Sym::Spaces) => (mk(ExprKind::Spaces, span), Ty::List(Box::new(Ty::Space))),
            Some(Sym::Participant(i)) => (mk(ExprKind::Participant(i), span), Ty::Player),
            Some(Sym::Zone(z)) => {
                let scope = self.p.zones[z.index()].scope;
                if scope != Scope::Shared {
                    let (what, ex) = match scope {
                        Scope::PerPlayer => ("player", "you"),
                        Scope::PerCard => ("card", "this"),
                        _ => ("space", "s"),
                    };
                    self.error(
                        Diagnostic::error(
                            "E106",
                            span,
                            format!("there is one `{}` zone per {what}", id.name),
                        )
                        .label(format!("which {what}'s?"))
                        .help(format!("write `{ex}.{}`", id.name)),
                    );
                    return bad(span);
                }
                (mk(ExprKind::Zone(z, None), span), Ty::Zone)
            }
            Some(other) => {
                self.error(
                    Diagnostic::error(
                        "E201",
                        span,
                        format!(
                            "`{}` is {} {}, not a value",
                            id.name,
                            crate::diag::article(other.what()),
                            other.what()
                        ),
                    )
                    .label(other.what())
                    .help("use it where the language expects it (a zone in `move`, an action in a menu, an ability in `perform`), or read one of its values"),
                );
                bad(span)
            }
            None => {
                let locals = cx.local_names();
                let mut extra: Vec<&str> = BUILTIN_NAMES.to_vec();
                extra.extend(locals.iter().map(|s| s.as_str()));
                extra.extend(cx.names.iter().map(|s| s.as_str()));
                let help = self.suggest(
                    &id.name,
                    |s| {
                        matches!(
                            s,
                            Sym::Var(_)
                                | Sym::Option(_)
                                | Sym::OptionValue(..)
                                | Sym::Column(_)
                                | Sym::Tag(_)
                                | Sym::Zone(_)
                                | Sym::Spaces
                        )
                    },
                    &extra,
                );
                self.error(
                    Diagnostic::error("E102", span, format!("unknown name `{}`", id.name))
                        .label("not declared")
                        .help_or(help, "declare it before it is used (`var`, `zone`, `let`, a parameter), or check its spelling"),
                );
                bad(span)
            }
        }
    }

    fn field(&mut self, cx: &mut Ctx, base: &ast::Expr, f: &ast::Ident, span: Span) -> (Expr, Ty) {
        let reported = self.diags.len();
        let (b, bt) = self.expr(cx, base);
        if let ast::ExprKind::Name(n) = &base.kind {
            let scope = match bt {
                Ty::Player => Some(Scope::PerPlayer),
                Ty::Card => Some(Scope::PerCard),
                Ty::Space => Some(Scope::PerSpace),
                _ => None,
            };
            if let Some(scope) = scope {
                self.field_bases.push((n.span, scope));
            }
        }
        let bx = Box::new(b);
        let name = f.name.as_str();
        let sym = self.syms.get(name).map(|(s, _)| *s);
        match bt {
            Ty::Player => {
                match sym {
                    Some(Sym::Var(v)) if self.p.vars[v.index()].scope == Scope::PerPlayer => {
                        self.note_use(name);
                        self.refer(f.span, Target::Name(f.name.clone()));
                        return (
                            mk(ExprKind::PlayerVar(v, bx), span),
                            self.p.vars[v.index()].ty.clone(),
                        );
                    }
                    Some(Sym::Zone(z)) if self.p.zones[z.index()].scope == Scope::PerPlayer => {
                        self.note_use(name);
                        self.refer(f.span, Target::Name(f.name.clone()));
                        return (mk(ExprKind::Zone(z, Some(bx)), span), Ty::Zone);
                    }
                    _ => {}
                }
                let help = self.suggest(
                    name,
                    |s| match s {
                        Sym::Var(v) => self.p.vars[v.index()].scope == Scope::PerPlayer,
                        Sym::Zone(z) => self.p.zones[z.index()].scope == Scope::PerPlayer,
                        _ => false,
                    },
                    &[],
                );
                self.field_error(f, "player", help)
            }
            Ty::Card => {
                let builtin = match name {
                    "kind" => Some((Field::Kind, Ty::Kind)),
                    "owner" => Some((Field::Owner, Ty::Player)),
                    "zone" => Some((Field::Zone, Ty::Zone)),
                    "face_up" => Some((Field::FaceUp, Ty::Bool)),
                    _ => None,
                };
                if let Some((fl, ty)) = builtin {
                    return (mk(ExprKind::Field(fl, bx), span), ty);
                }
                match sym {
                    Some(Sym::Var(v)) if self.p.vars[v.index()].scope == Scope::PerCard => {
                        self.note_use(name);
                        self.refer(f.span, Target::Name(f.name.clone()));
                        return (
                            mk(ExprKind::CardVar(v, bx), span),
                            self.p.vars[v.index()].ty.clone(),
                        );
                    }
                    Some(Sym::Prop(p)) => {
                        self.refer(f.span, Target::Name(f.name.clone()));
                        let ty = self.p.props[p.index()].ty.ty();
                        return (mk(ExprKind::Prop(p, bx), span), ty);
                    }
                    Some(Sym::Group(g)) => {
                        self.refer(f.span, Target::Name(f.name.clone()));
                        return (mk(ExprKind::TagOf(g, bx), span), Ty::Tag);
                    }
                    Some(Sym::Zone(z)) if self.p.zones[z.index()].scope == Scope::PerCard => {
                        self.note_use(name);
                        self.refer(f.span, Target::Name(f.name.clone()));
                        return (mk(ExprKind::Zone(z, Some(bx)), span), Ty::Zone);
                    }
                    _ => {}
                }
                let help = self.suggest(
                    name,
                    |s| match s {
                        Sym::Var(v) => self.p.vars[v.index()].scope == Scope::PerCard,
                        Sym::Zone(z) => self.p.zones[z.index()].scope == Scope::PerCard,
                        Sym::Prop(_) | Sym::Group(_) => true,
                        _ => false,
                    },
                    &["kind", "owner", "zone", "face_up"],
                );
                self.field_error(f, "card", help)
            }
            Ty::Space => {
                match name {
                    "x" => return (mk(ExprKind::Field(Field::X, bx), span), Ty::Int),
                    "y" => return (mk(ExprKind::Field(Field::Y, bx), span), Ty::Int),
                    _ => {}
                }
                if let Some(Sym::Zone(z)) = sym {
                    if self.p.zones[z.index()].scope == Scope::PerSpace {
                        self.note_use(name);
                        self.refer(f.span, Target::Name(f.name.clone()));
                        return (mk(ExprKind::Zone(z, Some(bx)), span), Ty::Zone);
                    }
                }
                let help = self.suggest(
                    name,
                    |s| matches!(s, Sym::Zone(z) if self.p.zones[z.index()].scope == Scope::PerSpace),
                    &["x", "y"],
                );
                self.field_error(f, "space", help)
            }
            // A value whose type is not known (from `none` or `[]`, not from an error
            // already reported, nor from a value the parser dropped after a syntax error): its
            // fields cannot be resolved, so say so rather than read nothing.
            Ty::Any if self.diags.len() == reported && !self.partial => {
                self.error(
                    Diagnostic::error(
                        "E201",
                        base.span,
                        format!("the type of this value is not known, so `{}` cannot be read", f.name),
                    )
                    .label("a value of unknown type")
                    .help("it comes from `none` or `[]`: start the list from a value of its type, or assign it one before this line"),
                );
                bad(span)
            }
            Ty::Any => bad(span),
            other => {
                self.error(
                    Diagnostic::error("E106", f.span, format!("a {other} has no field `{name}`"))
                        .label("unknown field")
                        .help("fields belong to players, cards and spaces"),
                );
                bad(span)
            }
        }
    }

    fn field_error(&mut self, f: &ast::Ident, what: &str, help: Option<String>) -> (Expr, Ty) {
        self.error(
            Diagnostic::error(
                "E106",
                f.span,
                format!("a {what} has no field `{}`", f.name),
            )
            .label("unknown field")
            .help_or(help, match what {
                "player" => "a player's fields are its `per player` variables and zones",
                "card" => "a card's fields are its properties, tag groups, `per card` variables and zones, `kind`, `owner`, `zone` and `face_up`",
                _ => "a space's fields are `x`, `y` and its `per space` zones",
            }),
        );
        bad(f.span)
    }

    fn binary(
        &mut self,
        cx: &mut Ctx,
        op: ast::BinOp,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
    ) -> (Expr, Ty) {
        use ast::BinOp as B;
        let bin =
            |op: BinOp, x: Expr, y: Expr| mk(ExprKind::Binary(op, Box::new(x), Box::new(y)), span);
        match op {
            B::Add => {
                let (x, tx) = self.expr(cx, a);
                if matches!(tx, Ty::List(_) | Ty::Zone) {
                    let elem = self.list_elem(&tx, a.span);
                    let want = Ty::List(Box::new(elem.clone()));
                    if untyped(&elem) {
                        // `[] + L` has the type of L.
                        let (y, ty) = self.expr(cx, b);
                        if !fits(&ty, &want) {
                            self.type_error(b.span, &want, &ty);
                        }
                        let ty = match ty {
                            Ty::Zone => Ty::List(Box::new(Ty::Card)),
                            Ty::List(_) => ty,
                            _ => want,
                        };
                        return (bin(BinOp::Concat, x, y), ty);
                    }
                    let y = self.expr_expect(cx, b, &want);
                    return (bin(BinOp::Concat, x, y), want);
                }
                if !fits(&tx, &Ty::Int) {
                    self.type_error(a.span, &Ty::Int, &tx);
                }
                let y = self.expr_expect(cx, b, &Ty::Int);
                (bin(BinOp::Add, x, y), Ty::Int)
            }
            B::Sub | B::Mul | B::Div | B::Rem | B::Lt | B::Le | B::Gt | B::Ge => {
                let (x, tx) = self.expr(cx, a);
                let compare = matches!(op, B::Lt | B::Le | B::Gt | B::Ge);
                let y = if compare && matches!(tx, Ty::List(_)) {
                    // Lists of numbers compare element by element (`[2, 14] > [2, 9]`).
                    if !orderable(&tx) {
                        self.type_error(a.span, &Ty::List(Box::new(Ty::Int)), &tx);
                    }
                    self.expr_expect(cx, b, &tx)
                } else {
                    if !fits(&tx, &Ty::Int) {
                        self.type_error(a.span, &Ty::Int, &tx);
                    }
                    self.expr_expect(cx, b, &Ty::Int)
                };
                let (o, ty) = match op {
                    B::Sub => (BinOp::Sub, Ty::Int),
                    B::Mul => (BinOp::Mul, Ty::Int),
                    B::Div => (BinOp::Div, Ty::Int),
                    B::Rem => (BinOp::Rem, Ty::Int),
                    B::Lt => (BinOp::Lt, Ty::Bool),
                    B::Le => (BinOp::Le, Ty::Bool),
                    B::Gt => (BinOp::Gt, Ty::Bool),
                    _ => (BinOp::Ge, Ty::Bool),
                };
                (bin(o, x, y), ty)
            }
            B::And | B::Or => {
                let x = self.expr_expect(cx, a, &Ty::Bool);
                let y = self.expr_expect(cx, b, &Ty::Bool);
                (
                    bin(if op == B::And { BinOp::And } else { BinOp::Or }, x, y),
                    Ty::Bool,
                )
            }
            B::Eq | B::Ne => {
                let o = if op == B::Eq { BinOp::Eq } else { BinOp::Ne };
                // A card name in quotes compares with a kind.
                let a_text = matches!(a.kind, ast::ExprKind::Text(_));
                let (x, tx, y) = if a_text {
                    let (y, ty) = self.expr(cx, b);
                    let x = self.expr_expect(cx, a, &ty);
                    (x, ty, y)
                } else {
                    let (x, tx) = self.expr(cx, a);
                    let y = self.expr_expect(cx, b, &tx);
                    (x, tx, y)
                };
                if tx == Ty::Card && matches!(b.kind, ast::ExprKind::Text(_)) {
                    self.error(
                        Diagnostic::error(
                            "E201",
                            b.span,
                            "a card is compared with a card; its kind with a card name",
                        )
                        .label("a card name")
                        .help("write `c is \"Name\"` or `c.kind == \"Name\"`"),
                    );
                }
                (bin(o, x, y), Ty::Bool)
            }
            // `c.kind in ["Scout", "Library"]`: a list written out takes the left side's type, so
            // card names in it are kinds.
            B::In
                if matches!(b.kind, ast::ExprKind::List(_))
                    && !matches!(a.kind, ast::ExprKind::Text(_)) =>
            {
                let (x, tx) = self.expr(cx, a);
                let y = self.expr_expect(cx, b, &Ty::List(Box::new(tx)));
                (bin(BinOp::In, x, y), Ty::Bool)
            }
            B::In => {
                let (y, ty) = self.expr(cx, b);
                let elem = self.list_elem(&ty, b.span);
                let x = self.expr_expect(cx, a, &elem);
                (bin(BinOp::In, x, y), Ty::Bool)
            }
        }
    }
}

/// A kind, or a list of kinds (of lists...): where a card name in quotes is read as a kind.
fn is_kind_or_kinds(t: &Ty) -> bool {
    match t {
        Ty::Kind => true,
        Ty::List(inner) => is_kind_or_kinds(inner),
        _ => false,
    }
}

/// A type whose values are ordered by `<`: numbers, and lists of them compared element by element.
pub(super) fn orderable(t: &Ty) -> bool {
    match t {
        Ty::Int | Ty::Any => true,
        Ty::List(e) => orderable(e),
        _ => false,
    }
}
