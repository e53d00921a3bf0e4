//! Language server stage: hover — a card name shows the card (text, tags, properties, copies); a declared
//! name shows its declaration line and the `//` comment lines just above it (a statistic kept per key,
//! its key); a keyword of the language what it does (keywords.rs).

use super::document::Document;
use cardgame_grammar::ast::{CardDecl, CardItem, Item, Span};
use cardgame_interpreter::check::SymbolKind;
use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};

pub fn hover(doc: &Document, pos: Position) -> Option<Hover> {
    let offset = doc.offset(pos);
    let symbols = &doc.analysis.symbols;
    let Some(def) = symbols.at(offset) else {
        return keyword(doc, offset);
    };
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
        SymbolKind::Statistic => {
            let mut out = declaration(doc, d.span, d.kind.what(), &d.name);
            out.push_str(&statistic_key(doc, d.span, &d.name));
            out
        }
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

/// For a statistic kept per key (`stat NAME[TYPE]`), how it is recorded and reported.
fn statistic_key(doc: &Document, span: Span, name: &str) -> String {
    let key = doc.analysis.script.items.iter().find_map(|i| match i {
        Item::Stat(s) if s.name.span == span => s.key.as_ref(),
        _ => None,
    });
    match key {
        Some(t) => format!(
            "\n\nKept per key, a `{}`: recorded with `stat {name}[K] = E` (or `+= E`); `cardgame sim` reports every key together and a table per key; a test reads `stat {name}[K]`.",
            doc.slice(t.span())
        ),
        None => String::new(),
    }
}

/// A word of the language under the cursor (not in a comment or a text, not a field after `.`):
/// what it does and where docs/language.md says more.
fn keyword(doc: &Document, offset: usize) -> Option<Hover> {
    let (start, line) = doc.line_of(offset);
    let at = offset.checked_sub(start)?.min(line.len());
    let word = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_';
    let bytes = line.as_bytes();
    let a = at - bytes[..at].iter().rev().take_while(|c| word(c)).count();
    let b = at + bytes[at..].iter().take_while(|c| word(c)).count();
    let before = line.get(..a)?;
    if a == b || before.ends_with('.') || in_comment_or_text(before) {
        return None;
    }
    let value = super::keywords::hover_text(line.get(a..b)?)?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: Some(doc.range(Span::new(start + a, start + b))),
    })
}

/// Whether the end of `before` (the start of a line) lies in a `//` comment or a text literal.
fn in_comment_or_text(before: &str) -> bool {
    let mut quoted = false;
    let mut escaped = false;
    for (i, c) in before.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '/' if !quoted && before[i..].starts_with("//") => return true,
            _ => {}
        }
    }
    quoted
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
