//! Command line, watch stage: `check --watch` and `test --watch` run again whenever a script or a card
//! sheet it reads changes (the `notify` crate), until Ctrl-C.
//!
//! Each script's folder is watched rather than the file itself, so that an editor that saves by writing
//! a new file and renaming it over the old one (vim, many IDEs) is still followed. Events are gathered
//! until none has come for [`DEBOUNCE`], so that one save, made of several events, runs once.

use crate::diagnostics::{colours, paint, sheets_of};
use crate::SCRIPT_ERROR;
use notify::event::{AccessKind, AccessMode, EventKind};
use notify::{RecursiveMode, Watcher};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long the files must stay quiet after a change before the command runs again.
const DEBOUNCE: Duration = Duration::from_millis(100);

/// Clears a terminal and puts the cursor at its top left.
const CLEAR: &str = "\x1b[2J\x1b[H";

/// A watched script: its folder as the watcher reports it, and its path in that folder.
fn target(file: &Path) -> Result<(PathBuf, PathBuf), String> {
    let name = file
        .file_name()
        .ok_or_else(|| format!("{}: not a file name", file.display()))?;
    let parent = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let dir = parent
        .canonicalize()
        .map_err(|e| format!("{}: cannot watch: {e}", parent.display()))?;
    let path = dir.join(name);
    Ok((dir, path))
}

/// Whether an event may change what a script says: its contents changed, it was created, removed or
/// renamed, or a writer closed it. Opening and reading it (as the command itself does) is not.
fn is_change(kind: &EventKind) -> bool {
    match kind {
        EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_) | EventKind::Any => true,
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) | EventKind::Other => false,
    }
}

/// Run `once` now and again after every change of one of `files`, until the process is interrupted;
/// returns only when watching fails (exit code 1).
pub fn watch(files: &[PathBuf], mut once: impl FnMut() -> u8) -> u8 {
    use std::io::IsTerminal;
    let (tx, rx) = mpsc::channel();
    let mut watcher = match notify::recommended_watcher(move |event| {
        let _ = tx.send(event);
    }) {
        Ok(w) => w,
        Err(e) => {
            errln!("error: cannot watch files: {e}");
            return SCRIPT_ERROR;
        }
    };
    let mut dirs = BTreeSet::new();
    let mut paths = BTreeSet::new();
    for f in files {
        match target(f) {
            Ok((dir, path)) => {
                dirs.insert(dir);
                paths.insert(path);
            }
            Err(e) => {
                errln!("error: {e}");
                return SCRIPT_ERROR;
            }
        }
    }
    for dir in &dirs {
        if let Err(e) = watcher.watch(dir, RecursiveMode::NonRecursive) {
            errln!("error: cannot watch {}: {e}", dir.display());
            return SCRIPT_ERROR;
        }
    }
    let clear = std::io::stdout().is_terminal();
    let dim = colours().stderr;
    loop {
        if clear {
            // Flushed at once: the diagnostics that follow go to standard error, unbuffered.
            out!("{CLEAR}");
            let _ = std::io::Write::flush(&mut std::io::stdout());
        }
        // The card sheets the scripts read now (`cards from`), followed too; one that does not exist
        // yet is reported by the check and followed once its folder does.
        for sheet in files.iter().flat_map(|f| sheets_of(f)) {
            if let Ok((dir, path)) = target(&sheet) {
                if dirs.insert(dir.clone()) {
                    if let Err(e) = watcher.watch(&dir, RecursiveMode::NonRecursive) {
                        errln!("warning: cannot watch {}: {e}", dir.display());
                    }
                }
                paths.insert(path);
            }
        }
        let start = Instant::now();
        let code = once();
        let took = start.elapsed();
        errln!(
            "{}",
            paint(
                &format!(
                    "[watch] {} in {} ms (exit code {code}); waiting for changes, Ctrl-C ends",
                    if code == 0 { "done" } else { "failed" },
                    took.as_millis()
                ),
                "2",
                dim
            )
        );
        // Wait for a change of one of the scripts, then until they have been quiet for DEBOUNCE.
        let relevant =
            |e: &notify::Event| is_change(&e.kind) && e.paths.iter().any(|p| paths.contains(p));
        loop {
            match rx.recv() {
                Ok(Ok(e)) if relevant(&e) => break,
                Ok(Ok(_)) => {}
                Ok(Err(e)) => errln!("warning: watching files: {e}"),
                Err(_) => return code,
            }
        }
        let mut quiet_from = Instant::now();
        loop {
            let left = DEBOUNCE.saturating_sub(quiet_from.elapsed());
            match rx.recv_timeout(left) {
                Ok(Ok(e)) if relevant(&e) => quiet_from = Instant::now(),
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => break,
                Err(mpsc::RecvTimeoutError::Disconnected) => return code,
            }
        }
    }
}
