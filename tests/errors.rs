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
        let rendered = report::render(&checked.diagnostics, name, &source, 100);
        insta::assert_snapshot!(format!(
            "{rendered}{}",
            report::summary(&checked.diagnostics)
        ));
    });
}

/// Every code the checker can emit has a bad script in tests/errors/.
#[test]
fn the_error_corpus_covers_every_code() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/errors");
    let files: Vec<String> = std::fs::read_dir(dir)
        .expect("tests/errors exists")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
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
    for code in codes {
        assert!(
            files.iter().any(|f| f.starts_with(&code)),
            "no bad script in tests/errors/ shows {code}"
        );
    }
}
