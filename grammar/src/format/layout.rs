//! Formatter stage: the layout, from the tokens of a script and the comments and line breaks between
//! them to the canonical text (docs/cli.md, `fmt`, gives the rules).
//!
//! Tokens are written in their order; only what lies between two tokens changes. The author's line
//! breaks are kept (two or more become one blank line), comments are kept where they were, and
//! indentation and the spaces inside a line are computed from the tokens alone, so that formatting
//! twice changes nothing.

use super::tokens::Tok;
use crate::parser::Rule;

/// The indentation of one level.
const INDENT: &str = "  ";

/// What lies between two tokens: comments (each with the line breaks before it) and the line breaks
/// after the last one.
struct Gap<'s> {
    comments: Vec<(usize, &'s str)>,
    breaks: usize,
}

/// Reads the text between two tokens, which the grammar allows to hold only whitespace and comments;
/// `None` when it holds anything else (a token the formatter did not see: a bug).
fn gap(text: &str) -> Option<Gap<'_>> {
    let mut comments = Vec::new();
    let mut breaks = 0;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        match c {
            '\n' => {
                breaks += 1;
                rest = &rest[1..];
            }
            ' ' | '\t' | '\r' => rest = &rest[1..],
            '/' if rest.starts_with("//") => {
                let end = rest.find('\n').unwrap_or(rest.len());
                comments.push((breaks, rest[..end].trim_end()));
                breaks = 0;
                rest = &rest[end..];
            }
            _ => return None,
        }
    }
    Some(Gap { comments, breaks })
}

fn is_opener(rule: Rule) -> bool {
    matches!(rule, Rule::lbrace | Rule::lparen | Rule::lbracket)
}

fn is_closer(rule: Rule) -> bool {
    matches!(rule, Rule::rbrace | Rule::rparen | Rule::rbracket)
}

/// Whether a `(` follows its name without a space: a call, a declaration's parameters, an event.
fn is_call_paren(tok: &Tok) -> bool {
    use Rule::*;
    tok.rule == lparen
        && matches!(
            tok.parent,
            call | stmt_call
                | aggregate_binder
                | fn_decl
                | proc_decl
                | action_decl
                | trigger
                | event_decl
                | stmt_emit
                | test_start
                | target_action
        )
}

/// Whether two tokens on one line are separated by a space.
fn space_between(prev: &Tok, next: &Tok) -> bool {
    use Rule::*;
    let tight_after = matches!(prev.rule, lparen | lbracket | dot | neg_op | range_op)
        || (prev.rule == colon && prev.parent == strategy_otherwise);
    let tight_before = matches!(
        next.rule,
        rparen | rbracket | comma | dot | range_op | colon
    ) || is_call_paren(next)
        || (next.rule == lbracket && matches!(next.parent, index_access | stat_key_type));
    !(tight_after || tight_before)
}

/// Whether `next` starts a construct that follows another on the same line (`is Tile, Wood  copies 2`,
/// `{ x += 1  y += 1 }`): two spaces set them apart. `else` follows its `}` with one.
fn second_construct(prev: &Tok, next: &Tok) -> bool {
    next.starts_construct
        && !is_opener(prev.rule)
        && !matches!(next.parent, Rule::else_if | Rule::else_block)
}

/// An open bracket: the indentation of the lines inside it and of the line of its closer.
struct Frame {
    rule: Rule,
    inner: usize,
    close: usize,
}

/// Lays out a script. `None` when the text between two tokens holds something else than whitespace
/// and comments (a bug of the formatter, reported by the caller).
pub(crate) fn layout(source: &str, toks: &[Tok]) -> Option<String> {
    let mut out = String::with_capacity(source.len() + source.len() / 8);
    let bom = if source.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    };
    out.push_str(&source[..bom]);
    let mut frames: Vec<Frame> = Vec::new();
    // The indentation (in levels) of the output line of each token.
    let mut line_of: Vec<usize> = Vec::with_capacity(toks.len());
    let mut current = 0usize;
    let mut at_start = true;
    let mut prev_end = bom;
    for (i, tok) in toks.iter().enumerate() {
        let g = gap(source.get(prev_end..tok.start)?)?;
        let prev = i.checked_sub(1).and_then(|p| toks.get(p));
        let indent = line_indent(tok, prev, &frames, &line_of);
        // Comments on their own lines take the indentation of the lines inside the bracket a
        // closer ends, else of the token's line.
        let comment_indent = if is_closer(tok.rule) {
            frames.last().map_or(0, |f| f.inner)
        } else {
            indent
        };
        let after_opener = prev.is_some_and(|p| is_opener(p.rule));
        let mut line_open = prev.is_some();
        for (n, (breaks, text)) in g.comments.iter().enumerate() {
            if *breaks == 0 && line_open && n == 0 {
                out.push(' ');
            } else {
                let blank = *breaks >= 2 && !at_start && !(n == 0 && after_opener);
                new_line(&mut out, blank, at_start);
                push_indent(&mut out, comment_indent);
                at_start = false;
            }
            out.push_str(text);
            line_open = false;
        }
        let breaks = if line_open { g.breaks } else { g.breaks.max(1) };
        if breaks == 0 || at_start {
            if let Some(p) = prev {
                if second_construct(p, tok) {
                    out.push_str("  ");
                } else if space_between(p, tok) {
                    out.push(' ');
                }
            } else {
                push_indent(&mut out, indent);
                current = indent;
            }
        } else {
            let blank =
                breaks >= 2 && !is_closer(tok.rule) && !(g.comments.is_empty() && after_opener);
            new_line(&mut out, blank, false);
            push_indent(&mut out, indent);
            current = indent;
        }
        at_start = false;
        out.push_str(source.get(tok.start..tok.end)?);
        line_of.push(current);
        if is_opener(tok.rule) {
            frames.push(Frame {
                rule: tok.rule,
                inner: current + 1,
                close: current,
            });
        } else if is_closer(tok.rule) {
            frames.pop();
        }
        prev_end = tok.end;
    }
    let g = gap(source.get(prev_end..)?)?;
    let mut line_open = !toks.is_empty();
    for (n, (breaks, text)) in g.comments.iter().enumerate() {
        if *breaks == 0 && line_open && n == 0 {
            out.push(' ');
        } else {
            new_line(&mut out, *breaks >= 2 && !at_start, at_start);
            at_start = false;
        }
        out.push_str(text);
        line_open = false;
    }
    if !at_start {
        out.push('\n');
    }
    Some(out)
}

/// Ends the current line (nothing at the start of the file), with a blank line after it if asked.
fn new_line(out: &mut String, blank: bool, at_start: bool) {
    if at_start {
        return;
    }
    out.push('\n');
    if blank {
        out.push('\n');
    }
}

fn push_indent(out: &mut String, levels: usize) {
    for _ in 0..levels {
        out.push_str(INDENT);
    }
}

/// The indentation of a line that starts with `tok`: a closer lines up with the line of its opener; a
/// construct starts at the indentation inside its bracket; another token continues a line: inside
/// `(` or `[`, one level more after a token that ends no element; elsewhere one level more than the
/// line where its construct started.
fn line_indent(tok: &Tok, prev: Option<&Tok>, frames: &[Frame], line_of: &[usize]) -> usize {
    let frame = frames.last();
    if is_closer(tok.rule) {
        return frame.map_or(0, |f| f.close);
    }
    let inner = frame.map_or(0, |f| f.inner);
    if tok.starts_construct {
        return inner;
    }
    match frame {
        Some(f) if f.rule != Rule::lbrace => {
            let element_start = prev.is_none_or(|p| is_opener(p.rule) || p.rule == Rule::comma);
            if element_start {
                inner
            } else {
                inner + 1
            }
        }
        _ => line_of.get(tok.construct).map_or(inner, |l| l + 1),
    }
}
