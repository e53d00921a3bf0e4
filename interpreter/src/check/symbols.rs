//! Checks stage: the side table of names the checker resolved (every declaration, and every use with the
//! declaration it resolves to), for tools at the edge such as the language server.

use super::{Compiler, Sym};
use cardgame_grammar::ast::{Scope, Span};
use std::collections::HashMap;

/// What a declared name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    Option,
    OptionValue,
    Column,
    TagGroup,
    Tag,
    Property,
    Variable,
    Zone,
    Spaces,
    Event,
    Ability,
    Function,
    Procedure,
    Action,
    Card,
}

impl SymbolKind {
    /// The word the language reference uses for it ("tag group", "procedure").
    pub fn what(self) -> &'static str {
        match self {
            SymbolKind::Card => "card",
            SymbolKind::Option => "option",
            SymbolKind::OptionValue => "option value",
            SymbolKind::Column => "table column",
            SymbolKind::TagGroup => "tag group",
            SymbolKind::Tag => "tag",
            SymbolKind::Property => "property",
            SymbolKind::Variable => "variable",
            SymbolKind::Zone => "zone",
            SymbolKind::Spaces => "board of spaces",
            SymbolKind::Event => "event",
            SymbolKind::Ability => "ability",
            SymbolKind::Function => "function",
            SymbolKind::Procedure => "procedure",
            SymbolKind::Action => "action",
        }
    }
}

/// One declaration written in the script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolDef {
    /// The name (a card's name without its quotes).
    pub name: String,
    pub kind: SymbolKind,
    /// Where the name is written in its declaration (a card's: the quoted text).
    pub span: Span,
    /// For variables and zones: shared, per player, per card or per space.
    pub scope: Option<Scope>,
}

/// One use of a declared name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SymbolRef {
    /// Where the use is written (a card's: the quoted text).
    pub span: Span,
    /// The index of its declaration in [`Symbols::defs`].
    pub def: usize,
}

/// Every declaration of a script and every resolved use, in source order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Symbols {
    pub defs: Vec<SymbolDef>,
    pub refs: Vec<SymbolRef>,
}

impl Symbols {
    /// The declaration written at `offset`, or used there.
    pub fn at(&self, offset: usize) -> Option<usize> {
        let inside = |s: Span| s.start <= offset && offset <= s.end;
        self.refs
            .iter()
            .find(|r| inside(r.span))
            .map(|r| r.def)
            .or_else(|| self.defs.iter().position(|d| inside(d.span)))
    }

    /// The uses of declaration `def`, in source order.
    pub fn uses_of(&self, def: usize) -> impl Iterator<Item = Span> + '_ {
        self.refs
            .iter()
            .filter(move |r| r.def == def)
            .map(|r| r.span)
    }
}

/// A use as the checker met it: a top-level name or a card name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Target {
    Name(String),
    Card(String),
}

fn kind_of(s: Sym) -> SymbolKind {
    match s {
        Sym::Option(_) => SymbolKind::Option,
        Sym::OptionValue(..) => SymbolKind::OptionValue,
        Sym::Column(_) => SymbolKind::Column,
        Sym::Group(_) => SymbolKind::TagGroup,
        Sym::Tag(_) => SymbolKind::Tag,
        Sym::Prop(_) => SymbolKind::Property,
        Sym::Var(_) => SymbolKind::Variable,
        Sym::Zone(_) => SymbolKind::Zone,
        Sym::Spaces => SymbolKind::Spaces,
        Sym::Event(_) => SymbolKind::Event,
        Sym::Ability(_) => SymbolKind::Ability,
        Sym::Fn(_) => SymbolKind::Function,
        Sym::Proc(_) => SymbolKind::Procedure,
        Sym::Action(_) => SymbolKind::Action,
    }
}

impl Compiler<'_> {
    /// Note that the name written at `span` resolved to a declaration (for [`Symbols`]).
    pub(crate) fn refer(&mut self, span: Span, target: Target) {
        if !span.is_empty() {
            self.refs.push((span, target));
        }
    }

    /// The side table: built-in names (which have no place in the script) are left out.
    pub(crate) fn symbols(&self) -> Symbols {
        let mut defs: Vec<SymbolDef> = self
            .syms
            .iter()
            .filter(|(_, (_, span))| !span.is_empty())
            .map(|(name, (sym, span))| SymbolDef {
                name: name.clone(),
                kind: kind_of(*sym),
                span: *span,
                scope: match sym {
                    Sym::Var(v) => self.p.vars.get(v.index()).map(|d| d.scope),
                    Sym::Zone(z) => self.p.zones.get(z.index()).map(|d| d.scope),
                    _ => None,
                },
            })
            .chain(self.p.kinds.iter().map(|k| SymbolDef {
                name: k.name.clone(),
                kind: SymbolKind::Card,
                span: k.span,
                scope: None,
            }))
            .collect();
        defs.sort_by_key(|d| (d.span.start, d.span.end));
        let mut index: HashMap<Target, usize> = HashMap::new();
        for (i, d) in defs.iter().enumerate() {
            let key = match d.kind {
                SymbolKind::Card => Target::Card(d.name.clone()),
                _ => Target::Name(d.name.clone()),
            };
            index.insert(key, i);
        }
        let mut refs: Vec<SymbolRef> = self
            .refs
            .iter()
            .filter_map(|(span, t)| index.get(t).map(|&def| SymbolRef { span: *span, def }))
            .collect();
        refs.sort_by_key(|r| (r.span.start, r.span.end));
        refs.dedup();
        Symbols { defs, refs }
    }
}
