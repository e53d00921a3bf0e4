//! README tests: every command line of README.md's `sh` blocks that runs `cardgame` runs as written and
//! succeeds, from a folder that holds the repository's `games/` and `examples/`, with the binary under
//! test first on the PATH. Left out, and said so below: the `cargo` lines (the build and these tests
//! themselves), the commands that wait for a person or a client (`play`, `serve`, `lsp`, `--watch`) and
//! `learn`, which learns for minutes (`tests/learn.rs` runs it with short times).
//! The README's taste of the language is a whole game.

use crate::cli::{stdout, temp_file};
use crate::common::cardgame;
use std::path::Path;
use std::process::Command;

/// The command lines of the README's `sh` blocks, without their comments.
fn readme_commands() -> Vec<String> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let mut lines = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_sh = !in_sh && line == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let command = match line.find(" #") {
            Some(i) => &line[..i],
            None => line,
        }
        .trim();
        if !command.is_empty() {
            lines.push(command.to_string());
        }
    }
    lines
}

/// Why a command line is not run here, if it is not.
fn left_out(command: &str) -> Option<&'static str> {
    let words: Vec<&str> = command.split_whitespace().collect();
    if words.first() == Some(&"cargo") {
        return Some("a cargo command: the build and the tests themselves");
    }
    if !words.contains(&"cardgame") {
        return Some("not a cardgame command");
    }
    let waits = ["play", "serve", "lsp"];
    let after = |w: &&str| words.windows(2).any(|p| p[0] == "cardgame" && p[1] == *w);
    if waits.iter().any(after) || words.contains(&"--watch") {
        return Some("waits for a person or a client");
    }
    if after(&"learn") {
        return Some("learns for minutes by design (tests/learn.rs runs `learn` with short times)");
    }
    None
}

#[cfg(unix)]
#[test]
fn every_cheap_command_of_the_readme_runs_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("cardgame-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for sub in ["games", "examples"] {
        let link = dir.join(sub);
        if !link.exists() {
            std::os::unix::fs::symlink(root.join(sub), &link).expect("link");
        }
    }
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_cardgame"))
        .parent()
        .expect("the binary's folder");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = Vec::new();
    for command in readme_commands() {
        if left_out(&command).is_some() {
            continue;
        }
        let out = Command::new("bash")
            .args(["-c", &format!("set -euo pipefail; {command}")])
            .current_dir(&dir)
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .output()
            .expect("bash runs");
        assert!(
            out.status.success(),
            "`{command}` exited with {:?}\n{}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        ran.push(command);
    }
    let _ = std::fs::remove_dir_all(&dir);
    // The README shows each journey that ends by itself: a change that drops one fails here.
    for journey in [
        "check",
        "fmt",
        "test",
        "run",
        "sim",
        "tournament",
        "strategies",
        "merge",
    ] {
        assert!(
            ran.iter().any(|c| c
                .split_whitespace()
                .collect::<Vec<_>>()
                .windows(2)
                .any(|p| p[0] == "cardgame" && p[1] == journey)),
            "no README command runs `cardgame {journey}`: {ran:#?}"
        );
    }
}

#[test]
fn the_commands_left_out_are_the_ones_that_wait_or_build() {
    let mut left: Vec<String> = readme_commands()
        .into_iter()
        .filter_map(|c| left_out(&c).map(|why| format!("{c}  <- {why}")))
        .collect();
    left.sort();
    for l in &left {
        assert!(
            l.starts_with("cargo ") || l.contains("waits") || l.contains("learns for minutes"),
            "an unexpected command is left out: {l}"
        );
    }
}

// The README's taste of the language is a whole game: it checks, its rules test passes, and it plays.
#[test]
fn the_readme_taste_is_a_whole_game() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let start = readme.find("```cardgame\n").expect("a cardgame block") + "```cardgame\n".len();
    let len = readme[start..].find("```").expect("the block ends");
    let script = temp_file("taste.cardgame", &readme.as_bytes()[start..start + len]);
    let path = script.to_string_lossy().into_owned();
    let o = cardgame(&["check", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("0 errors, 0 warnings"),
        "{}",
        stdout(&o)
    );
    let o = cardgame(&["test", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("1 passed, 0 failed"), "{}", stdout(&o));
    let o = cardgame(&["run", &path, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("\"finished\":true"), "{}", stdout(&o));
}
