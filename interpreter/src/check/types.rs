//! Checks stage: type mismatches said in the script's words (E201, with a help for the common
//! confusions), and the type of a local that a `let` declares.

use super::scope::Ctx;
use super::Compiler;
use crate::diag::{article, Diagnostic};
use crate::program::*;
use cardgame_grammar::ast::{self, Span};

impl Compiler<'_> {
    pub(crate) fn type_error(&mut self, span: Span, want: &Ty, got: &Ty) {
        let help = match (want, got) {
            (Ty::Card, Ty::List(_)) | (Ty::Card, Ty::Zone) => {
                Some("to take one card of a list use `first(L)` or `top of Z`".to_string())
            }
            (Ty::Int, Ty::Zone) => Some("to count the cards use `count(Z)`".to_string()),
            (Ty::Int, Ty::List(of)) if **of == Ty::Card => {
                Some("to count the cards use `count(L)`".to_string())
            }
            (Ty::Int, Ty::List(_)) => Some(
                "a list is not a number: `count(L)` counts its elements, `sum(x for x in L)` adds them"
                    .to_string(),
            ),
            (Ty::Kind, Ty::Text) => Some(
                "a card's exact name in quotes is a kind where a kind is expected, but a text kept \
                 in a local stays a text: declare the local's type where it is made, \
                 `let k: kind = \"Red 1\"` (`let ks: list of kind = [...]` for a list)"
                    .to_string(),
            ),
            (Ty::List(want), Ty::List(got)) if **want == Ty::Kind && **got == Ty::Text => Some(
                "a list of card names kept in a local stays a list of texts: declare its type \
                 where it is made, `let ks: list of kind = [\"Red 1\", \"Red 2\"]`"
                    .to_string(),
            ),
            (Ty::Bool, Ty::Int) => {
                Some("a condition is true or false: compare the number, as in `x > 0`".to_string())
            }
            (Ty::Int, Ty::Bool) => Some(
                "a number is needed here; `if C then 1 else 0` turns a condition into one"
                    .to_string(),
            ),
            _ => Some(format!(
                "this place takes {} {want}: change the value, or what it is used for",
                article(&want.to_string())
            )),
        };
        self.error(
            Diagnostic::error(
                "E201",
                span,
                format!(
                    "expected {} {want}, found {} {got}",
                    article(&want.to_string()),
                    article(&got.to_string())
                ),
            )
            .label(format!("this is {} {got}", article(&got.to_string())))
            .help_or(help, "change the value, or what it is used for"),
        );
    }

    /// The value of a `let` and the local's type: the type written after its name (the value must
    /// fit it, card names becoming kinds where kinds are declared), or else the value's own.
    pub(crate) fn let_value(
        &mut self,
        cx: &mut Ctx,
        declared: Option<&ast::TypeExpr>,
        e: &ast::Expr,
    ) -> (Expr, Ty) {
        match declared {
            Some(t) => {
                let ty = super::decls::lower_type(t);
                (self.expr_expect(cx, e, &ty), ty)
            }
            None => self.expr(cx, e),
        }
    }
}
