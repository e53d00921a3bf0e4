//! Language server stage: one open script — its text, what the parser and checker made of it, and the
//! conversion between byte offsets (the checker's spans) and LSP positions (lines and UTF-16 columns),
//! and the path of its `file://` URI.

use cardgame_grammar::ast::{Scope, Span};
use cardgame_interpreter::check::{analyse, analyse_with, Analysis, SymbolKind};
use lsp_types::{Position, Range, TextDocumentContentChangeEvent, Uri};
use std::path::PathBuf;

/// A declared name, kept for completion while the script is half typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    pub name: String,
    pub kind: SymbolKind,
    pub scope: Option<Scope>,
}

pub struct Document {
    pub uri: Uri,
    pub version: i32,
    pub text: String,
    pub analysis: Analysis,
    /// The names declared by the last version of the script that had no syntax error, so that
    /// completion still offers a name whose declaration is being edited.
    pub known: Vec<Known>,
    /// Likewise, the names written before a `.` and whether they were a player, a card or a space.
    pub known_bases: Vec<(String, Scope)>,
    line_starts: Vec<usize>,
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

impl Document {
    pub fn new(uri: Uri, version: i32, text: String) -> Document {
        let mut doc = Document {
            uri,
            version,
            analysis: analyse(""),
            text: String::new(),
            known: Vec::new(),
            known_bases: Vec::new(),
            line_starts: vec![0],
        };
        doc.set_text(text);
        doc
    }

    /// Replace the text and check it again (with the card sheets beside the script, read again).
    pub fn set_text(&mut self, text: String) {
        self.analysis = match file_path(&self.uri) {
            Some(path) => analyse_with(&text, &crate::diagnostics::beside(&path)),
            None => analyse(&text),
        };
        self.line_starts = line_starts(&text);
        self.text = text;
        let syntax_ok = !self
            .analysis
            .checked
            .diagnostics
            .iter()
            .any(|d| d.code == "E001");
        if syntax_ok || self.known.is_empty() {
            self.known = self
                .analysis
                .symbols
                .defs
                .iter()
                .filter(|d| d.kind != SymbolKind::Local)
                .map(|d| Known {
                    name: d.name.clone(),
                    kind: d.kind,
                    scope: d.scope,
                })
                .collect();
            let mut bases: Vec<(String, Scope)> = self
                .analysis
                .symbols
                .field_bases
                .iter()
                .map(|(span, scope)| (self.slice(*span).to_string(), *scope))
                .collect();
            bases.sort_by(|a, b| a.0.cmp(&b.0));
            bases.dedup_by(|a, b| a.0 == b.0);
            self.known_bases = bases;
        }
    }

    /// Check the same text again: a sheet it reads changed on disk.
    pub fn recheck(&mut self) {
        let text = std::mem::take(&mut self.text);
        self.set_text(text);
    }

    /// Apply the changes of a `didChange` (whole texts, or ranges when a client sends them), then check.
    pub fn apply(&mut self, version: i32, changes: Vec<TextDocumentContentChangeEvent>) {
        let mut text = std::mem::take(&mut self.text);
        for change in changes {
            match change.range {
                None => text = change.text,
                Some(range) => {
                    let starts = line_starts(&text);
                    let start = offset_in(&text, &starts, range.start);
                    let end = offset_in(&text, &starts, range.end).max(start);
                    text.replace_range(start..end, &change.text);
                }
            }
        }
        self.version = version;
        self.set_text(text);
    }

    /// The byte offset of an LSP position (clamped to the line and to the text).
    pub fn offset(&self, pos: Position) -> usize {
        offset_in(&self.text, &self.line_starts, pos)
    }

    /// The LSP position of a byte offset.
    pub fn position(&self, offset: usize) -> Position {
        let offset = floor_boundary(&self.text, offset.min(self.text.len()));
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        let col: usize = self.text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, col as u32)
    }

    pub fn range(&self, span: Span) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }

    /// The text of line `line` (without its line break), and where it starts.
    pub fn line_of(&self, offset: usize) -> (usize, &str) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        self.line(line)
    }

    /// The start and text of line number `line` (from 0).
    pub fn line(&self, line: usize) -> (usize, &str) {
        let start = self
            .line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len());
        let end = self
            .line_starts
            .get(line + 1)
            .map_or(self.text.len(), |e| e - 1);
        let text = self.text.get(start..end.max(start)).unwrap_or("");
        (start, text.strip_suffix('\r').unwrap_or(text))
    }

    /// The line number of a byte offset.
    pub fn line_number(&self, offset: usize) -> usize {
        self.line_starts
            .partition_point(|&s| s <= offset.min(self.text.len()))
            - 1
    }

    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.start..span.end).unwrap_or("")
    }
}

fn floor_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

fn offset_in(text: &str, starts: &[usize], pos: Position) -> usize {
    let Some(&start) = starts.get(pos.line as usize) else {
        return text.len();
    };
    let end = starts
        .get(pos.line as usize + 1)
        .map_or(text.len(), |e| e - 1);
    let mut units = 0usize;
    for (i, c) in text[start..end].char_indices() {
        if units >= pos.character as usize {
            return start + i;
        }
        units += c.len_utf16();
    }
    end
}

/// The path of a `file://` URI (percent escapes decoded), or `None` for another scheme.
pub fn file_path(uri: &lsp_types::Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok().map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn doc(text: &str) -> Document {
        Document::new(
            Uri::from_str("file:///t.cardgame").expect("a uri"),
            1,
            text.to_string(),
        )
    }

    #[test]
    fn positions_count_utf16_units_and_round_trip() {
        let d = doc("ab\n\"é𝄞x\"\n");
        assert_eq!(d.position(0), Position::new(0, 0));
        assert_eq!(d.position(3), Position::new(1, 0));
        // é is one UTF-16 unit (2 bytes), 𝄞 two units (4 bytes).
        assert_eq!(d.position(4 + 2 + 4), Position::new(1, 4));
        for off in [0, 1, 2, 3, 4, 6, 10, 11, 12, 13] {
            assert_eq!(d.offset(d.position(off)), off, "offset {off}");
        }
        // Inside a character, past a line's end, past the text: clamped.
        assert_eq!(d.position(5), Position::new(1, 1));
        assert_eq!(d.offset(Position::new(0, 99)), 2);
        assert_eq!(d.offset(Position::new(9, 0)), d.text.len());
    }

    #[test]
    fn range_changes_apply_in_order() {
        let mut d = doc("var x: int = 1\n");
        d.apply(
            2,
            vec![TextDocumentContentChangeEvent {
                range: Some(Range::new(Position::new(0, 4), Position::new(0, 5))),
                range_length: None,
                text: "coins".into(),
            }],
        );
        assert_eq!(d.text, "var coins: int = 1\n");
        assert_eq!(d.version, 2);
    }
}
