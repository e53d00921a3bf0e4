//! Agents stage, tests: the search that plays no play-out and judges each new position at once
//! (`search:N:now`, a model that says `playouts measure` or `playouts now`).

use super::{make_agent_with, Model, Playouts};
use crate::check::check_source;
use crate::engine::{Game, GameConfig, Status};
use crate::program::Program;
use std::sync::Arc;

/// Market Race, checked, and its text.
fn market_race() -> (Arc<Program>, String) {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/market-race.cardgame"
    ))
    .expect("the example");
    let program = Arc::new(check_source(&src).program.expect("the script checks"));
    (program, src)
}

/// The first 12 choices of a game of Market Race (seed 5) where `spec` plays both seats.
fn choices(program: &Arc<Program>, spec: &str, model: Option<&Arc<Model>>) -> Vec<String> {
    let mut config = GameConfig::new(2, 5);
    config.record = false;
    let mut game = Game::new(program.clone(), config);
    let mut agents: Vec<_> = (0..2u8)
        .map(|s| make_agent_with(program, spec, 7, s, model).expect("agent"))
        .collect();
    let mut labels = Vec::new();
    while let Status::Decision(d) = game.status().clone() {
        if labels.len() == 12 {
            break;
        }
        let i = agents[d.player as usize].choose(&game, &d);
        labels.push(d.options[i].clone());
        game.apply(i).expect("applies");
    }
    labels
}

/// `model` saying `playouts`.
fn saying(model: &Model, playouts: Playouts) -> Arc<Model> {
    let mut model = model.clone();
    model.playouts = playouts;
    Arc::new(model)
}

/// `search:N:now` plays no play-out: it chooses as `ismcts:N:random:0` does, which judges each
/// new position at once; so does `search:N` with a model whose learning chose `playouts
/// measure`, and not with one that chose `playouts script` (play-outs of two turns).
#[test]
fn a_search_now_judges_each_position_at_once() {
    let (p, src) = market_race();
    let blank = Model::blank(&p, super::model::script_hash(&src), 2);
    let (measure, script) = (
        saying(&blank, Playouts::Measure),
        saying(&blank, Playouts::Script),
    );
    let at_once = choices(&p, "ismcts:40:random:0", None);
    assert_eq!(choices(&p, "search:40:now", None), at_once);
    assert_eq!(choices(&p, "search:40", Some(&measure)), at_once);
    assert_eq!(
        choices(&p, "search:40", Some(&script)),
        choices(&p, "search:40", None)
    );
    assert_ne!(choices(&p, "search:40", None), at_once);
}

/// With a model that has a play-out policy, the search that judges each position at once lets the
/// policy's chances guide its tree, whatever the model says of play-outs: `search:N` with a model
/// that says `playouts now` chooses as `search:N:now` with one that says `playouts end` or
/// `playouts turn`, and not as the same search without the policy.
#[test]
fn judged_at_once_the_tree_follows_the_play_out_policy() {
    let (p, src) = market_race();
    let learned = super::charges::learned_briefly(&p, src.clone(), 12, 0);
    assert!(!learned.moves.is_empty(), "a play-out policy is fitted");
    let now = choices(&p, "search:40", Some(&saying(&learned, Playouts::Now)));
    for playouts in [Playouts::End, Playouts::Turn] {
        let told = choices(&p, "search:40:now", Some(&saying(&learned, playouts)));
        assert_eq!(told, now, "{playouts:?}");
    }
    let mut without = learned.clone();
    without.moves = Default::default();
    let unguided = choices(&p, "search:40", Some(&saying(&without, Playouts::Now)));
    assert_ne!(unguided, now);
}

/// A node of the tree keeps the play-out policy's chances as the first world that reached it read
/// them (`Guide::chances_held`): the same chances as the policy gives that world, and in a later
/// world at the node the options it already scored keep their scores (the ratio of two options'
/// chances unchanged), where the position itself has moved on.
#[test]
fn a_node_keeps_the_chances_its_first_world_read() {
    use super::guide::Guide;
    use rand::{Rng, SeedableRng};
    let (p, src) = market_race();
    let model = Arc::new(super::charges::learned_briefly(&p, src, 12, 0));
    let mut guide = Guide::new(Some(model), false);
    let mut config = GameConfig::new(2, 3);
    config.record = false;
    let mut game = Game::new(p.clone(), config);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    // Each seat's node, held from the seat's first decision with a choice.
    let mut held = [None, None];
    let mut first: [Option<(Vec<String>, Vec<f64>)>; 2] = [None, None];
    let (mut compared, mut moved) = (0, 0);
    for _ in 0..400 {
        let Status::Decision(d) = game.status().clone() else {
            break;
        };
        let seat = d.player as usize;
        if d.options.len() > 1 {
            let fresh = guide.chances_by_moves(&game).expect("a policy");
            match &first[seat] {
                None => {
                    let kept = guide
                        .chances_held(&game, &mut held[seat])
                        .expect("a policy");
                    for (a, b) in kept.iter().zip(&fresh) {
                        assert!((a - b).abs() < 1e-9, "{kept:?} against {fresh:?}");
                    }
                    first[seat] = Some((d.options.clone(), kept));
                }
                Some((options, chances)) => {
                    let kept = guide
                        .chances_held(&game, &mut held[seat])
                        .expect("a policy");
                    let at = |labels: &[String], l: &String| labels.iter().position(|o| o == l);
                    let both: Vec<(usize, usize)> = (d.options.iter())
                        .filter_map(|l| Some((at(options, l)?, at(&d.options, l)?)))
                        .collect();
                    if let [(a0, b0), (a1, b1), ..] = both[..] {
                        let then = (chances[a0] / chances[a1]).ln();
                        let now = (kept[b0] / kept[b1]).ln();
                        assert!((then - now).abs() < 1e-9, "{then} against {now}");
                        compared += 1;
                        let read_now = (fresh[b0] / fresh[b1]).ln();
                        moved += usize::from((read_now - now).abs() > 1e-6);
                    }
                }
            }
        }
        let i = rng.gen_range(0..d.options.len());
        game.apply(i).expect("applies");
    }
    assert!(compared >= 10, "{compared} later decisions compared");
    assert!(
        moved > 0,
        "the policy read the later positions as the first"
    );
}
