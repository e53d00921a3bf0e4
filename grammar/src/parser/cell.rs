//! Grammar stage: one cell of a card sheet (`cards from "FILE"`) parsed as the value a card's line writes.

use super::builder::Builder;
use super::error::describe_error;
use super::*;

/// Parses the text of a sheet's cell (a copy count or a property value) as an expression, with the same
/// parser as a script (`3`, `true`, `["Iron", "Wood"]`, `2 + count(...)`, `you.coins >= 3`). `offset` is where the cell's text starts in the text the spans count in.
pub fn parse_cell(cell: &str, offset: usize) -> Result<ast::Expr, SyntaxError> {
    if let Some(mut e) = check_nesting(cell) {
        e.span = Span::new(e.span.start + offset, e.span.end + offset);
        return Err(e);
    }
    pest::set_call_limit(NonZeroUsize::new(CALL_LIMIT));
    let bug = || internal_error(offset);
    match CardgameParser::parse(Rule::sheet_cell, cell) {
        Ok(mut pairs) => {
            let entry = pairs.next().ok_or_else(bug)?;
            let value = entry
                .into_inner()
                .find(|p| p.as_rule() == Rule::expr)
                .ok_or_else(bug)?;
            let mut b = Builder::new(cell, offset);
            let built = b.expr(value, 1).map_err(|_| bug())?;
            match b.errors.into_iter().next() {
                Some(e) => Err(e),
                None => Ok(built),
            }
        }
        Err(e) => {
            let at = error_position(&e);
            let mut err = describe_error(cell, 0, at, &e.variant);
            err.message = err
                .message
                .replace("the end of the file", "the end of the cell");
            err.span = Span::new(err.span.start + offset, err.span.end + offset);
            Err(err)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_is_an_expression_with_spans_in_the_whole_text() {
        let e = parse_cell("2 + 3", 100).expect("parses");
        assert_eq!(e.span, Span::new(100, 105));
        let e = parse_cell(r#"["Iron", "Wood"]"#, 7).expect("parses");
        assert_eq!(e.span.start, 7);
        let err = parse_cell("2 +", 50).expect_err("a dangling operator");
        assert!(err.span.start >= 50, "{err:?}");
        assert!(parse_cell("", 0).is_err());
        let e = parse_cell("you.coins >= 3", 0).expect("a comparison needs no parentheses");
        assert_eq!(e.span, Span::new(0, 14));
    }
}
