//! Edge: renders diagnostics with miette (no colour, fixed width) for the command line and the snapshots.

use crate::diag::{Diagnostic, Severity};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode};
use std::fmt;

struct Report<'a> {
    d: &'a Diagnostic,
    source: &'a NamedSource<String>,
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.d.message)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.d.message)
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.d.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.d.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.d
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let len = self.source.inner().len();
        let clamp = |s: cardgame_grammar::ast::Span| {
            let start = s.start.min(len);
            let end = s.end.clamp(start, len);
            (start, end - start)
        };
        let mut labels = vec![LabeledSpan::new_primary_with_span(
            Some(self.d.label.clone()),
            clamp(self.d.span),
        )];
        for (span, text) in &self.d.related {
            labels.push(LabeledSpan::new_with_span(Some(text.clone()), clamp(*span)));
        }
        Some(Box::new(labels.into_iter()))
    }
}

/// Render diagnostics as text, without colour, at the given width.
pub fn render(diags: &[Diagnostic], file_name: &str, source: &str, width: usize) -> String {
    let named = NamedSource::new(file_name, source.to_string());
    let handler =
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(width);
    let mut out = String::new();
    for d in diags {
        let r = Report { d, source: &named };
        if handler.render_report(&mut out, &r).is_err() {
            out.push_str(&format!(
                "{}: {} ({}..{})\n",
                d.code, d.message, d.span.start, d.span.end
            ));
        }
        out.push('\n');
    }
    out
}

/// "2 errors, 1 warning"
pub fn summary(diags: &[Diagnostic]) -> String {
    let e = diags.iter().filter(|d| d.is_error()).count();
    let w = diags.len() - e;
    let plural = |n: usize, s: &str| format!("{n} {s}{}", if n == 1 { "" } else { "s" });
    format!("{}, {}", plural(e, "error"), plural(w, "warning"))
}
