//! Sources stage: the card sheets a script reads (`cards from "FILE"`), read through the file reader the
//! edge gives, and turned into card definitions whose spans point into the sheet's text.
//!
//! A sheet is a CSV or TSV file beside the script: a header row naming the columns (`name`, `copies`,
//! `tags`, `text` and one column per property), then one row per card. The checker sees one text, the
//! script followed by each sheet ([`Sources::text`]), so that every span, in the script or in a sheet, is
//! a place in that text; [`Sources::locate`] says which file a span is in and where. The loader never
//! opens a file itself: the command line, the language server and `serve` hand it a [`ReadFile`] that
//! reads beside the script (docs/language.md, "Cards from a sheet").

use crate::diag::{did_you_mean, Diagnostic};
use cardgame_grammar::ast::{self, CardDecl, CardItem, Ident, Item, Span, Text, TextPart};
use std::collections::HashMap;

/// Reads a file named as a script writes it (relative to the script's folder): its text, or why not.
pub type ReadFile<'a> = &'a dyn Fn(&str) -> Result<String, String>;

/// The reader of a tool that has no folder to read from (a script given as text).
pub fn no_files(path: &str) -> Result<String, String> {
    Err(format!(
        "`{path}` is not read here: only a script read from a file can read a sheet beside it"
    ))
}

/// The columns every sheet may have besides the properties.
pub const COLUMNS: &[&str] = &["name", "copies", "tags", "text"];

/// What separates the tags in a sheet's `tags` cell (as on a card's `is` line).
pub const TAG_SEPARATOR: char = ',';

/// A script's text followed by the text of each sheet it reads: the text every span counts in.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    pub text: String,
    /// The script is `text[..script_len]`.
    pub script_len: usize,
    pub sheets: Vec<Sheet>,
}

/// One sheet as read: where its text is, its columns and its cards' rows.
#[derive(Clone, Debug)]
pub struct Sheet {
    /// The path as the script writes it (relative to the script's folder).
    pub path: String,
    /// Where the sheet's text starts and ends in [`Sources::text`].
    pub start: usize,
    pub end: usize,
    /// The header's column names.
    pub columns: Vec<String>,
    pub rows: Vec<SheetRow>,
}

/// One card of a sheet: its name, the cells of its row as written (one per column) and the name's span.
#[derive(Clone, Debug)]
pub struct SheetRow {
    pub name: String,
    pub cells: Vec<String>,
    pub span: Span,
}

impl Sources {
    /// A script that reads no sheet (yet).
    pub fn new(script: &str) -> Self {
        Sources {
            text: script.to_string(),
            script_len: script.len(),
            sheets: Vec::new(),
        }
    }

    pub fn script(&self) -> &str {
        &self.text[..self.script_len]
    }

    /// The sheet a span is in (`None`: the script), that file's text, and the span counted in it.
    pub fn locate(&self, span: Span) -> (Option<&Sheet>, &str, Span) {
        for s in &self.sheets {
            if span.start >= s.start && span.start <= s.end {
                let local = Span::new(span.start - s.start, span.end.min(s.end) - s.start);
                return (Some(s), &self.text[s.start..s.end], local);
            }
        }
        (None, self.script(), span)
    }

    /// The sheet's row of the card `name`, with its sheet.
    pub fn row(&self, name: &str) -> Option<(&Sheet, &SheetRow)> {
        self.sheets
            .iter()
            .find_map(|s| s.rows.iter().find(|r| r.name == name).map(|r| (s, r)))
    }
}

/// E317: a sheet that cannot be used at all.
fn unusable(span: Span, message: String, help: &str) -> Diagnostic {
    Diagnostic::error("E317", span, message)
        .label("card sheet")
        .help(help)
}

/// Reads the sheet of each `cards from` item of `script` through `read`, appends its text to `sources`
/// and puts the cards it lists into the script (as `card` items after the `cards from`), with the items
/// the script's `card "Name" { ... }` blocks add. Returns the diagnostics of the sheets, and whether
/// every sheet could be read.
pub fn attach(
    script: &mut ast::Script,
    sources: &mut Sources,
    read: ReadFile,
) -> (Vec<Diagnostic>, bool) {
    let mut diags = Vec::new();
    let mut all_read = true;
    let mut items = Vec::with_capacity(script.items.len());
    for item in std::mem::take(&mut script.items) {
        let Item::CardsFrom(decl) = &item else {
            items.push(item);
            continue;
        };
        let cards = load(decl, sources, read, &mut diags);
        all_read &= cards.is_some();
        items.push(item.clone());
        items.extend(cards.unwrap_or_default().into_iter().map(Item::Card));
    }
    script.items = items;
    (diags, all_read)
}

/// The cards of one `cards from` item, or `None` when its sheet cannot be read.
fn load(
    decl: &ast::CardsFromDecl,
    sources: &mut Sources,
    read: ReadFile,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<CardDecl>> {
    let at = decl.path.span;
    let Some(path) = decl.path.plain() else {
        diags.push(unusable(
            at,
            "a card sheet's path is plain text".into(),
            "write the file's name, as in `cards from \"cards.tsv\"`",
        ));
        return None;
    };
    let tabs = if path.ends_with(".tsv") {
        true
    } else if path.ends_with(".csv") {
        false
    } else {
        diags.push(unusable(
            at,
            format!("`{path}` is not a .csv or .tsv file"),
            "a card sheet is a CSV file (`.csv`, cells separated by commas) or a TSV file (`.tsv`, by tabs)",
        ));
        return None;
    };
    let text = match read(&path) {
        Ok(text) => text,
        Err(e) => {
            diags.push(unusable(
                at,
                format!("the card sheet `{path}` cannot be read: {e}"),
                "the path is relative to the script's folder; check the file's name",
            ));
            return None;
        }
    };
    sources.text.push('\n');
    let start = sources.text.len();
    sources.text.push_str(&text);
    let mut sheet = Sheet {
        path: path.clone(),
        start,
        end: sources.text.len(),
        columns: Vec::new(),
        rows: Vec::new(),
    };
    let cards = rows(&text, start, tabs, &mut sheet, diags);
    let cards = merge(decl, &path, cards, diags);
    sources.sheets.push(sheet);
    Some(cards)
}

/// The cells of a record with their spans in the whole text: the raw cells are found from the record's
/// start, each one quoted (`"..."`, a quote doubled inside) or not, then one separator.
fn cells(record: &csv::StringRecord, at: usize, raw: &str, quoting: bool) -> Vec<(String, Span)> {
    let mut cursor = at;
    let mut out = Vec::with_capacity(record.len());
    for cell in record.iter() {
        let quoted = quoting && raw.get(cursor - at..).is_some_and(|r| r.starts_with('"'));
        let (from, len) = if quoted {
            (cursor + 1, 2 + cell.len() + cell.matches('"').count())
        } else {
            (cursor, cell.len())
        };
        let lead = cell.len() - cell.trim_start().len();
        let trimmed = cell.trim();
        out.push((
            trimmed.to_string(),
            Span::new(from + lead, from + lead + trimmed.len()),
        ));
        cursor += len + 1;
    }
    out
}

/// What a column of the sheet gives.
enum Column {
    Name,
    Copies,
    Tags,
    Text,
    Property(Ident),
}

/// The sheet's rows as cards (without the script's blocks yet).
fn rows(
    text: &str,
    start: usize,
    tabs: bool,
    sheet: &mut Sheet,
    diags: &mut Vec<Diagnostic>,
) -> Vec<CardDecl> {
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let body = &text[bom..];
    let base = start + bom;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(if tabs { b'\t' } else { b',' })
        .quoting(!tabs)
        .from_reader(body.as_bytes());
    let whole = Span::new(start, start + text.len());
    let mut record = csv::StringRecord::new();
    let mut columns: Vec<Column> = Vec::new();
    let mut name_column = None;
    let mut cards = Vec::new();
    loop {
        let at = reader.position().byte() as usize;
        match reader.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                let pos = e.position().map_or(at, |p| p.byte() as usize);
                let span = Span::new(base + pos, base + pos);
                diags.push(unusable(
                    span,
                    format!(
                        "`{}` is not a {} file: {e}",
                        sheet.path,
                        if tabs { "TSV" } else { "CSV" }
                    ),
                    "save the sheet as UTF-8 text with one card per line",
                ));
                break;
            }
        }
        let row = cells(&record, base + at, &body[at..], !tabs);
        if row.iter().all(|(c, _)| c.is_empty()) {
            continue;
        }
        if sheet.columns.is_empty() {
            header(&row, &mut columns, &mut name_column, sheet, diags);
            if name_column.is_none() {
                diags.push(unusable(
                    row.first().map_or(whole, |(_, s)| *s),
                    format!("the card sheet `{}` has no `name` column", sheet.path),
                    "the first row names the columns: name, copies, tags, text and the properties",
                ));
                return Vec::new();
            }
            continue;
        }
        cards.extend(card(&row, &columns, name_column, sheet, diags));
    }
    if sheet.columns.is_empty() {
        diags.push(unusable(
            whole,
            format!("the card sheet `{}` is empty", sheet.path),
            "the first row names the columns: name, copies, tags, text and the properties",
        ));
    }
    cards
}

/// Reads the header row: the columns by name (E101 for a column named twice).
fn header(
    row: &[(String, Span)],
    columns: &mut Vec<Column>,
    name_column: &mut Option<usize>,
    sheet: &mut Sheet,
    diags: &mut Vec<Diagnostic>,
) {
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for (i, (name, span)) in row.iter().enumerate() {
        if let Some(first) = seen.insert(name, *span) {
            diags.push(
                Diagnostic::error("E101", *span, format!("the column `{name}` is given twice"))
                    .label("second column")
                    .help("give each column once; remove one of the two")
                    .related(first, "first column"),
            );
        }
        columns.push(match name.as_str() {
            "name" => {
                name_column.get_or_insert(i);
                Column::Name
            }
            "copies" => Column::Copies,
            "tags" => Column::Tags,
            "text" => Column::Text,
            _ => Column::Property(Ident {
                name: name.clone(),
                span: *span,
            }),
        });
        sheet.columns.push(name.clone());
    }
}

/// One row as a card; `None` for a row without a name.
fn card(
    row: &[(String, Span)],
    columns: &[Column],
    name_column: Option<usize>,
    sheet: &mut Sheet,
    diags: &mut Vec<Diagnostic>,
) -> Option<CardDecl> {
    let first = row.first().map(|(_, s)| *s)?;
    let last = row
        .iter()
        .rev()
        .find(|(c, _)| !c.is_empty())
        .map_or(first, |(_, s)| *s);
    let row_span = Span::new(first.start, last.end);
    let (name, name_span) = name_column
        .and_then(|i| row.get(i))
        .filter(|(n, _)| !n.is_empty())
        .cloned()
        .or_else(|| {
            diags.push(unusable(
                row_span,
                format!("a row of the card sheet `{}` has no name", sheet.path),
                "every row is a card: give it a name in the `name` column",
            ));
            None
        })?;
    let plain = |text: &str, span: Span| Text {
        parts: vec![TextPart::Lit(text.to_string())],
        span,
    };
    let mut items = Vec::new();
    for ((cell, span), column) in row.iter().zip(columns) {
        if cell.is_empty() {
            continue;
        }
        let span = *span;
        match column {
            Column::Name => {}
            Column::Text => items.push(CardItem::Text(plain(cell, span), span)),
            Column::Tags => {
                let mut tags = Vec::new();
                let mut offset = span.start;
                for piece in cell.split(TAG_SEPARATOR) {
                    let lead = piece.len() - piece.trim_start().len();
                    let tag = piece.trim();
                    if !tag.is_empty() {
                        let from = offset + lead;
                        tags.push(Ident {
                            name: tag.to_string(),
                            span: Span::new(from, from + tag.len()),
                        });
                    }
                    offset += piece.len() + TAG_SEPARATOR.len_utf8();
                }
                items.push(CardItem::Is(tags, span));
            }
            Column::Copies => match cardgame_grammar::parse_cell(cell, span.start) {
                Ok(e) => items.push(CardItem::Copies(e, span)),
                Err(e) => diags.extend(crate::diag::syntax_diagnostics(&[e])),
            },
            Column::Property(p) => match cardgame_grammar::parse_cell(cell, span.start) {
                Ok(e) => items.push(CardItem::Property(p.clone(), e, span)),
                Err(e) => diags.extend(crate::diag::syntax_diagnostics(&[e])),
            },
        }
    }
    sheet.rows.push(SheetRow {
        name: name.clone(),
        cells: row.iter().map(|(c, _)| c.clone()).collect(),
        span: name_span,
    });
    Some(CardDecl {
        name: plain(&name, name_span),
        family: Vec::new(),
        items,
        span: row_span,
    })
}

/// Adds the items of the script's `card "Name" { ... }` blocks to the sheet's cards of those names (E103
/// for a block whose card the sheet does not have, E101 for a second block of one card).
fn merge(
    decl: &ast::CardsFromDecl,
    path: &str,
    mut cards: Vec<CardDecl>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<CardDecl> {
    let index: HashMap<String, usize> = cards
        .iter()
        .enumerate()
        .rev()
        .map(|(i, c)| (c.name.plain().unwrap_or_default(), i))
        .collect();
    let mut given: HashMap<String, Span> = HashMap::new();
    for block in &decl.cards {
        let Some(name) = block.name.plain() else {
            diags.push(
                Diagnostic::error("E103", block.name.span, "a card's name is plain text")
                    .label("not a card name")
                    .help("write the card's name as the sheet's `name` column gives it"),
            );
            continue;
        };
        let Some(&i) = index.get(&name) else {
            let help = did_you_mean(&name, index.keys().map(String::as_str)).unwrap_or_else(|| {
                format!("the card is not a row of `{path}`: add it there, or define it with `card` outside `cards from`")
            });
            diags.push(
                Diagnostic::error(
                    "E103",
                    block.name.span,
                    format!("no card of the sheet `{path}` is named \"{name}\""),
                )
                .label("unknown card")
                .help(help),
            );
            continue;
        };
        if let Some(first) = given.insert(name.clone(), block.name.span) {
            diags.push(
                Diagnostic::error(
                    "E101",
                    block.name.span,
                    format!("\"{name}\" is given twice in `cards from`"),
                )
                .label("second block")
                .help("write everything the script adds to a card in one block")
                .related(first, "first block"),
            );
            continue;
        }
        cards[i].items.extend(block.items.iter().cloned());
    }
    cards
}
