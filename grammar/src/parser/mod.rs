//! Grammar stage: the parser, from the text of a `.cardgame` script to its typed syntax tree.
//!
//! [`parse`] never panics and never stops at the first mistake. It parses the script one item at
//! a time; when an item is wrong it records a [`SyntaxError`] in plain words, skips to the next
//! line that starts with a top-level keyword and goes on, so that every mistake of a file is
//! reported at once. Every node of the tree carries the exact byte span of its source text
//! (interpolated expressions inside texts included).
//!
//! Nesting is bounded before and during parsing ([`MAX_NESTING`] levels of brackets, and a
//! bound on the depth of the tree built), so that a deeply nested input gives an error instead
//! of overflowing the stack of the parser or of the stages after it.

mod builder;
mod cell;
mod error;
mod exprs;
mod items;
mod recover;
mod scan;
mod stmts;
#[cfg(test)]
mod tests;

use std::num::NonZeroUsize;

use pest::error::InputLocation;
use pest::iterators::Pair;
use pest::Parser as _;
use pest_derive::Parser;

use crate::ast::{self, *};

use self::builder::Builder;
pub use self::cell::parse_cell;
use self::error::describe_error;
pub use self::error::{edit_distance, SyntaxError};
use self::recover::{check_nesting, recovery_point};
use self::scan::{column, skip_trivia, word_at};

#[derive(Parser)]
#[grammar = "cardgame.pest"]
struct CardgameParser;

type P<'i> = Pair<'i, Rule>;

/// An item of a script as pest pairs (for the formatter): its byte offset in the source and its pair
/// (positions relative to that offset).
pub(crate) type ItemPair<'i> = (usize, P<'i>);

/// The deepest nesting of brackets (`(`, `[`, `{`, text interpolations) a script may use.
pub const MAX_NESTING: usize = 256;

/// The deepest syntax tree the parser builds (operator chains count one level per operator).
pub const MAX_TREE_DEPTH: usize = 512;

/// The most rule calls pest may make for one item: a bound on pathological backtracking.
const CALL_LIMIT: usize = 20_000_000;

/// Every reserved word of the language (the `keyword` rule of the grammar), for editors' completion.
pub const KEYWORDS: &[&str] = &[
    "abilities",
    "ability",
    "action",
    "actions",
    "and",
    "as",
    "bottom",
    "break",
    "by",
    "card",
    "check",
    "choose",
    "copies",
    "down",
    "else",
    "eliminate",
    "emit",
    "end",
    "event",
    "face",
    "false",
    "flow",
    "fn",
    "for",
    "game",
    "hide",
    "if",
    "in",
    "is",
    "label",
    "let",
    "log",
    "loop",
    "move",
    "none",
    "not",
    "of",
    "on",
    "once",
    "option",
    "or",
    "pass",
    "pay",
    "per",
    "perform",
    "phase",
    "proc",
    "prompt",
    "property",
    "repeat",
    "require",
    "return",
    "reveal",
    "setup",
    "show",
    "shuffle",
    "simultaneously",
    "spaces",
    "stop",
    "strict",
    "table",
    "tags",
    "test",
    "text",
    "then",
    "times",
    "to",
    "top",
    "true",
    "turn",
    "until",
    "up",
    "var",
    "where",
    "while",
    "win",
    "zone",
];

/// Words with a meaning in one place only (the grammar's "Contextual word" rules), which stay usable
/// as names elsewhere; editors complete them beside the keywords.
pub const CONTEXTUAL_WORDS: &[&str] = &[
    "any",
    "bool",
    "cards",
    "columns",
    "decider",
    "diagonal",
    "do",
    "expect",
    "from",
    "given",
    "grid",
    "has",
    "hidden",
    "int",
    "kind",
    "kinds",
    "lacks",
    "list",
    "max",
    "min",
    "names",
    "one",
    "options",
    "order",
    "others",
    "otherwise",
    "over",
    "owner",
    "participant",
    "picks",
    "pile",
    "player",
    "players",
    "prefer",
    "private",
    "public",
    "refill",
    "round",
    "rules",
    "seed",
    "set",
    "shown",
    "space",
    "start",
    "stat",
    "strategy",
    "tag",
    "team",
    "teams",
    "use",
    "winners",
];

/// The words that start a top-level item; recovery after a bad item skips to one of them.
pub const TOP_LEVEL_KEYWORDS: &[&str] = &[
    "game",
    "table",
    "tags",
    "property",
    "var",
    "zone",
    "spaces",
    "event",
    "abilities",
    "card",
    "fn",
    "proc",
    "action",
    "on",
    "setup",
    "flow",
    "check",
    "test",
    "strategy",
    "stat",
    "participant",
    "rules",
    "cards",
];

/// The words that start a statement (for "did you mean" help).
const STATEMENT_KEYWORDS: &[&str] = &[
    "let",
    "move",
    "shuffle",
    "pay",
    "reveal",
    "hide",
    "show",
    "if",
    "for",
    "while",
    "repeat",
    "loop",
    "break",
    "require",
    "strict",
    "stop",
    "return",
    "perform",
    "emit",
    "turn",
    "phase",
    "end",
    "actions",
    "choose",
    "simultaneously",
    "eliminate",
    "win",
    "log",
];

/// Parses a whole script. Returns the items that could be parsed and every syntax error.
///
/// An empty script (or one with only comments) is a valid empty [`Script`]. The function never
/// panics: whatever the input, the errors say what is wrong.
pub fn parse(source: &str) -> (ast::Script, Vec<SyntaxError>) {
    let mut script = Script::default();
    let mut errors = Vec::new();
    if let Some(e) = check_nesting(source) {
        errors.push(e);
        return (script, errors);
    }
    pest::set_call_limit(NonZeroUsize::new(CALL_LIMIT));
    let bom = if source.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    };
    // The parser's working copy: repairs change bytes in place, never their offsets.
    let mut work = source.to_string();
    let mut pos = skip_trivia(source, bom);
    while pos < work.len() {
        match parse_one(source, &mut work, pos, &mut script, &mut errors) {
            Some(next) if next > pos => pos = next,
            _ => break,
        }
    }
    (script, errors)
}

/// The most repairs the parser makes in one item before it skips the rest of the item.
const MAX_REPAIRS: usize = 12;

/// What one attempt at parsing an item gave.
enum Attempt {
    /// The item, the errors found while building it, and where the next item starts.
    Item(Item, Vec<SyntaxError>, usize),
    /// A syntax error at `err_pos`; `partial` is the item as parsed before it when the item
    /// parsed but what follows it starts no item.
    Failed {
        err_pos: usize,
        error: SyntaxError,
        partial: Option<(Item, Vec<SyntaxError>)>,
    },
    /// A bug of the parser.
    Bug,
}

/// Parses the item at `pos` of the working copy, repairing the copy after each error so that the
/// rest of the item is still read: a bracket the layout shows is never closed is closed, a broken
/// line of a block is dropped (a broken value becomes `none`). Returns where the next item starts.
fn parse_one(
    source: &str,
    work: &mut String,
    pos: usize,
    script: &mut Script,
    errors: &mut Vec<SyntaxError>,
) -> Option<usize> {
    let mut repairs = 0;
    loop {
        let (err_pos, error, partial) = match attempt(work, pos) {
            Attempt::Item(item, mut built_errors, next) => {
                script.items.push(item);
                errors.append(&mut built_errors);
                return Some(next);
            }
            Attempt::Bug => {
                errors.push(internal_error(pos));
                return None;
            }
            Attempt::Failed {
                err_pos,
                error,
                partial,
            } => (err_pos, error, partial),
        };
        // A bracket the layout shows never closed, when pest's error stands where it should have
        // been closed (a header's `(` left open before the next item): that is the error to say.
        let mut unclosed_instead = None;
        if repairs < MAX_REPAIRS {
            repairs += 1;
            if let Some(u) = recover::find_unclosed(work, pos) {
                if u.first_open() < err_pos && u.closes_by(err_pos) {
                    unclosed_instead = Some(recover::unclosed_errors(source, &u));
                }
                if u.first_open() < err_pos {
                    let mut reported = recover::unclosed_errors(source, &u);
                    let patch = recover::drop_unclosed_line(work, pos, &u);
                    let dropped = patch
                        .as_ref()
                        .is_some_and(|patch| recover::apply(work, patch));
                    if let (true, Some(recover::Patch::Close(at, _))) = (dropped, &patch) {
                        // The line of the `(`, up to the `)` written.
                        let open = u.first_open();
                        let line = work
                            .get(..open)
                            .and_then(|s| s.rfind('\n'))
                            .map_or(0, |n| n + 1);
                        script.guessed.push(Span::new(line, *at + 1));
                        for e in &mut reported {
                            e.help = Some(
                                "close it before the `{` of its block, on the same line"
                                    .to_string(),
                            );
                        }
                    }
                    // A `(` or `[` that is not on a line of a block is pest's to report.
                    if dropped || (u.has_brace() && recover::close_brackets(work, &u)) {
                        errors.extend(reported);
                        continue;
                    }
                }
            }
            let patch = recover::drop_line(work, pos, err_pos)
                .or_else(|| recover::drop_fn_value(work, pos, err_pos));
            if let Some(patch) = patch {
                if recover::apply(work, &patch) {
                    errors.push(error);
                    continue;
                }
            }
        }
        match unclosed_instead {
            Some(mut reported) => errors.append(&mut reported),
            None => errors.push(error),
        }
        match partial {
            Some((item, mut built_errors)) => {
                script.cut_short.extend(recover::declared_name(work, pos));
                script.items.push(item);
                errors.append(&mut built_errors);
            }
            None => script.broken.extend(recover::declared_name(work, pos)),
        }
        return recovery_point(work, pos, err_pos);
    }
}

/// One attempt at parsing the item at `pos`.
fn attempt(source: &str, pos: usize) -> Attempt {
    let (rest, parsed) = parse_item(source, pos, Rule::item_entry);
    match parsed {
        Ok(mut pairs) => {
            let Some(item) = pairs.next().and_then(|entry| entry.into_inner().next()) else {
                return Attempt::Bug;
            };
            let end = pos + item.as_span().end();
            let mut b = Builder::new(rest, pos);
            let built = b.item(item);
            let Ok(built) = built else {
                return Attempt::Bug;
            };
            if end <= pos {
                return Attempt::Bug;
            }
            let next = skip_trivia(source, end);
            if next < source.len()
                && !word_at(source, next).is_some_and(|w| TOP_LEVEL_KEYWORDS.contains(&w))
            {
                // Something that starts no item follows: parse again to find where this
                // item really went wrong (`pile, hiden`, `1 +`, a missing `)`).
                if let (_, Err(e)) = parse_item(source, pos, Rule::item_checked) {
                    let err_pos = error_position(&e) + pos;
                    if err_pos > next {
                        return Attempt::Failed {
                            err_pos,
                            error: describe_error(source, pos, err_pos, &e.variant),
                            partial: Some((built, b.errors)),
                        };
                    }
                }
            }
            Attempt::Item(built, b.errors, next)
        }
        Err(e) => {
            let err_pos = error_position(&e) + pos;
            Attempt::Failed {
                err_pos,
                error: describe_error(source, pos, err_pos, &e.variant),
                partial: None,
            }
        }
    }
}

/// The items of a script that parses without error, as the pairs of the grammar with their offsets:
/// the same items, cut at the same places, as [`parse`] builds (the formatter lays them out).
/// Returns the syntax errors when the script does not parse.
pub(crate) fn item_pairs(source: &str) -> Result<Vec<ItemPair<'_>>, Vec<SyntaxError>> {
    let (_, errors) = parse(source);
    if !errors.is_empty() {
        return Err(errors);
    }
    let bom = if source.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    };
    let mut items = Vec::new();
    let mut pos = skip_trivia(source, bom);
    while pos < source.len() {
        let (_, parsed) = parse_item(source, pos, Rule::item_entry);
        let item = parsed
            .ok()
            .and_then(|mut pairs| pairs.next())
            .and_then(|entry| entry.into_inner().next());
        let Some(item) = item else {
            return Err(vec![internal_error(pos)]);
        };
        let end = pos + item.as_span().end();
        if end <= pos {
            return Err(vec![internal_error(pos)]);
        }
        items.push((pos, item));
        pos = skip_trivia(source, end);
    }
    Ok(items)
}

type Parsed<'i> = Result<pest::iterators::Pairs<'i, Rule>, pest::error::Error<Rule>>;

/// Parses one item from `pos` with `rule`; returns the text parsed (positions are relative to it).
///
/// pest spends time proportional to the length of its input on every error, so the item is
/// first parsed in a window that ends at the next line that probably starts another item (a word
/// indented no more than this item). Only when the parse runs into the end of the window is the
/// rest of the source parsed.
fn parse_item(source: &str, pos: usize, rule: Rule) -> (&str, Parsed<'_>) {
    let rest = source.get(pos..).unwrap_or("");
    let window_end = next_item_line(source, pos).unwrap_or(source.len());
    if window_end < source.len() {
        if let Some(window) = source.get(pos..window_end) {
            let parsed = CardgameParser::parse(rule, window);
            let cut = match &parsed {
                Ok(_) => false,
                Err(e) => error_position(e) >= window.len(),
            };
            if !cut {
                return (window, parsed);
            }
        }
    }
    (rest, CardgameParser::parse(rule, rest))
}

/// The start of the first line after `pos` that begins with a word, indented no more than the
/// line of `pos`: where the next item probably starts.
fn next_item_line(src: &str, pos: usize) -> Option<usize> {
    let indent = column(src, pos);
    let mut line_start = src.get(pos..)?.find('\n').map(|n| pos + n + 1);
    while let Some(start) = line_start {
        let rest = src.get(start..)?;
        let first = start + (rest.len() - rest.trim_start_matches([' ', '\t']).len());
        if first - start <= indent && word_at(src, first).is_some() {
            return Some(start);
        }
        line_start = rest.find('\n').map(|n| start + n + 1);
    }
    None
}

fn error_position(e: &pest::error::Error<Rule>) -> usize {
    match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    }
}

fn internal_error(pos: usize) -> SyntaxError {
    SyntaxError::new(
        SyntaxError::INTERNAL,
        "the parser could not understand this item (this is a bug of the parser)",
        Span::new(pos, pos),
        "here",
        Some("please report this script to the cardgame authors".to_string()),
    )
}

#[cfg(test)]
mod grammar_docs {
    #[test]
    fn every_grammar_rule_has_a_doc_comment() {
        let grammar = include_str!("../cardgame.pest");
        let mut previous = "";
        for line in grammar.lines() {
            let is_rule = line.split_once(" = ").is_some_and(|(name, _)| {
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
            if is_rule {
                assert!(
                    previous.starts_with("///"),
                    "no `///` doc comment on: {line}"
                );
            }
            previous = line;
        }
    }
}
