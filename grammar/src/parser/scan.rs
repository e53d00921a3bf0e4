//! Grammar stage: scanning the raw text around items (trivia, brackets, columns, words) without the
//! grammar.

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
