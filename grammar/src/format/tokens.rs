//! Formatter stage: the tokens of a script, read from the pairs of the grammar (never a second parser),
//! with what the layout needs to know of each (its rule, its parent rule, the line-level construct it
//! belongs to), and the shape of the tree that the formatter's output must keep.

use pest::iterators::Pair;

use crate::parser::{item_pairs, Rule, SyntaxError};

/// One token of a script: a leaf of the grammar's tree (a keyword, a name, a number, a whole text
/// with its interpolations, an operator or a bracket).
#[derive(Clone, Debug)]
pub(crate) struct Tok {
    /// The rule that matched the token.
    pub rule: Rule,
    /// The rule of the pair that holds it (`call` for the `(` of a call, `paren` for a grouping `(`).
    pub parent: Rule,
    /// Byte offsets in the source.
    pub start: usize,
    pub end: usize,
    /// Whether the token is the first of a line-level construct (an item, a member of a card, a
    /// statement, a test step, a branch...).
    pub starts_construct: bool,
    /// The index of the first token of the innermost line-level construct holding this token.
    pub construct: usize,
}

/// The tokens of a script and the shape of its tree (rules, nesting and token texts, without
/// positions): two scripts with the same shape are the same program.
pub(crate) struct Tokens {
    pub toks: Vec<Tok>,
    pub shape: Vec<ShapeEvent>,
}

/// One step of a walk over the tree: entering a rule, a token, leaving a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ShapeEvent {
    Enter(Rule),
    Token(Rule, String),
    Leave,
}

/// The rules that are laid out as lines: each starts a line of its own in a block (when the author
/// broke the line there), and the lines that continue it are indented one level more.
fn is_construct(rule: Rule) -> bool {
    use Rule::*;
    matches!(
        rule,
        game_decl
            | table_decl
            | tags_decl
            | property_decl
            | var_decl
            | zone_decl
            | spaces_decl
            | event_decl
            | abilities_decl
            | card_decl
            | cards_from_decl
            | sheet_card
            | fn_decl
            | proc_decl
            | action_decl
            | trigger
            | setup_decl
            | flow_decl
            | check_decl
            | test_decl
            | strategy_decl
            | rules_decl
            | stat_decl
            | participant_decl
            | game_players
            | option_decl
            | table_columns
            | table_row
            | card_is
            | card_copies
            | card_text
            | card_ability
            | card_property
            | test_players
            | test_seed
            | test_option
            | test_names
            | test_given
            | test_start
            | step_choose
            | step_options_has
            | step_options_lacks
            | step_decider
            | step_winners
            | step_over
            | step_not_over
            | step_log
            | step_strategy_picks
            | step_expect
            | step_do
            | strategy_rule
            | strategy_use
            | strategy_otherwise
            | stmt_let_choose
            | stmt_let
            | stmt_move
            | stmt_shuffle
            | stmt_pay
            | stmt_reveal
            | stmt_hide
            | stmt_show
            | stmt_if
            | else_if
            | else_block
            | stmt_for
            | stmt_while
            | stmt_repeat
            | stmt_loop
            | stmt_break
            | stmt_require
            | stmt_strict
            | stmt_stop
            | stmt_return
            | stmt_assign_choose
            | fn_let
            | stmt_perform
            | stmt_emit
            | stmt_turn
            | stmt_phase
            | stmt_round
            | stmt_end_turn
            | stmt_end_phase
            | stmt_end_round
            | stmt_actions
            | stmt_choose_branch
            | branch
            | stmt_simultaneously
            | stmt_eliminate
            | stmt_win
            | stmt_log
            | stmt_stat
            | stmt_assign
            | stmt_call
    )
}

/// Whether a rule is read as one token: the atomic rules (no inner pairs) and a whole text, whose
/// interpolations are kept as written.
fn is_leaf(pair: &Pair<'_, Rule>) -> bool {
    pair.as_rule() == Rule::text || pair.clone().into_inner().next().is_none()
}

enum Step<'i> {
    Visit(Pair<'i, Rule>, Rule),
    Leave(usize),
}

/// Reads the tokens of a script that parses; the syntax errors otherwise.
pub(crate) fn tokens(source: &str) -> Result<Tokens, Vec<SyntaxError>> {
    let items = item_pairs(source)?;
    let mut toks: Vec<Tok> = Vec::new();
    let mut shape = Vec::new();
    for (offset, item) in items {
        // The start token of the innermost construct; `usize::MAX` until the item's first token.
        let mut construct = usize::MAX;
        let mut pending_start = false;
        let mut stack = vec![Step::Visit(item, Rule::item_entry)];
        while let Some(step) = stack.pop() {
            let (pair, parent) = match step {
                Step::Leave(saved) => {
                    construct = saved;
                    shape.push(ShapeEvent::Leave);
                    continue;
                }
                Step::Visit(pair, parent) => (pair, parent),
            };
            let rule = pair.as_rule();
            if is_leaf(&pair) {
                let span = pair.as_span();
                let index = toks.len();
                let starts = pending_start;
                if starts || construct == usize::MAX {
                    construct = index;
                }
                pending_start = false;
                toks.push(Tok {
                    rule,
                    parent,
                    start: offset + span.start(),
                    end: offset + span.end(),
                    starts_construct: starts,
                    construct,
                });
                shape.push(ShapeEvent::Token(rule, pair.as_str().to_string()));
                continue;
            }
            shape.push(ShapeEvent::Enter(rule));
            stack.push(Step::Leave(construct));
            if is_construct(rule) {
                pending_start = true;
            }
            let children: Vec<Pair<'_, Rule>> = pair.into_inner().collect();
            for child in children.into_iter().rev() {
                stack.push(Step::Visit(child, rule));
            }
        }
    }
    Ok(Tokens { toks, shape })
}
