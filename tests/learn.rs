//! Command line, learning stage: `cardgame learn` writes the same model whatever `--jobs`, the model
//! plays through `--model`, and a model of another script or player count is refused with how to learn
//! again.

use std::path::PathBuf;

use crate::common::cardgame;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardgame-learn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

fn learn(script: &str, jobs: &str, out: &PathBuf) -> String {
    let o = cardgame(&[
        "learn",
        script,
        "--games",
        "20",
        "--generations",
        "2",
        "--seed",
        "5",
        "--jobs",
        jobs,
        "--out",
        out.to_str().expect("a path"),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read_to_string(out).expect("the model")
}

#[test]
fn learning_gives_the_same_model_whatever_the_jobs() {
    let (a, b) = (temp("one.model"), temp("two.model"));
    let one = learn("examples/two-piles.cardgame", "1", &a);
    let two = learn("examples/two-piles.cardgame", "2", &b);
    assert_eq!(one, two);
    assert!(one.starts_with("cardgame model 3\nscript "), "{one}");
    assert!(one.contains("\nplayers 2\n"), "{one}");
    assert!(one.contains("\nfeature me.*:Card 1 "), "{one}");
}

#[test]
fn a_model_plays_with_its_script_and_is_refused_by_another() {
    let path = temp("piles.model");
    learn("examples/two-piles.cardgame", "2", &path);
    let model = path.to_str().expect("a path");
    let ok = cardgame(&[
        "run",
        "examples/two-piles.cardgame",
        "--agents",
        "search:5,learned",
        "--model",
        model,
    ]);
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let other = cardgame(&[
        "run",
        "examples/market-race.cardgame",
        "--agents",
        "search:5",
        "--model",
        model,
    ]);
    assert_eq!(other.status.code(), Some(2));
    let e = String::from_utf8_lossy(&other.stderr);
    assert!(e.contains("another version of the script"), "{e}");
    assert!(e.contains("cardgame learn"), "{e}");
    let players = cardgame(&[
        "run",
        "examples/two-piles.cardgame",
        "--players",
        "3",
        "--agents",
        "search:5",
        "--model",
        model,
    ]);
    assert_eq!(players.status.code(), Some(2));
    let e = String::from_utf8_lossy(&players.stderr);
    assert!(e.contains("learned for 2 players, not 3"), "{e}");
    let none = cardgame(&["run", "examples/two-piles.cardgame", "--agents", "learned"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("--model"));
}
