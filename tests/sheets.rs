//! Card sheets (`cards from "FILE"`): a script's cards written as a sheet (`cards --format tsv|csv`) and
//! read back give the same game; a sheet's mistakes are reported at its file, line and column.

use crate::common::cardgame;
use cardgame_grammar::ast::{CardItem, Item};
use std::path::{Path, PathBuf};

/// A folder of this test's own (a sheet is read beside its script).
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardgame-sheets-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `script` with its cards (none of a family) taken out and read from `sheet` instead: one `cards from`
/// where the first card was, keeping each card's abilities and triggers in a `card "Name" { }` block.
fn reading_sheet(script: &str, sheet: &str) -> String {
    let (parsed, errors) = cardgame_grammar::parse(script);
    assert!(errors.is_empty(), "{errors:?}");
    let mut cut = Vec::new();
    let mut blocks = String::new();
    for item in &parsed.items {
        let Item::Card(c) = item else { continue };
        assert!(c.family.is_empty(), "a family cannot be written as a sheet");
        cut.push((c.span.start, c.span.end));
        let kept: Vec<&str> = c
            .items
            .iter()
            .filter_map(|i| match i {
                CardItem::Ability(_, _, s) => Some(&script[s.start..s.end]),
                CardItem::Trigger(t) => Some(&script[t.span.start..t.span.end]),
                CardItem::Is(..)
                | CardItem::Copies(..)
                | CardItem::Text(..)
                | CardItem::Property(..) => None,
            })
            .collect();
        if !kept.is_empty() {
            blocks.push_str(&format!(
                "  card {} {{\n",
                &script[c.name.span.start..c.name.span.end]
            ));
            for k in kept {
                blocks.push_str(&format!("    {k}\n"));
            }
            blocks.push_str("  }\n");
        }
    }
    let mut out = String::new();
    let mut at = 0;
    for (i, (start, end)) in cut.iter().enumerate() {
        out.push_str(&script[at..*start]);
        if i == 0 {
            out.push_str(&format!("cards from \"{sheet}\" {{\n{blocks}}}"));
        }
        at = *end;
    }
    out.push_str(&script[at..]);
    out
}

/// A JSON trace without the script lines its `fail` events name (the copy's rules moved to other lines).
fn without_lines(trace: &str) -> Vec<serde_json::Value> {
    trace
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("a JSON event");
            if let Some(o) = v.as_object_mut() {
                o.remove("line");
            }
            v
        })
        .collect()
}

fn run(args: &[&str]) -> String {
    let out = cardgame(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Writes `game`'s cards as a sheet and a copy of it that reads them; returns the copy's path.
fn round_trip(game: &str, format: &str) -> PathBuf {
    let stem = Path::new(game)
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("a name");
    let dir = folder(&format!("{stem}-{format}"));
    let sheet = format!("{stem}.{format}");
    std::fs::write(dir.join(&sheet), run(&["cards", game, "--format", format])).expect("sheet");
    let script = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(game))
        .expect("the game");
    let copy = dir.join(format!("{stem}.cardgame"));
    std::fs::write(&copy, reading_sheet(&script, &sheet)).expect("script");
    copy
}

#[test]
fn a_game_read_from_its_sheet_is_the_same_game() {
    let game = "games/heart-of-crown.cardgame";
    let copy = round_trip(game, "tsv");
    let copy = copy.to_str().expect("a path");
    for players in ["2", "4"] {
        assert_eq!(
            run(&["cards", game, "--players", players, "--format", "json"]),
            run(&["cards", copy, "--players", players, "--format", "json"]),
        );
    }
    assert_eq!(
        run(&["cards", game, "--format", "tsv"]),
        run(&["cards", copy, "--format", "tsv"]),
        "the sheet written from the copy is the sheet it reads"
    );
    let trace = |f: &str| {
        run(&[
            "run",
            f,
            "--players",
            "3",
            "--seed",
            "11",
            "--format",
            "json",
        ])
    };
    let (a, b) = (trace(game), trace(copy));
    assert!(a.lines().count() > 1000, "a whole game");
    assert_eq!(without_lines(&a), without_lines(&b));
}

#[test]
fn a_csv_sheet_holds_lists_and_computed_values() {
    // Craft the Crown's recipes are lists of card names (commas and quotes in a cell); Crayne's
    // choices are computed (`if this.mode == 1 then 3 else 0`).
    for game in ["games/craft-the-crown.cardgame", "games/crayne.cardgame"] {
        let copy = round_trip(game, "csv");
        let copy = copy.to_str().expect("a path");
        assert_eq!(
            run(&["cards", game, "--format", "json"]),
            run(&["cards", copy, "--format", "json"]),
        );
        let trace = |f: &str| run(&["run", f, "--seed", "5", "--format", "json"]);
        assert_eq!(
            without_lines(&trace(game)),
            without_lines(&trace(copy)),
            "{game}"
        );
    }
}

#[test]
fn a_family_computed_from_its_names_is_not_written() {
    let out = cardgame(&[
        "cards",
        "games/crafty-explorers.cardgame",
        "--format",
        "tsv",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("name\tcopies\ttags\t"), "{text}");
}

/// The diagnostics of `tests/sheets/NAME.cardgame` as `check` prints them.
fn check(name: &str) -> String {
    let path = format!("tests/sheets/{name}.cardgame");
    let out = cardgame(&["check", &path]);
    assert_eq!(out.status.code(), Some(1));
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    )
}

#[test]
fn a_sheets_mistakes_are_shown_at_its_file_line_and_column() {
    let text = check("mistakes");
    for code in ["E105", "E104", "E201", "E101", "E001", "E103"] {
        assert!(text.contains(code), "{code} in {text}");
    }
    assert!(text.contains("tests/sheets/mistakes.tsv:1:"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn a_missing_sheet_is_one_error() {
    let text = check("missing");
    assert_eq!(text.matches("E317").count(), 1, "{text}");
    assert!(!text.contains("E103"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn check_json_names_the_sheet() {
    let out = cardgame(&[
        "check",
        "tests/sheets/mistakes.cardgame",
        "--format",
        "json",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    let files: Vec<String> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == "diagnostic")
        .map(|v| {
            format!(
                "{}:{}:{} {}",
                v["file"].as_str().unwrap_or(""),
                v["line"],
                v["column"],
                v["code"].as_str().unwrap_or("")
            )
        })
        .collect();
    insta::assert_snapshot!(files.join("\n"));
}

/// examples/card-sheet: a script and the sheet beside it. It checks clean, its rules test passes, it is
/// formatted, and the sheet written from it is the sheet it reads.
#[test]
fn the_example_reads_its_sheet() {
    let script = "examples/card-sheet/market-stall.cardgame";
    let checked = run(&["check", script]);
    assert!(checked.contains("0 errors, 0 warnings"), "{checked}");
    assert!(run(&["test", script]).contains("1 passed, 0 failed"));
    run(&["fmt", "--check", script]);
    let sheet = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/card-sheet/market-stall.tsv"),
    )
    .expect("the sheet");
    assert_eq!(run(&["cards", script, "--format", "tsv"]), sheet);
    let over = run(&["run", script, "--seed", "2"]);
    assert!(over.contains("result: winners:"), "{over}");
}

/// The parts of a study of a script that reads a sheet carry the hash of the text played (script and
/// sheet): `merge --script` reads the sheet beside the script to check it.
#[test]
fn a_sheets_study_merges_with_its_script() {
    let script = "examples/card-sheet/market-stall.cardgame";
    let part = folder("merge").join("part-0.json");
    let part = part.to_str().expect("a path");
    let out = cardgame(&[
        "sim", script, "--games", "4", "--shard", "0/1", "--out", part,
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged = run(&["merge", "--script", script, part]);
    assert!(merged.contains("Market Stall"), "{merged}");
}

/// A cell whose expression fails during play (a division by zero in Estate's points, read by the
/// score) is named by the sheet's file and line, not by a line past the script's end.
#[test]
fn an_error_in_a_cell_during_play_names_the_sheet() {
    let dir = folder("runtime");
    std::fs::copy(
        "examples/card-sheet/market-stall.cardgame",
        dir.join("market-stall.cardgame"),
    )
    .expect("copied");
    let sheet = std::fs::read_to_string("examples/card-sheet/market-stall.tsv").expect("the sheet");
    let broken = sheet.replacen(
        "Estate\t3 * players\tVictory\t\t1\t",
        "Estate\t3 * players\tVictory\t\t1 / (count(market) - count(market))\t",
        1,
    );
    assert_ne!(broken, sheet, "Estate's row as written");
    std::fs::write(dir.join("market-stall.tsv"), broken).expect("written");
    let script = dir.join("market-stall.cardgame").display().to_string();
    let out = cardgame(&["sim", &script, "--games", "2", "--jobs", "1", "--course"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("market-stall.tsv line 3: division by zero"),
        "{text}"
    );
}
