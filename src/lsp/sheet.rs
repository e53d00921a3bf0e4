//! Language server stage: the card sheets a script reads (`cards from "FILE"`): where their diagnostics
//! are shown in the script, a sheet's card on hover (its row's values), and which open scripts read a
//! sheet that changed on disk (the editor watches `*.csv` and `*.tsv` for the server).

use super::document::{file_path, Document};
use cardgame_grammar::ast::{CardItem, Item, Span};
use std::path::PathBuf;

/// For a span in one of the document's sheets: the span of its `cards from "FILE"` path in the script
/// (where the editor shows it) and the sheet's place, `FILE:LINE:COLUMN`.
pub fn place(doc: &Document, span: Span) -> Option<(Span, String)> {
    let (sheet, text, local) = doc.analysis.sources.locate(span);
    let sheet = sheet?;
    let (line, column) = crate::diagnostics::line_column(text, local.start);
    let at = doc.analysis.script.items.iter().find_map(|i| match i {
        Item::CardsFrom(d) if d.path.plain().as_deref() == Some(sheet.path.as_str()) => {
            Some(d.path.span)
        }
        _ => None,
    })?;
    Some((at, format!("{}:{line}:{column}", sheet.path)))
}

/// The place of a span in one of the document's sheets, as a location in that file (for go to definition
/// and references), or `None` for a span in the script.
pub fn location(doc: &Document, span: Span) -> Option<lsp_types::Location> {
    use std::str::FromStr;
    let (sheet, text, local) = doc.analysis.sources.locate(span);
    let sheet = sheet?;
    let dir = file_path(&doc.uri)?.parent()?.to_path_buf();
    let path = dir.join(&sheet.path);
    let mut uri = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                uri.push(b as char)
            }
            _ => uri.push_str(&format!("%{b:02X}")),
        }
    }
    let position = |at: usize| {
        let at = at.min(text.len());
        let before = text.get(..at).unwrap_or("");
        let line = before.matches('\n').count();
        let start = before.rfind('\n').map_or(0, |i| i + 1);
        let column: usize = before[start..].chars().map(char::len_utf16).sum();
        lsp_types::Position::new(line as u32, column as u32)
    };
    let range = lsp_types::Range::new(position(local.start), position(local.end));
    Some(lsp_types::Location::new(
        lsp_types::Uri::from_str(&uri).ok()?,
        range,
    ))
}

/// The hover of a card that a sheet lists (its definition's span is in the sheet): the row's values by
/// column, and what the script's `card "Name" { ... }` block adds.
pub fn card(doc: &Document, span: Span) -> Option<String> {
    let (sheet, text, local) = doc.analysis.sources.locate(span);
    let sheet = sheet?;
    let row = sheet.rows.iter().find(|r| r.span.start == span.start)?;
    let (line, _) = crate::diagnostics::line_column(text, local.start);
    let mut out = format!("**card {}** (`{}`, line {line})", row.name, sheet.path);
    let mut lines = vec![];
    let mut quoted = None;
    for (column, cell) in sheet.columns.iter().zip(&row.cells) {
        match column.as_str() {
            "name" => {}
            "text" if !cell.is_empty() => quoted = Some(cell.clone()),
            _ if cell.is_empty() => {}
            _ => lines.push(format!("{column} `{cell}`")),
        }
    }
    let block = doc.analysis.script.items.iter().find_map(|i| match i {
        Item::CardsFrom(d) if d.path.plain().as_deref() == Some(sheet.path.as_str()) => d
            .cards
            .iter()
            .find(|c| c.name.plain().as_deref() == Some(row.name.as_str())),
        _ => None,
    });
    let mut abilities = vec![];
    let mut triggers = vec![];
    for item in block.map(|b| b.items.as_slice()).unwrap_or_default() {
        match item {
            CardItem::Ability(n, _, _) => abilities.push(n.name.as_str()),
            CardItem::Trigger(t) => triggers.push(t.event.name.as_str()),
            CardItem::Is(..)
            | CardItem::Copies(..)
            | CardItem::Text(..)
            | CardItem::Property(..) => {}
        }
    }
    if !abilities.is_empty() {
        lines.push(format!("abilities: {}", abilities.join(", ")));
    }
    if !triggers.is_empty() {
        lines.push(format!("on: {}", triggers.join(", ")));
    }
    if !lines.is_empty() {
        out.push_str("\n\n");
        out.push_str(&lines.join("  \n"));
    }
    if let Some(t) = quoted {
        out.push_str("\n\n> ");
        out.push_str(&t);
    }
    Some(out)
}

/// The glob of the files the server asks the editor to watch: the sheets a script may read.
pub const WATCHED: &str = "**/*.{csv,tsv}";

/// The `client/registerCapability` parameters that ask the editor to tell the server when a sheet
/// changes, is created or is deleted on disk.
pub fn watch_registration() -> lsp_types::RegistrationParams {
    let options = lsp_types::DidChangeWatchedFilesRegistrationOptions {
        watchers: vec![lsp_types::FileSystemWatcher {
            glob_pattern: lsp_types::GlobPattern::String(WATCHED.to_string()),
            kind: None,
        }],
    };
    lsp_types::RegistrationParams {
        registrations: vec![lsp_types::Registration {
            id: "cardgame-sheets".to_string(),
            method: "workspace/didChangeWatchedFiles".to_string(),
            register_options: serde_json::to_value(options).ok(),
        }],
    }
}

/// The sheets `doc` reads, as paths on disk (`.` and `..` taken out, so that they compare with the
/// paths the editor names).
pub fn sheets_read(doc: &Document) -> Vec<PathBuf> {
    let Some(dir) = file_path(&doc.uri).and_then(|p| p.parent().map(PathBuf::from)) else {
        return Vec::new();
    };
    doc.analysis
        .script
        .items
        .iter()
        .filter_map(|i| match i {
            Item::CardsFrom(d) => d.path.plain().map(|p| normal(&dir.join(p))),
            _ => None,
        })
        .collect()
}

/// A path with its `.` and `..` components resolved by their names alone (a deleted file has no
/// canonical path).
pub fn normal(path: &std::path::Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn a_sheets_card_hovers_with_its_row_and_goes_to_its_line() {
        let dir = std::env::temp_dir().join(format!("cardgame-lsp-sheet-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(
            dir.join("cards.tsv"),
            "name\tcopies\ttags\tcost\ttext\nCopper\t7\tTreasure\t0\t+1 coin.\nSilver\t3\tTreasure\t3\t+2 coins.\n",
        )
        .expect("sheet");
        let script = "game \"G\" { players 2 }\ntags type: Treasure\nproperty cost: int = 0\n\
                      abilities play\nzone supply: set\ncards from \"cards.tsv\" {\n  card \"Silver\" {\n    \
                      ability play { }\n  }\n}\nsetup { move cards(\"Silver\", box) to supply }\n\
                      flow { win [seat(1)] \"done\" }\n";
        let path = dir.join("g.cardgame");
        let uri = lsp_types::Uri::from_str(&format!("file://{}", path.display())).expect("a uri");
        let doc = Document::new(uri, 1, script.to_string());
        let errors: Vec<_> = doc
            .analysis
            .checked
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        let at = script.rfind("\"Silver\"").expect("a use") + 2;
        let hover = crate::lsp::hover::hover(&doc, doc.position(at)).expect("a hover");
        let lsp_types::HoverContents::Markup(m) = hover.contents else {
            panic!("markdown")
        };
        for part in [
            "**card Silver**",
            "cards.tsv",
            "line 3",
            "copies `3`",
            "cost `3`",
            "abilities: play",
            "+2 coins.",
        ] {
            assert!(m.value.contains(part), "{part} in {}", m.value);
        }
        let def = crate::lsp::navigate::definition(&doc, doc.position(at)).expect("a definition");
        assert!(def.uri.as_str().ends_with("/cards.tsv"), "{:?}", def.uri);
        assert_eq!(def.range.start, lsp_types::Position::new(2, 0));
        assert!(crate::lsp::navigate::prepare_rename(&doc, doc.position(at)).is_none());
    }

    #[test]
    fn file_uris_become_paths() {
        let uri = lsp_types::Uri::from_str("file:///tmp/my%20games/x.cardgame").expect("a uri");
        assert_eq!(
            file_path(&uri),
            Some(PathBuf::from("/tmp/my games/x.cardgame"))
        );
        let other = lsp_types::Uri::from_str("untitled:Untitled-1").expect("a uri");
        assert_eq!(file_path(&other), None);
    }
}
