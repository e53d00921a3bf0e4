//! Agents stage, inference from what others do (`ismcts ...:infer`, interpreter/src/agents/infer.rs),
//! run on demand in release mode: `cargo test --release -- --ignored inference:: --nocapture`.
//!
//! - Sealed Crate (examples/sealed-crate.cardgame): the merchant plays the written strategy `honest`
//!   (names what the crate holds, a Rag as the Crown), the buyer is the search. Over 200 games, the
//!   share of the buyer's accusations that catch a lie is at least twice that of the same search
//!   without inference (a buyer that does not read what the merchant's name tells), and above twice
//!   the share of lies among all names (1 in 8: what any buyer that ignores the name catches).
//! - The same in matches of five crates (`--option rounds=5`, the search the buyer of every other
//!   crate): at least as often as without inference.
//! - Monty Hall: with inference on, the contestant still switches in at least 90% of 200 games, and
//!   so does the default `search:50ms`.
//!
//! Each check prints its counts, rates with their 95% (Wilson) intervals, and the search's mean time
//! per decision (one core, the machine's load included).

use cardgame_interpreter::agents::make_agent;
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::engine::{Game, GameConfig, Status};
use cardgame_interpreter::program::{OptionId, Program};
use cardgame_interpreter::sim::{game_seed, wilson};
use cardgame_interpreter::value::Value;
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

/// The card in `merchant`'s crate, read by the referee (not by any agent).
fn crate_card(game: &Game, merchant: u8) -> String {
    let v = game.view(merchant);
    let name = format!("P{}.crate", merchant + 1);
    let zone = v.zones.iter().find(|z| z.name == name).expect("zone");
    zone.cards
        .first()
        .cloned()
        .flatten()
        .expect("the merchant sees it")
}

/// Accusations made by `buyer` against `strategy:honest` in [`GAMES`] games of `rounds` crates
/// (one crate: the search is the buyer, seat 2; a match: in seat 2 of even games and seat 1 of odd
/// ones, the buyer of every other crate), and how many caught a lie; with the search's time per
/// decision.
fn accusations(buyer: &str, rounds: u32) -> (u64, u64, Duration) {
    let p = program("examples/sealed-crate.cardgame");
    let (mut made, mut caught, mut spent, mut decisions) = (0, 0, Duration::ZERO, 0u32);
    for i in 0..GAMES {
        let seed = game_seed(SEED, i);
        let mut config = GameConfig::new(2, seed);
        if rounds > 1 {
            let option = p
                .options
                .iter()
                .position(|o| o.name == "rounds")
                .expect("option");
            config.options = vec![(OptionId(option as u16), Value::Int(i64::from(rounds)))];
        }
        let mut game = Game::new(p.clone(), config);
        let seat = if rounds == 1 { 1 } else { 1 - (i % 2) as u8 };
        let mut agents = [
            make_agent(
                &p,
                if seat == 0 { buyer } else { "strategy:honest" },
                seed,
                0,
            ),
            make_agent(
                &p,
                if seat == 1 { buyer } else { "strategy:honest" },
                seed,
                1,
            ),
        ]
        .map(|a| a.expect("agent"));
        let mut named = String::new();
        while let Status::Decision(d) = game.status() {
            let d = d.clone();
            let started = Instant::now();
            let choice = agents[d.player as usize].choose(&game, &d);
            if d.player == seat {
                spent += started.elapsed();
                decisions += 1;
            }
            let label = &d.options[choice];
            if let Some(name) = label.strip_prefix("Name ") {
                named = name.to_string();
            } else if label == "Accuse" && d.player == seat {
                made += 1;
                caught += u64::from(crate_card(&game, 1 - seat) != named);
            }
            game.apply(choice).expect("applies");
        }
    }
    (made, caught, spent / decisions.max(1))
}

fn show(who: &str, made: u64, caught: u64, spent: Duration) -> f64 {
    let (rate, lo, hi) = wilson(caught as f64, made);
    eprintln!(
        "Sealed Crate: {who} accused {made} times in {GAMES} games, caught a lie in {caught} \
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
    let (made, caught, spent) = accusations(INFER, 1);
    let infer = show(INFER, made, caught, spent);
    let (made, caught, spent) = accusations(PLAIN, 1);
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
    // The default agent too, with its time budget (`search:50ms`).
    let (search, _) = switches("search:50ms");
    assert!(
        search * 10 >= GAMES * 9,
        "search:50ms switched in {search} of {GAMES}"
    );
}

/// A match of five crates: the worlds are drawn from the whole history, which later crates make
/// rarely matched (the search then falls back to worlds without inference for the rest of the
/// game); inference still makes the accusations right at least as often as without it.
#[test]
#[ignore = "slow: run in release mode"]
fn sealed_crate_match_accusations_with_inference() {
    let (made, caught, spent) = accusations(INFER, 5);
    let infer = show(&format!("{INFER} (5 crates)"), made, caught, spent);
    let (made, caught, spent) = accusations(PLAIN, 5);
    let plain = show(&format!("{PLAIN} (5 crates)"), made, caught, spent);
    assert!(infer >= plain, "{infer:.3} against {plain:.3}");
}
