//! Command line, formatter stage: `cardgame fmt FILE... [--check]` writes scripts in the canonical
//! layout (docs/cli.md, `fmt`), or lists the scripts that are not.

use crate::diagnostics::{read, render};
use crate::SCRIPT_ERROR;
use cardgame_grammar::format::{format, FormatError};
use cardgame_interpreter::check::syntax_diagnostics;
use std::path::PathBuf;

/// `cardgame fmt FILE... [--check]`: the exit code (1 when a file does not parse or cannot be
/// written, or with `--check` when a file would change).
pub fn fmt(files: &[PathBuf], check: bool) -> u8 {
    let mut code = 0;
    for f in files {
        let source = match read(f) {
            Ok(s) => s,
            Err(e) => {
                errln!("error: {e}");
                code = SCRIPT_ERROR;
                continue;
            }
        };
        let formatted = match format(&source) {
            Ok(text) => text,
            Err(FormatError::Syntax(errors)) => {
                let diags = syntax_diagnostics(&errors);
                err!("{}", render(&diags, f, &source));
                errln!("{}: not formatted: the script does not parse", f.display());
                code = SCRIPT_ERROR;
                continue;
            }
            Err(e @ FormatError::Internal(_)) => {
                errln!("error: {}: {e}", f.display());
                code = SCRIPT_ERROR;
                continue;
            }
        };
        if formatted == source {
            continue;
        }
        if check {
            outln!("{}", f.display());
            code = SCRIPT_ERROR;
        } else if let Err(e) = std::fs::write(f, formatted) {
            errln!("error: {}: cannot write: {e}", f.display());
            code = SCRIPT_ERROR;
        }
    }
    code
}
