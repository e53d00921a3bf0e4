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
    learn_with(script, jobs, out, &[])
}

/// `learn` with a few games and generations, and the flags `extra`.
fn learn_with(script: &str, jobs: &str, out: &PathBuf, extra: &[&str]) -> String {
    learn_output(script, jobs, out, extra).0
}

/// `learn_with`'s model and what the command printed.
fn learn_output(script: &str, jobs: &str, out: &PathBuf, extra: &[&str]) -> (String, String) {
    let mut args = vec![
        "learn",
        script,
        "--games",
        "20",
        "--generations",
        "2",
        "--prior-generations",
        "2",
        "--prior-games",
        "10",
        "--search-iterations",
        "20",
        "--policy-rounds",
        "3",
        "--seed",
        "5",
        "--jobs",
        jobs,
        "--out",
        out.to_str().expect("a path"),
    ];
    args.extend(extra);
    let o = cardgame(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    (
        std::fs::read_to_string(out).expect("the model"),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

#[test]
fn learning_gives_the_same_model_whatever_the_jobs() {
    let (a, b) = (temp("one.model"), temp("two.model"));
    let one = learn("examples/two-piles.cardgame", "1", &a);
    let two = learn("examples/two-piles.cardgame", "2", &b);
    assert_eq!(one, two);
    assert!(one.starts_with("cardgame model 8\nscript "), "{one}");
    // The play-out policy, learned from the same games: a `move` line per option seen.
    assert!(one.contains("\nmove "), "{one}");
    // How the search uses the model, as the matches said (the crew's games played alone).
    assert!(
        ["end", "turn", "script"]
            .iter()
            .any(|s| one.contains(&format!("\nplayouts {s}\n"))),
        "{one}"
    );
    assert!(one.contains("\nplayers 2\n"), "{one}");
    assert!(one.contains("\nfeature me.*:Card 1 "), "{one}");
}

#[test]
fn a_model_plays_with_its_script_and_is_refused_by_another() {
    let path = temp("piles.model");
    learn("examples/two-piles.cardgame", "2", &path);
    let model = path.to_str().expect("a path");
    for agents in [
        "search:5,learned",
        "policy,search:5:deep=1",
        "policy:best,policy",
    ] {
        let ok = cardgame(&[
            "run",
            "examples/two-piles.cardgame",
            "--agents",
            agents,
            "--model",
            model,
        ]);
        assert_eq!(
            ok.status.code(),
            Some(0),
            "{agents}: {}",
            String::from_utf8_lossy(&ok.stderr)
        );
    }
    // A model of the version before the play-out policy: `search` plays with it, `policy` cannot.
    let text = std::fs::read_to_string(&path).expect("the model");
    let before: String = text
        .replace("cardgame model 8", "cardgame model 4")
        .lines()
        .filter(|l| {
            !["move ", "part ", "reads ", "unit "]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let old = temp("piles-4.model");
    std::fs::write(&old, before).expect("written");
    let old = old.to_str().expect("a path");
    let run = |agents: &str| {
        cardgame(&[
            "run",
            "examples/two-piles.cardgame",
            "--agents",
            agents,
            "--model",
            old,
        ])
    };
    assert_eq!(run("search:5").status.code(), Some(0));
    let refused = run("policy");
    assert_eq!(refused.status.code(), Some(2));
    let e = String::from_utf8_lossy(&refused.stderr);
    assert!(e.contains("has none: learn it again"), "{e}");
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

/// The model beside a script (`NAME.Np.model`, where `learn` writes it) is used without `--model`
/// by `run`, `sim`, `tournament`, `play` and `serve`, and said once on standard error; `--no-model`
/// ignores it; a script with none plays as before; one of another script, or of another player
/// count under that name, is refused with how to learn again or ignore it.
#[test]
fn a_model_beside_the_script_is_found_said_and_checked() {
    let dir = temp("beside");
    // Emptied first: a directory left by an earlier process of the same id would hold its models.
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let source = std::fs::read_to_string(format!(
        "{}/examples/two-piles.cardgame",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the script");
    let script = dir.join("piles.cardgame");
    std::fs::write(&script, &source).expect("the script copied");
    let file = script.to_str().expect("a path");
    let found = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stderr)
            .matches("found beside the script (`--no-model` ignores it)")
            .count()
    };
    // Not found: `learned` asks for a model, the other agents play without one, nothing is said.
    let none = cardgame(&["run", file, "--agents", "learned"]);
    assert_eq!(none.status.code(), Some(2));
    let plain = cardgame(&["run", file, "--agents", "search:5"]);
    assert_eq!(plain.status.code(), Some(0));
    assert_eq!(found(&plain), 0);
    // `learn` writes `piles.2p.model` beside it; every command then finds it and says so once.
    let o = cardgame(&[
        "learn",
        file,
        "--games",
        "10",
        "--generations",
        "1",
        "--prior-games",
        "4",
        "--prior-generations",
        "1",
        "--search-iterations",
        "20",
        "--policy-rounds",
        "2",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(dir.join("piles.2p.model").is_file());
    let runs: [&[&str]; 4] = [
        &["run", file, "--agents", "search:5,learned"],
        &[
            "sim", file, "--games", "4", "--jobs", "2", "--agents", "learned",
        ],
        &[
            "tournament",
            file,
            "--games",
            "2",
            "--agents",
            "learned,random",
        ],
        &["play", file, "--agents", "learned"],
    ];
    for args in runs {
        let o = cardgame(args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(
            found(&o),
            1,
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    // `--no-model` ignores it; with `--model` it is not a choice.
    let ignored = cardgame(&["run", file, "--no-model", "--agents", "search:5"]);
    assert_eq!(ignored.status.code(), Some(0));
    assert_eq!(found(&ignored), 0);
    let ignored = cardgame(&["run", file, "--no-model", "--agents", "learned"]);
    assert_eq!(ignored.status.code(), Some(2));
    let both = cardgame(&["run", file, "--no-model", "--model", "x.model"]);
    assert_eq!(both.status.code(), Some(2));
    // Three players look for `piles.3p.model`: none, so none is used.
    let three = cardgame(&["run", file, "--players", "3", "--agents", "search:5"]);
    assert_eq!(three.status.code(), Some(0));
    assert_eq!(found(&three), 0);
    // A model of two players under the three-player name is refused, and so is the model once the
    // script has changed; `--no-model` plays without it.
    std::fs::copy(dir.join("piles.2p.model"), dir.join("piles.3p.model")).expect("copied");
    let wrong = cardgame(&["run", file, "--players", "3", "--agents", "search:5"]);
    assert_eq!(wrong.status.code(), Some(2));
    let e = String::from_utf8_lossy(&wrong.stderr);
    assert!(e.contains("learned for 2 players, not 3"), "{e}");
    assert!(e.contains("found beside the script, for 3 players"), "{e}");
    assert!(e.contains("`--no-model`"), "{e}");
    std::fs::write(&script, source.replace("players 2..3", "players 2..4")).expect("changed");
    for args in [
        &["run", file, "--agents", "search:5"][..],
        &["serve", file, "--port", "0"][..],
    ] {
        let changed = cardgame(args);
        assert_eq!(changed.status.code(), Some(2), "{args:?}");
        let e = String::from_utf8_lossy(&changed.stderr);
        assert!(e.contains("another version of the script"), "{e}");
        assert!(
            e.contains("cardgame learn") && e.contains("`--no-model`"),
            "{e}"
        );
    }
    let ignored = cardgame(&["run", file, "--no-model", "--agents", "search:5"]);
    assert_eq!(ignored.status.code(), Some(0));
}

/// `learn` of Secret Bids with one generation, two rounds of the policy, `--prior-games` and
/// `--prior-generations` as given, on `jobs` threads: what it printed, and the model.
fn learn_bids(
    (prior_games, prior_generations): (&str, &str),
    jobs: &str,
    name: &str,
) -> (String, String) {
    learn_quickly(
        "examples/secret-bids.cardgame",
        (prior_games, prior_generations),
        jobs,
        name,
    )
}

/// [`learn_bids`] of another script.
fn learn_quickly(
    script: &str,
    (prior_games, prior_generations): (&str, &str),
    jobs: &str,
    name: &str,
) -> (String, String) {
    let out = temp(name);
    let o = cardgame(&[
        "learn",
        script,
        "--games",
        "20",
        "--generations",
        "1",
        "--prior-games",
        prior_games,
        "--prior-generations",
        prior_generations,
        "--policy-rounds",
        "2",
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
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    (text, std::fs::read_to_string(out).expect("the model"))
}

/// The matches `learn` reports (each the setting so far against a challenger, at equal work), checked
/// in order: the first `end` against `turn`, then each the setting the one before it chose against
/// the next of `challengers`; returns the setting the last chose.
fn matches_reported(report: &str, games: &str, challengers: &[&str]) -> String {
    let lines: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("search with the model, "))
        .collect();
    assert_eq!(lines.len(), challengers.len(), "{report}");
    let mut held = "end".to_string();
    for (line, challenger) in lines.iter().zip(challengers) {
        let both = format!("search with the model, `playouts {held}` (");
        assert!(line.starts_with(&both), "{line}\n{report}");
        let against = format!(") against `playouts {challenger}` (");
        assert!(line.contains(&against), "{line}");
        let played = format!("), {games} games of `search:250positions`: ");
        assert!(line.contains(&played), "{line}");
        let so = line
            .split(", so `playouts ")
            .nth(1)
            .and_then(|r| r.split('`').next())
            .unwrap_or_else(|| panic!("no setting chosen: {line}"));
        assert!(so == held || so == *challenger, "{line}");
        held = so.to_string();
    }
    held
}

/// In a game of two sides, `learn` plays the search's play-outs to the end against those cut at the
/// next turn, then the winner against the search judging each position at once by the model, then
/// against the search without the model, says the results and writes the setting chosen into the
/// model; the model is the same whatever `--jobs`.
#[test]
fn learning_chooses_the_search_s_play_outs_by_a_match() {
    let (report, one) = learn_bids(("6", "0"), "1", "bids-1.model");
    let (_, two) = learn_bids(("6", "0"), "2", "bids-2.model");
    assert_eq!(one, two);
    // Secret Bids has no measure to judge a position by at once: no match against `measure`.
    let chosen = matches_reported(&report, "6", &["turn", "now", "script"]);
    assert!(
        one.contains(&format!("\nplayouts {chosen}\n")),
        "{report}\n{one}"
    );
}

/// Where the script has a measure, a last match plays the setting so chosen against the search
/// without the model and without play-outs (`:now:nomodel`), and the model says which won.
#[test]
fn learning_with_a_measure_tries_judging_each_position_at_once() {
    let (report, model) = learn_quickly(
        "examples/sealed-crate.cardgame",
        ("6", "0"),
        "1",
        "crate.model",
    );
    let chosen = matches_reported(&report, "6", &["turn", "now", "script", "measure"]);
    assert!(
        model.contains(&format!("\nplayouts {chosen}\n")),
        "{report}\n{model}"
    );
}

/// `--prior-games 0`: no game of the search, so neither match nor prior generation runs, and the
/// model plays out to the end by its policy.
#[test]
fn learning_without_games_of_the_search_plays_out_to_the_end() {
    let (report, model) = learn_bids(("0", "8"), "1", "bids-quick.model");
    assert!(
        !report.contains("search's") && !report.contains("prior"),
        "{report}"
    );
    assert!(model.contains("\nplayouts end\n"), "{model}");
}

#[test]
fn the_policy_reads_what_is_asked_and_by_default_a_match_decides() {
    let out = temp("reads.model");
    let progress = learn_with(
        "examples/two-piles.cardgame",
        "1",
        &out,
        &["--policy-reads", "progress"],
    );
    assert!(
        !progress.contains("\nreads ") && progress.contains("\nmove "),
        "{progress}"
    );
    let position = learn_with(
        "examples/two-piles.cardgame",
        "1",
        &out,
        &["--policy-reads", "position"],
    );
    assert!(
        position.contains("\nreads me.hand ") && position.contains("\nmove "),
        "{position}"
    );
    // By default both are learned, and the match between them says which the model keeps.
    let (model, printed) = learn_output("examples/two-piles.cardgame", "1", &out, &[]);
    let line = printed
        .lines()
        .find(|l| l.contains("against the one of the progress alone"))
        .unwrap_or_else(|| panic!("no match between the policies:\n{printed}"));
    let reads = line.contains("so the one that reads the position;");
    assert_eq!(model.contains("\nreads "), reads, "{line}\n{model}");
    let wrong = cardgame(&[
        "learn",
        "examples/two-piles.cardgame",
        "--policy-reads",
        "all",
    ]);
    assert_eq!(wrong.status.code(), Some(2));
}

/// A race of a few hundred decisions a game, where a game of the matches' `search:250positions`
/// to the end plays a play-out of hundreds of decisions at each of them at least.
const LONG_RACE: &str = r#"game "Long Race" { players 2 }

var total per player: int = 0

action one label "one" { you.total += 1 }

action two label "two" { you.total += 2 }

flow {
  while max(p.total for p in everyone) < 400 {
    for p in from(seat(1)) {
      turn p {
        phase race { actions by p until pass [one, two] }
      }
    }
  }
  let most = max(p.total for p in everyone)
  win filter(p in everyone where p.total == most) "the highest total"
}
"#;

#[test]
fn learning_ends_near_its_time_where_a_game_of_the_search_would_not() {
    let script = temp("long-race.cardgame");
    std::fs::write(&script, LONG_RACE).expect("the script");
    let out = temp("long-race.model");
    let started = std::time::Instant::now();
    let o = cardgame(&[
        "learn",
        script.to_str().expect("a path"),
        "--time",
        "10s",
        "--jobs",
        "1",
        "--out",
        out.to_str().expect("a path"),
    ]);
    let took = started.elapsed();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // A first batch of each stage may run past the time (it is what times the others), never a
    // whole game of the matches' search.
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(
        took < std::time::Duration::from_secs(60),
        "learn --time 10s took {took:?}:\n{report}"
    );
    // The first match did not fit and says so. Where a first game of `end` did not fit either, the
    // matches were to start from `now`: the model plays out to the end unmeasured, or, where a game
    // judged at once fitted, the matches go on from it. Where that first game fitted (a quiet
    // machine), the match of `end` against `turn` is the one that did not, and `end` is held.
    let no_match = ": no match, its first game of `search:250positions` or first batch of games would end past the time, so `playouts ";
    let line = report
        .lines()
        .find(|l| l.contains(no_match))
        .unwrap_or_else(|| panic!("no unplayed match:\n{report}"));
    let end = "search with the model, `playouts end` (play-outs to the end by the model's policy) against ";
    let against_now =
        format!("{end}`playouts now` (no play-out, each position judged at once by the model)");
    let against_turn =
        format!("{end}`playouts turn` (play-outs cut at the next turn, judged by the model)");
    let model = std::fs::read_to_string(&out).expect("the model");
    if line.starts_with(&against_turn) || line.contains("so `playouts end`, unmeasured;") {
        assert!(
            line.starts_with(&against_turn) || line.starts_with(&against_now),
            "{line}"
        );
        assert!(line.contains("so `playouts end`, unmeasured;"), "{line}");
        assert!(model.contains("\nplayouts end\n"), "{model}");
    } else {
        assert!(line.starts_with(&against_now), "{line}");
        assert!(line.contains("so `playouts now`, unmeasured;"), "{line}");
        assert!(!model.contains("\nplayouts end\n"), "{report}\n{model}");
    }
}
