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

use std::collections::VecDeque;
use std::fmt;
use std::num::NonZeroUsize;

use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest::Parser as _;
use pest_derive::Parser;

use crate::ast::{self, *};

#[derive(Parser)]
#[grammar = "cardgame.pest"]
struct CardgameParser;

type P<'i> = Pair<'i, Rule>;

/// The deepest nesting of brackets (`(`, `[`, `{`, text interpolations) a script may use.
pub const MAX_NESTING: usize = 256;

/// The deepest syntax tree the parser builds (operator chains count one level per operator).
pub const MAX_TREE_DEPTH: usize = 512;

/// The most rule calls pest may make for one item: a bound on pathological backtracking.
const CALL_LIMIT: usize = 20_000_000;

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

/// A mistake in the syntax of a script: what was expected, where, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SyntaxError {
    /// The message in plain words: "expected a statement, found `foo`".
    pub message: String,
    /// Where the mistake is (byte offsets in the source).
    pub span: ast::Span,
    /// The text of the label drawn under the span.
    pub label: String,
    /// How to fix it, when there is something useful to say ("did you mean `card`?").
    pub help: Option<String>,
    /// The diagnostic code (one of the `SyntaxError::*` code constants).
    pub code: &'static str,
}

impl SyntaxError {
    /// Something other than what the grammar allows at this place.
    pub const UNEXPECTED: &'static str = "syntax::unexpected";
    /// A top-level line that does not start with an item keyword (`crad "X" {`).
    pub const UNKNOWN_ITEM: &'static str = "syntax::unknown_item";
    /// Brackets or expressions nested too deeply.
    pub const TOO_DEEP: &'static str = "syntax::too_deep";
    /// An item too complex for the parser to analyse.
    pub const TOO_COMPLEX: &'static str = "syntax::too_complex";
    /// A number out of range.
    pub const NUMBER: &'static str = "syntax::number";
    /// A setting given twice.
    pub const DUPLICATE: &'static str = "syntax::duplicate";
    /// A form the grammar accepts but that makes no sense (`sort(x in L)` without `by`, ...).
    pub const INVALID: &'static str = "syntax::invalid";
    /// An error of the parser itself (a bug).
    pub const INTERNAL: &'static str = "syntax::internal";

    /// A new error.
    pub fn new(
        code: &'static str,
        message: impl Into<String>,
        span: ast::Span,
        label: impl Into<String>,
        help: Option<String>,
    ) -> Self {
        SyntaxError {
            message: message.into(),
            span,
            label: label.into(),
            help,
            code,
        }
    }

    /// Where the mistake is.
    pub fn span(&self) -> ast::Span {
        self.span
    }

    /// The stable diagnostic code, such as `syntax::unexpected`.
    pub fn code(&self) -> &'static str {
        self.code
    }
}

impl miette::Diagnostic for SyntaxError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display + 'a>)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(
            miette::LabeledSpan::new_with_span(Some(self.label.clone()), self.span),
        )))
    }
}

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
    let mut pos = skip_trivia(source, bom);
    while pos < source.len() {
        let (rest, parsed) = parse_item(source, pos, Rule::item_entry);
        match parsed {
            Ok(mut pairs) => {
                let Some(item) = pairs.next().and_then(|entry| entry.into_inner().next()) else {
                    errors.push(internal_error(pos));
                    break;
                };
                let end = pos + item.as_span().end();
                let mut b = Builder::new(rest, pos);
                let built = b.item(item);
                errors.append(&mut b.errors);
                match built {
                    Ok(i) => script.items.push(i),
                    Err(Bug) => errors.push(internal_error(pos)),
                }
                if end <= pos {
                    break;
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
                            errors.push(describe_error(source, pos, err_pos, &e.variant));
                            match recovery_point(source, pos, err_pos) {
                                Some(p) => {
                                    pos = p;
                                    continue;
                                }
                                None => break,
                            }
                        }
                    }
                }
                pos = next;
            }
            Err(e) => {
                let err_pos = error_position(&e) + pos;
                errors.push(describe_error(source, pos, err_pos, &e.variant));
                match recovery_point(source, pos, err_pos) {
                    Some(next) => pos = next,
                    None => break,
                }
            }
        }
    }
    (script, errors)
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

// ───────────────────────────── scanning ─────────────────────────────

/// Skips whitespace and `//` comments from `pos`.
fn skip_trivia(src: &str, mut pos: usize) -> usize {
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
fn check_nesting(src: &str) -> Option<SyntaxError> {
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
fn unclosed_bracket(src: &str, from: usize) -> Option<(usize, char)> {
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
fn column(src: &str, pos: usize) -> usize {
    let line_start = src
        .get(..pos)
        .and_then(|s| s.rfind('\n').map(|n| n + 1))
        .unwrap_or(0);
    pos - line_start
}

/// The name-shaped word starting at `pos`, if any.
fn word_at(src: &str, pos: usize) -> Option<&str> {
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
fn recovery_point(src: &str, item_pos: usize, err_pos: usize) -> Option<usize> {
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

// ───────────────────────────── error messages ─────────────────────────────

/// What a rule stands for in a message.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    Item,
    Statement,
    Expression,
    Operator,
    TestStep,
    Phrase(&'static str),
    Ignore,
}

fn want(r: Rule) -> Want {
    use Rule as R;
    use Want::*;
    match r {
        R::game_decl
        | R::table_decl
        | R::tags_decl
        | R::property_decl
        | R::var_decl
        | R::zone_decl
        | R::spaces_decl
        | R::event_decl
        | R::abilities_decl
        | R::card_decl
        | R::fn_decl
        | R::proc_decl
        | R::action_decl
        | R::setup_decl
        | R::flow_decl
        | R::check_decl
        | R::test_decl => Item,
        R::trigger => Phrase("`on`"),
        R::stmt_let_choose
        | R::stmt_let
        | R::stmt_move
        | R::stmt_shuffle
        | R::stmt_pay
        | R::stmt_reveal
        | R::stmt_hide
        | R::stmt_if
        | R::stmt_for
        | R::stmt_while
        | R::stmt_repeat
        | R::stmt_loop
        | R::stmt_break
        | R::stmt_require
        | R::stmt_strict
        | R::stmt_stop
        | R::stmt_perform
        | R::stmt_emit
        | R::stmt_turn
        | R::stmt_phase
        | R::stmt_end_turn
        | R::stmt_end_phase
        | R::stmt_actions
        | R::stmt_choose_branch
        | R::stmt_simultaneously
        | R::stmt_eliminate
        | R::stmt_win
        | R::stmt_log
        | R::stmt_assign
        | R::stmt_call => Statement,
        R::step_choose
        | R::step_options_has
        | R::step_options_lacks
        | R::step_decider
        | R::step_winners
        | R::step_over
        | R::step_log
        | R::step_expect
        | R::step_do => TestStep,
        R::expr
        | R::and_expr
        | R::not_expr
        | R::cmp_expr
        | R::range_expr
        | R::sum_expr
        | R::product
        | R::unary
        | R::postfix
        | R::if_expr
        | R::pile_expr
        | R::list_lit
        | R::paren
        | R::int
        | R::aggregate_binder
        | R::binder_fn
        | R::call
        | R::neg_op
        | R::choose_count => Expression,
        R::cmp_op
        | R::cmp_tail
        | R::add_op
        | R::mul_op
        | R::is_tail
        | R::in_tail
        | R::k_and
        | R::k_or => Operator,
        R::lbrace => Phrase("`{`"),
        R::rbrace => Phrase("`}`"),
        R::lparen => Phrase("`(`"),
        R::rparen => Phrase("`)`"),
        R::lbracket => Phrase("`[`"),
        R::rbracket => Phrase("`]`"),
        R::comma => Phrase("`,`"),
        R::colon => Phrase("`:`"),
        R::equals => Phrase("`=`"),
        R::dot => Phrase("`.`"),
        R::ident => Phrase("a name"),
        R::field_name => Phrase("a field name"),
        R::field_access => Phrase("`.`"),
        R::int_lit => Phrase("a number"),
        R::player_range => Phrase("a number of players (`2` or `2..4`)"),
        R::text => Phrase("a text (`\"...\"`)"),
        R::text_lit | R::text_interp => Phrase("the rest of the text (and its closing `\"`)"),
        R::text_escape => Phrase("an escape (`\\\"`, `\\\\` or `\\n`)"),
        R::block => Phrase("a block (`{ ... }`)"),
        R::assign_op => Phrase("`=`, `+=`, `-=`"),
        R::range_op => Phrase("`..`"),
        R::where_clause => Phrase("`where`"),
        R::by_clause => Phrase("`by`"),
        R::prompt_clause => Phrase("`prompt`"),
        R::as_clause => Phrase("`as`"),
        R::action_label => Phrase("`label`"),
        R::action_if => Phrase("`if`"),
        R::trigger_zone => Phrase("`in`"),
        R::else_if | R::else_block => Phrase("`else`"),
        R::move_position => Phrase("`top`, `bottom`"),
        R::move_face => Phrase("`face`"),
        R::menu_mode => Phrase("a menu mode (`until pass`, `once`, `once or pass`, `times N`)"),
        R::option_kind => Phrase("`bool`, `int A..B` or `one of a, b`"),
        R::type_expr | R::type_list => Phrase("a type (`int`, `bool`, `player`, `card`, ...)"),
        R::property_type => Phrase("`int` or `kinds`"),
        R::scope => Phrase("`per`"),
        R::zone_attr => Phrase(
            "a zone attribute (`pile`, `set`, `public`, `owner`, `hidden`, `refill from Z`, `max N`)",
        ),
        R::zone_refill => Phrase("`refill`"),
        R::zone_max | R::var_max => Phrase("`max`"),
        R::var_min => Phrase("`min`"),
        R::param => Phrase("a parameter (`name: type`)"),
        R::action_param => Phrase("a parameter (`x in L`)"),
        R::branch => Phrase("a branch (`\"label\" { ... }`)"),
        R::choose => Phrase("`choose`"),
        R::choose_counted | R::choose_single => Phrase("what to choose (`x in L`)"),
        R::choose_up_to => Phrase("`up to`"),
        R::choose_any => Phrase("`any`"),
        R::for_tail => Phrase("`for`"),
        R::game_players | R::test_players => Phrase("`players`"),
        R::option_decl | R::test_option => Phrase("`option`"),
        R::table_columns => Phrase("`columns`"),
        R::table_row => Phrase("a row (`N: value, value, ...`)"),
        R::card_is => Phrase("`is`"),
        R::card_copies => Phrase("`copies`"),
        R::card_text => Phrase("`text`"),
        R::card_ability => Phrase("`ability`"),
        R::card_property => Phrase("a property value (`cost 3`)"),
        R::test_seed => Phrase("`seed`"),
        R::test_names => Phrase("`names`"),
        R::test_given => Phrase("`given`"),
        R::test_start => Phrase("`start`"),
        R::mode_until_pass => Phrase("`until pass`"),
        R::mode_once_or_pass | R::mode_once => Phrase("`once`"),
        R::mode_times => Phrase("`times`"),
        R::k_true | R::k_false | R::k_none => Expression,
        r => match keyword_name(r) {
            Some(k) => Phrase(k),
            None => Ignore,
        },
    }
}

macro_rules! keyword_phrases {
    ($($rule:ident => $word:literal),* $(,)?) => {
        /// "`let`" for `k_let`: the keyword or contextual word a rule matches.
        fn keyword_name(r: Rule) -> Option<&'static str> {
            match r {
                $(Rule::$rule => Some(concat!("`", $word, "`")),)*
                _ => None,
            }
        }
    };
}

keyword_phrases! {
    k_game => "game", k_table => "table", k_tags => "tags", k_property => "property",
    k_var => "var", k_zone => "zone", k_spaces => "spaces", k_event => "event",
    k_abilities => "abilities", k_card => "card", k_fn => "fn", k_proc => "proc",
    k_action => "action", k_on => "on", k_setup => "setup", k_flow => "flow",
    k_check => "check", k_test => "test", k_let => "let", k_move => "move", k_to => "to",
    k_top => "top", k_bottom => "bottom", k_face => "face", k_up => "up", k_down => "down",
    k_shuffle => "shuffle", k_pay => "pay", k_reveal => "reveal", k_hide => "hide", k_show => "show",
    k_if => "if", k_then => "then", k_else => "else", k_for => "for", k_in => "in",
    k_where => "where", k_while => "while", k_repeat => "repeat", k_loop => "loop",
    k_break => "break", k_require => "require", k_strict => "strict", k_stop => "stop",
    k_perform => "perform", k_of => "of", k_as => "as", k_by => "by", k_emit => "emit",
    k_turn => "turn", k_phase => "phase", k_end => "end", k_actions => "actions",
    k_until => "until", k_pass => "pass", k_once => "once", k_times => "times",
    k_choose => "choose", k_simultaneously => "simultaneously", k_eliminate => "eliminate",
    k_win => "win", k_log => "log", k_is => "is", k_not => "not", k_and => "and", k_or => "or",
    k_true => "true", k_false => "false", k_none => "none", k_ability => "ability",
    k_copies => "copies", k_text => "text", k_label => "label", k_prompt => "prompt",
    k_per => "per", k_option => "option", k_players => "players", k_from => "from",
    k_min => "min", k_max => "max", k_any => "any", k_one => "one", k_list => "list",
    k_int => "int", k_bool => "bool", k_player => "player", k_kind => "kind", k_tag => "tag",
    k_space => "space", k_kinds => "kinds", k_pile => "pile", k_set => "set",
    k_public => "public", k_owner => "owner", k_hidden => "hidden", k_refill => "refill",
    k_grid => "grid", k_diagonal => "diagonal", k_columns => "columns", k_seed => "seed",
    k_names => "names", k_given => "given", k_start => "start", k_expect => "expect",
    k_do => "do", k_options => "options", k_has => "has", k_lacks => "lacks",
    k_decider => "decider", k_winners => "winners", k_over => "over",
}

/// Joins phrases as "a, b or c".
fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

/// The token at `pos` as shown in a message, and its length in bytes.
fn found_token(src: &str, pos: usize) -> (String, usize) {
    let Some(rest) = src.get(pos..) else {
        return ("the end of the file".to_string(), 0);
    };
    let Some(c) = rest.chars().next() else {
        return ("the end of the file".to_string(), 0);
    };
    if let Some(w) = word_at(src, pos) {
        return (format!("`{w}`"), w.len());
    }
    if c.is_ascii_digit() {
        let len = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        return (format!("`{}`", rest.get(..len).unwrap_or("")), len);
    }
    if c == '"' {
        return ("a text".to_string(), 1);
    }
    if c == '\n' || c == '\r' {
        return ("the end of the line".to_string(), 0);
    }
    for op in ["==", "!=", "<=", ">=", "+=", "-=", ".."] {
        if rest.starts_with(op) {
            return (format!("`{op}`"), op.len());
        }
    }
    if c.is_control() || c.is_whitespace() {
        return (
            format!("the character `{}`", c.escape_unicode()),
            c.len_utf8(),
        );
    }
    (format!("`{c}`"), c.len_utf8())
}

/// Levenshtein distance with adjacent transpositions counted as one edit.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

/// The closest candidate to `word` within two edits (and fewer edits than its length).
pub(crate) fn did_you_mean<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .filter(|c| **c != word)
        .map(|c| (edit_distance(word, c), *c))
        .filter(|(d, _)| *d <= 2 && *d < word.chars().count())
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// The previous name-shaped word before `pos` on the same line, with its start.
fn previous_word(src: &str, pos: usize) -> Option<(usize, &str)> {
    let before = src.get(..pos)?;
    let trimmed = before.trim_end_matches([' ', '\t']);
    let start = trimmed
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map(|n| n + 1)
        .unwrap_or(0);
    let w = word_at(src, start)?;
    Some((start, w))
}

fn describe_error(
    src: &str,
    item_pos: usize,
    err_pos: usize,
    variant: &ErrorVariant<Rule>,
) -> SyntaxError {
    let (found, found_len) = found_token(src, err_pos);
    let span = Span::new(err_pos, err_pos + found_len);
    let positives = match variant {
        ErrorVariant::ParsingError { positives, .. } => positives,
        ErrorVariant::CustomError { message } => {
            let (code, what) = if message.contains("stack") {
                (SyntaxError::TOO_DEEP, "this item is nested too deeply")
            } else {
                (
                    SyntaxError::TOO_COMPLEX,
                    "this item is too complex to parse",
                )
            };
            return SyntaxError::new(
                code,
                what,
                Span::new(item_pos, item_pos),
                "in this item",
                Some("split it into smaller parts with `let`, `fn` or `proc`".to_string()),
            );
        }
    };

    // A bad first word at top level.
    if err_pos == item_pos {
        let word = word_at(src, err_pos);
        let help = match word {
            Some(w) if STATEMENT_KEYWORDS.contains(&w) => Some(format!(
                "`{w}` is a statement: statements go inside a block, such as `setup {{ ... }}`, \
                 a `proc` or an `ability`"
            )),
            Some(w) => did_you_mean(w, TOP_LEVEL_KEYWORDS).map(|k| format!("did you mean `{k}`?")),
            None if found == "`}`" => {
                Some("this `}` closes nothing: is there one `}` too many above?".to_string())
            }
            None => None,
        };
        return SyntaxError::new(
            SyntaxError::UNKNOWN_ITEM,
            format!(
                "expected an item (`game`, `card`, `zone`, `var`, `fn`, `proc`, `action`, `on`, \
                 `setup`, `flow`, `test`, ...), found {found}"
            ),
            span,
            "not the start of an item",
            help,
        );
    }

    let mut phrases: Vec<String> = Vec::new();
    let mut statement = false;
    let mut expression = false;
    let mut operator = false;
    let mut test_step = false;
    let mut item = false;
    let mut keywords: Vec<&'static str> = Vec::new();
    for r in positives {
        let mut add = |p: &str| {
            if !phrases.iter().any(|q| q == p) {
                phrases.push(p.to_string());
            }
        };
        match want(*r) {
            Want::Item => item = true,
            Want::Statement => statement = true,
            Want::Expression => expression = true,
            Want::Operator => operator = true,
            Want::TestStep => test_step = true,
            Want::Phrase(p) => {
                if let Some(k) = keyword_name(*r) {
                    keywords.push(k.trim_matches('`'));
                }
                if *r == Rule::assign_op {
                    for op in ["`=`", "`+=`", "`-=`"] {
                        add(op);
                    }
                } else {
                    add(p);
                }
            }
            Want::Ignore => {}
        }
    }
    // The first words of many statements (or items) at once: a statement (an item) is expected.
    if keywords
        .iter()
        .filter(|k| STATEMENT_KEYWORDS.contains(k))
        .count()
        >= 5
    {
        statement = true;
    }
    if keywords
        .iter()
        .filter(|k| TOP_LEVEL_KEYWORDS.contains(k))
        .count()
        >= 5
    {
        item = true;
    }
    if statement || item {
        // What could still continue the previous statement is noise next to "a statement".
        phrases.retain(|p| p == "`}`");
        expression = false;
        operator = false;
    }
    if operator {
        // `(`, `.`, `in`, `is` and `..` continue an expression: they are operators too.
        phrases.retain(|p| !["`(`", "`.`", "`in`", "`is`", "`..`"].contains(&p.as_str()));
    }
    if expression {
        // A text or a name is an expression too.
        phrases.retain(|p| p != "a name" && !p.starts_with("a text"));
        phrases.insert(0, "an expression".to_string());
    }
    if statement {
        phrases.insert(0, "a statement".to_string());
    }
    if test_step {
        phrases.insert(0, "a test step (`expect`, `choose`, `do`)".to_string());
    }
    if item {
        phrases.insert(0, "an item".to_string());
    }
    if operator {
        phrases.push("an operator".to_string());
    }
    let expected = if phrases.is_empty() {
        "something else".to_string()
    } else {
        join_or(&phrases)
    };

    let mut help = None;
    let in_text = positives
        .iter()
        .any(|r| matches!(r, Rule::text_lit | Rule::text_interp | Rule::text_escape));
    if in_text && src.get(err_pos..).is_some_and(|r| r.starts_with('\\')) {
        let escape: String = src.get(err_pos..).unwrap_or("").chars().take(2).collect();
        return SyntaxError::new(
            SyntaxError::UNEXPECTED,
            format!("unknown escape `{escape}` in a text"),
            Span::new(err_pos, err_pos + escape.len()),
            "unknown escape",
            Some("the escapes are `\\\"`, `\\\\` and `\\n`".to_string()),
        );
    }
    if in_text && (found == "the end of the line" || found == "the end of the file") {
        return SyntaxError::new(
            SyntaxError::UNEXPECTED,
            format!("this text is not closed: expected `\"` before {found}"),
            span,
            "expected `\"` here",
            Some(
                "a text ends on the line where it starts; write `\\n` for a line break".to_string(),
            ),
        );
    }
    if let Some(w) = word_at(src, err_pos) {
        let mut candidates: Vec<&str> = keywords.clone();
        if statement {
            candidates.extend_from_slice(STATEMENT_KEYWORDS);
        }
        if let Some(k) = did_you_mean(w, &candidates) {
            help = Some(format!("did you mean `{k}`?"));
        }
    }
    if help.is_none() && positives.contains(&Rule::assign_op) {
        // `mvoe c to x`: a misspelled statement keyword reads as a name.
        if let Some((start, w)) = previous_word(src, err_pos) {
            let line_start = src
                .get(..start)
                .map(|s| s.trim_end_matches([' ', '\t']))
                .map(|s| s.is_empty() || s.ends_with(['\n', '{', '}']))
                .unwrap_or(false);
            if line_start {
                let mut candidates = STATEMENT_KEYWORDS.to_vec();
                candidates.push("else");
                if let Some(k) = did_you_mean(w, &candidates) {
                    help = Some(format!("did you mean `{k}`?"));
                }
            }
        }
        if help.is_none() && found == "`==`" {
            help = Some(
                "a comparison is not a statement: write `x = E` to change a value, or `require C`"
                    .to_string(),
            );
        }
    }
    if help.is_none()
        && positives
            .iter()
            .any(|r| matches!(r, Rule::prompt_clause | Rule::k_prompt))
        && previous_word(src, err_pos).is_some_and(|(_, w)| w == "choose")
    {
        help = Some(
            "a choice of elements is a value: write `let x = choose x in L`; `choose { ... }` \
             chooses between branches"
                .to_string(),
        );
    }
    if help.is_none() && found == "the end of the file" {
        if let Some((at, bracket)) = unclosed_bracket(src, item_pos) {
            let line = src.get(..at).map_or(0, |s| s.matches('\n').count()) + 1;
            help = Some(format!("the `{bracket}` on line {line} is never closed"));
        }
    }
    SyntaxError::new(
        SyntaxError::UNEXPECTED,
        format!("expected {expected}, found {found}"),
        span,
        format!("expected {expected}"),
        help,
    )
}

// ───────────────────────────── building the tree ─────────────────────────────

/// An unexpected shape of the parse tree (a bug of the parser, never of the script).
struct Bug;

type R<T> = Result<T, Bug>;

/// The children of a pair, without keyword tokens (except the literals `true`, `false`, `none`).
struct Kids<'i> {
    q: VecDeque<P<'i>>,
}

/// Keywords and punctuation: tokens that carry no value of their own.
fn is_keyword_token(r: Rule) -> bool {
    match r {
        Rule::k_true | Rule::k_false | Rule::k_none => false,
        Rule::lbrace
        | Rule::rbrace
        | Rule::lparen
        | Rule::rparen
        | Rule::lbracket
        | Rule::rbracket
        | Rule::comma
        | Rule::colon
        | Rule::equals
        | Rule::dot
        | Rule::range_op => true,
        _ => keyword_name(r).is_some(),
    }
}

fn kids<'i>(p: &P<'i>) -> Kids<'i> {
    Kids {
        q: p.clone()
            .into_inner()
            .filter(|c| !is_keyword_token(c.as_rule()))
            .collect(),
    }
}

impl<'i> Kids<'i> {
    fn next(&mut self) -> R<P<'i>> {
        self.q.pop_front().ok_or(Bug)
    }
    fn take(&mut self, r: Rule) -> Option<P<'i>> {
        if self.q.front().map(|p| p.as_rule()) == Some(r) {
            self.q.pop_front()
        } else {
            None
        }
    }
    fn rest(self) -> impl Iterator<Item = P<'i>> {
        self.q.into_iter()
    }
}

/// The rule of the first child of a pair (keywords included).
fn first_rule(p: &P<'_>) -> Option<Rule> {
    p.clone().into_inner().next().map(|c| c.as_rule())
}

fn has_child(p: &P<'_>, r: Rule) -> bool {
    p.clone().into_inner().any(|c| c.as_rule() == r)
}

struct Builder<'s> {
    /// The parsed text (the source from the start of the item).
    src: &'s str,
    /// Where the parsed text starts in the whole source.
    off: usize,
    errors: Vec<SyntaxError>,
    too_deep: bool,
}

impl<'s> Builder<'s> {
    fn new(src: &'s str, off: usize) -> Self {
        Builder {
            src,
            off,
            errors: Vec::new(),
            too_deep: false,
        }
    }

    /// The span of a pair in the whole source, without the whitespace and comments that pest
    /// leaves at the end of a rule when an optional part after them is absent.
    fn sp(&self, p: &P<'_>) -> Span {
        let start = p.as_span().start();
        let mut cur = p.clone();
        let end = loop {
            let end = cur.as_span().end();
            match cur.clone().into_inner().last() {
                Some(last) if skip_trivia(self.src, last.as_span().end()) >= end => {
                    cur = last;
                }
                _ => break end,
            }
        };
        Span::new(start + self.off, end + self.off)
    }

    fn ident(&self, p: &P<'_>) -> Ident {
        Ident {
            name: p.as_str().to_string(),
            span: self.sp(p),
        }
    }

    fn error(
        &mut self,
        code: &'static str,
        message: String,
        span: Span,
        label: &str,
        help: Option<&str>,
    ) {
        self.errors.push(SyntaxError::new(
            code,
            message,
            span,
            label,
            help.map(str::to_string),
        ));
    }

    /// Checks the depth of the tree being built; reports once per item.
    fn deep(&mut self, depth: usize, span: Span) -> bool {
        if depth <= MAX_TREE_DEPTH {
            return false;
        }
        if !self.too_deep {
            self.too_deep = true;
            self.error(
                SyntaxError::TOO_DEEP,
                format!("this is nested too deeply (more than {MAX_TREE_DEPTH} levels)"),
                span,
                "too deep",
                Some("give inner parts a name with `let`, or split long chains of operators"),
            );
        }
        true
    }

    fn int_value(&mut self, p: &P<'_>) -> i64 {
        match p.as_str().parse::<i64>() {
            Ok(n) => n,
            Err(_) => {
                self.error(
                    SyntaxError::NUMBER,
                    format!("the number `{}` is too large", p.as_str()),
                    self.sp(p),
                    "too large",
                    Some("numbers are whole numbers between -9223372036854775808 and 9223372036854775807"),
                );
                0
            }
        }
    }

    fn duplicate(&mut self, what: &str, span: Span) {
        self.error(
            SyntaxError::DUPLICATE,
            format!("{what} is given twice"),
            span,
            "given again here",
            Some("keep only one"),
        );
    }

    // ─────────── items ───────────

    fn item(&mut self, p: P<'_>) -> R<Item> {
        Ok(match p.as_rule() {
            Rule::game_decl => Item::Game(self.game(p)?),
            Rule::table_decl => Item::Table(self.table(p)?),
            Rule::tags_decl => {
                let span = self.sp(&p);
                let mut k = kids(&p);
                let group = self.ident(&k.next()?);
                let tags = k.rest().map(|t| self.ident(&t)).collect();
                Item::Tags(TagsDecl { group, tags, span })
            }
            Rule::property_decl => {
                let span = self.sp(&p);
                let mut k = kids(&p);
                let name = self.ident(&k.next()?);
                let ty = match first_rule(&k.next()?) {
                    Some(Rule::k_kinds) => PropertyType::Kinds,
                    _ => PropertyType::Int,
                };
                let default = match k.q.pop_front() {
                    Some(e) => Some(self.expr(e, 1)?),
                    None => None,
                };
                Item::Property(PropertyDecl {
                    name,
                    ty,
                    default,
                    span,
                })
            }
            Rule::var_decl => Item::Var(self.var(p)?),
            Rule::zone_decl => Item::Zone(self.zone(p)?),
            Rule::spaces_decl => {
                let span = self.sp(&p);
                let diagonal = has_child(&p, Rule::k_diagonal);
                let mut k = kids(&p);
                let name = self.ident(&k.next()?);
                let width = self.expr(k.next()?, 1)?;
                let height = self.expr(k.next()?, 1)?;
                Item::Spaces(SpacesDecl {
                    name,
                    width,
                    height,
                    diagonal,
                    span,
                })
            }
            Rule::event_decl => {
                let span = self.sp(&p);
                let mut k = kids(&p);
                let name = self.ident(&k.next()?);
                let params = k.rest().map(|q| self.param(q)).collect::<R<_>>()?;
                Item::Event(EventDecl { name, params, span })
            }
            Rule::abilities_decl => {
                let span = self.sp(&p);
                let names = kids(&p).rest().map(|n| self.ident(&n)).collect();
                Item::Abilities(AbilitiesDecl { names, span })
            }
            Rule::card_decl => Item::Card(self.card(p)?),
            Rule::fn_decl => {
                let span = self.sp(&p);
                let mut k = kids(&p);
                let name = self.ident(&k.next()?);
                let mut params = Vec::new();
                while let Some(q) = k.take(Rule::param) {
                    params.push(self.param(q)?);
                }
                let ret = self.type_expr(k.next()?)?;
                let body = self.expr(k.next()?, 1)?;
                Item::Fn(FnDecl {
                    name,
                    params,
                    ret,
                    body,
                    span,
                })
            }
            Rule::proc_decl => {
                let span = self.sp(&p);
                let mut k = kids(&p);
                let name = self.ident(&k.next()?);
                let mut params = Vec::new();
                while let Some(q) = k.take(Rule::param) {
                    params.push(self.param(q)?);
                }
                let body = self.block(k.next()?, 1)?;
                Item::Proc(ProcDecl {
                    name,
                    params,
                    body,
                    span,
                })
            }
            Rule::action_decl => Item::Action(self.action(p)?),
            Rule::trigger => Item::Trigger(self.trigger(p)?),
            Rule::setup_decl => Item::Setup(self.block(kids(&p).next()?, 1)?),
            Rule::flow_decl => Item::Flow(self.block(kids(&p).next()?, 1)?),
            Rule::check_decl => Item::Check(self.block(kids(&p).next()?, 1)?),
            Rule::test_decl => Item::Test(self.test(p)?),
            _ => return Err(Bug),
        })
    }

    fn game(&mut self, p: P<'_>) -> R<GameDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.text(k.next()?, 1)?;
        let mut players: Option<PlayerRange> = None;
        let mut options = Vec::new();
        for c in k.rest() {
            match c.as_rule() {
                Rule::game_players => {
                    let r = self.player_range(kids(&c).next()?)?;
                    if players.is_some() {
                        self.duplicate("`players`", self.sp(&c));
                    }
                    players = Some(r);
                }
                Rule::option_decl => options.push(self.option(c)?),
                _ => return Err(Bug),
            }
        }
        Ok(GameDecl {
            name,
            players,
            options,
            span,
        })
    }

    fn player_range(&mut self, p: P<'_>) -> R<PlayerRange> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let min = self.int_value(&k.next()?);
        let max = match k.q.pop_front() {
            Some(q) => self.int_value(&q),
            None => min,
        };
        Ok(PlayerRange { min, max, span })
    }

    fn option(&mut self, p: P<'_>) -> R<OptionDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.ident(&k.next()?);
        let kind_pair = k.next()?;
        let inner = kids(&kind_pair).next()?;
        let kind = match inner.as_rule() {
            Rule::opt_bool => OptionKind::Bool,
            Rule::opt_int => {
                let mut ik = kids(&inner);
                let min = self.int_value(&ik.next()?);
                let max = self.int_value(&ik.next()?);
                OptionKind::Int { min, max }
            }
            Rule::opt_one_of => {
                OptionKind::OneOf(kids(&inner).rest().map(|i| self.ident(&i)).collect())
            }
            _ => return Err(Bug),
        };
        let default = self.expr(k.next()?, 1)?;
        let description = match k.q.pop_front() {
            Some(t) => Some(self.text(t, 1)?),
            None => None,
        };
        Ok(OptionDecl {
            name,
            kind,
            default,
            description,
            span,
        })
    }

    fn table(&mut self, p: P<'_>) -> R<TableDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let columns = kids(&k.next()?).rest().map(|c| self.ident(&c)).collect();
        let mut rows = Vec::new();
        for row in k.rest() {
            let rspan = self.sp(&row);
            let mut rk = kids(&row);
            let players = self.int_value(&rk.next()?);
            let values = rk.rest().map(|v| self.expr(v, 1)).collect::<R<_>>()?;
            rows.push(TableRow {
                players,
                values,
                span: rspan,
            });
        }
        Ok(TableDecl {
            columns,
            rows,
            span,
        })
    }

    fn scope(&self, k: &mut Kids<'_>) -> Scope {
        match k.take(Rule::scope) {
            None => Scope::Shared,
            Some(s) => match s.into_inner().nth(1).map(|w| w.as_rule()) {
                Some(Rule::k_card) => Scope::PerCard,
                Some(Rule::k_space) => Scope::PerSpace,
                _ => Scope::PerPlayer,
            },
        }
    }

    fn var(&mut self, p: P<'_>) -> R<VarDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.ident(&k.next()?);
        let scope = self.scope(&mut k);
        let ty = self.type_expr(k.next()?)?;
        let init = self.expr(k.next()?, 1)?;
        let mut min = None;
        let mut max = None;
        for b in k.rest() {
            let bspan = self.sp(&b);
            let rule = b.as_rule();
            let e = self.expr(kids(&b).next()?, 1)?;
            let slot = if rule == Rule::var_min {
                &mut min
            } else {
                &mut max
            };
            let again = slot.is_some();
            *slot = Some(e);
            if again {
                let what = if rule == Rule::var_min {
                    "`min`"
                } else {
                    "`max`"
                };
                self.duplicate(what, bspan);
            }
        }
        Ok(VarDecl {
            name,
            scope,
            ty,
            init,
            min,
            max,
            span,
        })
    }

    /// A type; `list of` nesting is unwound without recursion.
    fn type_expr(&mut self, p: P<'_>) -> R<TypeExpr> {
        let mut lists: Vec<Span> = Vec::new();
        let mut cur = p;
        loop {
            let span = self.sp(&cur);
            let inner = cur.clone().into_inner().next().ok_or(Bug)?;
            if inner.as_rule() == Rule::type_list {
                lists.push(span);
                cur = kids(&inner).next()?;
                continue;
            }
            let base = match inner.as_rule() {
                Rule::k_int => TypeExpr::Int(span),
                Rule::k_bool => TypeExpr::Bool(span),
                Rule::k_player => TypeExpr::Player(span),
                Rule::k_card => TypeExpr::Card(span),
                Rule::k_kind => TypeExpr::Kind(span),
                Rule::k_tag => TypeExpr::Tag(span),
                Rule::k_space => TypeExpr::Space(span),
                Rule::k_zone => TypeExpr::Zone(span),
                _ => return Err(Bug),
            };
            if lists.len() > MAX_TREE_DEPTH {
                self.deep(lists.len(), span);
                return Ok(base);
            }
            let mut t = base;
            while let Some(s) = lists.pop() {
                t = TypeExpr::List(Box::new(t), s);
            }
            return Ok(t);
        }
    }

    fn zone(&mut self, p: P<'_>) -> R<ZoneDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.ident(&k.next()?);
        let scope = self.scope(&mut k);
        let mut attrs = Vec::new();
        for a in k.rest() {
            let inner = a.clone().into_inner().next().ok_or(Bug)?;
            let s = self.sp(&inner);
            attrs.push(match inner.as_rule() {
                Rule::k_pile => ZoneAttr::Pile(s),
                Rule::k_set => ZoneAttr::Set(s),
                Rule::k_public => ZoneAttr::Public(s),
                Rule::k_owner => ZoneAttr::Owner(s),
                Rule::k_hidden => ZoneAttr::Hidden(s),
                Rule::zone_refill => ZoneAttr::RefillFrom(self.ident(&kids(&inner).next()?)),
                Rule::zone_max => ZoneAttr::Max(self.expr(kids(&inner).next()?, 1)?),
                _ => return Err(Bug),
            });
        }
        Ok(ZoneDecl {
            name,
            scope,
            attrs,
            span,
        })
    }

    fn param(&mut self, p: P<'_>) -> R<Param> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.ident(&k.next()?);
        let ty = self.type_expr(k.next()?)?;
        Ok(Param { name, ty, span })
    }

    fn card(&mut self, p: P<'_>) -> R<CardDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.text(k.next()?, 1)?;
        let mut items = Vec::new();
        for c in k.rest() {
            let s = self.sp(&c);
            items.push(match c.as_rule() {
                Rule::card_is => CardItem::Is(kids(&c).rest().map(|t| self.ident(&t)).collect(), s),
                Rule::card_copies => CardItem::Copies(self.expr(kids(&c).next()?, 1)?, s),
                Rule::card_text => CardItem::Text(self.text(kids(&c).next()?, 1)?, s),
                Rule::card_ability => {
                    let mut ck = kids(&c);
                    let n = self.ident(&ck.next()?);
                    let b = self.block(ck.next()?, 1)?;
                    CardItem::Ability(n, b, s)
                }
                Rule::trigger => CardItem::Trigger(self.trigger(c)?),
                Rule::card_property => {
                    let mut ck = kids(&c);
                    let n = self.ident(&ck.next()?);
                    let e = self.expr(ck.next()?, 1)?;
                    CardItem::Property(n, e, s)
                }
                _ => return Err(Bug),
            });
        }
        Ok(CardDecl { name, items, span })
    }

    fn action(&mut self, p: P<'_>) -> R<ActionDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.ident(&k.next()?);
        let mut params = Vec::new();
        while let Some(a) = k.take(Rule::action_param) {
            let aspan = self.sp(&a);
            let mut ak = kids(&a);
            let pname = self.ident(&ak.next()?);
            let domain = self.expr(ak.next()?, 1)?;
            params.push(ActionParam {
                name: pname,
                domain,
                span: aspan,
            });
        }
        let label = match k.take(Rule::action_label) {
            Some(l) => Some(self.text(kids(&l).next()?, 1)?),
            None => None,
        };
        let condition = match k.take(Rule::action_if) {
            Some(c) => Some(self.expr(kids(&c).next()?, 1)?),
            None => None,
        };
        let body = self.block(k.next()?, 1)?;
        Ok(ActionDecl {
            name,
            params,
            label,
            condition,
            body,
            span,
        })
    }

    fn trigger(&mut self, p: P<'_>) -> R<TriggerDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let event = self.ident(&k.next()?);
        let mut bindings = Vec::new();
        while let Some(b) = k.take(Rule::ident) {
            bindings.push(self.ident(&b));
        }
        let zone = match k.take(Rule::trigger_zone) {
            Some(z) => Some(self.ident(&kids(&z).next()?)),
            None => None,
        };
        let condition = match k.take(Rule::action_if) {
            Some(c) => Some(self.expr(kids(&c).next()?, 1)?),
            None => None,
        };
        let body = self.block(k.next()?, 1)?;
        Ok(TriggerDecl {
            event,
            bindings,
            zone,
            condition,
            body,
            span,
        })
    }

    fn test(&mut self, p: P<'_>) -> R<TestDecl> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.text(k.next()?, 1)?;
        let mut t = TestDecl {
            name,
            players: None,
            seed: None,
            options: Vec::new(),
            names: Vec::new(),
            given: None,
            start: None,
            steps: Vec::new(),
            span,
        };
        let mut names_given = false;
        for c in k.rest() {
            let s = self.sp(&c);
            let rule = c.as_rule();
            let mut ck = kids(&c);
            match rule {
                Rule::test_players => {
                    let n = self.int_value(&ck.next()?);
                    if t.players.is_some() {
                        self.duplicate("`players`", s);
                    }
                    t.players = Some((n, s));
                }
                Rule::test_seed => {
                    let lit = ck.next()?;
                    let n = match lit.as_str().parse::<u64>() {
                        Ok(n) => n,
                        Err(_) => {
                            self.error(
                                SyntaxError::NUMBER,
                                format!("the seed `{}` is not a whole number from 0 to 18446744073709551615", lit.as_str()),
                                self.sp(&lit),
                                "not a seed",
                                None,
                            );
                            0
                        }
                    };
                    if t.seed.is_some() {
                        self.duplicate("`seed`", s);
                    }
                    t.seed = Some((n, s));
                }
                Rule::test_option => {
                    let n = self.ident(&ck.next()?);
                    let v = self.expr(ck.next()?, 1)?;
                    t.options.push((n, v));
                }
                Rule::test_names => {
                    if names_given {
                        self.duplicate("`names`", s);
                    }
                    names_given = true;
                    t.names = ck.rest().map(|n| self.ident(&n)).collect();
                }
                Rule::test_given => {
                    let b = self.block(ck.next()?, 1)?;
                    if t.given.is_some() {
                        self.duplicate("`given`", s);
                    }
                    t.given = Some(b);
                }
                Rule::test_start => {
                    let n = self.ident(&ck.next()?);
                    let args = ck.rest().map(|a| self.expr(a, 1)).collect::<R<_>>()?;
                    if t.start.is_some() {
                        self.duplicate("`start`", s);
                    }
                    t.start = Some((n, args, s));
                }
                _ => {
                    let kind = match rule {
                        Rule::step_choose => TestStepKind::Choose(self.text(ck.next()?, 1)?),
                        Rule::step_options_has => {
                            TestStepKind::OptionsHas(self.text(ck.next()?, 1)?)
                        }
                        Rule::step_options_lacks => {
                            TestStepKind::OptionsLacks(self.text(ck.next()?, 1)?)
                        }
                        Rule::step_decider => TestStepKind::Decider(self.expr(ck.next()?, 1)?),
                        Rule::step_winners => TestStepKind::Winners(self.expr(ck.next()?, 1)?),
                        Rule::step_over => TestStepKind::Over,
                        Rule::step_log => TestStepKind::Log(self.text(ck.next()?, 1)?),
                        Rule::step_expect => TestStepKind::Expect(self.expr(ck.next()?, 1)?),
                        Rule::step_do => TestStepKind::Do(self.block(ck.next()?, 1)?),
                        _ => return Err(Bug),
                    };
                    t.steps.push(TestStep { kind, span: s });
                }
            }
        }
        Ok(t)
    }

    // ─────────── statements ───────────

    fn block(&mut self, p: P<'_>, d: usize) -> R<Block> {
        let span = self.sp(&p);
        if self.deep(d, span) {
            return Ok(Block {
                stmts: Vec::new(),
                span,
            });
        }
        let stmts = kids(&p)
            .rest()
            .map(|s| self.stmt(s, d + 1))
            .collect::<R<_>>()?;
        Ok(Block { stmts, span })
    }

    fn opt_expr(&mut self, k: &mut Kids<'_>, r: Rule, d: usize) -> R<Option<Expr>> {
        match k.take(r) {
            Some(c) => Ok(Some(self.expr(kids(&c).next()?, d)?)),
            None => Ok(None),
        }
    }

    fn opt_text(&mut self, k: &mut Kids<'_>, r: Rule, d: usize) -> R<Option<Text>> {
        match k.take(r) {
            Some(c) => Ok(Some(self.text(kids(&c).next()?, d)?)),
            None => Ok(None),
        }
    }

    fn stmt(&mut self, p: P<'_>, d: usize) -> R<Stmt> {
        let span = self.sp(&p);
        if self.deep(d, span) {
            return Ok(Stmt {
                kind: StmtKind::Stop,
                span,
            });
        }
        let d = d + 1;
        let rule = p.as_rule();
        let mut k = kids(&p);
        let kind = match rule {
            Rule::stmt_let_choose => {
                let name = self.ident(&k.next()?);
                let c = self.choose(k.next()?, d)?;
                StmtKind::LetChoose(name, c)
            }
            Rule::stmt_let => {
                let name = self.ident(&k.next()?);
                StmtKind::Let(name, self.expr(k.next()?, d)?)
            }
            Rule::stmt_move => {
                let what = self.expr(k.next()?, d)?;
                let to = self.expr(k.next()?, d)?;
                let position = k.take(Rule::move_position).map(|m| match first_rule(&m) {
                    Some(Rule::k_bottom) => Position::Bottom,
                    _ => Position::Top,
                });
                let face = k.take(Rule::move_face).map(|m| {
                    if has_child(&m, Rule::k_down) {
                        Face::Down
                    } else {
                        Face::Up
                    }
                });
                StmtKind::Move {
                    what,
                    to,
                    position,
                    face,
                }
            }
            Rule::stmt_shuffle => StmtKind::Shuffle(self.expr(k.next()?, d)?),
            Rule::stmt_pay => {
                let amount = self.expr(k.next()?, d)?;
                StmtKind::Pay(amount, self.expr(k.next()?, d)?)
            }
            Rule::stmt_reveal => StmtKind::Reveal(self.expr(k.next()?, d)?),
            Rule::stmt_hide => StmtKind::Hide(self.expr(k.next()?, d)?),
            Rule::stmt_show => {
                let cards = self.expr(k.next()?, d)?;
                StmtKind::Show(cards, self.expr(k.next()?, d)?)
            }
            Rule::stmt_if => {
                let cond = self.expr(k.next()?, d)?;
                let block = self.block(k.next()?, d)?;
                let mut branches = vec![(cond, block)];
                let mut otherwise = None;
                for c in k.rest() {
                    let mut ck = kids(&c);
                    match c.as_rule() {
                        Rule::else_if => {
                            let cond = self.expr(ck.next()?, d)?;
                            let block = self.block(ck.next()?, d)?;
                            branches.push((cond, block));
                        }
                        Rule::else_block => otherwise = Some(self.block(ck.next()?, d)?),
                        _ => return Err(Bug),
                    }
                }
                StmtKind::If {
                    branches,
                    otherwise,
                }
            }
            Rule::stmt_for => {
                let var = self.ident(&k.next()?);
                let list = self.expr(k.next()?, d)?;
                let filter = self.opt_expr(&mut k, Rule::where_clause, d)?;
                let body = self.block(k.next()?, d)?;
                StmtKind::For {
                    var,
                    list,
                    filter,
                    body,
                }
            }
            Rule::stmt_while => {
                let cond = self.expr(k.next()?, d)?;
                StmtKind::While(cond, self.block(k.next()?, d)?)
            }
            Rule::stmt_repeat => {
                let n = self.expr(k.next()?, d)?;
                StmtKind::Repeat(n, self.block(k.next()?, d)?)
            }
            Rule::stmt_loop => StmtKind::Loop(self.block(k.next()?, d)?),
            Rule::stmt_break => StmtKind::Break,
            Rule::stmt_require => StmtKind::Require(self.expr(k.next()?, d)?),
            Rule::stmt_strict => StmtKind::Strict(self.block(k.next()?, d)?),
            Rule::stmt_stop => StmtKind::Stop,
            Rule::stmt_perform => {
                let ability = self.ident(&k.next()?);
                let card = self.expr(k.next()?, d)?;
                let as_card = self.opt_expr(&mut k, Rule::as_clause, d)?;
                let by = self.opt_expr(&mut k, Rule::by_clause, d)?;
                StmtKind::Perform {
                    ability,
                    card,
                    as_card,
                    by,
                }
            }
            Rule::stmt_emit => {
                let name = self.ident(&k.next()?);
                let args = k.rest().map(|a| self.expr(a, d)).collect::<R<_>>()?;
                StmtKind::Emit(name, args)
            }
            Rule::stmt_call => {
                let name = self.ident(&k.next()?);
                let args = k.rest().map(|a| self.expr(a, d)).collect::<R<_>>()?;
                StmtKind::Call(name, args)
            }
            Rule::stmt_turn => {
                let who = self.expr(k.next()?, d)?;
                StmtKind::Turn(who, self.block(k.next()?, d)?)
            }
            Rule::stmt_phase => {
                let name = self.ident(&k.next()?);
                StmtKind::Phase(name, self.block(k.next()?, d)?)
            }
            Rule::stmt_end_turn => StmtKind::EndTurn,
            Rule::stmt_end_phase => StmtKind::EndPhase,
            Rule::stmt_actions => {
                let by = self.expr(k.next()?, d)?;
                let mode_pair = k.next()?;
                let mode_inner = mode_pair.into_inner().next().ok_or(Bug)?;
                let mode = match mode_inner.as_rule() {
                    Rule::mode_until_pass => MenuMode::UntilPass,
                    Rule::mode_once_or_pass => MenuMode::OnceOrPass,
                    Rule::mode_once => MenuMode::Once,
                    Rule::mode_times => MenuMode::Times(self.expr(kids(&mode_inner).next()?, d)?),
                    _ => return Err(Bug),
                };
                let actions = k.rest().map(|a| self.ident(&a)).collect();
                StmtKind::Actions { by, mode, actions }
            }
            Rule::stmt_choose_branch => {
                let by = self.opt_expr(&mut k, Rule::by_clause, d)?;
                let prompt = self.opt_text(&mut k, Rule::prompt_clause, d)?;
                let mut branches = Vec::new();
                for b in k.rest() {
                    let bspan = self.sp(&b);
                    let mut bk = kids(&b);
                    let label = self.text(bk.next()?, d)?;
                    let condition = self.opt_expr(&mut bk, Rule::action_if, d)?;
                    let body = self.block(bk.next()?, d)?;
                    branches.push(Branch {
                        label,
                        condition,
                        body,
                        span: bspan,
                    });
                }
                StmtKind::ChooseBranch {
                    by,
                    prompt,
                    branches,
                }
            }
            Rule::stmt_simultaneously => {
                let player = self.ident(&k.next()?);
                let players = self.expr(k.next()?, d)?;
                let var = self.ident(&k.next()?);
                let domain = self.expr(k.next()?, d)?;
                let filter = self.opt_expr(&mut k, Rule::where_clause, d)?;
                let prompt = self.opt_text(&mut k, Rule::prompt_clause, d)?;
                let body = self.block(k.next()?, d)?;
                StmtKind::Simultaneously {
                    player,
                    players,
                    var,
                    domain,
                    filter,
                    prompt,
                    body,
                }
            }
            Rule::stmt_eliminate => StmtKind::Eliminate(self.expr(k.next()?, d)?),
            Rule::stmt_win => {
                let who = self.expr(k.next()?, d)?;
                StmtKind::Win(who, self.text(k.next()?, d)?)
            }
            Rule::stmt_log => StmtKind::Log(self.text(k.next()?, d)?),
            Rule::stmt_assign => {
                let target = self.expr(k.next()?, d)?;
                let op = match k.next()?.as_str() {
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    _ => AssignOp::Set,
                };
                let value = self.expr(k.next()?, d)?;
                StmtKind::Assign(target, op, value)
            }
            _ => return Err(Bug),
        };
        Ok(Stmt { kind, span })
    }

    fn choose(&mut self, p: P<'_>, d: usize) -> R<Choose> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let head = k.next()?;
        let mut hk = kids(&head);
        let count = if head.as_rule() == Rule::choose_counted {
            let c = hk.next()?;
            let inner = c.clone().into_inner().next().ok_or(Bug)?;
            match inner.as_rule() {
                Rule::choose_up_to => ChooseCount::UpTo(self.expr(kids(&inner).next()?, d)?),
                Rule::choose_any => ChooseCount::Any,
                _ => ChooseCount::Exactly(self.expr(inner, d)?),
            }
        } else {
            ChooseCount::One
        };
        let var = self.ident(&hk.next()?);
        let domain = self.expr(hk.next()?, d)?;
        let filter = self.opt_expr(&mut k, Rule::where_clause, d)?;
        let by = self.opt_expr(&mut k, Rule::by_clause, d)?;
        let prompt = self.opt_text(&mut k, Rule::prompt_clause, d)?;
        Ok(Choose {
            count,
            var,
            domain,
            filter,
            by,
            prompt,
            span,
        })
    }

    // ─────────── expressions ───────────

    fn text(&mut self, p: P<'_>, d: usize) -> R<Text> {
        let span = self.sp(&p);
        let mut parts: Vec<TextPart> = Vec::new();
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::text_lit => {
                    let s = unescape(c.as_str());
                    if let Some(TextPart::Lit(last)) = parts.last_mut() {
                        last.push_str(&s);
                    } else {
                        parts.push(TextPart::Lit(s));
                    }
                }
                Rule::text_interp => {
                    let e = self.expr(kids(&c).next()?, d + 1)?;
                    parts.push(TextPart::Expr(e));
                }
                _ => return Err(Bug),
            }
        }
        Ok(Text { parts, span })
    }

    fn mk(&self, kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }

    /// Builds any expression-level pair (from `expr` down to a primary).
    fn expr(&mut self, p: P<'_>, d: usize) -> R<Expr> {
        let mut p = p;
        // Levels with a single child add nothing: go down without recursion.
        while matches!(
            p.as_rule(),
            Rule::expr
                | Rule::and_expr
                | Rule::not_expr
                | Rule::cmp_expr
                | Rule::range_expr
                | Rule::sum_expr
                | Rule::product
                | Rule::unary
                | Rule::postfix
                | Rule::paren
        ) {
            let mut inner = p.clone().into_inner();
            match (inner.next(), inner.next()) {
                (Some(only), None) => p = only,
                _ => break,
            }
        }
        let span = self.sp(&p);
        if self.deep(d, span) {
            return Ok(self.mk(ExprKind::None, span));
        }
        match p.as_rule() {
            Rule::expr | Rule::and_expr => {
                let op = if p.as_rule() == Rule::expr {
                    BinOp::Or
                } else {
                    BinOp::And
                };
                let operands: Vec<P<'_>> = kids(&p).rest().collect();
                self.fold(operands.into_iter().map(|o| (op, o)).collect(), d)
            }
            Rule::sum_expr | Rule::product => {
                let mut pairs = Vec::new();
                let mut op = BinOp::Add;
                for c in p.into_inner() {
                    match c.as_rule() {
                        Rule::add_op | Rule::mul_op => {
                            op = match c.as_str() {
                                "+" => BinOp::Add,
                                "-" => BinOp::Sub,
                                "*" => BinOp::Mul,
                                "/" => BinOp::Div,
                                _ => BinOp::Rem,
                            }
                        }
                        _ => pairs.push((op, c)),
                    }
                }
                self.fold(pairs, d)
            }
            Rule::not_expr => {
                let mut nots = Vec::new();
                let mut operand = None;
                for c in p.into_inner() {
                    if c.as_rule() == Rule::k_not {
                        nots.push(self.sp(&c).start);
                    } else {
                        operand = Some(c);
                    }
                }
                let operand = operand.ok_or(Bug)?;
                self.prefix(nots, UnOp::Not, operand, span.end, d)
            }
            Rule::unary => {
                let mut negs = Vec::new();
                let mut operand = None;
                for c in p.into_inner() {
                    if c.as_rule() == Rule::neg_op {
                        negs.push(self.sp(&c).start);
                    } else {
                        operand = Some(c);
                    }
                }
                let operand = operand.ok_or(Bug)?;
                self.prefix(negs, UnOp::Neg, operand, span.end, d)
            }
            Rule::cmp_expr => {
                let mut k = kids(&p);
                let left = self.expr(k.next()?, d + 1)?;
                let tail = k.next()?;
                match tail.as_rule() {
                    Rule::is_tail => {
                        let negated = has_child(&tail, Rule::k_not);
                        let t = kids(&tail).next()?;
                        let tspan = self.sp(&t);
                        let target = if t.as_rule() == Rule::text {
                            ExprKind::Text(self.text(t, d + 1)?)
                        } else {
                            ExprKind::Name(self.ident(&t))
                        };
                        Ok(self.mk(
                            ExprKind::Is {
                                expr: Box::new(left),
                                negated,
                                target: Box::new(self.mk(target, tspan)),
                            },
                            span,
                        ))
                    }
                    Rule::in_tail => {
                        let right = self.expr(kids(&tail).next()?, d + 1)?;
                        Ok(self.mk(
                            ExprKind::Binary(BinOp::In, Box::new(left), Box::new(right)),
                            span,
                        ))
                    }
                    Rule::cmp_tail => {
                        let mut tk = kids(&tail);
                        let op = match tk.next()?.as_str() {
                            "==" => BinOp::Eq,
                            "!=" => BinOp::Ne,
                            "<=" => BinOp::Le,
                            ">=" => BinOp::Ge,
                            "<" => BinOp::Lt,
                            _ => BinOp::Gt,
                        };
                        let right = self.expr(tk.next()?, d + 1)?;
                        Ok(self.mk(ExprKind::Binary(op, Box::new(left), Box::new(right)), span))
                    }
                    _ => Err(Bug),
                }
            }
            Rule::range_expr => {
                let mut k = kids(&p);
                let a = self.expr(k.next()?, d + 1)?;
                let _op = k.take(Rule::range_op);
                let b = self.expr(k.next()?, d + 1)?;
                Ok(self.mk(ExprKind::Range(Box::new(a), Box::new(b)), span))
            }
            Rule::postfix => {
                let mut inner = p.into_inner();
                let primary = inner.next().ok_or(Bug)?;
                let fields: Vec<P<'_>> = inner.collect();
                let start = span.start;
                if self.deep(d + fields.len(), span) {
                    return Ok(self.mk(ExprKind::None, span));
                }
                let mut e = self.expr(primary, d + fields.len())?;
                for f in fields {
                    let name = self.ident(&kids(&f).next()?);
                    let fspan = Span::new(start, self.sp(&f).end);
                    e = self.mk(ExprKind::Field(Box::new(e), name), fspan);
                }
                Ok(e)
            }
            Rule::paren => self.expr(kids(&p).next()?, d),
            Rule::int => {
                let n = self.int_value(&p);
                Ok(self.mk(ExprKind::Int(n), span))
            }
            Rule::text => {
                let t = self.text(p, d)?;
                Ok(self.mk(ExprKind::Text(t), span))
            }
            Rule::k_true => Ok(self.mk(ExprKind::Bool(true), span)),
            Rule::k_false => Ok(self.mk(ExprKind::Bool(false), span)),
            Rule::k_none => Ok(self.mk(ExprKind::None, span)),
            Rule::ident => Ok(self.mk(ExprKind::Name(self.ident(&p)), span)),
            Rule::list_lit => {
                let items = kids(&p)
                    .rest()
                    .map(|e| self.expr(e, d + 1))
                    .collect::<R<_>>()?;
                Ok(self.mk(ExprKind::List(items), span))
            }
            Rule::if_expr => {
                let mut k = kids(&p);
                let c = self.expr(k.next()?, d + 1)?;
                let a = self.expr(k.next()?, d + 1)?;
                let b = self.expr(k.next()?, d + 1)?;
                Ok(self.mk(ExprKind::If(Box::new(c), Box::new(a), Box::new(b)), span))
            }
            Rule::pile_expr => {
                let position = match first_rule(&p) {
                    Some(Rule::k_bottom) => Position::Bottom,
                    _ => Position::Top,
                };
                let rest: Vec<P<'_>> = kids(&p).rest().collect();
                let (count, zone) = match rest.len() {
                    1 => (None, rest.into_iter().next().ok_or(Bug)?),
                    2 => {
                        let mut it = rest.into_iter();
                        let c = it.next().ok_or(Bug)?;
                        let z = it.next().ok_or(Bug)?;
                        (Some(Box::new(self.expr(c, d + 1)?)), z)
                    }
                    _ => return Err(Bug),
                };
                let zone = Box::new(self.expr(zone, d + 1)?);
                Ok(self.mk(
                    ExprKind::Pile {
                        position,
                        count,
                        zone,
                    },
                    span,
                ))
            }
            Rule::aggregate_binder => self.aggregate_binder(p, d),
            Rule::call => self.call(p, d),
            _ => Err(Bug),
        }
    }

    /// Folds `a op b op c` to the left. Each entry is (operator before it, operand).
    fn fold(&mut self, operands: Vec<(BinOp, P<'_>)>, d: usize) -> R<Expr> {
        let n = operands.len();
        let mut it = operands.into_iter();
        let (_, first) = it.next().ok_or(Bug)?;
        let start = self.sp(&first).start;
        if self.deep(d + n, self.sp(&first)) {
            return Ok(self.mk(ExprKind::None, self.sp(&first)));
        }
        // The first operand sits below every operator of the chain.
        let mut acc = self.expr(first, d + n)?;
        for (i, (op, operand)) in it.enumerate() {
            let end = self.sp(&operand).end;
            let right = self.expr(operand, d + n - i)?;
            acc = self.mk(
                ExprKind::Binary(op, Box::new(acc), Box::new(right)),
                Span::new(start, end),
            );
        }
        Ok(acc)
    }

    /// Applies prefix operators (starting at the given offsets) to an operand, innermost last.
    fn prefix(
        &mut self,
        starts: Vec<usize>,
        op: UnOp,
        operand: P<'_>,
        end: usize,
        d: usize,
    ) -> R<Expr> {
        if self.deep(d + starts.len(), self.sp(&operand)) {
            return Ok(self.mk(ExprKind::None, self.sp(&operand)));
        }
        let mut e = self.expr(operand, d + starts.len())?;
        for s in starts.into_iter().rev() {
            e = self.mk(ExprKind::Unary(op, Box::new(e)), Span::new(s, end));
        }
        Ok(e)
    }

    fn aggregate_binder(&mut self, p: P<'_>, d: usize) -> R<Expr> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let fname = k.next()?;
        let op = match fname.as_str() {
            "count" => Aggregate::Count,
            "any" => Aggregate::Any,
            "all" => Aggregate::All,
            "filter" => Aggregate::Filter,
            _ => Aggregate::Sort,
        };
        let var = self.ident(&k.next()?);
        let list = Box::new(self.expr(k.next()?, d + 1)?);
        let filter = self
            .opt_expr(&mut k, Rule::where_clause, d + 1)?
            .map(Box::new);
        let by_pair = k.take(Rule::by_clause);
        let by_span = by_pair.as_ref().map(|b| self.sp(b));
        let by = match by_pair {
            Some(b) => Some(Box::new(self.expr(kids(&b).next()?, d + 1)?)),
            None => None,
        };
        let value = match (op, by) {
            (Aggregate::Sort, Some(b)) => Some(b),
            (Aggregate::Sort, None) => {
                self.error(
                    SyntaxError::INVALID,
                    "`sort` needs a key: `sort(x in L by E)`".to_string(),
                    span,
                    "no `by` here",
                    Some("add `by` and the value to sort by, such as `by x.cost`"),
                );
                None
            }
            (_, Some(_)) => {
                self.error(
                    SyntaxError::INVALID,
                    format!("`{}` takes no `by`; only `sort` does", fname.as_str()),
                    by_span.unwrap_or(span),
                    "not allowed here",
                    Some("remove the `by` part"),
                );
                None
            }
            (_, None) => None,
        };
        Ok(self.mk(
            ExprKind::Aggregate {
                op,
                value,
                var,
                list,
                filter,
            },
            span,
        ))
    }

    fn call(&mut self, p: P<'_>, d: usize) -> R<Expr> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.ident(&k.next()?);
        if !has_child(&p, Rule::lparen) {
            return Ok(self.mk(ExprKind::Name(name), span));
        }
        let rest: Vec<P<'_>> = k.rest().collect();
        if let Some(tail) = rest.iter().find(|c| c.as_rule() == Rule::for_tail) {
            let op = match name.name.as_str() {
                "sum" => Some(Aggregate::Sum),
                "max" => Some(Aggregate::Max),
                "min" => Some(Aggregate::Min),
                _ => None,
            };
            let value_pair = rest.first().ok_or(Bug)?.clone();
            let value = self.expr(value_pair, d + 1)?;
            let mut tk = kids(tail);
            let var = self.ident(&tk.next()?);
            let list = self.expr(tk.next()?, d + 1)?;
            let filter = self.opt_expr(&mut tk, Rule::where_clause, d + 1)?;
            return match op {
                Some(op) => Ok(self.mk(
                    ExprKind::Aggregate {
                        op,
                        value: Some(Box::new(value)),
                        var,
                        list: Box::new(list),
                        filter: filter.map(Box::new),
                    },
                    span,
                )),
                None => {
                    self.error(
                        SyntaxError::INVALID,
                        format!(
                            "`{}(... for x in L)` is not an aggregate: only `sum`, `max` and `min` take `for`",
                            name.name
                        ),
                        name.span,
                        "not an aggregate",
                        Some("write `count(x in L where C)`, `filter(x in L where C)` or `sum(E for x in L)`"),
                    );
                    Ok(self.mk(ExprKind::Call(name, vec![value]), span))
                }
            };
        }
        let args = rest
            .into_iter()
            .map(|a| self.expr(a, d + 1))
            .collect::<R<_>>()?;
        Ok(self.mk(ExprKind::Call(name, args), span))
    }
}

/// The text of a literal run: escapes and doubled braces resolved.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => {}
            },
            '{' | '}' => {
                if chars.peek() == Some(&c) {
                    chars.next();
                }
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRAMMAR: &str = include_str!("cardgame.pest");

    /// The `k_...` rules listed in the body of a grammar rule.
    fn keyword_rules_of(rule: &str) -> Vec<String> {
        let start = GRAMMAR
            .find(&format!("\n{rule} = "))
            .expect("rule in grammar");
        let body = &GRAMMAR[start..];
        let end = body.find("}\n").expect("end of rule");
        body[..end]
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| w.starts_with("k_"))
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn every_reserved_word_has_its_keyword_rule() {
        let rules: Vec<String> = Rule::all_rules().iter().map(|r| format!("{r:?}")).collect();
        let reserved = reserved();
        assert_eq!(reserved.len(), 76);
        for k in &reserved {
            assert!(rules.contains(k), "{k}");
        }
    }

    #[test]
    fn every_keyword_rule_has_its_word() {
        for r in Rule::all_rules() {
            let name = format!("{r:?}");
            if let Some(word) = name.strip_prefix("k_") {
                assert_eq!(
                    keyword_name(*r),
                    Some(format!("`{word}`").as_str()),
                    "{name}"
                );
            }
        }
    }

    /// The words of the `keyword` rule (written `"a" ~ ("bilities" | "nd" | ...)`), as
    /// `k_...` rule names.
    fn reserved() -> Vec<String> {
        let start = GRAMMAR.find("\nkeyword = @{").expect("keyword rule");
        let body = &GRAMMAR[start..];
        let body = &body[..body.find("\n}\n").expect("end of rule")];
        let mut words = Vec::new();
        for line in body.lines().filter(|l| l.contains(" ~ (")) {
            let quoted: Vec<&str> = line.split('"').skip(1).step_by(2).collect();
            if let Some((first, rest)) = quoted.split_first() {
                words.extend(rest.iter().map(|r| format!("k_{first}{r}")));
            }
        }
        words
    }

    #[test]
    fn reserved_words_are_not_names_and_contextual_words_are() {
        let reserved = reserved();
        assert!(reserved.len() > 60);
        for r in Rule::all_rules() {
            let name = format!("{r:?}");
            let Some(word) = name.strip_prefix("k_") else {
                continue;
            };
            let src = format!("proc p() {{ let {word} = 1 }}");
            let (_, errors) = parse(&src);
            if reserved.contains(&name) {
                assert!(
                    !errors.is_empty(),
                    "`{word}` is reserved but parsed as a name"
                );
            } else {
                assert!(
                    errors.is_empty(),
                    "`{word}` is contextual but not a name: {errors:?}"
                );
            }
        }
    }

    #[test]
    fn top_level_keywords_match_the_grammar() {
        let in_grammar: Vec<String> = keyword_rules_of("item_keyword")
            .iter()
            .map(|k| k.trim_start_matches("k_").to_string())
            .collect();
        assert_eq!(in_grammar, TOP_LEVEL_KEYWORDS);
        let reserved = reserved();
        for k in STATEMENT_KEYWORDS {
            assert!(reserved.contains(&format!("k_{k}")), "{k}");
        }
    }

    #[test]
    fn edit_distance_counts_transpositions_once() {
        assert_eq!(edit_distance("crad", "card"), 1);
        assert_eq!(edit_distance("card", "card"), 0);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("zone", "zones"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(did_you_mean("crad", TOP_LEVEL_KEYWORDS), Some("card"));
        assert_eq!(did_you_mean("setpu", TOP_LEVEL_KEYWORDS), Some("setup"));
        assert_eq!(did_you_mean("banana", TOP_LEVEL_KEYWORDS), None);
        // A short word is not "close" to everything.
        assert_eq!(did_you_mean("x", TOP_LEVEL_KEYWORDS), None);
    }

    #[test]
    fn unescape_resolves_escapes_and_doubled_braces() {
        assert_eq!(unescape(r#"a\"b\\c\nd{{e}}"#), "a\"b\\c\nd{e}");
        assert_eq!(unescape("}"), "}");
    }

    #[test]
    fn nesting_check_counts_brackets_but_not_text_or_comments() {
        let deep = "(".repeat(MAX_NESTING + 1);
        assert!(check_nesting(&deep).is_some());
        assert!(check_nesting(&"(".repeat(MAX_NESTING)).is_none());
        let braces_in_text = format!("\"{}\"", "{{".repeat(1000));
        assert!(check_nesting(&braces_in_text).is_none());
        let in_comment = format!("// {}\n", "(".repeat(1000));
        assert!(check_nesting(&in_comment).is_none());
        let interpolations = format!("\"{}", "{\"".repeat(MAX_NESTING));
        assert!(check_nesting(&interpolations).is_some());
    }

    #[test]
    fn recovery_prefers_lines_not_indented_more_than_the_bad_item() {
        let src = "card \"A\" {\n  bad bad bad\n  on x() { }\n}\nzone z\n";
        let err = src.find("bad bad").unwrap() + 4;
        assert_eq!(recovery_point(src, 0, err), src.find("zone"));
        // Without any item keyword after the error, nothing.
        assert_eq!(recovery_point("card \"A\" { bad", 0, 11), None);
    }
}

#[cfg(test)]
mod grammar_docs {
    #[test]
    fn every_grammar_rule_has_a_doc_comment() {
        let grammar = include_str!("cardgame.pest");
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
