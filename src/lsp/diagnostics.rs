//! Language server stage: the checker's diagnostics (every error and warning, with its code, label,
//! related places and help) as LSP diagnostics.

use super::document::Document;
use cardgame_interpreter::diag::Severity;
use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
};

/// Every diagnostic of the document, in source order.
pub fn of(doc: &Document) -> Vec<Diagnostic> {
    doc.analysis
        .checked
        .diagnostics
        .iter()
        .map(|d| {
            // A diagnostic of a card sheet is shown on the script's `cards from` line, with its place.
            let in_sheet = super::sheet::place(doc, d.span);
            let span = in_sheet.as_ref().map_or(d.span, |(at, _)| *at);
            let location = |span| Location::new(doc.uri.clone(), doc.range(span));
            let mut related = vec![];
            if !d.label.is_empty() && d.label != "here" {
                related.push(DiagnosticRelatedInformation {
                    location: location(span),
                    message: d.label.clone(),
                });
            }
            for (span, text) in &d.related {
                if in_sheet.is_none() {
                    related.push(DiagnosticRelatedInformation {
                        location: location(*span),
                        message: text.clone(),
                    });
                }
            }
            let mut message = match &in_sheet {
                Some((_, at)) => format!("{at}: {}", d.message),
                None => d.message.clone(),
            };
            if let Some(help) = &d.help {
                related.push(DiagnosticRelatedInformation {
                    location: location(span),
                    message: format!("help: {help}"),
                });
                // Editors that do not show related information still show the help.
                message.push_str("\nhelp: ");
                message.push_str(help);
            }
            Diagnostic {
                range: doc.range(span),
                severity: Some(match d.severity {
                    Severity::Error => DiagnosticSeverity::ERROR,
                    Severity::Warning => DiagnosticSeverity::WARNING,
                }),
                code: Some(NumberOrString::String(d.code.to_string())),
                source: Some("cardgame".to_string()),
                message,
                related_information: Some(related),
                ..Diagnostic::default()
            }
        })
        .collect()
}
