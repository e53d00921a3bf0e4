//! Language server stage: hover — a card name shows the card (text, tags, properties, copies); a declared
//! name shows its declaration line and the `//` comment lines just above it.

use super::document::Document;
use cardgame_grammar::ast::{CardDecl, CardItem, Item, Span};
use cardgame_interpreter::check::SymbolKind;
use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};

pub fn hover(doc: &Document, pos: Position) -> Option<Hover> {
    let offset = doc.offset(pos);
    let symbols = &doc.analysis.symbols;
    let def = symbols.at(offset)?;
    let d = &symbols.defs[def];
    let range = symbols
        .refs
        .iter()
        .map(|r| r.span)
        .chain(std::iter::once(d.span))
        .find(|s| s.start <= offset && offset <= s.end)
        .map(|s| doc.range(s));
    let value = match d.kind {
        SymbolKind::Card if d.span.start > doc.text.len() => super::sheet::card(doc, d.span)?,
        SymbolKind::Card => card(doc, d.span)?,
        kind => declaration(doc, d.span, kind.what(), &d.name),
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range,
    })
}

/// The `//` comment lines just above line `line` (the doc comment of what is declared there).
pub fn doc_comment(doc: &Document, line: usize) -> String {
    let mut lines = vec![];
    let mut n = line;
    while n > 0 {
        n -= 1;
        let (_, text) = doc.line(n);
        match text.trim_start().strip_prefix("//") {
            Some(c) => lines.push(c.strip_prefix(' ').unwrap_or(c).trim_end()),
            None => break,
        }
    }
    lines.reverse();
    lines.join("\n")
}

fn declaration(doc: &Document, span: Span, what: &str, name: &str) -> String {
    let line = doc.line_number(span.start);
    let (_, text) = doc.line(line);
    let mut out = format!("{what} `{name}`\n\n```cardgame\n{}\n```", text.trim());
    let comment = doc_comment(doc, line);
    if !comment.is_empty() {
        out.push_str("\n\n");
        out.push_str(&comment);
    }
    out
}

fn find_card(items: &[Item], span: Span) -> Option<&CardDecl> {
    items.iter().find_map(|i| match i {
        Item::Card(c) if c.name.span == span => Some(c),
        _ => None,
    })
}

fn card(doc: &Document, span: Span) -> Option<String> {
    let c = find_card(&doc.analysis.script.items, span)?;
    let mut out = format!("**card {}**", doc.slice(c.name.span));
    let mut tags = vec![];
    let mut copies = None;
    let mut text = None;
    let mut props = vec![];
    let mut abilities = vec![];
    let mut triggers = vec![];
    for item in &c.items {
        match item {
            CardItem::Is(names, _) => tags.extend(names.iter().map(|n| n.name.as_str())),
            CardItem::Copies(e, _) => copies = Some(doc.slice(e.span)),
            CardItem::Text(t, _) => {
                text = Some(t.plain().unwrap_or_else(|| doc.slice(t.span).to_string()))
            }
            CardItem::Property(n, e, _) => {
                props.push(format!("{} `{}`", n.name, doc.slice(e.span)))
            }
            CardItem::Ability(n, _, _) => abilities.push(n.name.as_str()),
            CardItem::Trigger(t) => triggers.push(t.event.name.as_str()),
        }
    }
    let mut lines = vec![];
    if !tags.is_empty() {
        lines.push(format!("is {}", tags.join(", ")));
    }
    lines.push(format!("copies `{}`", copies.unwrap_or("1")));
    if !props.is_empty() {
        lines.push(props.join(" · "));
    }
    if !abilities.is_empty() {
        lines.push(format!("abilities: {}", abilities.join(", ")));
    }
    if !triggers.is_empty() {
        lines.push(format!("on: {}", triggers.join(", ")));
    }
    out.push_str("\n\n");
    out.push_str(&lines.join("  \n"));
    if let Some(t) = text {
        let quoted: Vec<String> = t.lines().map(|l| format!("> {l}")).collect();
        out.push_str("\n\n");
        out.push_str(&quoted.join("\n"));
    }
    let comment = doc_comment(doc, doc.line_number(c.span.start));
    if !comment.is_empty() {
        out.push_str("\n\n");
        out.push_str(&comment);
    }
    Some(out)
}
