//! Agents stage: tests of the play-out policy (`moves.rs`): its keys, weights and options' parts,
//! its text form, the rational `tanh` and the hidden units kept up to date.

use super::{key, Moves, Read, Rows};
use crate::engine::Decision;
use cardgame_grammar::ast::Span;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A game whose pending decision the policies below never read (they weigh no parts).
fn any_game() -> crate::engine::Game {
    let src = "game \"G\" { players 2 }\nflow { let n = choose n in [1, 2] by seat(1) }\n";
    let program = crate::check::check_source(src).program.expect("checks");
    crate::engine::Game::new(
        std::sync::Arc::new(program),
        crate::engine::GameConfig::new(2, 1),
    )
}

#[test]
fn the_units_updated_read_as_the_units_summed_whole() {
    use super::super::features::FeatureSet;
    use crate::engine::{Game, GameConfig, Status};
    use rand::Rng;
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/market-race.cardgame"
    ))
    .expect("the example");
    let program = std::sync::Arc::new(crate::check::check_source(&src).program.expect("checks"));
    let features = FeatureSet::new(&program, 2);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut moves = Moves::default();
    for (i, name) in features.names().iter().enumerate() {
        if features.is_known(i) {
            moves.reads.push(Read {
                feature: i,
                name: name.clone(),
                mean: 1.0,
                spread: 2.0,
            });
        }
    }
    let width = 1 + moves.reads.len();
    moves.units = (0..5)
        .map(|_| (0..width).map(|_| rng.gen_range(-0.5..0.5)).collect())
        .collect();
    let mut game = Game::new(program.clone(), GameConfig::new(2, 9));
    let mut sums = super::UnitSums::default();
    let (mut updated, mut steps) = (0, 0);
    for step in 0..300 {
        steps += 1;
        let Status::Decision(d) = game.status() else {
            break;
        };
        let (seat, t) = (d.player, f64::from(step) / 100.0);
        let whole = moves.inputs(&features, &game, seat, t);
        let updating = moves.inputs_updating(&features, (&game, seat, t), &mut sums);
        assert_eq!(whole.len(), updating.len());
        for (a, b) in whole.iter().zip(&updating) {
            assert!(
                (a - b).abs() < 1e-12,
                "step {step}: {whole:?} against {updating:?}"
            );
        }
        updated += usize::from(sums.seats[usize::from(seat)].updates > 0);
        let n = d.options.len();
        game.apply(rng.gen_range(0..n)).expect("applies");
    }
    // Most readings were updates of the seat's last one, not sums made whole.
    assert!(
        steps > 20 && 4 * updated > 3 * steps,
        "{updated} of {steps}"
    );
}

fn decision(prompt: &str, options: &[&str]) -> Decision {
    Decision {
        player: 0,
        prompt: prompt.to_string(),
        options: options.iter().map(|s| s.to_string()).collect(),
        simultaneous: false,
        span: Span::default(),
    }
}

#[test]
fn the_rational_tanh_stays_within_seven_millionths_of_the_standard_one() {
    let worst = (-12_000..=12_000)
        .map(|i| f64::from(i) / 1000.0)
        .map(|x| (super::tanh(x) - x.tanh()).abs())
        .fold(0.0, f64::max);
    assert!(worst < 7e-6, "{worst}");
    assert_eq!(super::tanh(0.0), 0.0);
    assert_eq!(super::tanh(f64::INFINITY), 1.0);
    assert_eq!(super::tanh(-1e300), -1.0);
}

#[test]
fn a_key_reads_the_prompts_digits_as_one_mark_and_escapes_tabs() {
    assert_eq!(key("Discard 12 cards", "Copper"), "Discard # cards\tCopper");
    assert_eq!(
        key("Choose an action", "Buy 3\tx"),
        "Choose an action\tBuy 3\\tx"
    );
    assert_eq!(key("Back\\slash\n", "a\rb"), "Back\\\\slash\\n\ta\\rb");
    assert_eq!(key("Pay 2\t3", "x"), "Pay #\\t#\tx");
}

#[test]
fn the_policy_prefers_the_moves_that_weigh_most_and_reads_the_progress() {
    let mut moves = Moves::default();
    moves
        .weights
        .insert(key("Choose an action", "Buy Gold"), vec![2.0, -4.0]);
    let d = decision("Choose an action", &["Buy Gold", "pass"]);
    let g = any_game();
    // Early, Gold by e^2 to 1; late (t = 1), pass by e^2 to 1.
    let early = moves.chances((&g, &d), (&[1.0, 0.0], &mut Rows::default()));
    assert!((early[0] - 2f64.exp() / (2f64.exp() + 1.0)).abs() < 1e-9);
    let late = moves.chances((&g, &d), (&[1.0, 1.0], &mut Rows::default()));
    assert!(late[1] > 0.85, "{late:?}");
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let gold = (0..1000)
        .filter(|_| moves.pick((&g, &d), (&[1.0, 0.0], &mut Rows::default()), &mut rng) == 0)
        .count();
    assert!((820..940).contains(&gold), "{gold}");
    // `policy:best`: always the option scored highest, whatever the draw.
    assert!(
        (0..100).all(|_| moves.best((&g, &d), (&[1.0, 0.0], &mut Rows::default()), &mut rng) == 0)
    );
    assert!(
        (0..100).all(|_| moves.best((&g, &d), (&[1.0, 1.0], &mut Rows::default()), &mut rng) == 1)
    );
    // Equal scores: either, at random.
    let even = decision("Choose an action", &["never seen", "nor this"]);
    let first = (0..1000)
        .filter(|_| moves.best((&g, &even), (&[1.0, 0.0], &mut Rows::default()), &mut rng) == 0)
        .count();
    assert!((400..600).contains(&first), "{first}");
}

#[test]
fn a_policy_that_reads_the_position_weighs_its_features() {
    // "Buy Gold" weighs less the more Gold the decider owns: feature 3, mean 1, spread 2.
    let mut moves = Moves::default();
    moves.reads.push(Read {
        feature: 3,
        name: "me.*:Gold".into(),
        mean: 1.0,
        spread: 2.0,
    });
    moves
        .weights
        .insert(key("Choose an action", "Buy Gold"), vec![1.0, 0.0, -3.0]);
    let d = decision("Choose an action", &["Buy Gold", "pass"]);
    let g = any_game();
    // No Gold owned: z = -0.5, score 2.5; three owned: z = 1, score -2.
    let none = moves.scores(&g, &d, &[1.0, 0.0, -0.5], &mut Rows::default());
    let three = moves.scores(&g, &d, &[1.0, 0.0, 1.0], &mut Rows::default());
    assert_eq!((none[0], three[0], none[1]), (2.5, -2.0, 0.0));
    // Standardised, and clipped at 3 spreads: a rare count weighs no more than that.
    let read = &moves.reads[0];
    assert_eq!((read.standardise(0.0), read.standardise(3.0)), (-0.5, 1.0));
    assert_eq!(read.standardise(41.0), 3.0);
}

#[test]
fn an_options_parts_weigh_beside_its_label() {
    // Two spaces, a face-up Wood tile on the second: "Visit (2,1)" is made of a Wood tile.
    let src = "game \"P\" { players 2 }\ncard \"Wood\" { copies 1 }\n\
               spaces board: grid 2 by 1\nzone terrain per space: set\n\
               setup { move first(cards(\"Wood\", box)) to at(2, 1).terrain face up }\n\
               action visit(s in board) label \"Visit {s}\" { }\n\
               flow { actions by seat(1) times 1 [visit] }\n";
    let program = crate::check::check_source(src).program.expect("checks");
    let g = crate::engine::Game::new(
        std::sync::Arc::new(program),
        crate::engine::GameConfig::new(2, 1),
    );
    let crate::engine::Status::Decision(d) = g.status() else {
        panic!("a decision");
    };
    let mut moves = Moves::default();
    moves
        .weights
        .insert(key("Choose an action", "Visit (1,1)"), vec![0.5, 0.0]);
    moves.parts.insert(
        key("Choose an action", "visit 1=terrain:Wood"),
        vec![2.0, 1.0],
    );
    moves
        .parts
        .insert(key("Choose an action", "visit"), vec![-1.0, 0.0]);
    let inputs = [1.0, 0.5];
    assert_eq!(
        moves.scores(&g, d, &inputs, &mut Rows::default()),
        vec![-0.5, 1.5]
    );
    // Rows remembered (found and not found) give the same scores, looked up once.
    let mut rows = Rows::default();
    for _ in 0..3 {
        assert_eq!(moves.scores(&g, d, &inputs, &mut rows), vec![-0.5, 1.5]);
    }
    let once = rows.len;
    assert!(once > 2, "{once}");
    moves.scores(&g, d, &inputs, &mut rows);
    assert_eq!(rows.len, once);
    // The keys a learner records give the same scores.
    let keys = super::option_keys(&g, d, true);
    assert_eq!(
        keys[1].parts,
        vec![
            key("Choose an action", "visit"),
            key("Choose an action", "visit 1=terrain:Wood")
        ]
    );
    let by_keys: Vec<f64> = keys.iter().map(|k| moves.score_of(k, &inputs)).collect();
    assert_eq!(by_keys, vec![-0.5, 1.5]);
    assert!(super::option_keys(&g, d, false)
        .iter()
        .all(|k| k.parts.is_empty()));
    // Its lines: the moves', then the parts', and back.
    let text = moves.to_lines();
    assert_eq!(
        text,
        "move 0.5 0 Choose an action\tVisit (1,1)\npart -1 0 Choose an action\tvisit\n\
         part 2 1 Choose an action\tvisit 1=terrain:Wood\n"
    );
    let mut back = Moves::default();
    for l in text.lines() {
        back.read_line(l, &|_| None).unwrap();
    }
    assert_eq!(back, moves);
}

#[test]
fn the_lines_read_back_to_the_same_policy() {
    let feature = |name: &str| (name == "me.*:Gold ore").then_some(7);
    let mut moves = Moves::default();
    moves
        .weights
        .insert(key("Forge: trash", "Copper"), vec![1.5, -0.25]);
    moves
        .weights
        .insert(key("Choose an action", "pass"), vec![-0.5, 0.0]);
    let read_back = |text: &str| {
        let mut back = Moves::default();
        for l in text.lines() {
            back.read_line(l, &feature).unwrap();
        }
        back
    };
    let text = moves.to_lines();
    assert_eq!(
        text,
        "move -0.5 0 Choose an action\tpass\nmove 1.5 -0.25 Forge: trash\tCopper\n"
    );
    let mut back = read_back(&text);
    assert_eq!(back, moves);
    assert!(back.read_line("move 1 x a\tb", &feature).is_err());
    assert!(back.read_line("move 1 2 no-tab", &feature).is_err());
    // A policy that reads the position: its `reads` lines first, three weights a move.
    let mut reading = Moves::default();
    reading.reads.push(Read {
        feature: 7,
        name: "me.*:Gold ore".into(),
        mean: 1.5,
        spread: 0.5,
    });
    reading.weights.insert(
        key("Choose an action", "Buy Gold ore"),
        vec![1.0, 2.0, -0.75],
    );
    let text = reading.to_lines();
    assert_eq!(
        text,
        "reads me.*:Gold ore 1.5 0.5\nmove 1 2 -0.75 Choose an action\tBuy Gold ore\n"
    );
    let mut back = read_back(&text);
    assert_eq!(back, reading);
    // Hidden units: a `unit` line each (a bias and a weight per feature read), and moves
    // weighing their outputs: `tanh(0.5 + 2 z)`.
    let mut network = reading.clone();
    network.units.push(vec![0.5, 2.0]);
    network.weights.values_mut().for_each(|w| w.truncate(2));
    network.weights.values_mut().for_each(|w| w.push(3.0));
    let text_units = network.to_lines();
    assert!(
        text_units.contains("\nunit 0.5 2\nmove 1 2 3 Choose"),
        "{text_units}"
    );
    assert_eq!(read_back(&text_units), network);
    let inputs = network.inputs_of(&[0.25], 0.5);
    assert_eq!(inputs, vec![1.0, 0.5, super::tanh(1.0)]);
    assert!(Moves::default().read_line("unit 1 2", &feature).is_err());
    // Two weights where three are read; a feature the script lacks; `reads` after a move.
    assert!(back.read_line("move 1 2 a\tb", &feature).is_err());
    assert!(Moves::default()
        .read_line("reads me.*:Lead 1 1", &feature)
        .is_err());
    assert!(back.read_line("reads me.*:Gold ore 1 1", &feature).is_err());
}
