//! Edge: a script's cards written as a card sheet (`cardgame cards FILE --format tsv|csv`), the file that
//! `cards from "FILE"` reads back (sheet.rs): one row per card, in the order the script defines them.

use crate::check::Analysis;
use crate::program::{Expr, ExprKind, KindDef, Program};
use crate::value::Value;
use cardgame_grammar::ast::{CardDecl, CardItem, Item};
use std::collections::HashMap;

/// What the script (or its sheet) writes for each card's copies and properties: `(card, column)` to the
/// text, as written (a function the checker inlined is still written as its call).
pub type Written = HashMap<(String, String), String>;

/// The text each card of a checked script writes for its `copies` and its properties: from the
/// script's cards (not families), the blocks of `cards from`, and the cells of its sheets.
pub fn written(analysis: &Analysis) -> Written {
    let text = &analysis.sources.text;
    let mut out = Written::new();
    let mut card = |c: &CardDecl| {
        let Some(name) = c.name.plain() else { return };
        if !c.family.is_empty() {
            return;
        }
        for item in &c.items {
            let (column, span) = match item {
                CardItem::Copies(e, _) => ("copies".to_string(), e.span),
                CardItem::Property(n, e, _) => (n.name.clone(), e.span),
                CardItem::Is(..)
                | CardItem::Text(..)
                | CardItem::Ability(..)
                | CardItem::Trigger(_) => continue,
            };
            if let Some(t) = text.get(span.start..span.end) {
                out.insert((name.clone(), column), t.to_string());
            }
        }
    };
    for item in &analysis.script.items {
        match item {
            Item::Card(c) => card(c),
            Item::CardsFrom(d) => d.cards.iter().for_each(&mut card),
            _ => {}
        }
    }
    for sheet in &analysis.sources.sheets {
        for row in &sheet.rows {
            for (column, cell) in sheet.columns.iter().zip(&row.cells) {
                if !cell.is_empty() && !matches!(column.as_str(), "name" | "tags" | "text") {
                    out.insert((row.name.clone(), column.clone()), cell.clone());
                }
            }
        }
    }
    out
}

/// How a sheet separates its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SheetFormat {
    /// Tabs, no quoting: a cell may hold no tab and no line break.
    Tsv,
    /// Commas, cells quoted where needed (RFC 4180).
    Csv,
}

/// The cards of `program` as a sheet: the columns `name`, `copies`, `tags`, one per property in the order
/// the script declares them, and `text`. A copy count or property written as a constant is written as
/// its value; one computed when the game is played (`7 * players`, `2 + count(...)`) as the script
/// writes it (`written`). A card of a family whose value is computed from the family's names cannot
/// be written (the names mean nothing in a sheet).
pub fn write_sheet(
    program: &Program,
    written: &Written,
    format: SheetFormat,
) -> Result<String, String> {
    let mut header = vec!["name".to_string(), "copies".into(), "tags".into()];
    header.extend(program.props.iter().map(|p| p.name.clone()));
    header.push("text".into());
    let mut rows = vec![header];
    for k in &program.kinds {
        let cell = |e: &Expr, what: &str| value_text(program, k, e, written, what);
        let mut row = vec![k.name.clone(), cell(&k.copies, "copies")?];
        let tags: Vec<&str> = k
            .tags
            .iter()
            .map(|t| program.tags[t.index()].name.as_str())
            .collect();
        row.push(tags.join(", "));
        for (p, value) in program.props.iter().zip(&k.props) {
            row.push(match value {
                Some(e) => cell(e, &p.name)?,
                None => String::new(),
            });
        }
        row.push(k.text.clone());
        rows.push(row);
    }
    let mut writer = csv::WriterBuilder::new();
    match format {
        SheetFormat::Tsv => {
            for row in &rows {
                if let Some(c) = row.iter().find(|c| c.contains(['\t', '\n', '\r'])) {
                    return Err(format!(
                        "the cell `{}` of \"{}\" holds a tab or a line break, which a TSV file cannot: write the sheet as CSV (--format csv)",
                        c.escape_debug(),
                        row[0]
                    ));
                }
            }
            writer.delimiter(b'\t').quote_style(csv::QuoteStyle::Never);
        }
        SheetFormat::Csv => {
            writer
                .delimiter(b',')
                .quote_style(csv::QuoteStyle::Necessary);
        }
    }
    let mut w = writer.from_writer(Vec::new());
    for row in &rows {
        w.write_record(row).map_err(|e| e.to_string())?;
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

/// A copy count or a property's value as a cell.
fn value_text(
    program: &Program,
    k: &KindDef,
    e: &Expr,
    written: &Written,
    what: &str,
) -> Result<String, String> {
    if let ExprKind::Const(v) = &e.kind {
        if let Some(text) = constant(program, v) {
            return Ok(text);
        }
    }
    written
        .get(&(k.name.clone(), what.to_string()))
        .cloned()
        .ok_or_else(|| {
            format!(
                "the `{what}` of \"{}\" is computed from its family's names: a sheet cannot hold it",
                k.name
            )
        })
}

/// A constant as the script writes it (`3`, `true`, `["Iron", "Wood"]`).
fn constant(program: &Program, v: &Value) -> Option<String> {
    match v {
        Value::Int(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Kind(k) => Some(quoted(&program.kinds.get(*k as usize)?.name)),
        Value::List(items) => {
            let parts: Option<Vec<String>> = items.iter().map(|i| constant(program, i)).collect();
            Some(format!("[{}]", parts?.join(", ")))
        }
        Value::None
        | Value::Player(_)
        | Value::Card(_)
        | Value::Tag(_)
        | Value::Space(_)
        | Value::Zone(_)
        | Value::Text(_) => None,
    }
}

fn quoted(name: &str) -> String {
    format!("\"{name}\"")
}
