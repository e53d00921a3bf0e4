//! Every script of games/ and examples/: it checks clean, its rules tests pass, and a seeded trace is
//! snapshotted (glob over the folders, so a new script is covered by adding the file).

use cardgame_interpreter::agents::make_agent;
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::engine::{render_event, Game, GameConfig, Status};
use cardgame_interpreter::program::Program;
use cardgame_interpreter::testing::run_tests;
use std::path::Path;
use std::sync::Arc;

fn load(path: &Path) -> (Arc<Program>, String) {
    let source = std::fs::read_to_string(path).expect("readable script");
    let checked = check_source(&source);
    let errors: Vec<String> = checked
        .diagnostics
        .iter()
        .map(|d| {
            format!(
                "{} {} at {}..{}",
                d.code, d.message, d.span.start, d.span.end
            )
        })
        .collect();
    let program = checked
        .program
        .unwrap_or_else(|| panic!("{}: {errors:#?}", path.display()));
    (Arc::new(program), source)
}

/// A seeded game with random players; the trace, at most `limit` lines, and the result.
pub fn trace(program: &Arc<Program>, players: u8, seed: u64, limit: usize) -> String {
    let mut game = Game::new(program.clone(), GameConfig::new(players, seed));
    let mut agents: Vec<_> = (0..players)
        .map(|s| make_agent(program, "random", seed, s).expect("agent"))
        .collect();
    let mut lines = Vec::new();
    let mut omitted = 0usize;
    loop {
        for e in game.take_events() {
            if let Some(l) = render_event(&game, &e, None) {
                if lines.len() < limit {
                    lines.push(l);
                } else {
                    omitted += 1;
                }
            }
        }
        let d = match game.status() {
            Status::Decision(d) => d.clone(),
            _ => break,
        };
        let i = agents[d.player as usize].choose(&game, &d);
        game.apply(i).expect("legal option");
    }
    if omitted > 0 {
        lines.push(format!("... {omitted} more lines"));
    }
    match game.status() {
        Status::Over(o) => lines.push(format!(
            "RESULT winners {:?} ({}) after {} turns, {} decisions",
            o.winners,
            o.reason,
            game.turns(),
            game.steps()
        )),
        Status::Error(e) => lines.push(format!("RESULT runtime error: {e}")),
        Status::Decision(_) => {}
    }
    lines.join("\n")
}

#[test]
fn scripts_check_clean_and_their_rules_tests_pass() {
    insta::glob!(
        env!("CARGO_MANIFEST_DIR"),
        "{games,examples}/*.cardgame",
        |path| {
            let (program, source) = load(path);
            let failures: Vec<String> = run_tests(&program, &source)
                .into_iter()
                .filter_map(|t| t.failure.map(|f| format!("{}: {f}", t.name)))
                .collect();
            assert!(
                failures.is_empty(),
                "{}:\n{}",
                path.display(),
                failures.join("\n")
            );
        }
    );
}

#[test]
fn seeded_traces() {
    insta::glob!(
        env!("CARGO_MANIFEST_DIR"),
        "{games,examples}/*.cardgame",
        |path| {
            let (program, _) = load(path);
            let t = trace(
                &program,
                program.min_players.max(2).min(program.max_players),
                7,
                300,
            );
            insta::assert_snapshot!(t);
        }
    );
}

/// Property check: many seeded random games of every script, the engine's invariants checked at every
/// step, every game ending by the rules (no runtime error).
#[test]
fn random_games_keep_the_invariants() {
    insta::glob!(
        env!("CARGO_MANIFEST_DIR"),
        "{games,examples}/*.cardgame",
        |path| {
            let (program, _) = load(path);
            for players in program.min_players..=program.max_players {
                for seed in 0..8u64 {
                    // No trace: recording is checked by the seeded traces and by the test below, and
                    // it multiplies the time of a long random game (Heart of Crown's run to 800 turns)
                    // by about five.
                    let mut config = GameConfig::new(players, seed);
                    config.record = false;
                    let mut game = Game::new(program.clone(), config);
                    let mut agents: Vec<_> = (0..players)
                        .map(|s| make_agent(&program, "random", seed, s).expect("agent"))
                        .collect();
                    loop {
                        if let Err(e) = game.check_invariants() {
                            panic!(
                                "{} with {players} players, seed {seed}: {e}",
                                path.display()
                            );
                        }
                        let d = match game.status() {
                            Status::Decision(d) => d.clone(),
                            Status::Over(_) => break,
                            Status::Error(e) => panic!(
                                "{} with {players} players, seed {seed}: {e}",
                                path.display()
                            ),
                        };
                        let i = agents[d.player as usize].choose(&game, &d);
                        assert!(i < d.options.len());
                        game.apply(i).expect("legal option");
                    }
                }
            }
        }
    );
}

/// Every agent only ever picks a legal option, in every script.
#[test]
fn agents_pick_only_legal_options() {
    insta::glob!(
        env!("CARGO_MANIFEST_DIR"),
        "{games,examples}/*.cardgame",
        |path| {
            let (program, _) = load(path);
            let players = program.min_players.max(2).min(program.max_players);
            for spec in ["first", "greedy", "mcts:8"] {
                let mut game = Game::new(program.clone(), GameConfig::new(players, 5));
                let mut agents: Vec<_> = (0..players)
                    .map(|s| make_agent(&program, spec, 5, s).expect("agent"))
                    .collect();
                let mut decisions = 0;
                while let Status::Decision(d) = game.status() {
                    let d = d.clone();
                    let i = agents[d.player as usize].choose(&game, &d);
                    assert!(
                        i < d.options.len(),
                        "{spec} chose {i} of {}",
                        d.options.len()
                    );
                    game.apply(i).expect("legal option");
                    decisions += 1;
                    if decisions > 300 {
                        break;
                    }
                }
                assert!(
                    !matches!(game.status(), Status::Error(_)),
                    "{spec}: {:?}",
                    game.status()
                );
            }
        }
    );
}
