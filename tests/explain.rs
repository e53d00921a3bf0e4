//! Agents stage: why a bot chose (`Agent::choose_explained`, docs/cli.md, play's `why` and serve's
//! panel): the text of an explanation at a seeded position, and the same choices as `choose`.

use cardgame_interpreter::agents::{make_agent, make_agent_with, script_hash, Model};
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::engine::{Game, GameConfig, Status};
use cardgame_interpreter::program::Program;
use std::sync::Arc;

fn program(path: &str) -> Arc<Program> {
    let src =
        std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect("script");
    Arc::new(check_source(&src).program.expect("the script checks"))
}

/// Signals with 3 players, seed 3, after `moves` first options: the position every explanation
/// here is made at.
fn signals(moves: usize) -> (Arc<Program>, Game) {
    let p = program("examples/signals.cardgame");
    let mut game = Game::new(p.clone(), GameConfig::new(3, 3));
    for _ in 0..moves {
        game.apply(0).expect("applies");
    }
    (p, game)
}

/// The explanation of `spec` (seated at the deciding seat) at that position, as `play` prints it.
fn explained(spec: &str, moves: usize) -> String {
    let (p, game) = signals(moves);
    let Status::Decision(d) = game.status().clone() else {
        panic!("a decision");
    };
    let mut agent = make_agent(&p, spec, 3, d.player).expect("agent");
    let (choice, e) = agent.choose_explained(&game, &d);
    assert_eq!(e.chosen, d.options[choice]);
    assert_eq!(e.options.iter().filter(|o| o.chosen).count(), {
        usize::from(!e.options.is_empty())
    });
    e.to_string()
}

/// The searches list their options best first with visits and values; `greedy` its values; a
/// strategy the rule that chose (or that its fallback decided); `random` says so.
#[test]
fn explanations_at_a_seeded_position() {
    let text = [
        explained("ismcts:200", 1),
        explained("mcts:100", 1),
        explained("search:200", 1),
        explained("greedy", 1),
        explained("strategy:sensible", 1),
        explained("strategy:sensible", 0),
        explained("random", 1),
    ]
    .join("\n");
    insta::assert_snapshot!(text);
}

/// Explaining changes nothing: the same agent, seeded alike, takes the same options with
/// `choose_explained` as with `choose`, decision after decision to the end of a game.
#[test]
fn explaining_chooses_as_choosing_does() {
    for spec in ["ismcts:50", "mcts:30", "greedy", "strategy:sensible"] {
        let (p, start) = signals(0);
        let mut plain: Vec<_> = (0..3)
            .map(|s| make_agent(&p, spec, 5, s).expect("agent"))
            .collect();
        let mut told: Vec<_> = (0..3)
            .map(|s| make_agent(&p, spec, 5, s).expect("agent"))
            .collect();
        let mut game = start.clone();
        let mut decisions = 0;
        while let Status::Decision(d) = game.status().clone() {
            let seat = d.player as usize;
            let a = plain[seat].choose(&game, &d);
            let (b, e) = told[seat].choose_explained(&game, &d);
            assert_eq!(a, b, "{spec}, decision {decisions}: {e}");
            assert!(!e.how.is_empty());
            game.apply(a).expect("applies");
            decisions += 1;
        }
        assert!(decisions > 5, "{spec}: {decisions} decisions");
    }
}

/// `learned` (a model's one step ahead) names every option it weighed with the model's value, the
/// chosen one among the best, and explaining changes none of its choices. The model is a blank one
/// (every weight 0, so every unfinished position is worth the same): what is tested is the report,
/// not the model.
#[test]
fn the_learned_player_explains_its_values() {
    let (p, start) = signals(0);
    let src = std::fs::read_to_string(format!(
        "{}/examples/signals.cardgame",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("script");
    let model = Arc::new(Model::blank(&p, script_hash(&src), 3));
    let agent = |s: u8| make_agent_with(&p, "learned", 5, s, Some(&model)).expect("agent");
    let mut plain: Vec<_> = (0..3).map(agent).collect();
    let mut told: Vec<_> = (0..3).map(agent).collect();
    let mut game = start;
    let mut weighed = 0;
    while let Status::Decision(d) = game.status().clone() {
        let seat = d.player as usize;
        let a = plain[seat].choose(&game, &d);
        let (b, e) = told[seat].choose_explained(&game, &d);
        assert_eq!(a, b, "{e}");
        if !e.options.is_empty() {
            weighed += 1;
            assert!(e.how.contains("learned model"), "{e}");
            let best = e.options[0].value.expect("a value");
            let chosen = e.options.iter().find(|o| o.chosen).expect("one chosen");
            assert_eq!(chosen.option, d.options[a]);
            assert!(chosen.value.expect("a value") >= best - 1e-9, "{e}");
        }
        game.apply(a).expect("applies");
    }
    assert!(weighed > 5, "{weighed} decisions weighed");
}
