//! Command line, diagnostics stage: reading scripts, rendering their diagnostics on standard error (with
//! colours on a terminal) and writing them as JSON (docs/cli.md, "Diagnostics and colour").

use crate::SCRIPT_ERROR;
use cardgame_interpreter::check::{analyse_with, Analysis, Checked};
use cardgame_interpreter::diag::{Diagnostic, Severity};
use cardgame_interpreter::program::Program;
use cardgame_interpreter::report;
use cardgame_interpreter::sheet::Sources;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The width at which diagnostics are drawn.
const WIDTH: usize = 100;

/// Whether to colour what goes to standard error and to standard output, decided once by `main`.
static COLOURS: OnceLock<Colours> = OnceLock::new();

/// Where to write terminal colours.
#[derive(Clone, Copy, Debug, Default)]
pub struct Colours {
    pub stderr: bool,
    pub stdout: bool,
}

/// `--color`: `auto` colours a stream that is a terminal, unless `NO_COLOR` is set to a non-empty value
/// or `TERM` is `dumb`; `always` and `never` override both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether a stream that is (or is not) a terminal gets colours, given the environment variables
    /// `NO_COLOR` and `TERM` as read by `var`.
    pub fn wants(self, terminal: bool, var: impl Fn(&str) -> Option<String>) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                terminal
                    && var("NO_COLOR").is_none_or(|v| v.is_empty())
                    && var("TERM").is_none_or(|t| t != "dumb")
            }
        }
    }
}

/// Decide the colours of both streams (only the first call counts).
pub fn set_colours(choice: ColorChoice) {
    use std::io::IsTerminal;
    let var = |k: &str| std::env::var_os(k).map(|v| v.to_string_lossy().into_owned());
    let _ = COLOURS.set(Colours {
        stderr: choice.wants(std::io::stderr().is_terminal(), var),
        stdout: choice.wants(std::io::stdout().is_terminal(), var),
    });
}

pub fn colours() -> Colours {
    COLOURS.get().copied().unwrap_or_default()
}

/// `text` in an ANSI style (`"32"` green, `"1;31"` bold red, `"2"` dim) when `on`, else as it is.
pub fn paint(text: &str, style: &str, on: bool) -> String {
    if on {
        format!("\x1b[{style}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// The text of a script, or why it cannot be read.
pub fn read(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// The one reader of the files a script reads beside it (its card sheets, `cards from "FILE"`): the
/// command line, the language server and `serve` all check a script through it. A name is a path from
/// the script's folder.
pub fn beside(script: &Path) -> impl Fn(&str) -> Result<String, String> {
    let dir = script.parent().map(Path::to_path_buf).unwrap_or_default();
    move |name: &str| {
        let bytes = std::fs::read(dir.join(name)).map_err(|e| e.to_string())?;
        String::from_utf8(bytes).map_err(|e| {
            format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            )
        })
    }
}

/// The card sheets the script at `script` names (`cards from "FILE"`), as paths from here, read from
/// its syntax alone (for `--watch` and `serve`'s reload, which follow them).
pub fn sheets_of(script: &Path) -> Vec<std::path::PathBuf> {
    let Ok(source) = read(script) else {
        return Vec::new();
    };
    let dir = script.parent().map(Path::to_path_buf).unwrap_or_default();
    let (parsed, _) = cardgame_grammar::parse(&source);
    parsed
        .items
        .iter()
        .filter_map(|i| match i {
            cardgame_grammar::ast::Item::CardsFrom(d) => d.path.plain().map(|p| dir.join(p)),
            _ => None,
        })
        .collect()
}

/// Check the text of the script at `path`, reading its sheets beside it.
pub fn analyse_file(path: &Path, source: &str) -> Analysis {
    analyse_with(source, &beside(path))
}

pub fn display_name(path: &Path) -> String {
    path.display().to_string()
}

/// Render a script's diagnostics for standard error (coloured when it is a terminal).
pub fn render(diags: &[Diagnostic], path: &Path, source: &str) -> String {
    report::render_styled(diags, &display_name(path), source, WIDTH, colours().stderr)
}

/// Render the diagnostics of a script and its sheets for standard error, each against its file.
pub fn render_all(diags: &[Diagnostic], path: &Path, sources: &Sources) -> String {
    report::render_sources(diags, &display_name(path), sources, WIDTH, colours().stderr)
}

/// Read and check a script (and its sheets); print its diagnostics on standard error on failure.
/// Returns the program and the text played: the script's, then its sheets'.
pub fn load(path: &Path) -> Result<(Arc<Program>, String), u8> {
    let source = read(path).map_err(|e| {
        errln!("error: {e}");
        SCRIPT_ERROR
    })?;
    let analysis = analyse_file(path, &source);
    let Checked {
        program,
        diagnostics,
    } = analysis.checked;
    match program {
        Some(p) => Ok((Arc::new(p), analysis.sources.text)),
        None => {
            err!("{}", render_all(&diagnostics, path, &analysis.sources));
            errln!("{}: {}", path.display(), report::summary(&diagnostics));
            Err(SCRIPT_ERROR)
        }
    }
}

/// Read a script and make the variant `settings` name (`--set`, docs/cli.md): a script that does not
/// check is exit 1 with its diagnostics, a setting that names nothing or does not fit exit 2. Returns
/// the program and the text played (the script's, with the settings written in).
pub fn load_variant(path: &Path, settings: &[String]) -> Result<(Arc<Program>, String), u8> {
    use cardgame_interpreter::variant::{variant_with, Setting, VariantError};
    if settings.is_empty() {
        return load(path);
    }
    let parsed: Result<Vec<Setting>, String> = settings.iter().map(|s| Setting::parse(s)).collect();
    let parsed = parsed.map_err(|e| {
        errln!("error: {e}");
        crate::USAGE
    })?;
    let source = read(path).map_err(|e| {
        errln!("error: {e}");
        SCRIPT_ERROR
    })?;
    match variant_with(&source, &parsed, &beside(path)) {
        Ok(v) => Ok((Arc::new(v.program), v.source)),
        Err(VariantError::Script(diagnostics)) => {
            let sources = analyse_file(path, &source).sources;
            err!("{}", render_all(&diagnostics, path, &sources));
            errln!("{}: {}", path.display(), report::summary(&diagnostics));
            Err(SCRIPT_ERROR)
        }
        Err(VariantError::Setting(e)) => {
            errln!("error: {e}");
            Err(crate::USAGE)
        }
    }
}

/// A byte offset of `source` as a 1-based line and a 1-based column counted in characters.
pub fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &source[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// One labelled span as JSON: where it starts and ends (end exclusive), and its text.
fn label_json(
    source: &str,
    span: cardgame_grammar::ast::Span,
    text: &str,
    primary: bool,
) -> serde_json::Value {
    let (line, column) = line_column(source, span.start);
    let (end_line, end_column) = line_column(source, span.end.max(span.start));
    serde_json::json!({
        "message": text,
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
        "primary": primary,
    })
}

/// A diagnostic as the JSON object of `check --format json` (docs/cli.md): its file is the script or
/// the sheet its span is in, and its labels are those in that file.
pub fn diagnostic_json(d: &Diagnostic, path: &Path, sources: &Sources) -> serde_json::Value {
    let (sheet, source, span) = sources.locate(d.span);
    let file = sheet.map_or_else(
        || display_name(path),
        |s| report::sheet_name(&display_name(path), &s.path),
    );
    let (line, column) = line_column(source, span.start);
    let mut labels = vec![label_json(source, span, &d.label, true)];
    labels.extend(d.related.iter().filter_map(|(s, text)| {
        let (other, _, local) = sources.locate(*s);
        (other.map(|o| o.start) == sheet.map(|o| o.start))
            .then(|| label_json(source, local, text, false))
    }));
    serde_json::json!({
        "type": "diagnostic",
        "file": file,
        "severity": match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        "code": d.code,
        "message": d.message,
        "line": line,
        "column": column,
        "help": d.help,
        "labels": labels,
    })
}

/// A file that cannot be read (or is not UTF-8) as a JSON diagnostic without a code or a place.
pub fn unreadable_json(path: &Path, message: &str) -> serde_json::Value {
    serde_json::json!({
        "type": "diagnostic",
        "file": display_name(path),
        "severity": "error",
        "code": null,
        "message": message,
        "line": null,
        "column": null,
        "help": "check the path, and that the file is a script saved as UTF-8 text",
        "labels": [],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sheets_a_script_names_are_followed_beside_it() {
        let dir = std::env::temp_dir().join(format!("cardgame-sheets-of-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let script = dir.join("g.cardgame");
        std::fs::write(
            &script,
            "game \"G\" { players 2 }\ncards from \"a.tsv\"\ncards from \"sub/b.csv\" {\n}\n",
        )
        .expect("script");
        assert_eq!(
            sheets_of(&script),
            vec![dir.join("a.tsv"), dir.join("sub/b.csv")]
        );
        std::fs::write(dir.join("a.tsv"), "name\nX\n").expect("sheet");
        assert_eq!(beside(&script)("a.tsv").as_deref(), Ok("name\nX\n"));
        assert!(beside(&script)("missing.tsv").is_err());
    }

    #[test]
    fn lines_and_columns_count_characters_from_one() {
        let s = "ab\nçd\r\nx";
        assert_eq!(line_column(s, 0), (1, 1));
        assert_eq!(line_column(s, 3), (2, 1));
        // `ç` is two bytes: `d` is the second character of line 2.
        assert_eq!(line_column(s, 5), (2, 2));
        assert_eq!(line_column(s, 8), (3, 1));
        // Inside a character and past the end: clamped, never a panic.
        assert_eq!(line_column(s, 4), (2, 1));
        assert_eq!(line_column(s, 99), (3, 2));
    }

    #[test]
    fn colour_follows_the_terminal_no_color_and_the_flag() {
        let none = |_: &str| None;
        let no_color = |k: &str| (k == "NO_COLOR").then(|| "1".to_string());
        let empty = |k: &str| (k == "NO_COLOR").then(String::new);
        let dumb = |k: &str| (k == "TERM").then(|| "dumb".to_string());
        assert!(ColorChoice::Auto.wants(true, none));
        assert!(!ColorChoice::Auto.wants(false, none));
        assert!(!ColorChoice::Auto.wants(true, no_color));
        assert!(ColorChoice::Auto.wants(true, empty));
        assert!(!ColorChoice::Auto.wants(true, dumb));
        assert!(ColorChoice::Always.wants(false, no_color));
        assert!(!ColorChoice::Never.wants(true, none));
    }
}
