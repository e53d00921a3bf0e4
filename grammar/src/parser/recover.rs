//! Grammar stage: recovery after a syntax error, from the layout of the lines alone: a `{` that is
//! never closed (found from the indentation of the lines after it), and the repairs that let the
//! parser go on inside a broken item; where the parser goes on after a bad item; and the check that
//! brackets are not nested too deep for the recursive parser.
//!
//! Every repair replaces bytes of the parser's working copy of the source without moving any other
//! byte (a blank becomes `}`, a broken statement becomes blanks, a broken value becomes `none`), so
//! that every span of the tree built from the copy is a span of the original source.

use super::error::{did_you_mean, SyntaxError};
use super::scan::{column, word_at};
use super::*;

/// An opening bracket met while scanning, with the indentation of its line.
#[derive(Clone, Copy)]
struct Open {
    at: usize,
    byte: u8,
    indent: usize,
}

/// Brackets left open in an item, as the layout shows them.
pub(super) struct Unclosed {
    /// The brackets never closed, outermost first: (offset, `{`, `(` or `[`).
    opens: Vec<(usize, u8)>,
    /// The end of the last token before the place where they should have been closed.
    after: usize,
    /// The start of the line where the layout shows they are closed no more.
    before: usize,
    /// What is on that line.
    reason: Reason,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Reason {
    /// The next item starts.
    NextItem,
    /// A `}` indented as an outer `{` (it closes that one).
    Dedent,
    /// A line indented no more than the line of the bracket.
    Outdent,
    /// The end of the file.
    End,
}

impl Unclosed {
    /// Whether a `{` is among the brackets never closed.
    pub(super) fn has_brace(&self) -> bool {
        self.opens.iter().any(|o| o.1 == b'{')
    }

    /// Whether an error at `at` stands where the layout shows the brackets closed no more (at the
    /// next item or the end of the file), so that it says only that they were never closed.
    pub(super) fn closes_by(&self, at: usize) -> bool {
        matches!(self.reason, Reason::NextItem | Reason::End) && at >= self.before
    }

    /// Where the first bracket never closed was opened.
    pub(super) fn first_open(&self) -> usize {
        self.opens.first().map_or(usize::MAX, |o| o.0)
    }
}

fn closer(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    }
}

/// The first place in the item at `item_pos` where the layout shows a bracket that is never closed:
/// a line that starts the next item, a `}` indented as an outer `{`, a line indented no more than
/// the line of an open `{` (when the item's lines are indented at all), or the end of the file.
/// `None` when the brackets of the item are closed before the next item starts.
pub(super) fn find_unclosed(src: &str, item_pos: usize) -> Option<Unclosed> {
    let b = src.as_bytes();
    let item_indent = column(src, item_pos);
    // Whether the item's second line is indented deeper than its first: only then is a line
    // indented no more than an open `{` taken as a sign that it was not closed.
    let indented = {
        let next_line = src.get(item_pos..)?.find('\n').map(|n| item_pos + n + 1);
        next_line.is_some_and(|start| {
            let rest = src.get(start..).unwrap_or("");
            let first = rest.len() - rest.trim_start().len();
            let at = start + first;
            at < src.len() && column(src, at) > item_indent
        })
    };
    let mut stack: Vec<Open> = Vec::new();
    let mut line_indent = item_indent;
    let mut at_line_start = false;
    let mut last_token_end = item_pos;
    let mut i = item_pos;
    while let Some(&c) = b.get(i) {
        let next = b.get(i + 1).copied();
        let top = stack.last().map(|o| o.byte);
        if c == b'\n' {
            // A text never spans lines: an open text (and its interpolations) ends here.
            while matches!(stack.last().map(|o| o.byte), Some(b'"' | b'i')) {
                stack.pop();
            }
            at_line_start = true;
            i += 1;
            continue;
        }
        if top == Some(b'"') {
            match c {
                b'\\' => i += 1,
                b'"' => {
                    stack.pop();
                }
                b'{' if next == Some(b'{') => i += 1,
                b'}' if next == Some(b'}') => i += 1,
                b'{' => stack.push(Open {
                    at: i,
                    byte: b'i',
                    indent: line_indent,
                }),
                _ => {}
            }
            i += 1;
            last_token_end = i;
            continue;
        }
        if matches!(c, b' ' | b'\t' | b'\r') {
            i += 1;
            continue;
        }
        if c == b'/' && next == Some(b'/') {
            while b.get(i).is_some_and(|&c| c != b'\n') {
                i += 1;
            }
            continue;
        }
        if at_line_start {
            at_line_start = false;
            line_indent = column(src, i);
            let word = word_at(src, i);
            let starts_item =
                word.is_some_and(|w| TOP_LEVEL_KEYWORDS.contains(&w)) && line_indent <= item_indent;
            if stack.is_empty() {
                if starts_item {
                    return None;
                }
            } else {
                let found = |from: usize, reason| {
                    Some(Unclosed {
                        opens: stack[from..].iter().map(|o| (o.at, o.byte)).collect(),
                        after: last_token_end,
                        before: line_start(src, i),
                        reason,
                    })
                };
                if starts_item && (indented || word != Some("on")) {
                    return found(0, Reason::NextItem);
                }
                if indented && c == b'}' {
                    // The `}` closes the innermost `{` indented as it is; those inside are open.
                    if let Some(j) = stack
                        .iter()
                        .rposition(|o| o.byte == b'{' && o.indent <= line_indent)
                    {
                        if j + 1 < stack.len() && stack[j].indent == line_indent {
                            return found(j + 1, Reason::Dedent);
                        }
                    }
                } else if indented && word.is_some() {
                    if let Some(j) = stack.iter().position(|o| o.indent >= line_indent) {
                        return found(j, Reason::Outdent);
                    }
                }
            }
        }
        match c {
            b'"' => stack.push(Open {
                at: i,
                byte: b'"',
                indent: line_indent,
            }),
            b'(' | b'[' | b'{' => stack.push(Open {
                at: i,
                byte: c,
                indent: line_indent,
            }),
            b')' | b']' | b'}' => {
                if c == b'}' && top == Some(b'i') {
                    stack.pop();
                } else if let Some(j) = stack.iter().rposition(|o| closer(o.byte) == c) {
                    stack.truncate(j);
                }
            }
            _ => {}
        }
        i += 1;
        last_token_end = i;
    }
    while matches!(stack.last().map(|o| o.byte), Some(b'"' | b'i')) {
        stack.pop();
    }
    if stack.is_empty() {
        return None;
    }
    Some(Unclosed {
        opens: stack.iter().map(|o| (o.at, o.byte)).collect(),
        after: last_token_end,
        before: src.len(),
        reason: Reason::End,
    })
}

fn line_start(src: &str, pos: usize) -> usize {
    src.get(..pos)
        .and_then(|s| s.rfind('\n').map(|n| n + 1))
        .unwrap_or(0)
}

fn line_of(src: &str, pos: usize) -> usize {
    src.get(..pos).map_or(0, |s| s.matches('\n').count()) + 1
}

/// Closes the brackets of `u` in `work`, writing the closing brackets over blanks between the last
/// token and the line where they belong. Returns false when there is no room to write them
/// without moving text (the item is then skipped, as after any other error).
pub(super) fn close_brackets(work: &mut String, u: &Unclosed) -> bool {
    let closers: Vec<u8> = u.opens.iter().rev().map(|o| closer(o.1)).collect();
    let b = work.as_bytes();
    let mut slots = Vec::new();
    let mut i = u.after;
    while i < u.before.min(b.len()) {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                // A comment, and the line break that ends it, stay as they are.
                while b.get(i).is_some_and(|&c| c != b'\n') {
                    i += 1;
                }
            }
            b' ' | b'\t' | b'\n' => slots.push(i),
            _ => {}
        }
        i += 1;
    }
    // Blanks on a line before line breaks, so that the lines stay where they are.
    slots.sort_by_key(|&at| b[at] == b'\n');
    if slots.len() < closers.len() {
        return false;
    }
    let mut bytes = work.clone().into_bytes();
    for (&at, &c) in slots.iter().zip(&closers) {
        bytes[at] = c;
    }
    // Only ASCII blanks were replaced by ASCII brackets: still UTF-8.
    match String::from_utf8(bytes) {
        Ok(s) => {
            *work = s;
            true
        }
        Err(_) => false,
    }
}

/// The errors that say which brackets are never closed, innermost first (`src` is the source as
/// written, whose lines the messages count).
pub(super) fn unclosed_errors(src: &str, u: &Unclosed) -> Vec<SyntaxError> {
    let where_ = match u.reason {
        Reason::End => "at the end of the file".to_string(),
        _ => format!("before line {}", line_of(src, u.before)),
    };
    let why = match u.reason {
        Reason::NextItem => {
            let word = word_at(src, skip_trivia(src, u.before)).unwrap_or("");
            format!(", where `{word}` starts the next item")
        }
        Reason::Dedent => {
            ", where a `}` indented as an outer `{` closes that one (the indentation shows which `{` each `}` closes)".to_string()
        }
        Reason::Outdent => ", where a line is indented no deeper than this one (the indentation shows where a block ends)".to_string(),
        Reason::End => String::new(),
    };
    u.opens
        .iter()
        .rev()
        .map(|&(at, byte)| {
            let open = char::from(byte);
            let close = char::from(closer(byte));
            let before: String = src
                .get(line_start(src, at)..at)
                .unwrap_or("")
                .trim()
                .chars()
                .collect();
            let after = if !before.is_empty() && before.chars().count() <= 40 {
                format!(" after `{before}`")
            } else {
                String::new()
            };
            SyntaxError::new(
                SyntaxError::UNCLOSED,
                format!(
                    "the `{open}`{after} on line {} is never closed",
                    line_of(src, at)
                ),
                Span::new(at, at + 1),
                "opened here, never closed",
                Some(format!("add `{close}` {where_}{why}")),
            )
        })
        .collect()
}

/// What replaces a broken part of an item so that the rest can be parsed.
pub(super) enum Patch {
    /// Blanks: a statement or a line of a card that is dropped.
    Blank(usize, usize),
    /// `none` and blanks: a value that is dropped but whose place stays (a `let`, a function's
    /// result), so that its name or its function stays known with a type that fits anything.
    NoneValue(usize, usize),
    /// A closing bracket written over a blank.
    Close(usize, u8),
}

/// The patch that drops the line of `err_pos` inside a block of the item at `item_pos`: the line
/// from its first token to its end (or to where the brackets opened on it are closed). `None`
/// when the error is on the item's first line, outside a `{ }` block, or on a line that closes
/// a block.
pub(super) fn drop_line(src: &str, item_pos: usize, err_pos: usize) -> Option<Patch> {
    // An error at the first token of a line after a line that cannot end there (`cost 3 +`,
    // `move c to`) is the previous line's.
    let ls = line_start(src, err_pos.min(src.len()));
    // The error is a dangling operator or comma that ends its line (`players 2..4 +`): only it goes.
    let line_end = src
        .get(err_pos..)
        .and_then(|r| r.find('\n'))
        .map_or(src.len(), |n| err_pos + n);
    let rest = strip_comment(src.get(err_pos..line_end).unwrap_or("")).trim_end();
    if rest.len() == 1 && rest.starts_with(['+', '-', '*', '/', '%', ',']) && err_pos > item_pos {
        return Some(Patch::Blank(err_pos, err_pos + 1));
    }
    if ls > item_pos {
        let prev = previous_line_end(src, ls);
        if prev > item_pos && ends_unfinished(src, prev) {
            // A dangling operator or comma (`cost 3 +`): only it goes.
            let op = src
                .get(..prev)
                .unwrap_or("")
                .trim_end_matches(['+', '-', '*', '/', '%', ','])
                .len();
            if op < prev && src.get(op..prev).is_some_and(|o| o.len() == 1) {
                return Some(Patch::Blank(op, prev));
            }
            return drop_line_at(src, item_pos, prev);
        }
    }
    drop_line_at(src, item_pos, err_pos)
}

/// The patch that drops the line where the brackets of `u` were opened, when they are not `{`
/// (a `(` never closed is better left out with its line than closed at a guess).
pub(super) fn drop_unclosed_line(src: &str, item_pos: usize, u: &Unclosed) -> Option<Patch> {
    if u.opens.iter().any(|o| o.1 == b'{') {
        return None;
    }
    let open = u.first_open();
    // The line only: its brackets never close, so its end is the end of the line.
    let line_end = src.get(open..)?.find('\n').map_or(src.len(), |n| open + n);
    let line_end = line_start(src, open)
        + strip_comment(src.get(line_start(src, open)..line_end)?)
            .trim_end()
            .len();
    let line = src.get(open..line_end)?;
    if let Some(brace) = line.rfind('{') {
        // `if any(c in L where C {`: the `)` belongs before the block's `{` (when one is missing and
        // a blank is there to hold it); the line cannot be dropped without its `{`.
        let at = open + brace;
        return (u.opens.len() == 1 && at > open + 1 && src.as_bytes().get(at - 1) == Some(&b' '))
            .then(|| Patch::Close(at - 1, closer(u.opens[0].1)));
    }
    match drop_line_at(src, item_pos, open)? {
        Patch::Blank(s, e) => Some(Patch::Blank(s, e.min(line_end))),
        Patch::NoneValue(s, e) => Some(Patch::NoneValue(s, e.min(line_end))),
        close @ Patch::Close(..) => Some(close),
    }
}

/// The end of the last token before `pos` that is not in a comment (lines that hold only a
/// comment or nothing are passed over).
fn previous_line_end(src: &str, pos: usize) -> usize {
    let mut end = pos;
    while end > 0 {
        let start = line_start(src, end - 1);
        let line = src.get(start..end).unwrap_or("");
        let code = strip_comment(line).trim_end();
        if !code.trim().is_empty() {
            return start + code.len();
        }
        end = start;
    }
    0
}

/// A line without its `//` comment (texts respected).
fn strip_comment(line: &str) -> &str {
    let b = line.as_bytes();
    let mut in_text = false;
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'\\' if in_text => i += 1,
            b'"' => in_text = !in_text,
            b'/' if !in_text && b.get(i + 1) == Some(&b'/') => {
                return line.get(..i).unwrap_or(line)
            }
            _ => {}
        }
        i += 1;
    }
    line
}

/// Whether the code before `end` stops where a statement cannot end: after an operator, a comma,
/// an opening bracket or a word that needs what follows.
fn ends_unfinished(src: &str, end: usize) -> bool {
    let before = src.get(..end).unwrap_or("");
    if before.ends_with([
        '+', '-', '*', '/', '%', '=', '<', '>', ',', '(', '[', '.', ':',
    ]) {
        return true;
    }
    let word_start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |n| n + 1);
    let word = before.get(word_start..).unwrap_or("");
    [
        "to", "in", "by", "of", "and", "or", "not", "then", "else", "from", "where", "if", "let",
        "is", "move", "pay", "perform", "emit", "win", "log", "return", "require", "for", "while",
        "until", "prompt", "label",
    ]
    .contains(&word)
}

pub(super) fn drop_line_at(src: &str, item_pos: usize, err_pos: usize) -> Option<Patch> {
    let b = src.as_bytes();
    let ls = line_start(src, err_pos.min(src.len()));
    let first = ls + (src.get(ls..)?.len() - src.get(ls..)?.trim_start_matches([' ', '\t']).len());
    if first <= item_pos || first > err_pos || matches!(b.get(first), Some(b'}' | b')' | b']')) {
        return None;
    }
    // The line must stand directly inside a `{ }` block.
    let mut stack: Vec<u8> = Vec::new();
    let mut i = item_pos;
    while i < first {
        if let Some(next) = skip_comment_or_text(b, i) {
            i = next;
            continue;
        }
        let c = b[i];
        match c {
            b'(' | b'[' | b'{' => stack.push(c),
            b')' | b']' | b'}' => {
                if let Some(j) = stack.iter().rposition(|&o| closer(o) == c) {
                    stack.truncate(j);
                }
            }
            _ => {}
        }
        i += 1;
    }
    if stack.last() != Some(&b'{') {
        return None;
    }
    // The end: the end of the line, once the brackets opened on it are closed; never past a
    // bracket that closes the block.
    let mut depth = 0usize;
    let mut end = src.len();
    let mut i = first;
    while let Some(&c) = b.get(i) {
        if let Some(next) = skip_comment_or_text(b, i) {
            i = next;
            continue;
        }
        match c {
            b'\n' if depth == 0 => {
                end = i;
                break;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                if depth == 0 {
                    end = i;
                    break;
                }
                depth -= 1;
            }
            _ => {}
        }
        i += 1;
    }
    let end = first + src.get(first..end)?.trim_end().len();
    if end <= first || err_pos > end {
        return None;
    }
    let line = src.get(first..end)?;
    // `let x = <broken>`: keep the name, drop the value.
    if let Some(rest) = line.strip_prefix("let ") {
        let eq = rest
            .char_indices()
            .find(|&(k, c)| {
                c == '='
                    && !rest[k + 1..].starts_with('=')
                    && !rest[..k].ends_with(['=', '!', '<', '>'])
            })
            .map(|(k, _)| first + 4 + k + 1);
        if let Some(eq) = eq {
            if eq <= err_pos && end - eq >= 5 {
                return Some(Patch::NoneValue(eq + 1, end));
            }
        }
    }
    let is_fn = src.get(item_pos..).is_some_and(|s| s.starts_with("fn"));
    if is_fn && src.as_bytes().get(skip_trivia(src, end)) == Some(&b'}') {
        // A function's body is its `let`s and then its value: the value stays, as `none`.
        return (end - first >= 4 && line.trim_end() != "none")
            .then_some(Patch::NoneValue(first, end));
    }
    Some(Patch::Blank(first, end))
}

/// The patch that drops the value of a one-line function, `fn f(...): T = <broken>`, keeping its
/// name and signature.
pub(super) fn drop_fn_value(src: &str, item_pos: usize, err_pos: usize) -> Option<Patch> {
    let rest = src.get(item_pos..)?;
    if !rest.starts_with("fn") {
        return None;
    }
    // The `=` after the closing `)` of the parameters.
    let close = rest.find(')')?;
    let eq = item_pos + close + rest.get(close..)?.find('=')?;
    if src.get(eq..)?.starts_with("==") || eq >= err_pos {
        return None;
    }
    let start = skip_trivia(src, eq + 1);
    // The value ends with the last code before the next item (comment lines passed over).
    let next = next_item_start(src, item_pos).unwrap_or(src.len());
    let end = previous_line_end(src, next).max(start);
    // Only when the value holds no bracket that closes outside it (comments and texts inside it
    // are blanked with it).
    let value = src.get(start..end)?;
    let balance = value.bytes().fold(0i64, |n, c| match c {
        b'(' | b'[' | b'{' => n + 1,
        b')' | b']' | b'}' => n - 1,
        _ => n,
    });
    (end >= start + 4 && balance == 0 && value.trim_end() != "none")
        .then_some(Patch::NoneValue(start, end))
}

/// The start of the first line after `pos` that begins with a top-level keyword at the
/// indentation of `pos` or less.
fn next_item_start(src: &str, pos: usize) -> Option<usize> {
    let indent = column(src, pos);
    let mut at = src.get(pos..)?.find('\n').map(|n| pos + n + 1);
    while let Some(start) = at {
        let rest = src.get(start..)?;
        let first = start + (rest.len() - rest.trim_start_matches([' ', '\t']).len());
        if first - start <= indent
            && word_at(src, first).is_some_and(|w| TOP_LEVEL_KEYWORDS.contains(&w))
        {
            return Some(start);
        }
        at = rest.find('\n').map(|n| start + n + 1);
    }
    None
}

/// Applies a patch to the working copy (the same length, every other byte in place). Returns
/// false when it changes nothing (the same patch again: no progress).
pub(super) fn apply(work: &mut String, patch: &Patch) -> bool {
    let closing = [b')'];
    let (start, end, value) = match *patch {
        Patch::Blank(s, e) => (s, e, &b""[..]),
        Patch::NoneValue(s, e) => (s, e, &b"none"[..]),
        Patch::Close(at, c) => (at, at + 1, if c == b')' { &closing[..] } else { &b"]"[..] }),
    };
    let mut bytes = work.clone().into_bytes();
    let mut k = 0;
    for at in start..end.min(bytes.len()) {
        if bytes[at] == b'\n' {
            continue;
        }
        bytes[at] = value.get(k).copied().unwrap_or(b' ');
        k += 1;
    }
    // Every byte of the range but the line breaks was replaced by ASCII, and the range starts and
    // ends between characters: still UTF-8 (else the copy stays as it was).
    match String::from_utf8(bytes) {
        Ok(s) if s != *work => {
            *work = s;
            true
        }
        _ => false,
    }
}

/// The name an item at `item_pos` declares, read from its first words alone (`fn NAME`,
/// `card "NAME"`, ...): what stays known of an item that could not be parsed.
pub(super) fn declared_name(src: &str, item_pos: usize) -> Option<Ident> {
    let keyword = word_at(src, item_pos)?;
    let at = skip_trivia(src, item_pos + keyword.len());
    match keyword {
        "card" => {
            let rest = src.get(at..)?.strip_prefix('"')?;
            let len = rest.find(['"', '\n', '{', '\\'])?;
            (rest.get(len..)?.starts_with('"') && len > 0).then(|| Ident {
                name: rest.get(..len).unwrap_or("").to_string(),
                span: Span::new(at, at + len + 2),
            })
        }
        "fn" | "proc" | "action" | "zone" | "var" | "event" | "property" | "tags" | "stat"
        | "participant" | "strategy" | "rules" | "spaces" => {
            let name = word_at(src, at)?;
            Some(Ident {
                name: name.to_string(),
                span: Span::new(at, at + name.len()),
            })
        }
        _ => None,
    }
}

/// When a comment or a text starts at `i`: where it ends (at the line break that ends a comment or
/// a text never closed, or just after a text's closing `"`).
fn skip_comment_or_text(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'/' if b.get(i + 1) == Some(&b'/') => Some(
            b.get(i..)?
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |n| i + n),
        ),
        b'"' => {
            let mut j = i + 1;
            while let Some(&t) = b.get(j) {
                match t {
                    b'\\' => j += 2,
                    b'"' => return Some(j + 1),
                    b'\n' => return Some(j),
                    _ => j += 1,
                }
            }
            Some(b.len())
        }
        _ => None,
    }
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
