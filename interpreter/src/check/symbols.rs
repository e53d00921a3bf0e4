//! Checks stage: the side table of names the checker resolved (every declaration, and every use with the
//! declaration it resolves to), for tools at the edge such as the language server.

use super::{Compiler, Sym};
use crate::program::KindId;
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
    /// A statistic (`stat NAME`), in a name space of its own.
    Statistic,
    /// A player that is not a seat (`participant NAME "Name"`).
    Participant,
    /// A local name: a `let`, a parameter, a binder (`for x in`, `choose x in`, `count(x in ...)`).
    Local,
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
            SymbolKind::Local => "local name",
            SymbolKind::Statistic => "statistic",
            SymbolKind::Participant => "participant",
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
    /// Every name (a local, a parameter, `you`) written before a `.` and what its value is: a player
    /// (`PerPlayer`), a card (`PerCard`) or a space (`PerSpace`). Editors read it to complete fields.
    pub field_bases: Vec<(Span, Scope)>,
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
    Stat(String),
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
        Sym::Participant(_) => SymbolKind::Participant,
    }
}

impl Compiler<'_> {
    /// Note that the local name written at `id` is the one declared where `cx` says.
    pub(crate) fn refer_local(&mut self, cx: &super::Ctx, id: &cardgame_grammar::ast::Ident) {
        if let Some(def) = cx.declared_at(&id.name) {
            if !id.span.is_empty() {
                self.local_refs.push((id.span, def));
            }
        }
    }

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
            .chain(
                self.p
                    .kinds
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !self.family_kinds.contains(&KindId(*i as u16)))
                    .map(|(_, k)| SymbolDef {
                        name: k.name.clone(),
                        kind: SymbolKind::Card,
                        span: k.span,
                        scope: None,
                    }),
            )
            .chain(self.p.stats.iter().map(|st| SymbolDef {
                name: st.name.clone(),
                kind: SymbolKind::Statistic,
                span: st.span,
                scope: None,
            }))
            .collect();
        // A local is known from its uses: a local never used has no entry.
        let mut locals: Vec<Span> = self.local_refs.iter().map(|(_, d)| *d).collect();
        locals.sort_by_key(|s| (s.start, s.end));
        locals.dedup();
        defs.extend(locals.into_iter().map(|span| SymbolDef {
            name: self.text_of(span).to_string(),
            kind: SymbolKind::Local,
            span,
            scope: None,
        }));
        defs.sort_by_key(|d| (d.span.start, d.span.end));
        let mut index: HashMap<Target, usize> = HashMap::new();
        let mut local_index: HashMap<(usize, usize), usize> = HashMap::new();
        for (i, d) in defs.iter().enumerate() {
            let key = match d.kind {
                SymbolKind::Card => Target::Card(d.name.clone()),
                SymbolKind::Statistic => Target::Stat(d.name.clone()),
                SymbolKind::Local => {
                    local_index.insert((d.span.start, d.span.end), i);
                    continue;
                }
                _ => Target::Name(d.name.clone()),
            };
            index.insert(key, i);
        }
        let mut refs: Vec<SymbolRef> = self
            .refs
            .iter()
            .filter_map(|(span, t)| index.get(t).map(|&def| SymbolRef { span: *span, def }))
            .chain(self.local_refs.iter().filter_map(|(span, d)| {
                local_index
                    .get(&(d.start, d.end))
                    .map(|&def| SymbolRef { span: *span, def })
            }))
            .collect();
        refs.sort_by_key(|r| (r.span.start, r.span.end));
        refs.dedup();
        let mut field_bases = self.field_bases.clone();
        field_bases.sort_by_key(|(s, _)| (s.start, s.end));
        field_bases.dedup();
        Symbols {
            defs,
            refs,
            field_bases,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::analyse;

    fn scripts() -> Vec<(String, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut out = vec![];
        for dir in ["games", "examples"] {
            let Ok(rd) = std::fs::read_dir(root.join(dir)) else {
                continue;
            };
            for e in rd.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "cardgame") {
                    let text = std::fs::read_to_string(&p).expect("a script");
                    out.push((p.display().to_string(), text));
                }
            }
        }
        assert!(out.len() >= 4, "the scripts of games/ and examples/");
        out
    }

    /// The text at a span: a card's name in quotes, any other name as it is.
    fn written(source: &str, span: Span, kind: SymbolKind, name: &str) -> bool {
        let text = &source[span.start..span.end];
        match kind {
            SymbolKind::Card => text == format!("\"{name}\""),
            _ => text == name,
        }
    }

    #[test]
    fn every_declaration_and_use_is_where_its_name_is_written() {
        for (path, source) in scripts() {
            let a = analyse(&source);
            assert!(a.checked.program.is_some(), "{path} checks");
            for d in &a.symbols.defs {
                assert!(written(&source, d.span, d.kind, &d.name), "{path}: {d:?}");
            }
            for r in &a.symbols.refs {
                let d = &a.symbols.defs[r.def];
                assert!(
                    written(&source, r.span, d.kind, &d.name),
                    "{path}: {r:?} -> {d:?}"
                );
            }
            // Every card, and every name the checker did not warn about as unused, is used somewhere.
            let unused: Vec<Span> = a
                .checked
                .diagnostics
                .iter()
                .filter(|d| d.code == "W001")
                .map(|d| d.span)
                .collect();
            for (i, d) in a.symbols.defs.iter().enumerate() {
                let used = a.symbols.uses_of(i).next().is_some();
                let hooks = d.kind == SymbolKind::Function
                    && ["heuristic", "score"].contains(&d.name.as_str());
                let declared_only = matches!(
                    d.kind,
                    SymbolKind::Statistic
                        | SymbolKind::Card
                        | SymbolKind::Ability
                        | SymbolKind::Column
                        | SymbolKind::Tag
                        | SymbolKind::TagGroup
                        | SymbolKind::OptionValue
                        | SymbolKind::Property
                );
                if !used && !hooks && !declared_only {
                    assert!(
                        unused.contains(&d.span),
                        "{path}: `{}` has no recorded use and no W001",
                        d.name
                    );
                }
            }
        }
    }

    #[test]
    fn a_use_resolves_to_its_declaration_local_or_not() {
        let src = "game \"G\" { players 2 option mode: one of fast, slow = slow \"m\" }\nzone pile: pile\nvar n: int = 0\ncard \"A\" { copies 2 }\n\
                   setup { let pile2 = 1\n  n = pile2\n  move cards(\"A\", box) to pile\n  stat n += n }\n\
                   flow { if mode == fast { log \"f\" }\n  win everyone \"x\" }\n\
                   stat n \"a statistic beside the variable\"\ntest \"t\" { option mode = fast\n  expect over }\n";
        let a = analyse(src);
        assert!(a.checked.program.is_some(), "{:?}", a.checked.diagnostics);
        let s = &a.symbols;
        let at =
            |needle: &str, nth: usize| src.match_indices(needle).nth(nth).expect("in source").0;
        let pile = s.at(at("pile", 0) + 1).expect("zone pile");
        assert_eq!(s.defs[pile].kind, SymbolKind::Zone);
        assert_eq!(s.at(at("to pile", 0) + 3), Some(pile));
        assert_eq!(s.uses_of(pile).count(), 1);
        let card = s.at(at("\"A\"", 1) + 1).expect("card A");
        assert_eq!(s.defs[card].kind, SymbolKind::Card);
        assert_eq!(s.defs[card].span.start, at("\"A\"", 0));
        // `pile2` is a local: its use leads to its `let`, and nothing else is named so.
        let local = s.at(at("pile2", 1) + 2).expect("local pile2");
        assert_eq!(s.defs[local].kind, SymbolKind::Local);
        assert_eq!(s.defs[local].span.start, at("pile2", 0));
        assert_eq!(s.uses_of(local).count(), 1);
        assert_ne!(s.at(at("pile2", 1) + 2), Some(pile));
        let n = s.at(at("n = ", 0)).expect("var n");
        assert_eq!(s.defs[n].scope, Some(Scope::Shared));
        // `stat n` is the statistic, in its own name space; `+= n` the variable.
        let stat = s.at(at("stat n +=", 0) + 5).expect("stat n");
        assert_eq!(s.defs[stat].kind, SymbolKind::Statistic);
        assert_eq!(s.defs[stat].span.start, at("stat n \"", 0) + 5);
        assert_eq!(s.at(at("+= n", 0) + 3), Some(n));
        // An option value: its default, a comparison and a test's setting are its uses.
        let fast = s.at(at("fast", 0)).expect("option value fast");
        assert_eq!(s.defs[fast].kind, SymbolKind::OptionValue);
        assert_eq!(s.uses_of(fast).count(), 2);
        let slow = s.at(at("slow", 0)).expect("option value slow");
        assert_eq!(
            s.uses_of(slow).collect::<Vec<_>>(),
            [Span::new(at("slow", 1), at("slow", 1) + 4)]
        );
    }
}
