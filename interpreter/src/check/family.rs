//! Checks stage: card families (`card "{rank} of {suit}" for suit in L, rank in M { ... }`): their
//! values are read when the script is checked, and each combination becomes one card kind whose
//! name, text and items see the values as constants.

use super::{Compiler, Sym};
use crate::diag::Diagnostic;
use crate::program::{KindDef, KindId, TagId, Ty};
use crate::value::Value;
use cardgame_grammar::ast::{self, Span};

/// The most cards one family may define.
const MAX_MEMBERS: usize = 10_000;

/// One card of a family: its name, and the value of each of the family's names.
#[derive(Clone, Debug)]
pub(crate) struct Member {
    pub name: String,
    pub consts: Vec<(String, Value, Ty)>,
}

/// A value written in a family's lists.
#[derive(Clone, Debug)]
enum Written {
    Int(i64),
    Text(String),
    Tag(TagId, String),
    Row(Vec<Written>),
}

impl Written {
    fn shown(&self) -> String {
        match self {
            Written::Int(n) => n.to_string(),
            Written::Text(t) | Written::Tag(_, t) => t.clone(),
            Written::Row(items) => items
                .iter()
                .map(Written::shown)
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

impl Compiler<'_> {
    /// The cards of a family, in order (the first list outermost); reports what cannot be read.
    pub(crate) fn family_members(&mut self, cd: &ast::CardDecl) -> Vec<Member> {
        let mut combos: Vec<Vec<(String, Written)>> = vec![Vec::new()];
        for b in &cd.family {
            let Some(Written::Row(items)) = self.written(&b.list) else {
                self.family_error(b.list.span, "not a list written out");
                return Vec::new();
            };
            let mut next = Vec::new();
            for combo in &combos {
                for item in &items {
                    let mut c = combo.clone();
                    match (b.row, item) {
                        (false, v) => c.push((b.names[0].name.clone(), v.clone())),
                        (true, Written::Row(values)) if values.len() == b.names.len() => {
                            for (n, v) in b.names.iter().zip(values) {
                                c.push((n.name.clone(), v.clone()));
                            }
                        }
                        (true, other) => {
                            self.error(
                                Diagnostic::error(
                                    "E313",
                                    b.list.span,
                                    format!(
                                        "each row of this table needs {} values; [{}] does not have them",
                                        b.names.len(),
                                        other.shown()
                                    ),
                                )
                                .label("a row of the wrong length")
                                .help("write one value per name, in order: `(rank, name) in [[11, \"Jack\"], [12, \"Queen\"]]`"),
                            );
                            return Vec::new();
                        }
                    }
                    next.push(c);
                    if next.len() > MAX_MEMBERS {
                        self.family_error(cd.name.span, "more than 10,000 cards");
                        return Vec::new();
                    }
                }
            }
            combos = next;
        }
        let mut members = Vec::with_capacity(combos.len());
        for combo in combos {
            let mut name = String::new();
            for part in &cd.name.parts {
                match part {
                    ast::TextPart::Lit(l) => name.push_str(l),
                    ast::TextPart::Expr(e) => match self.family_text(&combo, e) {
                        Some(s) => name.push_str(&s),
                        None => return Vec::new(),
                    },
                }
            }
            let consts = combo
                .into_iter()
                .filter_map(|(n, v)| {
                    let (value, ty) = match v {
                        Written::Int(i) => (Value::Int(i), Ty::Int),
                        Written::Text(t) => (Value::Text(t.into()), Ty::Text),
                        Written::Tag(t, _) => (Value::Tag(t.0), Ty::Tag),
                        Written::Row(_) => return None,
                    };
                    Some((n, value, ty))
                })
                .collect();
            members.push(Member { name, consts });
        }
        members
    }

    /// `{x}` in a family's card name: one of its names.
    fn family_text(&mut self, combo: &[(String, Written)], e: &ast::Expr) -> Option<String> {
        if let ast::ExprKind::Name(n) = &e.kind {
            if let Some((_, v)) = combo.iter().find(|(k, _)| *k == n.name) {
                return Some(v.shown());
            }
        }
        self.error(
            Diagnostic::error(
                "E313",
                e.span,
                "a card family's name shows only the family's own values",
            )
            .label("not one of the family's names")
            .help("write `{x}` for a name bound by `for x in L`; put other words in the text"),
        );
        None
    }

    /// A value written out: numbers, texts, tag names, `A..B` and lists of them.
    fn written(&mut self, e: &ast::Expr) -> Option<Written> {
        Some(match &e.kind {
            ast::ExprKind::Int(n) => Written::Int(*n),
            ast::ExprKind::Unary(ast::UnOp::Neg, x) => match self.written(x)? {
                Written::Int(n) => Written::Int(n.checked_neg()?),
                _ => return None,
            },
            ast::ExprKind::Text(t) => Written::Text(t.plain()?),
            ast::ExprKind::Name(n) => match self.lookup(n) {
                Some(Sym::Tag(t)) => Written::Tag(t, n.name.clone()),
                _ => return None,
            },
            ast::ExprKind::Range(a, b) => {
                let (Written::Int(a), Written::Int(b)) = (self.written(a)?, self.written(b)?)
                else {
                    return None;
                };
                if b.saturating_sub(a) >= MAX_MEMBERS as i64 {
                    return None;
                }
                Written::Row((a..=b).map(Written::Int).collect())
            }
            ast::ExprKind::List(items) => Written::Row(
                items
                    .iter()
                    .map(|i| self.written(i))
                    .collect::<Option<Vec<_>>>()?,
            ),
            _ => return None,
        })
    }

    /// Declares the card kind `name` of the declaration `cd` (E101 when the name is taken).
    pub(crate) fn declare_kind(&mut self, cd: &ast::CardDecl, name: String) {
        if let Some(old) = self.kinds.get(&name) {
            let old_span = self.p.kinds[old.index()].span;
            self.error(
                Diagnostic::error(
                    "E101",
                    cd.name.span,
                    format!("the card \"{name}\" is defined twice"),
                )
                .label("second definition")
                .related(old_span, "first definition")
                .help("give the copies with `copies N` in one definition"),
            );
            return;
        }
        if self.p.kinds.len() >= u16::MAX as usize {
            self.family_error(cd.name.span, "more cards than a script may define");
            return;
        }
        let id = KindId(self.p.kinds.len() as u16);
        self.kinds.insert(name.clone(), id);
        if !cd.family.is_empty() {
            self.family_kinds.insert(id);
        }
        for item in &cd.items {
            if let ast::CardItem::Ability(n, _, _) = item {
                self.card_abilities
                    .entry(n.name.clone())
                    .or_default()
                    .push(id);
            }
        }
        self.p.kinds.push(KindDef {
            name,
            tags: vec![],
            copies: super::decls::placeholder(),
            props: vec![],
            text: String::new(),
            abilities: vec![],
            triggers: vec![],
            span: cd.name.span,
        });
    }

    /// A card's `text "..."`: plain, or showing the family's values (`"{rank} of {suit}"`).
    pub(crate) fn card_text(&self, t: &ast::Text) -> String {
        let mut out = String::new();
        for part in &t.parts {
            match part {
                ast::TextPart::Lit(l) => out.push_str(l),
                ast::TextPart::Expr(e) => {
                    let value = match &e.kind {
                        ast::ExprKind::Name(n) => {
                            self.family_consts.iter().find(|(k, _, _)| *k == n.name)
                        }
                        _ => None,
                    };
                    match value {
                        Some((_, Value::Int(i), _)) => out.push_str(&i.to_string()),
                        Some((_, Value::Text(s), _)) => out.push_str(s),
                        Some((_, Value::Tag(t), _)) => out
                            .push_str(self.p.tags.get(*t as usize).map_or("", |d| d.name.as_str())),
                        _ => return String::new(),
                    }
                }
            }
        }
        out
    }

    /// A name of the family whose card is being lowered: its value for this card.
    pub(crate) fn family_const(&self, name: &str) -> Option<(Value, Ty)> {
        self.family_consts
            .iter()
            .find(|(k, _, _)| k == name)
            .map(|(_, v, t)| (v.clone(), t.clone()))
    }

    fn family_error(&mut self, span: Span, label: &str) {
        self.error(
            Diagnostic::error(
                "E313",
                span,
                "the values of a card family must be written out in the script",
            )
            .label(label.to_string())
            .help("use numbers, texts, tag names, `A..B` and lists of them (at most 10,000 cards): `for suit in [Clubs, Hearts], rank in 2..14`"),
        );
    }
}
