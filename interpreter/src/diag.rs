//! Checks stage: diagnostics as data (code, span, label, help), collected during compilation and rendered at the edge.

use cardgame_grammar::ast::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// One error or warning about a script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A stable code such as `E102`; the list is in docs/language.md.
    pub code: &'static str,
    pub message: String,
    pub span: Span,
    /// The text under the span.
    pub label: String,
    pub help: Option<String>,
    /// Other places that explain this one (a first definition, say).
    pub related: Vec<(Span, String)>,
}

impl Diagnostic {
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            span,
            label: String::from("here"),
            help: None,
            related: Vec::new(),
        }
    }
    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
    /// The help found (a "did you mean"), else `fallback`: every diagnostic has a help line.
    pub fn help_or(mut self, help: Option<String>, fallback: impl Into<String>) -> Self {
        self.help = Some(help.unwrap_or_else(|| fallback.into()));
        self
    }
    pub fn related(mut self, span: Span, text: impl Into<String>) -> Self {
        self.related.push((span, text.into()));
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The closest candidate to a misspelled name, for a "did you mean" help.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    closest(name, candidates).map(|c| format!("did you mean `{c}`?"))
}

/// The candidate closest to `name`, if it is close enough to be a misspelling.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    let limit = (name.chars().count() / 3).clamp(1, 3);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = cardgame_grammar::edit_distance(&lower, &c.to_lowercase());
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// "a card", "an int".
pub fn article(word: &str) -> &'static str {
    match word.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// Syntax errors as diagnostics (E001), as every tool at the edge reports them.
pub fn syntax_diagnostics(errors: &[cardgame_grammar::SyntaxError]) -> Vec<Diagnostic> {
    errors
        .iter()
        .map(|e| {
            Diagnostic::error("E001", e.span(), e.message.clone())
                .label(e.label.clone())
                .help_or(
                    e.help.clone(),
                    "docs/language.md shows every form of the language",
                )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names() {
        assert_eq!(
            did_you_mean("Farmng Village", ["City", "Farming Village"]),
            Some("did you mean `Farming Village`?".into())
        );
        assert_eq!(did_you_mean("xyz", ["City", "Duke"]), None);
        assert_eq!(
            did_you_mean("paly", ["play", "defense"]),
            Some("did you mean `play`?".into())
        );
    }
}
