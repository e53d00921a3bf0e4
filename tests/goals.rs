//! Agents stage, the goals a script declares: the searches (`greedy`, `mcts`, `ismcts`) play for a
//! shared score where all players are one team or where a score is the only measure, for their
//! partners' side where there are teams, and beat random play in the cooperative example Two Piles.

use cardgame_interpreter::agents::make_agent;
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::engine::{Game, GameConfig, Status};
use cardgame_interpreter::program::Program;
use std::sync::Arc;

fn program(src: &str) -> Arc<Program> {
    Arc::new(check_source(src).program.expect("the script checks"))
}

/// The label `spec` chooses at the first decision of `src`, in games of 1 to 3 seeds, joined by `,`.
fn first_choices(src: &str, players: u8, spec: &str) -> String {
    let p = program(src);
    (1..=3u64)
        .map(|seed| {
            let game = Game::new(p.clone(), GameConfig::new(players, seed));
            let Status::Decision(d) = game.status().clone() else {
                panic!("a decision")
            };
            let mut agent = make_agent(&p, spec, seed, d.player).expect("agent");
            d.options[agent.choose(&game, &d)].clone()
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Two players add to one total; nobody wins, so the total is the only measure.
fn shared_total(first: &str, second: &str) -> String {
    format!(
        "game \"Probe\" {{ players 2  teams by crew }}\n\
         var crew per player: int = 1\nvar total: int = 0\n\
         fn score(p: player): int = total\n\
         flow {{\n  for p in everyone {{\n    turn p {{\n      choose by p {{\n\
         \"{first}\" {{ total += {} }}\n\"{second}\" {{ total += {} }}\n      }}\n    }}\n  }}\n\
         win [] \"the total is {{total}}\"\n}}\n",
        &first[4..],
        &second[4..]
    )
}

#[test]
fn a_shared_total_is_raised_whichever_option_is_listed_first() {
    for spec in ["greedy", "mcts:100", "ismcts:100"] {
        assert_eq!(
            first_choices(&shared_total("add 0", "add 1"), 2, spec),
            "add 1,add 1,add 1",
            "{spec}"
        );
        assert_eq!(
            first_choices(&shared_total("add 1", "add 0"), 2, spec),
            "add 1,add 1,add 1",
            "{spec}"
        );
    }
}

/// Four players in two partnerships (seats 1 and 3, seats 2 and 4); seat 1 gives a point to its
/// partner or to the next seat, and the side with more points wins.
fn partners(first: &str, second: &str) -> String {
    let branch = |label: &str| {
        let seat = if label.contains("partner") { 3 } else { 2 };
        format!("\"{label}\" {{ seat({seat}).points += 1 }}")
    };
    format!(
        "game \"Probe\" {{ players 4  teams by side }}\n\
         var side per player: int = 0\nvar points per player: int = 0\n\
         setup {{ for p in everyone {{ p.side = if p == seat(1) or p == seat(3) then 1 else 2 }} }}\n\
         fn score(p: player): int = p.points\n\
         flow {{\n  choose by seat(1) {{\n{}\n{}\n  }}\n\
         let a = seat(1).points + seat(3).points\n\
         let b = seat(2).points + seat(4).points\n\
         if a > b {{ win team 1 \"1 and 3\" }} else {{ win team 2 \"2 and 4\" }}\n}}\n",
        branch(first),
        branch(second)
    )
}

#[test]
fn a_partner_is_helped_not_measured_against() {
    for spec in ["greedy", "mcts:100", "ismcts:100"] {
        for (a, b) in [
            ("to my partner", "to the next"),
            ("to the next", "to my partner"),
        ] {
            assert_eq!(
                first_choices(&partners(a, b), 4, spec),
                "to my partner,to my partner,to my partner",
                "{spec}"
            );
        }
    }
}

/// Cards laid at the end of a game of Two Piles played by `spec` in both seats.
fn cards_laid(p: &Arc<Program>, spec: &str, seed: u64) -> i64 {
    let mut game = Game::new(p.clone(), GameConfig::new(2, seed));
    game.set_recording(false);
    let mut agents: Vec<_> = (0..2)
        .map(|s| make_agent(p, spec, seed, s).expect("agent"))
        .collect();
    while let Status::Decision(d) = game.status().clone() {
        let i = agents[d.player as usize].choose(&game, &d);
        game.apply(i).expect("a legal option");
    }
    let Status::Over(_) = game.status() else {
        panic!("the game ends")
    };
    game.script_score(0).expect("a score")
}

#[test]
fn the_search_lays_more_cards_than_random_play_in_two_piles() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/two-piles.cardgame"
    ))
    .expect("the example");
    let p = program(&src);
    let total = |spec: &str| (1..=12).map(|s| cards_laid(&p, spec, s)).sum::<i64>();
    let (search, random) = (total("ismcts:40:random:end"), total("random"));
    // Over 12 games random play lays about 8 cards a game, the search about 15.
    assert!(
        search >= random + 36,
        "search {search}, random {random} cards in 12 games"
    );
}
