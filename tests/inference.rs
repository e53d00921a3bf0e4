//! Agents stage, inference from what others do (`ismcts ...:infer`, interpreter/src/agents/infer.rs),
//! run on demand in release mode: `cargo test --release -- --ignored inference:: --nocapture`.
//!
//! - Sealed Crate (examples/sealed-crate.cardgame): the merchant plays the written strategy `honest`
//!   (names what the crate holds, a Rag as the Crown), the buyer is the search. Over 200 games, the
//!   share of the buyer's accusations that catch a lie is at least twice that of the same search
//!   without inference (a buyer that does not read what the merchant's name tells), and above twice
//!   the share of lies among all names (1 in 8: what any buyer that ignores the name catches).
//! - Monty Hall: with inference on, the contestant still switches in at least 90% of 200 games.
//!
//! Each check prints its counts, rates with their 95% (Wilson) intervals, and the search's mean time
//! per decision (one core, the machine's load included).

use cardgame_interpreter::agents::make_agent;
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::engine::{Game, GameConfig, Status};
use cardgame_interpreter::program::Program;
use cardgame_interpreter::sim::{game_seed, wilson};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The base seed of every check.
const SEED: u64 = 41;
/// Games per check.
const GAMES: u64 = 200;
/// The search with inference, and the same search without.
const INFER: &str = "ismcts:1000:random:infer";
const PLAIN: &str = "ismcts:1000";

fn program(path: &str) -> Arc<Program> {
    let src =
        std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect("script");
    Arc::new(check_source(&src).program.expect("the script checks"))
}

/// The card in the merchant's crate, read by the referee (not by any agent).
fn crate_card(game: &Game) -> String {
    let v = game.view(0);
    let zone = v.zones.iter().find(|z| z.name == "P1.crate").expect("zone");
    zone.cards
        .first()
        .cloned()
        .flatten()
        .expect("the merchant sees it")
}

/// Accusations made by `buyer` against `strategy:honest` in [`GAMES`] games, and how many caught a
/// lie; with the buyer's time per decision.
fn accusations(buyer: &str) -> (u64, u64, Duration) {
    let p = program("examples/sealed-crate.cardgame");
    let (mut made, mut caught, mut spent) = (0, 0, Duration::ZERO);
    for i in 0..GAMES {
        let seed = game_seed(SEED, i);
        let mut game = Game::new(p.clone(), GameConfig::new(2, seed));
        let mut merchant = make_agent(&p, "strategy:honest", seed, 0).expect("agent");
        let mut search = make_agent(&p, buyer, seed, 1).expect("agent");
        let mut named = String::new();
        while let Status::Decision(d) = game.status() {
            let d = d.clone();
            let choice = if d.player == 0 {
                merchant.choose(&game, &d)
            } else {
                let started = Instant::now();
                let c = search.choose(&game, &d);
                spent += started.elapsed();
                c
            };
            let label = &d.options[choice];
            if d.player == 0 {
                named = label.trim_start_matches("Name ").to_string();
            } else if label == "Accuse" {
                made += 1;
                caught += u64::from(crate_card(&game) != named);
            }
            game.apply(choice).expect("applies");
        }
    }
    (made, caught, spent / GAMES as u32)
}

fn show(who: &str, made: u64, caught: u64, spent: Duration) -> f64 {
    let (rate, lo, hi) = wilson(caught as f64, made);
    eprintln!(
        "Sealed Crate: {who} accused in {made} of {GAMES} games, caught a lie in {caught} \
         ({:.1}% [{:.1}-{:.1}]), {:.2} ms a decision",
        100.0 * rate,
        100.0 * lo,
        100.0 * hi,
        spent.as_secs_f64() * 1000.0
    );
    rate
}

#[test]
#[ignore = "slow: run in release mode"]
fn sealed_crate_accusations_are_right_twice_as_often_with_inference() {
    let (made, caught, spent) = accusations(INFER);
    let infer = show(INFER, made, caught, spent);
    let (made, caught, spent) = accusations(PLAIN);
    let plain = show(PLAIN, made, caught, spent);
    eprintln!(
        "ratio {:.2} (a buyer that ignores the name catches a lie in 12.5%)",
        infer / plain.max(f64::MIN_POSITIVE)
    );
    assert!(infer >= 2.0 * plain, "{infer:.3} against {plain:.3}");
    assert!(infer >= 2.0 / 8.0, "{infer:.3}");
}

/// How often `contestant` switches doors in [`GAMES`] games against a random host, with its time per
/// decision.
fn switches(contestant: &str) -> (u64, Duration) {
    let p = program("examples/monty-hall.cardgame");
    let (mut switched, mut spent) = (0u64, Duration::ZERO);
    for i in 0..GAMES {
        let seed = game_seed(SEED, i);
        let mut game = Game::new(p.clone(), GameConfig::new(2, seed));
        let mut search = make_agent(&p, contestant, seed, 0).expect("agent");
        let mut host = make_agent(&p, "random", seed, 1).expect("agent");
        while let Status::Decision(d) = game.status() {
            let d = d.clone();
            let choice = if d.player == 0 {
                let started = Instant::now();
                let c = search.choose(&game, &d);
                spent += started.elapsed();
                switched += u64::from(d.options[c].starts_with("Switch"));
                c
            } else {
                host.choose(&game, &d)
            };
            game.apply(choice).expect("applies");
        }
    }
    let (rate, lo, hi) = wilson(switched as f64, GAMES);
    eprintln!(
        "Monty Hall: {contestant} switched in {switched} of {GAMES} games ({:.1}% [{:.1}-{:.1}]), \
         {:.2} ms a decision",
        100.0 * rate,
        100.0 * lo,
        100.0 * hi,
        spent.as_secs_f64() * 1000.0 / (2 * GAMES) as f64
    );
    (switched, spent)
}

#[test]
#[ignore = "slow: run in release mode"]
fn monty_hall_still_switches_with_inference() {
    let (plain, _) = switches(PLAIN);
    let (infer, _) = switches(INFER);
    assert!(
        infer * 10 >= GAMES * 9,
        "switched in {infer} of {GAMES} (without inference: {plain})"
    );
}
