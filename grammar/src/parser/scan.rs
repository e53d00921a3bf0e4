//! Grammar stage: scanning the raw text around items (trivia, bracket nesting, recovery points)
//! without the grammar.

use super::error::{did_you_mean, SyntaxError};
use super::*;

// ───────────────────────────── scanning ─────────────────────────────

/// Skips whitespace and `//` comments from `pos`.
pub(super) fn skip_trivia(src: &str, mut pos: usize) -> usize {
    let b = src.as_bytes();
    while let Some(&c) = b.get(pos) {
        match c {
            b' ' | b'\t' | b'\r' | b'\n' => pos += 1,
            b'/' if b.get(pos + 1) == Some(&b'/') => {
                while let Some(&c) = b.get(pos) {
                    if c == b'\n' {
                        break;
                    }
                    pos += 1;
                }
            }
            _ => break,
        }
    }
    pos
}

/// Checks that brackets (and text interpolations) are not nested more than [`MAX_NESTING`]
/// levels deep, before the recursive parser sees the text.
pub(super) fn check_nesting(src: &str) -> Option<SyntaxError> {
    let b = src.as_bytes();
    // b'(' b'[' b'{' for brackets, b'"' for a text, b'i' for an interpolation in a text.
    let mut stack: Vec<u8> = Vec::new();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        let next = b.get(i + 1).copied();
        if stack.last() == Some(&b'"') {
            match c {
                b'\\' => i += 1,
                b'"' | b'\n' => {
                    stack.pop();
                }
                b'{' if next == Some(b'{') => i += 1,
                b'}' if next == Some(b'}') => i += 1,
                b'{' => stack.push(b'i'),
                _ => {}
            }
        } else {
            match c {
                b'/' if next == Some(b'/') => {
                    while let Some(&c) = b.get(i + 1) {
                        if c == b'\n' {
                            break;
                        }
                        i += 1;
                    }
                }
                b'"' => stack.push(b'"'),
                b'(' | b'[' | b'{' => stack.push(c),
                b')' | b']' | b'}' => {
                    stack.pop();
                }
                _ => {}
            }
        }
        if stack.len() > MAX_NESTING {
            return Some(SyntaxError::new(
                SyntaxError::TOO_DEEP,
                format!("this is nested too deeply (more than {MAX_NESTING} levels of brackets)"),
                Span::new(i, (i + 1).min(src.len())),
                "too deep",
                Some(
                    "give inner parts a name with `let`, or move them into a `fn` or a `proc`"
                        .to_string(),
                ),
            ));
        }
        i += 1;
    }
    None
}

/// The innermost bracket opened at or after `from` and never closed (strings and comments skipped).
pub(super) fn unclosed_bracket(src: &str, from: usize) -> Option<(usize, char)> {
    let b = src.as_bytes();
    let mut stack: Vec<(usize, u8)> = Vec::new();
    let mut i = from;
    let mut in_text = false;
    while let Some(&c) = b.get(i) {
        if in_text {
            match c {
                b'\\' => i += 1,
                b'"' | b'\n' => in_text = false,
                _ => {}
            }
        } else {
            match c {
                b'/' if b.get(i + 1) == Some(&b'/') => {
                    while b.get(i + 1).is_some_and(|&c| c != b'\n') {
                        i += 1;
                    }
                }
                b'"' => in_text = true,
                b'(' | b'[' | b'{' => stack.push((i, c)),
                b')' | b']' | b'}' => {
                    stack.pop();
                }
                _ => {}
            }
        }
        i += 1;
    }
    stack.last().map(|&(at, c)| (at, char::from(c)))
}

/// The byte column of `pos` on its line.
pub(super) fn column(src: &str, pos: usize) -> usize {
    let line_start = src
        .get(..pos)
        .and_then(|s| s.rfind('\n').map(|n| n + 1))
        .unwrap_or(0);
    pos - line_start
}

/// The name-shaped word starting at `pos`, if any.
pub(super) fn word_at(src: &str, pos: usize) -> Option<&str> {
    let rest = src.get(pos..)?;
    let first = rest.chars().next()?;
    if !(first.is_ascii_alphabetic() || first == '_') {
        return None;
    }
    let len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    rest.get(..len)
}

/// Where to go on after a bad item that starts at `item_pos` and fails at `err_pos`: the first
/// line at or after the error that starts with a top-level keyword, preferring lines indented no
/// more than the bad item (so that a trigger inside a broken card is not taken for an item); at
/// that indentation a misspelled keyword (`crad`) also starts an item, to be reported in turn.
pub(super) fn recovery_point(src: &str, item_pos: usize, err_pos: usize) -> Option<usize> {
    let indent = column(src, item_pos);
    for strict_indent in [true, false] {
        let mut line_start = src.get(item_pos..)?.find('\n').map(|n| item_pos + n + 1);
        while let Some(start) = line_start {
            if start >= src.len() {
                break;
            }
            let rest = src.get(start..)?;
            let first = start + (rest.len() - rest.trim_start_matches([' ', '\t']).len());
            if first >= err_pos
                && first > item_pos
                && (!strict_indent || first - start <= indent)
                && word_at(src, first).is_some_and(|w| {
                    TOP_LEVEL_KEYWORDS.contains(&w)
                        || (strict_indent && did_you_mean(w, TOP_LEVEL_KEYWORDS).is_some())
                })
            {
                return Some(first);
            }
            line_start = rest.find('\n').map(|n| start + n + 1);
        }
    }
    None
}
