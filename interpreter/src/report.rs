//! Edge: renders diagnostics with miette at a fixed width, coloured for a terminal or plain (snapshots).
//!
//! miette draws the labelled source line by line, padding with formatting widths that must stay under
//! 65,536 columns; a longer line (a whole script on one line, a long string) would make it panic. So a
//! line longer than [`MAX_LINE`] bytes is shown as a window around the labels, with `…` where text was
//! left out; the header still names the true line and column.

use crate::diag::{Diagnostic, Severity};
use crate::sheet::Sources;
use cardgame_grammar::ast::Span;
use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents,
    SourceCode, SourceSpan, SpanContents,
};
use std::borrow::Cow;
use std::fmt;

/// The longest source line (in bytes) shown whole in a snippet.
pub const MAX_LINE: usize = 240;

/// Marks text left out of a clipped line.
const ELLIPSIS: &str = "…";

/// The source as a diagnostic shows it: every line break where the script has one, long lines clipped.
struct Snippet<'s> {
    name: String,
    text: Cow<'s, str>,
    /// The primary label's start in `text`, and its true line and column (0-based, in bytes) in the script.
    primary: usize,
    line: usize,
    column: usize,
}

impl SourceCode for Snippet<'_> {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let c = self.text.as_ref().read_span(span, before, after)?;
        let (line, column) = if before == 0 && span.offset() == self.primary {
            (self.line, self.column)
        } else {
            (c.line(), c.column())
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            c.data(),
            *c.span(),
            line,
            column,
            c.line_count(),
        )))
    }
}

struct Report<'a> {
    d: &'a Diagnostic,
    source: &'a Snippet<'a>,
    /// The labels' spans in `source.text`: the primary one first, then the related ones.
    spans: Vec<(usize, usize)>,
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
        let texts = std::iter::once(&self.d.label).chain(self.d.related.iter().map(|(_, t)| t));
        let labels: Vec<LabeledSpan> = self
            .spans
            .iter()
            .zip(texts)
            .enumerate()
            .map(|(i, (&(start, end), text))| {
                let span = (start, end - start);
                if i == 0 {
                    LabeledSpan::new_primary_with_span(Some(text.clone()), span)
                } else {
                    LabeledSpan::new_with_span(Some(text.clone()), span)
                }
            })
            .collect();
        Some(Box::new(labels.into_iter()))
    }
}

/// The largest char boundary of `s` at or below `i` (and within `s`).
fn floor_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Where one line of the script went in the snippet text.
struct LineMap {
    /// The line's start, the shown window and the end of its text (before `\r\n` or `\n`), in the script.
    start: usize,
    window: (usize, usize),
    end: usize,
    /// Where the window starts and the line's text ends in the snippet.
    new_window: usize,
    new_end: usize,
}

impl LineMap {
    fn map(&self, p: usize) -> usize {
        if p >= self.end {
            self.new_end + (p - self.end)
        } else if p <= self.window.0 {
            self.new_window
        } else {
            self.new_window + (p.min(self.window.1) - self.window.0)
        }
    }
}

/// Whether the script needs a snippet text of its own: a line too long to draw, or a lone `\r` (which
/// miette reads as a line break in one place and as a character in another).
fn needs_clipping(source: &str) -> bool {
    let b = source.as_bytes();
    let lone_cr = b
        .iter()
        .enumerate()
        .any(|(i, &c)| c == b'\r' && b.get(i + 1) != Some(&b'\n'));
    lone_cr || source.split('\n').any(|l| l.len() > MAX_LINE)
}

/// The script with each lone `\r` shown as a space and each line longer than [`MAX_LINE`] cut to a window
/// around the first of `points` (byte offsets, the primary label's start first) that falls in it.
fn clip(source: &str, points: &[usize]) -> (String, Vec<LineMap>) {
    let mut text = String::with_capacity(source.len().min(1 << 20));
    let mut maps = Vec::new();
    let mut start = 0;
    for raw in source.split_inclusive('\n') {
        let body = raw
            .strip_suffix("\r\n")
            .or_else(|| raw.strip_suffix('\n'))
            .unwrap_or(raw);
        let end = start + body.len();
        let window = if body.len() <= MAX_LINE {
            (start, end)
        } else {
            let anchor = points
                .iter()
                .copied()
                .find(|&p| p >= start && p <= end)
                .unwrap_or(start);
            let from = floor_boundary(source, anchor.saturating_sub(MAX_LINE / 3).max(start));
            let to = floor_boundary(source, (from + MAX_LINE).min(end));
            (from, to)
        };
        if window.0 > start {
            text.push_str(ELLIPSIS);
        }
        let new_window = text.len();
        text.extend(
            source[window.0..window.1]
                .chars()
                .map(|c| if c == '\r' { ' ' } else { c }),
        );
        if window.1 < end {
            text.push_str(ELLIPSIS);
        }
        let new_end = text.len();
        text.push_str(&raw[body.len()..]);
        maps.push(LineMap {
            start,
            window,
            end,
            new_window,
            new_end,
        });
        start += raw.len();
    }
    (text, maps)
}

/// Render one diagnostic.
fn render_one(
    handler: &GraphicalReportHandler,
    d: &Diagnostic,
    file_name: &str,
    source: &str,
    clipped: bool,
) -> Option<String> {
    let len = source.len();
    let clamp = |s: cardgame_grammar::ast::Span| {
        let start = floor_boundary(source, s.start.min(len));
        let end = floor_boundary(source, s.end.clamp(start, len));
        (start, end)
    };
    let spans: Vec<(usize, usize)> = std::iter::once(d.span)
        .chain(d.related.iter().map(|(s, _)| *s))
        .map(clamp)
        .collect();
    let primary = spans[0].0;
    let line = source[..primary].bytes().filter(|&b| b == b'\n').count();
    let column = primary - source[..primary].rfind('\n').map_or(0, |i| i + 1);
    let (text, spans) = if clipped {
        let points: Vec<usize> = spans.iter().flat_map(|&(s, e)| [s, e]).collect();
        let (text, maps) = clip(source, &points);
        let map = |p: usize| {
            let i = maps.partition_point(|m| m.start <= p).saturating_sub(1);
            maps.get(i).map_or(0, |m| m.map(p))
        };
        let spans = spans
            .iter()
            .map(|&(s, e)| (map(s), map(e).max(map(s))))
            .collect();
        (Cow::Owned(text), spans)
    } else {
        (Cow::Borrowed(source), spans)
    };
    let snippet = Snippet {
        name: file_name.to_string(),
        primary: spans[0].0,
        text,
        line,
        column,
    };
    let report = Report {
        d,
        source: &snippet,
        spans,
    };
    let mut out = String::new();
    handler.render_report(&mut out, &report).ok()?;
    Some(out)
}

/// Render diagnostics as text, without colour, at the given width.
pub fn render(diags: &[Diagnostic], file_name: &str, source: &str, width: usize) -> String {
    render_styled(diags, file_name, source, width, false)
}

/// Render diagnostics as text at the given width, with terminal colours (ANSI escapes) or without.
pub fn render_styled(
    diags: &[Diagnostic],
    file_name: &str,
    source: &str,
    width: usize,
    colour: bool,
) -> String {
    let theme = if colour {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(width);
    let clipped = needs_clipping(source);
    let mut out = String::new();
    for d in diags {
        match render_one(&handler, d, file_name, source, clipped) {
            Some(text) => out.push_str(&text),
            None => out.push_str(&format!(
                "{}: {} ({}..{})\n",
                d.code, d.message, d.span.start, d.span.end
            )),
        }
        out.push('\n');
    }
    out
}

/// Render the diagnostics of a script and the card sheets it reads (`sheet.rs`): each one against the
/// file its span is in, named beside the script (`games/x.tsv` for `games/x.cardgame`). A related span in
/// another file than the diagnostic's is left out of its drawing.
pub fn render_sources(
    diags: &[Diagnostic],
    file_name: &str,
    sources: &Sources,
    width: usize,
    colour: bool,
) -> String {
    if sources.sheets.is_empty() {
        return render_styled(diags, file_name, &sources.text, width, colour);
    }
    let mut out = String::new();
    for d in diags {
        let (sheet, text, span) = sources.locate(d.span);
        let name = sheet.map_or_else(|| file_name.to_string(), |s| sheet_name(file_name, &s.path));
        let in_file = |s: Span| {
            let (other, _, local) = sources.locate(s);
            (other.map(|o| o.start) == sheet.map(|o| o.start)).then_some(local)
        };
        let local = Diagnostic {
            span,
            related: d
                .related
                .iter()
                .filter_map(|(s, t)| in_file(*s).map(|l| (l, t.clone())))
                .collect(),
            ..d.clone()
        };
        out.push_str(&render_styled(&[local], &name, text, width, colour));
    }
    out
}

/// The name of a sheet read by the script `script_name`: its path from the script's folder.
pub fn sheet_name(script_name: &str, path: &str) -> String {
    match std::path::Path::new(script_name).parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(path).display().to_string(),
        _ => path.to_string(),
    }
}

/// "2 errors, 1 warning"
pub fn summary(diags: &[Diagnostic]) -> String {
    let e = diags.iter().filter(|d| d.is_error()).count();
    let w = diags.len() - e;
    let plural = |n: usize, s: &str| format!("{n} {s}{}", if n == 1 { "" } else { "s" });
    format!("{}, {}", plural(e, "error"), plural(w, "warning"))
}
