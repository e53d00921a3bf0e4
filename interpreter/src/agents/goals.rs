//! Agents stage: the goals a script declares (`teams by`, `win`, `win team`, `fn score`/`heuristic`),
//! turned into what a search rewards each seat for.
//!
//! - *Sides.* Seats of one team (`teams by VAR`, read in the world the search plays in) form one side;
//!   without teams every seat is a side of its own. A side wins or loses whole: a team's win counts for
//!   each member, and partners are never measured against each other. A team variable declared
//!   `private` is not read (each seat is then its own side): an agent never reads what its seat cannot
//!   see.
//! - *A finished game.* The winning sides (and participants that are not seats) share the win: each
//!   member of a winning side gets `1 / (winning sides + participants)`, the others 0. A game that ends
//!   with nobody winning is judged by the script's measure as an unfinished one is (a script whose only
//!   measure is a score is maximised); without a measure it is a draw.
//! - *An unfinished game.* A side's measure is the mean of its members' (`fn heuristic`, else `fn
//!   score`). With several sides, a seat's standing is its side's measure minus the best other side's;
//!   where all seats are one side (a cooperative game, or a solo one) it is the shared measure itself,
//!   so the search maximises the shared score.

use crate::engine::{Game, Outcome, Status};

/// Which side each seat is on, for one world of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Goals {
    /// `side[seat]`: the index of the seat's side, from 0 in seat order.
    side: Vec<usize>,
    sides: usize,
}

impl Goals {
    /// The sides of `game`'s seats: its teams when the script declares public ones, else one side
    /// per seat.
    pub fn of(game: &Game) -> Goals {
        let seats = game.players() as usize;
        let public = game
            .program()
            .teams
            .and_then(|v| game.program().vars.get(v.index()))
            .is_some_and(|v| !v.private);
        let teams = if public { game.teams() } else { None };
        match teams {
            Some(teams) => {
                let mut names: Vec<&str> = Vec::new();
                let side = teams
                    .iter()
                    .map(|t| match names.iter().position(|n| n == t) {
                        Some(i) => i,
                        None => {
                            names.push(t);
                            names.len() - 1
                        }
                    })
                    .collect();
                Goals {
                    side,
                    sides: names.len(),
                }
            }
            None => Goals {
                side: (0..seats).collect(),
                sides: seats,
            },
        }
    }

    /// Whether all seats are one side: a cooperative game (or a solo one).
    pub fn shared(&self) -> bool {
        self.sides <= 1
    }

    /// The side of `seat`.
    pub fn side(&self, seat: u8) -> usize {
        self.side.get(seat as usize).copied().unwrap_or(usize::MAX)
    }

    /// Every seat's standing by the script's measure (see the module's notes), or `None` when the
    /// script declares no measure.
    pub fn standings(&self, game: &mut Game) -> Option<Vec<f64>> {
        let scores: Option<Vec<i64>> = (0..game.players())
            .map(|p| game.script_score_here(p))
            .collect();
        let scores = scores?;
        let mut total = vec![0.0; self.sides.max(1)];
        let mut members = vec![0u32; self.sides.max(1)];
        for (p, s) in scores.iter().enumerate() {
            let side = self.side.get(p).copied().unwrap_or(0);
            if let (Some(t), Some(m)) = (total.get_mut(side), members.get_mut(side)) {
                *t += *s as f64;
                *m += 1;
            }
        }
        let mean: Vec<f64> = total
            .iter()
            .zip(&members)
            .map(|(t, &m)| t / f64::from(m.max(1)))
            .collect();
        Some(
            (0..scores.len())
                .map(|p| {
                    let side = self.side.get(p).copied().unwrap_or(0);
                    let mine = mean.get(side).copied().unwrap_or(0.0);
                    if self.shared() {
                        return mine;
                    }
                    let best_other = mean
                        .iter()
                        .enumerate()
                        .filter(|&(s, _)| s != side)
                        .map(|(_, &v)| v)
                        .fold(f64::NEG_INFINITY, f64::max);
                    mine - best_other
                })
                .collect(),
        )
    }

    /// Each seat's share of a finished game's win, or `None` when nobody won (the game is then
    /// judged by the measure).
    pub fn shares(&self, outcome: &Outcome) -> Option<Vec<f64>> {
        let mut winning: Vec<usize> = outcome.winners.iter().map(|&w| self.side(w)).collect();
        winning.sort_unstable();
        winning.dedup();
        let winners = winning.len() + outcome.participants.len();
        if winners == 0 {
            return None;
        }
        let share = 1.0 / winners as f64;
        Some(
            self.side
                .iter()
                .map(|s| if winning.contains(s) { share } else { 0.0 })
                .collect(),
        )
    }
}

/// How good a position is for `seat`, on the scale of `greedy`: a win is worth most (shared among
/// the winning sides), a loss least; otherwise, and after a game nobody won, the seat's standing by
/// the script's measure, or 0 when the script declares none.
pub fn evaluate(game: &mut Game, goals: &Goals, seat: u8) -> f64 {
    const WIN: f64 = 1_000_000.0;
    let shares = match game.status() {
        Status::Over(o) => goals.shares(o),
        Status::Error(_) => return -2.0 * WIN,
        Status::Decision(_) => None,
    };
    match shares {
        Some(s) => match s.get(seat as usize) {
            Some(&x) if x > 0.0 => WIN * x,
            _ => -WIN,
        },
        None => goals
            .standings(game)
            .and_then(|s| s.get(seat as usize).copied())
            .unwrap_or(0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::Goals;
    use crate::check::check_source;
    use crate::engine::{Game, GameConfig, Outcome, Status};
    use std::sync::Arc;

    fn game(src: &str, players: u8) -> Game {
        let p = check_source(src).program.expect("the script checks");
        Game::new(Arc::new(p), GameConfig::new(players, 1))
    }

    const PARTNERS: &str = "game \"P\" { players 4  teams by side }\n\
        var side per player: int = 0\nvar tricks per player: int = 0\n\
        setup { for p in everyone { p.side = if p == seat(1) or p == seat(3) then 1 else 2 } \
        seat(1).tricks = 3 seat(2).tricks = 2 seat(3).tricks = 1 seat(4).tricks = 0 }\n\
        fn score(p: player): int = p.tricks\n\
        flow { let n = choose n in [1, 2] by seat(1)  win team 1 \"x\" }\n";

    fn show(v: &[f64]) -> String {
        v.iter()
            .map(|x| format!("{x:.2}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn partners_are_one_side_and_share_their_win() {
        let mut g = game(PARTNERS, 4);
        let goals = Goals::of(&g);
        assert!(!goals.shared());
        // Sides: seats 1 and 3 (mean 2 tricks) against seats 2 and 4 (mean 1).
        let s = goals.standings(&mut g).expect("a measure");
        assert_eq!(show(&s), "1.00 -1.00 1.00 -1.00");
        g.apply(0).expect("applies");
        let Status::Over(o) = g.status().clone() else {
            panic!("the game ends")
        };
        let shares = goals.shares(&o).expect("a winner");
        assert_eq!(show(&shares), "1.00 0.00 1.00 0.00");
    }

    #[test]
    fn one_side_is_judged_by_the_shared_measure() {
        let src = PARTNERS.replace("then 1 else 2", "then 1 else 1");
        let mut g = game(&src, 4);
        let goals = Goals::of(&g);
        assert!(goals.shared());
        assert_eq!(
            show(&goals.standings(&mut g).expect("a measure")),
            "1.50 1.50 1.50 1.50"
        );
        let lost = Outcome {
            winners: vec![],
            participants: vec![],
            reason: String::new(),
            finished: true,
            flow_ended: false,
        };
        assert_eq!(goals.shares(&lost), None);
    }

    #[test]
    fn without_teams_each_seat_is_a_side() {
        let src = PARTNERS
            .replace("  teams by side", "")
            .replace("win team 1", "win [seat(2), seat(4)]");
        let mut g = game(&src, 4);
        let goals = Goals::of(&g);
        assert_eq!(
            show(&goals.standings(&mut g).expect("a measure")),
            "1.00 -1.00 -2.00 -3.00"
        );
        g.apply(1).expect("applies");
        let Status::Over(o) = g.status().clone() else {
            panic!("the game ends")
        };
        assert_eq!(
            show(&goals.shares(&o).expect("winners")),
            "0.00 0.50 0.00 0.50"
        );
    }

    #[test]
    fn a_private_team_is_not_read() {
        let src = PARTNERS.replace(
            "var side per player: int",
            "var side per player private: int",
        );
        let goals = Goals::of(&game(&src, 4));
        assert!(!goals.shared());
        assert_ne!(goals.side(0), goals.side(2));
    }
}
