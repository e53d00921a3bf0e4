//! Diagnostics snapshots: one bad script per error code in tests/errors/, rendered without colour.

use cardgame_interpreter::check::check_source;
use cardgame_interpreter::report;

#[test]
fn every_error_code_has_a_rendered_snapshot() {
    insta::glob!("errors/*.cardgame", |path| {
        let source = std::fs::read_to_string(path).expect("readable test script");
        let checked = check_source(&source);
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("script");
        let code = name.split('-').next().unwrap_or("");
        assert!(
            checked.diagnostics.iter().any(|d| d.code == code),
            "{name}: expected a {code} diagnostic, got {:?}",
            checked
                .diagnostics
                .iter()
                .map(|d| (d.code, d.message.clone()))
                .collect::<Vec<_>>()
        );
        if code.starts_with('E') {
            assert!(
                checked.program.is_none(),
                "{name}: a script with errors must not produce a program"
            );
        }
        // docs/language.md promises a help line with every error and warning.
        for d in &checked.diagnostics {
            assert!(
                d.help.as_deref().is_some_and(|h| !h.is_empty()),
                "{name}: {} `{}` has no help line",
                d.code,
                d.message
            );
        }
        let rendered = report::render(&checked.diagnostics, name, &source, 100);
        // Rendered, each diagnostic shows its help line.
        assert_eq!(
            rendered.matches("\n  help: ").count(),
            checked.diagnostics.len(),
            "{name}: a rendered diagnostic has no help line:\n{rendered}"
        );
        insta::assert_snapshot!(format!(
            "{rendered}{}",
            report::summary(&checked.diagnostics)
        ));
    });
}

/// Every code the checker can emit (read from its sources), with E001 for syntax errors.
fn every_code() -> std::collections::BTreeSet<String> {
    let src_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/interpreter/src/check");
    let mut codes = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(src_dir).expect("checker sources") {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("source");
        for (i, _) in text.match_indices("\"E") {
            let code = &text[i + 1..(i + 5).min(text.len())];
            if code[1..].chars().all(|c| c.is_ascii_digit()) {
                codes.insert(code.to_string());
            }
        }
        for (i, _) in text.match_indices("\"W0") {
            codes.insert(text[i + 1..i + 5].to_string());
        }
    }
    codes.insert("E001".into());
    codes
}

fn corpus() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/errors");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .expect("tests/errors exists")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.ends_with(".cardgame"))
        .collect();
    files.sort();
    files
}

/// Every code the checker can emit has a bad script in tests/errors/.
#[test]
fn the_error_corpus_covers_every_code() {
    let files = corpus();
    for code in every_code() {
        assert!(
            files.iter().any(|f| f.starts_with(&code)),
            "no bad script in tests/errors/ shows {code}"
        );
    }
}

/// docs/cli.md promises a help on every diagnostic: `check --format json` over the whole corpus gives
/// every code at least once, and each of its diagnostics a non-empty `help`.
#[test]
fn every_code_has_a_help_in_json() {
    let files: Vec<String> = corpus()
        .iter()
        .map(|f| format!("tests/errors/{f}"))
        .collect();
    let mut args = vec!["check", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cardgame"))
        .args(&args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(1));
    let mut seen = std::collections::BTreeSet::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        if v["type"] != "diagnostic" {
            continue;
        }
        let code = v["code"].as_str().expect("a code").to_string();
        assert!(
            v["help"].as_str().is_some_and(|h| !h.trim().is_empty()),
            "{code} has no help: {v}"
        );
        seen.insert(code);
    }
    let missing: Vec<String> = every_code().difference(&seen).cloned().collect();
    assert!(missing.is_empty(), "codes never shown in JSON: {missing:?}");
}

fn render(source: &str) -> String {
    let checked = check_source(source);
    report::render(&checked.diagnostics, "long.cardgame", source, 100)
}

/// A line longer than miette can draw (65,535 columns) is shown as a window around the label, with the
/// error's code, message and true position kept.
#[test]
fn an_error_on_a_very_long_line_is_rendered_clipped() {
    let source = format!(
        "game \"x\" {{ players 2 }}\nfn f(): int = \"{}\" + zz\nflow {{ }}\n",
        "a".repeat(70_000)
    );
    let out = render(&source);
    assert!(
        out.contains("E102") && out.contains("unknown name `zz`"),
        "{out}"
    );
    assert!(out.contains("[long.cardgame:2:70020]"), "{out}");
    assert!(out.contains("…aaaa"), "{out}");
    assert!(out.lines().all(|l| l.chars().count() < 400), "{out}");
    // Several labels on one long line, and a whole script on one line.
    let one_line = format!(
        "game \"x\" {{ players 2 }} var v: int = 0 var v: int = 1 fn g(): int = \"{}\" flow {{ v = zz }}",
        "a".repeat(70_000)
    );
    let out = render(&one_line);
    assert!(
        out.contains("E101") && out.contains("E102"),
        "{}",
        &out[..out.len().min(3000)]
    );
}

/// Nesting deeper than the parser takes is an E001 error with a rendered snippet, never a stack overflow.
#[test]
fn deep_nesting_is_a_rendered_syntax_error() {
    for (open, close) in [("(", ")"), ("if true { ", "}"), ("not ", ""), ("-", "")] {
        let n = 100_000;
        let body = format!("{}1{}", open.repeat(n), close.repeat(n));
        let source = format!("game \"x\" {{ players 2 }}\nfn f(): int = {body}\nflow {{ }}\n");
        let out = render(&source);
        assert!(
            out.contains("E001") && out.contains("nested too deeply"),
            "{open}: {}",
            &out[..out.len().min(2000)]
        );
        assert!(out.lines().all(|l| l.chars().count() < 400), "{open}");
    }
}
