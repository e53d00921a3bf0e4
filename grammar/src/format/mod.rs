//! Formatter stage: `cardgame fmt`, one canonical layout of a script, with its comments kept where
//! they were.
//!
//! The formatter reads the script with the project's parser ([`crate::parse`] and the pairs of its
//! pest grammar: never a second parser), takes the tokens in their order and writes them again with
//! canonical whitespace between them ([`layout`]). Comments, which are not in the tree, are read from
//! the text between two tokens, as rustfmt does. Before a result is returned it is parsed again and
//! must give the same tree (the same rules, nesting and tokens) and the same comments: the formatter
//! never changes what a script means, and a layout that would is an error, not a new text.

mod layout;
#[cfg(test)]
mod tests;
mod tokens;

use crate::SyntaxError;

/// Why a script was not formatted.
#[derive(Debug)]
pub enum FormatError {
    /// The script does not parse: its syntax errors (the script is left as it is).
    Syntax(Vec<SyntaxError>),
    /// The formatter could not lay the script out without changing it (a bug of the formatter).
    Internal(String),
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::Syntax(errors) => write!(f, "the script has {} syntax error(s)", errors.len()),
            FormatError::Internal(what) => write!(
                f,
                "the formatter could not lay this script out without changing it ({what}); this is a \
                 bug of the formatter, please report the script"
            ),
        }
    }
}

impl std::error::Error for FormatError {}

/// Formats a script: the canonical text (equal to `source` when it is already formatted).
///
/// A script that does not parse gives its syntax errors. Never panics.
pub fn format(source: &str) -> Result<String, FormatError> {
    let before = tokens::tokens(source).map_err(FormatError::Syntax)?;
    let out = layout::layout(source, &before.toks)
        .ok_or_else(|| FormatError::Internal("text between two tokens".into()))?;
    verify(source, &before, &out)?;
    Ok(out)
}

/// Checks that `out` parses to the same tree as `source` (read as `before`) with the same comments.
fn verify(source: &str, before: &tokens::Tokens, out: &str) -> Result<(), FormatError> {
    let after = tokens::tokens(out).map_err(|errors| {
        FormatError::Internal(format!(
            "the result does not parse: {}",
            errors.first().map_or("", |e| e.message.as_str())
        ))
    })?;
    if after.shape != before.shape {
        return Err(FormatError::Internal(
            "the result parses to another tree".into(),
        ));
    }
    if comments(source, &before.toks) != comments(out, &after.toks) {
        return Err(FormatError::Internal(
            "a comment was lost or changed".into(),
        ));
    }
    Ok(())
}

/// The byte ranges of the tokens of a script that parses (keywords, names, numbers, operators,
/// brackets, whole texts), in order: what lies between two of them is whitespace and comments. For
/// tools (an editor's highlighting) and tests.
pub fn token_spans(source: &str) -> Result<Vec<std::ops::Range<usize>>, Vec<SyntaxError>> {
    let t = tokens::tokens(source)?;
    Ok(t.toks.iter().map(|t| t.start..t.end).collect())
}

/// The comments of a script, in order, without trailing whitespace.
fn comments(source: &str, toks: &[tokens::Tok]) -> Vec<String> {
    let mut found = Vec::new();
    let mut from = 0;
    let bounds = toks
        .iter()
        .map(|t| (t.start, t.end))
        .chain(std::iter::once((source.len(), source.len())));
    for (start, end) in bounds {
        let text = source.get(from..start).unwrap_or("");
        for line in text.split('\n') {
            if let Some(at) = line.find("//") {
                found.push(line[at..].trim_end().to_string());
            }
        }
        from = end;
    }
    found
}
