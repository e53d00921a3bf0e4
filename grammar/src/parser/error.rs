//! Grammar stage: syntax errors, and the plain-words messages (with "did you mean" help) the
//! parser gives for what pest reports.

use std::fmt;

use pest::error::ErrorVariant;

use super::scan::{unclosed_bracket, word_at};
use super::*;

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
    /// A bracket that is never closed (`{` on line 3 is never closed).
    pub const UNCLOSED: &'static str = "syntax::unclosed";
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
        | R::stmt_return
        | R::stmt_assign_choose
        | R::stmt_perform
        | R::stmt_emit
        | R::stmt_turn
        | R::stmt_phase
        | R::stmt_round
        | R::stmt_end_turn
        | R::stmt_end_phase
        | R::stmt_end_round
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
        | R::step_strategy_picks
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
        | R::has_tail
        | R::has_op
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
        R::index_access => Operator,
        R::int_lit => Phrase("a number"),
        R::player_range => Phrase("a number of players (`2` or `2..4`)"),
        R::text => Phrase("a text (`\"...\"`)"),
        R::text_lit | R::text_interp => Phrase("the rest of the text (and its closing `\"`)"),
        R::text_escape => Phrase("an escape (`\\\"`, `\\\\` or `\\n`)"),
        R::block => Phrase("a block (`{ ... }`)"),
        R::assign_op => Phrase("`=`, `+=`, `-=`"),
        R::set_op => Phrase("`=`"),
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
        R::choose_order => Phrase("`order`"),
        R::for_tail | R::card_family => Phrase("`for`"),
        R::family_binder => Phrase("a family's values (`x in L`)"),
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
        pub(super) fn keyword_name(r: Rule) -> Option<&'static str> {
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
    k_break => "break", k_require => "require", k_strict => "strict", k_stop => "stop", k_return => "return", k_order => "order",
    k_perform => "perform", k_of => "of", k_as => "as", k_by => "by", k_emit => "emit",
    k_turn => "turn", k_phase => "phase", k_end => "end", k_actions => "actions",
    k_until => "until", k_pass => "pass", k_once => "once", k_times => "times",
    k_choose => "choose", k_simultaneously => "simultaneously", k_eliminate => "eliminate",
    k_win => "win", k_log => "log", k_is => "is", k_not => "not", k_and => "and", k_or => "or",
    k_true => "true", k_false => "false", k_none => "none", k_ability => "ability",
    k_copies => "copies", k_text => "text", k_label => "label", k_prompt => "prompt",
    k_per => "per", k_option => "option", k_players => "players", k_from => "from", k_cards => "cards",
    k_min => "min", k_max => "max", k_any => "any", k_one => "one", k_list => "list",
    k_int => "int", k_bool => "bool", k_player => "player", k_kind => "kind", k_tag => "tag",
    k_space => "space", k_kinds => "kinds", k_pile => "pile", k_set => "set",
    k_public => "public", k_owner => "owner", k_others => "others", k_hidden => "hidden", k_refill => "refill",
    k_grid => "grid", k_diagonal => "diagonal", k_columns => "columns", k_seed => "seed",
    k_names => "names", k_given => "given", k_start => "start", k_expect => "expect",
    k_do => "do", k_options => "options", k_has => "has", k_lacks => "lacks",
    k_decider => "decider", k_winners => "winners", k_over => "over", k_picks => "picks",
    k_strategy => "strategy", k_prefer => "prefer", k_otherwise => "otherwise",
    k_rules => "rules", k_use => "use",
    k_stat => "stat", k_private => "private", k_teams => "teams", k_team => "team",
    k_shown => "shown", k_participant => "participant",
    k_round => "round",
}

/// Joins phrases as "a, b or c".
/// Whether a word is one of the language's keywords (the grammar's `keyword` rule, whole).
pub fn is_keyword(w: &str) -> bool {
    use pest::Parser;
    CardgameParser::parse(Rule::keyword, w)
        .ok()
        .and_then(|mut pairs| pairs.next())
        .is_some_and(|p| p.as_str().len() == w.len())
}

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

/// Levenshtein distance with adjacent transpositions counted as one edit (shared with the checker's
/// "did you mean").
pub fn edit_distance(a: &str, b: &str) -> usize {
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

pub(super) fn describe_error(
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
            Some(w) if did_you_mean(w, TOP_LEVEL_KEYWORDS).is_some() => {
                did_you_mean(w, TOP_LEVEL_KEYWORDS).map(|k| format!("did you mean `{k}`?"))
            }
            None if found == "`}`" => {
                Some("this `}` closes nothing: is there one `}` too many above?".to_string())
            }
            None if found == "`[`" => Some(
                "an item cannot start with `[`: an element of a list is written right after the \
                 list, `L[i]` (counted from 1), inside an expression"
                    .to_string(),
            ),
            None => Some(
                "an item starts with a keyword such as `card`, `zone`, `fn` or `flow`".to_string(),
            ),
            Some(_) => Some(
                "an item starts with a keyword such as `card`, `zone`, `fn` or `flow`".to_string(),
            ),
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
        // `(`, `[`, `.`, `in`, `is` and `..` continue an expression: they are operators too.
        phrases.retain(|p| !["`(`", "`[`", "`.`", "`in`", "`is`", "`..`"].contains(&p.as_str()));
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

    // A name was expected and a keyword came: say so (keywords are reserved).
    if phrases.iter().any(|p| p == "a name") {
        if let Some(w) = word_at(src, err_pos).filter(|w| is_keyword(w)) {
            return SyntaxError::new(
                SyntaxError::UNEXPECTED,
                format!("`{w}` is a keyword of the language: it cannot be used as a name"),
                Span::new(err_pos, err_pos + w.len()),
                "keyword",
                Some(format!(
                    "choose another name (`{w}s`, `my_{w}`, ...); docs/language.md lists every keyword"
                )),
            );
        }
    }
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
    if help.is_none()
        && positives.contains(&Rule::k_let)
        && src.get(item_pos..).is_some_and(|r| r.starts_with("fn"))
    {
        help = Some(
            "a function changes nothing: its body is `let` names and then its value (`fn f(p: \
             player): int { let n = E  n + 1 }`); statements go in a `proc`, which can return a \
             value (`proc f(p: player): int { ... return n }`)"
                .to_string(),
        );
    }
    if help.is_none() {
        help = misspelled_keyword(src, err_pos)
            .map(|(w, k)| format!("`{w}` is not a keyword: did you mean `{k}`?"));
    }
    let help = help.or_else(|| {
        Some(format!(
            "write {expected} here; docs/language.md shows every form of the language"
        ))
    });
    SyntaxError::new(
        SyntaxError::UNEXPECTED,
        format!("expected {expected}, found {found}"),
        span,
        format!("expected {expected}"),
        help,
    )
}

/// A word of the line of `err_pos`, before it, that is not a keyword but is one misspelled
/// (`chose` for `choose`), the nearest to the error first: the likely cause of an error that
/// pest finds a few words later (`let c = chose c in L` fails at `in`).
fn misspelled_keyword(src: &str, err_pos: usize) -> Option<(&str, &'static str)> {
    let line_start = src.get(..err_pos)?.rfind('\n').map_or(0, |n| n + 1);
    let line = src.get(line_start..err_pos)?;
    let code = line.split("//").next().unwrap_or(line);
    let mut words: Vec<(usize, &str)> = Vec::new();
    let mut in_text = false;
    let mut start = None;
    for (i, c) in code
        .char_indices()
        .chain(std::iter::once((code.len(), ' ')))
    {
        if c == '"' {
            in_text = !in_text;
        }
        let word_char = !in_text && (c.is_ascii_alphanumeric() || c == '_');
        match (start, word_char) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                words.push((s, &code[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    words.into_iter().rev().find_map(|(at, w)| {
        let after = code.get(at + w.len()..).unwrap_or("").trim_start();
        let before = code.get(..at).unwrap_or("").trim_end();
        if is_keyword(w)
            || w.len() < 4
            || w.starts_with(|c: char| c.is_ascii_digit())
            || after.starts_with(['(', '.'])
            || before.ends_with('.')
        {
            return None;
        }
        let limit = if w.len() >= 6 { 2 } else { 1 };
        KEYWORDS
            .iter()
            .filter(|k| k.len() >= 3 && w != format!("{k}s"))
            .map(|k| (edit_distance(w, k), *k))
            .filter(|(d, _)| *d <= limit)
            .min_by_key(|(d, _)| *d)
            .map(|(_, k)| (w, k))
    })
}
