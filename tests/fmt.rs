//! Formatter: `cardgame fmt` and `fmt --check` (exit codes, a script that does not parse); every
//! script of games/ and examples/ is kept formatted, formatting is idempotent, and a script whose
//! whitespace is scrambled formats back to it and means the same program (the same
//! `cards --format json`, the same seeded `run` trace, its rules tests passing).

use cardgame_grammar::format::{format, token_spans};
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::testing::run_tests;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::cli::{stderr, stdout, temp_file};
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

#[test]
fn fmt_check_lists_the_files_that_would_change_and_exits_1() {
    let tidy = temp_file("fmt-tidy.cardgame", b"zone a: set // a zone\n");
    let messy = temp_file("fmt-messy.cardgame", b"zone   b:set\n\n\n\nzone c: set");
    let (t, m) = (tidy.to_string_lossy(), messy.to_string_lossy());

    let o = cardgame(&["fmt", "--check", &t]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");

    let o = cardgame(&["fmt", "--check", &t, &m]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{m}\n"));
    let unchanged = std::fs::read_to_string(&messy).expect("readable");
    assert_eq!(
        unchanged, "zone   b:set\n\n\n\nzone c: set",
        "--check writes nothing"
    );

    let o = cardgame(&["fmt", &t, &m]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let formatted = std::fs::read_to_string(&messy).expect("readable");
    assert_eq!(formatted, "zone b: set\n\nzone c: set\n");
    let o = cardgame(&["fmt", "--check", &m]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn fmt_leaves_a_script_that_does_not_parse_and_reports_it() {
    let text = "zone   a: set\ncard \"X\" { copies }\n";
    let broken = temp_file("fmt-broken.cardgame", text.as_bytes());
    let b = broken.to_string_lossy();
    for args in [vec!["fmt", &*b], vec!["fmt", "--check", &*b]] {
        let o = cardgame(&args);
        assert_eq!(o.status.code(), Some(1));
        let err = stderr(&o);
        assert!(err.contains("E001"), "{err}");
        assert!(err.contains("does not parse"), "{err}");
        assert_eq!(std::fs::read_to_string(&broken).expect("readable"), text);
    }
    let o = cardgame(&["fmt", "--check", "no-such-file.cardgame"]);
    assert_eq!(o.status.code(), Some(1));
    let o = cardgame(&["fmt"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn fmt_check_accepts_every_script() {
    let files: Vec<String> = scripts()
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let mut args = vec!["fmt", "--check"];
    args.extend(files.iter().map(String::as_str));
    let o = cardgame(&args);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
}

/// A script that checks but fails during setup (a runtime error): every command that plays it exits
/// 1, the code of a script error (never 2, the code of a usage error), and the error names the
/// operator as the script writes it (`-`, not an internal name).
#[test]
fn a_runtime_error_in_setup_exits_1_from_every_command() {
    let script = crate::common::temp_script(
        "setup-fails.cardgame",
        "game \"Fails\" { players 2 }\nvar v: int = 0\nfn f(): int = first([none, 1])\n\
         setup { v = 5 - f() }\nflow { turn seat(1) { win active \"done {v}\" } }\n",
    );
    let file = script.to_str().expect("a UTF-8 path");
    assert_eq!(cardgame(&["check", file]).status.code(), Some(0));
    for args in [
        vec!["cards", file],
        vec!["run", file],
        vec!["sim", file, "--games", "2"],
        vec![
            "tournament",
            file,
            "--games",
            "2",
            "--agents",
            "random,first",
        ],
        vec!["play", file],
    ] {
        let o = cardgame(&args);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        let all = format!("{}{err}", String::from_utf8_lossy(&o.stdout));
        assert_eq!(o.status.code(), Some(1), "{args:?}: {all}");
        assert!(
            all.contains("line 4: cannot apply `-` to `5` and none"),
            "{args:?}: {all}"
        );
        assert!(!all.contains("Sub"), "{args:?}: {all}");
    }
}
