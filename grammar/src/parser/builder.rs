//! Grammar stage: the builder of the typed syntax tree from pest pairs (shared helpers).

use std::collections::VecDeque;

use super::error::{keyword_name, SyntaxError};
use super::*;

// ───────────────────────────── building the tree ─────────────────────────────

/// An unexpected shape of the parse tree (a bug of the parser, never of the script).
pub(super) struct Bug;

pub(super) type R<T> = Result<T, Bug>;

/// The children of a pair, without keyword tokens (except the literals `true`, `false`, `none`).
pub(super) struct Kids<'i> {
    pub(super) q: VecDeque<P<'i>>,
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
        | Rule::range_op
        | Rule::has_op => true,
        _ => keyword_name(r).is_some(),
    }
}

pub(super) fn kids<'i>(p: &P<'i>) -> Kids<'i> {
    Kids {
        q: p.clone()
            .into_inner()
            .filter(|c| !is_keyword_token(c.as_rule()))
            .collect(),
    }
}

impl<'i> Kids<'i> {
    pub(super) fn next(&mut self) -> R<P<'i>> {
        self.q.pop_front().ok_or(Bug)
    }
    pub(super) fn take(&mut self, r: Rule) -> Option<P<'i>> {
        if self.q.front().map(|p| p.as_rule()) == Some(r) {
            self.q.pop_front()
        } else {
            None
        }
    }
    pub(super) fn rest(self) -> impl Iterator<Item = P<'i>> {
        self.q.into_iter()
    }
}

/// The rule of the first child of a pair (keywords included).
pub(super) fn first_rule(p: &P<'_>) -> Option<Rule> {
    p.clone().into_inner().next().map(|c| c.as_rule())
}

pub(super) fn has_child(p: &P<'_>, r: Rule) -> bool {
    p.clone().into_inner().any(|c| c.as_rule() == r)
}

pub(super) struct Builder<'s> {
    /// The parsed text (the source from the start of the item).
    pub(super) src: &'s str,
    /// Where the parsed text starts in the whole source.
    off: usize,
    pub(super) errors: Vec<SyntaxError>,
    pub(super) too_deep: bool,
}

impl<'s> Builder<'s> {
    pub(super) fn new(src: &'s str, off: usize) -> Self {
        Builder {
            src,
            off,
            errors: Vec::new(),
            too_deep: false,
        }
    }

    /// The span of a pair in the whole source, without the whitespace and comments that pest
    /// leaves at the end of a rule when an optional part after them is absent.
    pub(super) fn sp(&self, p: &P<'_>) -> Span {
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

    pub(super) fn ident(&self, p: &P<'_>) -> Ident {
        Ident {
            name: p.as_str().to_string(),
            span: self.sp(p),
        }
    }

    pub(super) fn error(
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
    pub(super) fn deep(&mut self, depth: usize, span: Span) -> bool {
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

    pub(super) fn int_value(&mut self, p: &P<'_>) -> i64 {
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

    pub(super) fn duplicate(&mut self, what: &str, span: Span) {
        self.error(
            SyntaxError::DUPLICATE,
            format!("{what} is given twice"),
            span,
            "given again here",
            Some("keep only one"),
        );
    }
}
