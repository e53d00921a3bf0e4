//! Language server stage: the document outline (documentSymbol) from the syntax tree — game and options,
//! declarations, cards grouped by the tags of the first tag group, the flow's turns and phases, actions,
//! tests, strategies and rule sets.

use super::document::Document;
use cardgame_grammar::ast::{Block, CardItem, Item, Span, Stmt, StmtKind};
use lsp_types::{DocumentSymbol, SymbolKind};

#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written, as `None`.
fn symbol(
    doc: &Document,
    name: impl Into<String>,
    detail: Option<String>,
    kind: SymbolKind,
    span: Span,
    name_span: Span,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    let span = span.join(name_span);
    let mut name: String = name.into();
    if name.trim().is_empty() {
        name = "(unnamed)".to_string();
    }
    DocumentSymbol {
        name,
        detail,
        kind,
        tags: None,
        deprecated: None,
        range: doc.range(span),
        selection_range: doc.range(name_span),
        children: (!children.is_empty()).then_some(children),
    }
}

/// A group of symbols under one heading that has no place of its own: it spans its children.
fn group(
    doc: &Document,
    name: &str,
    detail: &str,
    children: Vec<(Span, DocumentSymbol)>,
) -> Option<(Span, DocumentSymbol)> {
    let span = children.iter().map(|(s, _)| *s).reduce(Span::join)?;
    let kids = children.into_iter().map(|(_, s)| s).collect();
    let first = Span::new(span.start, span.start);
    Some((
        span,
        symbol(
            doc,
            name,
            Some(detail.to_string()),
            SymbolKind::NAMESPACE,
            span,
            first,
            kids,
        ),
    ))
}

/// `turn`, `phase` and `round` statements inside a block, nested as they are written.
fn phases(doc: &Document, block: &Block) -> Vec<DocumentSymbol> {
    let mut out = vec![];
    for s in &block.stmts {
        stmt_phases(doc, s, &mut out);
    }
    out
}

fn stmt_phases(doc: &Document, s: &Stmt, out: &mut Vec<DocumentSymbol>) {
    match &s.kind {
        StmtKind::Phase(name, body) => out.push(symbol(
            doc,
            name.name.clone(),
            Some("phase".into()),
            SymbolKind::EVENT,
            s.span,
            name.span,
            phases(doc, body),
        )),
        StmtKind::Turn(who, body) => out.push(symbol(
            doc,
            format!("turn {}", doc.slice(who.span)),
            None,
            SymbolKind::EVENT,
            s.span,
            Span::new(s.span.start, s.span.start + 4),
            phases(doc, body),
        )),
        StmtKind::Round(body) => out.push(symbol(
            doc,
            "round".to_string(),
            None,
            SymbolKind::EVENT,
            s.span,
            Span::new(s.span.start, s.span.start + 5),
            phases(doc, body),
        )),
        StmtKind::If {
            branches,
            otherwise,
        } => {
            for (_, b) in branches {
                out.extend(phases(doc, b));
            }
            if let Some(b) = otherwise {
                out.extend(phases(doc, b));
            }
        }
        StmtKind::For { body, .. }
        | StmtKind::While(_, body)
        | StmtKind::Repeat(_, body)
        | StmtKind::Loop(body)
        | StmtKind::Strict(body) => out.extend(phases(doc, body)),
        _ => {}
    }
}

/// The outline of the whole script, in source order.
pub fn outline(doc: &Document) -> Vec<DocumentSymbol> {
    let items = &doc.analysis.script.items;
    let first_group = items.iter().find_map(|i| match i {
        Item::Tags(t) => Some(t),
        _ => None,
    });
    let mut out: Vec<(Span, DocumentSymbol)> = vec![];
    // Cards by their tag of the first group, in the order of its tags; the others after.
    let mut by_tag: Vec<Vec<(Span, DocumentSymbol)>> =
        vec![vec![]; first_group.map_or(0, |g| g.tags.len()) + 1];
    let keyword = |s: Span, n: usize| Span::new(s.start, (s.start + n).min(s.end));
    for item in items {
        let sym = |name: &str, detail: &str, kind, span, name_span| {
            (
                span,
                symbol(
                    doc,
                    name,
                    Some(detail.to_string()),
                    kind,
                    span,
                    name_span,
                    vec![],
                ),
            )
        };
        match item {
            Item::Game(g) => {
                let options = g
                    .options
                    .iter()
                    .map(|o| {
                        symbol(
                            doc,
                            o.name.name.clone(),
                            Some("option".into()),
                            SymbolKind::PROPERTY,
                            o.span,
                            o.name.span,
                            vec![],
                        )
                    })
                    .collect();
                out.push((
                    g.span,
                    symbol(
                        doc,
                        doc.slice(g.name.span).trim_matches('"'),
                        Some("game".into()),
                        SymbolKind::MODULE,
                        g.span,
                        g.name.span,
                        options,
                    ),
                ));
            }
            Item::Table(t) => out.push(sym(
                "table",
                "by players",
                SymbolKind::STRUCT,
                t.span,
                keyword(t.span, 5),
            )),
            Item::Tags(t) => {
                let tags = t
                    .tags
                    .iter()
                    .map(|n| {
                        symbol(
                            doc,
                            n.name.clone(),
                            Some("tag".into()),
                            SymbolKind::ENUM_MEMBER,
                            n.span,
                            n.span,
                            vec![],
                        )
                    })
                    .collect();
                out.push((
                    t.span,
                    symbol(
                        doc,
                        t.group.name.clone(),
                        Some("tags".into()),
                        SymbolKind::ENUM,
                        t.span,
                        t.group.span,
                        tags,
                    ),
                ));
            }
            Item::Property(p) => out.push(sym(
                &p.name.name,
                "property",
                SymbolKind::PROPERTY,
                p.span,
                p.name.span,
            )),
            Item::Var(v) => out.push(sym(
                &v.name.name,
                "var",
                SymbolKind::VARIABLE,
                v.span,
                v.name.span,
            )),
            Item::Zone(z) => out.push(sym(
                &z.name.name,
                "zone",
                SymbolKind::ARRAY,
                z.span,
                z.name.span,
            )),
            Item::Spaces(s) => out.push(sym(
                &s.name.name,
                "spaces",
                SymbolKind::ARRAY,
                s.span,
                s.name.span,
            )),
            Item::Event(e) => out.push(sym(
                &e.name.name,
                "event",
                SymbolKind::EVENT,
                e.span,
                e.name.span,
            )),
            Item::Abilities(a) => {
                for n in &a.names {
                    out.push(sym(
                        &n.name,
                        "ability",
                        SymbolKind::INTERFACE,
                        n.span,
                        n.span,
                    ));
                }
            }
            Item::Card(c) => {
                let name = doc.slice(c.name.span).trim_matches('"');
                let tags: Vec<&str> = c
                    .items
                    .iter()
                    .filter_map(|i| match i {
                        CardItem::Is(names, _) => Some(names.iter().map(|n| n.name.as_str())),
                        _ => None,
                    })
                    .flatten()
                    .collect();
                let s = sym(
                    name,
                    &tags.join(", "),
                    SymbolKind::CLASS,
                    c.span,
                    c.name.span,
                );
                let slot = first_group
                    .and_then(|g| g.tags.iter().position(|t| tags.contains(&t.name.as_str())))
                    .unwrap_or(by_tag.len() - 1);
                by_tag[slot].push(s);
            }
            Item::Fn(f) => out.push(sym(
                &f.name.name,
                "fn",
                SymbolKind::FUNCTION,
                f.span,
                f.name.span,
            )),
            Item::Proc(p) => out.push(sym(
                &p.name.name,
                "proc",
                SymbolKind::FUNCTION,
                p.span,
                p.name.span,
            )),
            Item::Action(a) => out.push(sym(
                &a.name.name,
                "action",
                SymbolKind::METHOD,
                a.span,
                a.name.span,
            )),
            Item::Trigger(t) => out.push(sym(
                &format!("on {}", t.event.name),
                "trigger",
                SymbolKind::EVENT,
                t.span,
                t.event.span,
            )),
            Item::Setup(b) => out.push((
                b.span,
                symbol(
                    doc,
                    "setup",
                    None,
                    SymbolKind::CONSTRUCTOR,
                    b.span,
                    keyword(b.span, 0),
                    phases(doc, b),
                ),
            )),
            Item::Flow(b) => out.push((
                b.span,
                symbol(
                    doc,
                    "flow",
                    None,
                    SymbolKind::CONSTRUCTOR,
                    b.span,
                    keyword(b.span, 0),
                    phases(doc, b),
                ),
            )),
            Item::Check(b) => out.push(sym(
                "check",
                "",
                SymbolKind::CONSTRUCTOR,
                b.span,
                keyword(b.span, 0),
            )),
            Item::Test(t) => out.push(sym(
                doc.slice(t.name.span).trim_matches('"'),
                "test",
                SymbolKind::EVENT,
                t.span,
                t.name.span,
            )),
            Item::Strategy(s) => out.push(sym(
                &s.name.name,
                "strategy",
                SymbolKind::OBJECT,
                s.span,
                s.name.span,
            )),
            Item::Rules(r) => out.push(sym(
                &r.name.name,
                "rules",
                SymbolKind::NAMESPACE,
                r.span,
                r.name.span,
            )),
            Item::Stat(s) => out.push(sym(
                &s.name.name,
                &match &s.key {
                    Some(t) => format!("stat per {}", doc.slice(t.span())),
                    None => "stat".to_string(),
                },
                SymbolKind::FIELD,
                s.span,
                s.name.span,
            )),
            Item::Participant(d) => out.push(sym(
                &d.name.name,
                "participant",
                SymbolKind::CONSTANT,
                d.span,
                d.name.span,
            )),
            Item::CardsFrom(d) => out.push(sym(
                doc.slice(d.path.span).trim_matches('"'),
                "cards from a sheet",
                SymbolKind::FILE,
                d.span,
                d.path.span,
            )),
        }
    }
    let untagged = by_tag.pop().unwrap_or_default();
    match first_group {
        Some(g) => {
            for (tag, cards) in g.tags.iter().zip(by_tag) {
                out.extend(group(
                    doc,
                    &format!("cards: {}", tag.name),
                    &g.group.name,
                    cards,
                ));
            }
            out.extend(group(doc, "cards", "", untagged));
        }
        None => out.extend(untagged),
    }
    out.sort_by_key(|(s, _)| s.start);
    out.into_iter().map(|(_, s)| s).collect()
}
