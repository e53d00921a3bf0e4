//! Language server stage: document formatting with `cardgame fmt`'s formatter (one edit that replaces the
//! whole text by its canonical layout).

use super::document::Document;
use cardgame_grammar::format::{format, FormatError};
use lsp_types::{Range, TextEdit};

/// The edits that format the document (none when it is formatted), or why it cannot be formatted.
pub fn formatting(doc: &Document) -> Result<Vec<TextEdit>, String> {
    match format(&doc.text) {
        Ok(text) if text == doc.text => Ok(vec![]),
        Ok(text) => Ok(vec![TextEdit::new(
            Range::new(doc.position(0), doc.position(doc.text.len())),
            text,
        )]),
        Err(FormatError::Syntax(errors)) => Err(format!(
            "not formatted: the script does not parse ({} syntax error{})",
            errors.len(),
            if errors.len() == 1 { "" } else { "s" }
        )),
        Err(e) => Err(format!("not formatted: {e}")),
    }
}
