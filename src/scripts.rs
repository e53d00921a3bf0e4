//! Command line, scripts stage: `check` and `test`, which read whole scripts and report on them, as text
//! (diagnostics on standard error, results on standard output) or as JSON lines (docs/cli.md).

use crate::diagnostics::{
    analyse_file, colours, diagnostic_json, display_name, load, paint, read, render_all,
    unreadable_json,
};
use crate::{Format, TestLimits, SCRIPT_ERROR};
use cardgame_interpreter::report;
use cardgame_interpreter::testing::run_test;
use std::path::{Path, PathBuf};

/// `cardgame check FILE...`: the exit code (0 when no file has an error).
pub fn check(files: &[PathBuf], format: Format) -> u8 {
    let mut code = 0;
    for f in files {
        let source = match read(f) {
            Ok(s) => s,
            Err(e) => {
                match format {
                    Format::Text => errln!("error: {e}"),
                    Format::Json => {
                        outln!("{}", unreadable_json(f, &e));
                        outln!("{}", summary_json(f, 1, 0));
                    }
                }
                code = SCRIPT_ERROR;
                continue;
            }
        };
        let analysis = analyse_file(f, &source);
        let (checked, sources) = (analysis.checked, analysis.sources);
        let diags = &checked.diagnostics;
        match format {
            Format::Text => {
                err!("{}", render_all(diags, f, &sources));
                outln!("{}: {}", f.display(), report::summary(diags));
            }
            Format::Json => {
                for d in diags {
                    outln!("{}", diagnostic_json(d, f, &sources));
                }
                let errors = diags.iter().filter(|d| d.is_error()).count();
                outln!("{}", summary_json(f, errors, diags.len() - errors));
            }
        }
        if checked.program.is_none() {
            code = SCRIPT_ERROR;
        }
    }
    code
}

fn summary_json(file: &Path, errors: usize, warnings: usize) -> serde_json::Value {
    serde_json::json!({
        "type": "summary",
        "file": display_name(file),
        "errors": errors,
        "warnings": warnings,
    })
}

/// The tallies of a `test` run.
#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
    filtered_out: usize,
}

/// `cardgame test FILE...`: the exit code (1 when a test failed or a script has errors).
pub fn test(files: &[PathBuf], filter: Option<&str>, format: Format, limits: TestLimits) -> u8 {
    let paint_out = colours().stdout && format == Format::Text;
    let mut tally = Tally::default();
    for f in files {
        let loaded = match format {
            Format::Text => load(f).ok(),
            Format::Json => load_json(f),
        };
        let Some((program, source)) = loaded else {
            if format == Format::Text {
                outln!(
                    "{} {}: the script has errors",
                    paint("FAIL", "1;31", paint_out),
                    f.display()
                );
            }
            tally.failed += 1;
            continue;
        };
        for t in &program.tests {
            if filter.is_some_and(|w| !t.name.contains(w)) {
                tally.filtered_out += 1;
                continue;
            }
            let o = run_test(&program, t, &source, limits.max_steps, limits.max_decisions);
            match &o.failure {
                None => tally.passed += 1,
                Some(_) => tally.failed += 1,
            }
            match (format, &o.failure) {
                (Format::Text, None) => {
                    outln!(
                        "{}   {}: {}",
                        paint("ok", "32", paint_out),
                        f.display(),
                        o.name
                    )
                }
                (Format::Text, Some(why)) => outln!(
                    "{} {}: {}\n     {why}",
                    paint("FAIL", "1;31", paint_out),
                    f.display(),
                    o.name
                ),
                (Format::Json, failure) => outln!(
                    "{}",
                    serde_json::json!({
                        "type": "test",
                        "file": display_name(f),
                        "name": o.name,
                        "line": o.line,
                        "outcome": if failure.is_some() { "failed" } else { "passed" },
                        "message": failure,
                    })
                ),
            }
        }
    }
    let ran = tally.passed + tally.failed;
    if let Some(w) = filter {
        if ran == 0 {
            errln!("warning: no test name contains `{w}`");
        }
    }
    match format {
        Format::Text => {
            let mut line = format!("{} passed, {} failed", tally.passed, tally.failed);
            if filter.is_some() {
                line.push_str(&format!(", {} filtered out", tally.filtered_out));
            }
            let style = if tally.failed > 0 { "1;31" } else { "32" };
            outln!("{}", paint(&line, style, paint_out));
        }
        Format::Json => outln!(
            "{}",
            serde_json::json!({
                "type": "summary",
                "passed": tally.passed,
                "failed": tally.failed,
                "filtered_out": tally.filtered_out,
            })
        ),
    }
    u8::from(tally.failed > 0)
}

/// Read and check a script for `test --format json`: on failure its diagnostics are written as JSON
/// lines on standard output, since they are the result.
fn load_json(
    f: &Path,
) -> Option<(
    std::sync::Arc<cardgame_interpreter::program::Program>,
    String,
)> {
    let source = match read(f) {
        Ok(s) => s,
        Err(e) => {
            outln!("{}", unreadable_json(f, &e));
            return None;
        }
    };
    let analysis = analyse_file(f, &source);
    let (checked, sources) = (analysis.checked, analysis.sources);
    match checked.program {
        Some(p) => Some((std::sync::Arc::new(p), sources.text)),
        None => {
            for d in &checked.diagnostics {
                outln!("{}", diagnostic_json(d, f, &sources));
            }
            None
        }
    }
}
