//! Language server stage: go to definition, find references and rename, read from the checker's table of
//! resolved names (every declaration and every use of a declared name or a card name).

use super::document::Document;
use cardgame_grammar::ast::Span;
use cardgame_grammar::KEYWORDS;
use cardgame_interpreter::check::SymbolKind;
use lsp_types::{Location, Position, PrepareRenameResponse, TextEdit, WorkspaceEdit};
use std::collections::HashMap;

pub fn definition(doc: &Document, pos: Position) -> Option<Location> {
    let symbols = &doc.analysis.symbols;
    let def = symbols.at(doc.offset(pos))?;
    let span = symbols.defs[def].span;
    Some(
        super::sheet::location(doc, span)
            .unwrap_or_else(|| Location::new(doc.uri.clone(), doc.range(span))),
    )
}

pub fn references(doc: &Document, pos: Position, declaration: bool) -> Vec<Location> {
    let symbols = &doc.analysis.symbols;
    let Some(def) = symbols.at(doc.offset(pos)) else {
        return vec![];
    };
    let mut spans: Vec<Span> = symbols.uses_of(def).collect();
    if declaration {
        spans.insert(0, symbols.defs[def].span);
    }
    spans
        .into_iter()
        .map(|s| {
            super::sheet::location(doc, s)
                .unwrap_or_else(|| Location::new(doc.uri.clone(), doc.range(s)))
        })
        .collect()
}

/// The part of a span a rename replaces: a card name's text without its quotes.
fn name_part(doc: &Document, span: Span) -> Span {
    let text = doc.slice(span);
    if text.len() >= 2 && text.starts_with('"') && text.ends_with('"') {
        Span::new(span.start + 1, span.end - 1)
    } else {
        span
    }
}

pub fn prepare_rename(doc: &Document, pos: Position) -> Option<PrepareRenameResponse> {
    let offset = doc.offset(pos);
    let symbols = &doc.analysis.symbols;
    let def = symbols.at(offset)?;
    // A card a sheet defines is renamed in its sheet, not here.
    if symbols.defs[def].span.start > doc.text.len() {
        return None;
    }
    let span = symbols
        .refs
        .iter()
        .map(|r| r.span)
        .chain(std::iter::once(symbols.defs[def].span))
        .find(|s| s.start <= offset && offset <= s.end)?;
    let part = name_part(doc, span);
    Some(PrepareRenameResponse::RangeWithPlaceholder {
        range: doc.range(part),
        placeholder: doc.slice(part).to_string(),
    })
}

/// Why `new` cannot be the new name of the name declared at `at`, if it cannot.
fn invalid(doc: &Document, kind: SymbolKind, old: &str, new: &str, at: Span) -> Option<String> {
    if new == old {
        return None;
    }
    let symbols = &doc.analysis.symbols;
    if kind == SymbolKind::Card {
        if new.is_empty() || new.contains(['"', '{', '}', '\\', '\n']) {
            return Some(format!(
                "\"{new}\" cannot be a card name: write it without quotes, braces or backslashes"
            ));
        }
        let taken = symbols
            .defs
            .iter()
            .any(|d| d.kind == SymbolKind::Card && d.name == new);
        return taken.then(|| format!("a card is already named \"{new}\""));
    }
    let mut chars = new.chars();
    let shaped = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !shaped {
        return Some(format!(
            "`{new}` is not a name: letters, digits and `_`, not starting with a digit"
        ));
    }
    if KEYWORDS.contains(&new) {
        return Some(format!("`{new}` is a keyword of the language"));
    }
    // Statistics have a name space of their own; locals are checked below.
    let space = |k| k == SymbolKind::Statistic;
    if let Some(d) = symbols.defs.iter().find(|d| {
        !matches!(d.kind, SymbolKind::Card | SymbolKind::Local)
            && space(d.kind) == space(kind)
            && d.name == new
    }) {
        return Some(format!(
            "`{new}` is already declared as {} {}",
            article(d.kind.what()),
            d.kind.what()
        ));
    }
    // Where the renamed name is written, and the stretch of text that covers it.
    let own: Vec<Span> = std::iter::once(at)
        .chain(
            symbols
                .defs
                .iter()
                .position(|d| d.span == at)
                .into_iter()
                .flat_map(|i| symbols.uses_of(i)),
        )
        .collect();
    let stretch = |spans: &mut dyn Iterator<Item = Span>| {
        spans.fold((usize::MAX, 0), |(a, b), s| (a.min(s.start), b.max(s.end)))
    };
    let locals = symbols
        .defs
        .iter()
        .enumerate()
        .filter(|(_, d)| d.kind == SymbolKind::Local && d.name == new);
    if kind == SymbolKind::Local {
        // Another local of that name where this one is written would be confused with it.
        let (start, end) = stretch(&mut own.iter().copied());
        let inside = |s: Span| s.start >= start && s.end <= end;
        for (i, d) in locals {
            if inside(d.span) || symbols.uses_of(i).any(inside) {
                return Some(format!("a local named `{new}` is used there already"));
            }
        }
    } else {
        // A local of that name would take the place of the renamed name where it is written bare
        // (a field after `.` is never a local).
        let bare: Vec<Span> = own
            .iter()
            .copied()
            .filter(|s| !doc.text.get(..s.start).is_some_and(|t| t.ends_with('.')))
            .collect();
        for (i, d) in locals {
            let (start, end) = stretch(&mut std::iter::once(d.span).chain(symbols.uses_of(i)));
            if bare.iter().any(|s| s.start >= start && s.end <= end) {
                return Some(format!(
                    "a local named `{new}` is used where `{old}` is written"
                ));
            }
        }
    }
    None
}

fn article(word: &str) -> &'static str {
    cardgame_interpreter::diag::article(word)
}

// `WorkspaceEdit::changes` is keyed by `Uri`, whose only interior mutability is a cache that does not
// change its hash: the lint does not apply.
#[allow(clippy::mutable_key_type)]
/// The edits that rename the name at `pos` (its declaration and every use), or why it cannot be renamed.
pub fn rename(doc: &Document, pos: Position, new: &str) -> Result<Option<WorkspaceEdit>, String> {
    let symbols = &doc.analysis.symbols;
    let Some(def) = symbols.at(doc.offset(pos)) else {
        return Ok(None);
    };
    let d = &symbols.defs[def];
    if d.span.start > doc.text.len() {
        return Err(format!(
            "\"{}\" is a card of a sheet (`cards from`): rename it in its sheet",
            d.name
        ));
    }
    if let Some(why) = invalid(doc, d.kind, &d.name, new, d.span) {
        return Err(why);
    }
    let edits: Vec<TextEdit> = std::iter::once(d.span)
        .chain(symbols.uses_of(def))
        .map(|s| TextEdit::new(doc.range(name_part(doc, s)), new.to_string()))
        .collect();
    let mut changes = HashMap::new();
    changes.insert(doc.uri.clone(), edits);
    Ok(Some(WorkspaceEdit {
        changes: Some(changes),
        ..WorkspaceEdit::default()
    }))
}
