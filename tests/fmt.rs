//! Formatter: every script of games/ and examples/ is kept formatted, formatting is idempotent, and a
//! script whose whitespace is scrambled formats back to it and means the same program (the same
//! `cards --format json`, the same seeded `run` trace, its rules tests passing).

use cardgame_grammar::format::{format, token_spans};
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::testing::run_tests;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::common::{cardgame, temp_script};

fn scripts() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut v = Vec::new();
    for dir in ["games", "examples"] {
        for e in std::fs::read_dir(root.join(dir)).expect("folder").flatten() {
            if e.path().extension().is_some_and(|x| x == "cardgame") {
                v.push(e.path());
            }
        }
    }
    v.sort();
    assert!(v.len() >= 8, "the scripts are found");
    v
}

/// The same tokens with other whitespace between them (comments kept as they are): every line
/// re-indented (twice as deep, give or take a space), several spaces and tabs between the tokens of a line, trailing
/// whitespace. Line breaks are kept, so that line numbers do not move.
fn scramble(src: &str, mut state: u64) -> String {
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let spans = token_spans(src).unwrap_or_else(|e| panic!("parses: {e:?}"));
    let mut out = String::new();
    let mut from = 0;
    for s in &spans {
        let between = &src[from..s.start];
        if from == 0 || between.contains("//") {
            out.push_str(between);
        } else {
            let breaks = between.matches('\n').count();
            for _ in 0..breaks {
                out.push_str(&" ".repeat(next() % 3));
                out.push('\n');
            }
            if breaks == 0 {
                out.push_str(["\t", " ", "   ", " \t "][next() % 4]);
            } else {
                // Twice the indentation, give or take a space: a line that continues an item
                // stays indented more than the items (the parser looks for items at the left).
                let indent = between.len() - between.rfind('\n').map_or(0, |n| n + 1);
                out.push_str(&" ".repeat(2 * indent + next() % 2));
            }
        }
        out.push_str(&src[s.start..s.end]);
        from = s.end;
    }
    out.push_str(&src[from..]);
    out
}

fn run(args: &[&str]) -> String {
    let o = cardgame(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn name(path: &Path) -> String {
    path.file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned())
}

#[test]
fn every_script_is_formatted_and_formatting_is_idempotent() {
    for path in scripts() {
        let src = std::fs::read_to_string(&path).expect("readable");
        let once = format(&src).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let twice = format(&once).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            once,
            twice,
            "{}: formatting twice changes it",
            path.display()
        );
        assert!(
            once == src,
            "{} is not formatted: run `cardgame fmt {}`",
            path.display(),
            path.display()
        );
    }
}

#[test]
fn scrambled_scripts_format_back_and_mean_the_same_program() {
    for (n, path) in scripts().into_iter().enumerate() {
        let src = std::fs::read_to_string(&path).expect("readable");
        let messy = scramble(&src, n as u64 + 1);
        assert_ne!(messy, src);
        let formatted = format(&messy).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            formatted == src,
            "{}: the scrambled script formats to another text",
            path.display()
        );
        assert_eq!(format(&formatted).ok().as_deref(), Some(formatted.as_str()));

        let before = temp_script(&format!("messy-{}", name(&path)), &messy);
        let after = temp_script(&format!("formatted-{}", name(&path)), &formatted);
        let (b, a) = (before.to_string_lossy(), after.to_string_lossy());
        let players = check_source(&formatted)
            .program
            .map(|p| p.min_players.max(2).min(p.max_players))
            .unwrap_or_else(|| panic!("{}: checks", path.display()))
            .to_string();
        for args in [
            vec!["cards", "--format", "json", "--players", &players],
            vec![
                "run",
                "--seed",
                "7",
                "--format",
                "json",
                "--players",
                &players,
            ],
        ] {
            let mut on_before = vec![args[0], &b];
            on_before.extend_from_slice(&args[1..]);
            let mut on_after = vec![args[0], &a];
            on_after.extend_from_slice(&args[1..]);
            assert_eq!(
                run(&on_before),
                run(&on_after),
                "{}: `{}` differs",
                path.display(),
                args[0]
            );
        }
        let program = Arc::new(check_source(&formatted).program.expect("checks"));
        let results = run_tests(&program, &formatted);
        let failed: Vec<String> = results
            .iter()
            .filter_map(|t| t.failure.as_ref().map(|f| format!("{}: {f}", t.name)))
            .collect();
        assert!(failed.is_empty(), "{}: {failed:?}", path.display());
    }
}
