//! Engine stage: what one seat has observed of a game, and possible worlds consistent with all of it.
//!
//! A possible world made by [`Game::determinize`] keeps what a seat sees *now* and deals everything
//! else at random; it forgets what the seat saw earlier and what the other players' choices implied (a
//! host who opened a door with a goat behind it). [`Game::consistent_world`] does better, for any
//! script: it deals a whole new game (a fresh seed, so a fresh setup and fresh shuffles) and replays
//! the game's decisions in it, keeping the world only if the seat would have observed exactly the same
//! things all along:
//! - after the setup and after every decision, the seat's view (every card it may see, every count,
//!   every variable, whose decision is pending, and its own options) is the same as in the real game;
//! - the seat's own decisions are replayed as they were taken;
//! - another player's decision is replayed with one of the options that lead to the same view for the
//!   seat, and the world is kept with probability (such options) / (all options): the other players
//!   are assumed to choose uniformly at random, so a choice that only one world explains weighs more
//!   in that world than a choice that many options explain (the contestant's reasoning in Monty Hall).
//!
//! [`Game::weighed_world`] does the same with another model of the other players, a [`Likelihood`]
//! (the chance of each option of a decision in a world, as that player would choose: `agents/infer.rs`):
//! the world is kept with probability (the chances of the options that match) and one of them is
//! replayed in proportion to its chance. With uniform chances it is `consistent_world`'s draw.
//!
//! Such worlds are drawn by rejection: exactly from the posterior for that model of the other
//! players, but rarely accepted in a game where the seat has seen many cards (a deck-builder's opening
//! hand alone is matched once in thousands of deals). The agents bound the tries and fall back to
//! `determinize` (see `agents/ismcts.rs`). The real game is replayed only to learn what the seat
//! observed; nothing else of it is read.

use super::{Game, GameFactory, Status};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// A model of how the other players choose, for [`Game::weighed_world`].
pub trait Likelihood {
    /// The chance that `player`, deciding now in `world` among `options` options, takes each of them:
    /// `options` numbers, none negative, summing to at most 1.
    fn chances(&mut self, world: &Game, player: u8, options: usize) -> Vec<f64>;
}

/// What one seat observed of one game: a fingerprint of its observation after the setup and after each
/// decision. Brought up to date as the game goes on (`follow`).
pub struct Observations {
    seat: u8,
    /// The real game replayed from its start, to learn what the seat saw after each decision.
    replay: Game,
    /// The choices replayed so far (the real game's history up to here).
    choices: Vec<u32>,
    /// `seen[i]`: the seat's observation after `i` decisions (0: after the setup).
    seen: Vec<u64>,
    /// The games of the real game's program and configuration, without recording, with labels: the
    /// replay, and every possible world (`consistent_world`).
    worlds: GameFactory,
}

/// A fingerprint of what `seat` observes of `game`: its view (cards it may see, counts, variables,
/// the active player, the turn, its own pending options), whose decision is pending, and the end.
pub fn observation(game: &Game, seat: u8) -> u64 {
    let mut h = DefaultHasher::new();
    match game.status() {
        Status::Decision(d) => {
            0u8.hash(&mut h);
            d.player.hash(&mut h);
            d.simultaneous.hash(&mut h);
        }
        Status::Over(o) => {
            1u8.hash(&mut h);
            o.winners.hash(&mut h);
            o.reason.hash(&mut h);
        }
        Status::Error(e) => {
            2u8.hash(&mut h);
            e.message.hash(&mut h);
        }
    }
    format!("{:?}", game.view(seat)).hash(&mut h);
    h.finish()
}

impl Observations {
    /// What `seat` has observed of `game` so far; `None` when the game has no history (a rules test's
    /// game, a possible world) or when its replay does not come back to where the game is.
    pub fn new(game: &Game, seat: u8) -> Option<Observations> {
        let history = game.history()?;
        let mut config = history.config.clone();
        config.record = false;
        config.labels = true;
        let worlds = GameFactory::new(game.prog.clone(), config);
        let mut replay = worlds.game(worlds.config().seed);
        replay.forget_history();
        let seen = vec![observation(&replay, seat)];
        let mut obs = Observations {
            seat,
            replay,
            choices: Vec::new(),
            seen,
            worlds,
        };
        obs.follow(game).then_some(obs)
    }

    pub fn seat(&self) -> u8 {
        self.seat
    }

    /// The number of decisions observed.
    pub fn decisions(&self) -> usize {
        self.choices.len()
    }

    /// Brings the observations up to date with `game`, a later moment of the same game. False when
    /// `game` is not (its history does not continue the one followed so far) or when the replay does
    /// not reproduce what the seat sees now.
    pub fn follow(&mut self, game: &Game) -> bool {
        let Some(history) = game.history() else {
            return false;
        };
        let n = self.choices.len();
        if history.choices.len() < n || history.choices[..n] != self.choices[..] {
            return false;
        }
        for &c in &history.choices[n..] {
            if self.replay.apply(c as usize).is_err() {
                return false;
            }
            self.choices.push(c);
            self.seen.push(observation(&self.replay, self.seat));
        }
        self.seen.last() == Some(&observation(game, self.seat))
    }
}

impl Game {
    /// A possible world consistent with everything `obs.seat()` observed (see the module's note), drawn
    /// with `seed`; `None` when this draw is rejected (draw again with another seed) or when the game
    /// has no history. The world records no events and has no history of its own; its generator is
    /// its own, so its future shuffles are unknown too.
    pub fn consistent_world(&self, obs: &Observations, seed: u64) -> Option<Game> {
        self.world_drawn(obs, seed, None)
    }

    /// [`Game::consistent_world`] with the other players' decisions weighed by `model` instead of as
    /// uniform choices (see the module's note).
    pub fn weighed_world(
        &self,
        obs: &Observations,
        seed: u64,
        model: &mut dyn Likelihood,
    ) -> Option<Game> {
        self.world_drawn(obs, seed, Some(model))
    }

    fn world_drawn(
        &self,
        obs: &Observations,
        seed: u64,
        mut model: Option<&mut dyn Likelihood>,
    ) -> Option<Game> {
        let history = self.history()?;
        let seat = obs.seat;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut config = history.config.clone();
        config.seed = rng.gen();
        config.record = false;
        config.labels = true;
        let mut world = match obs.worlds.makes(&config) {
            true => obs.worlds.game(config.seed),
            false => Game::new(self.prog.clone(), config),
        };
        world.forget_history();
        if obs.seen.first() != Some(&observation(&world, seat)) {
            return None;
        }
        for (i, &c) in obs.choices.iter().enumerate() {
            let expected = obs.seen[i + 1];
            let Status::Decision(d) = world.status() else {
                return None;
            };
            let k = d.options.len();
            // The seat's own choice is replayed as it was; another player's single option is the
            // one taken (the index of another player's choice is never read: it tells which of
            // their options they had).
            if d.player == seat || k == 1 {
                let own = if d.player == seat { c as usize } else { 0 };
                world.apply(own).ok()?;
                if observation(&world, seat) != expected {
                    return None;
                }
                continue;
            }
            let mut matching: Vec<(usize, Game)> = Vec::new();
            for j in 0..k {
                let mut next = world.clone();
                if next.apply(j).is_ok() && observation(&next, seat) == expected {
                    matching.push((j, next));
                }
            }
            if matching.is_empty() {
                return None;
            }
            let Some(model) = model.as_deref_mut() else {
                // Kept with probability matching / k: the chance that a player choosing at random
                // would have produced what the seat saw.
                if rng.gen_range(0..k) >= matching.len() {
                    return None;
                }
                let pick = rng.gen_range(0..matching.len());
                world = matching.swap_remove(pick).1;
                continue;
            };
            // Kept with probability the chance, under the model, of an option that shows the seat
            // what it saw; that option is replayed in proportion to its chance.
            let chances = model.chances(&world, d.player, k);
            let weights: Vec<f64> = matching
                .iter()
                .map(|(j, _)| chances.get(*j).copied().unwrap_or(0.0).max(0.0))
                .collect();
            let mut x: f64 = rng.gen();
            let mut pick = None;
            for (i, w) in weights.iter().enumerate() {
                if x < *w {
                    pick = Some(i);
                    break;
                }
                x -= w;
            }
            world = matching.swap_remove(pick?).1;
        }
        Some(world)
    }

    /// Gives the game a new random generator: what it shuffles or draws at random from now on.
    pub fn reseed(&mut self, seed: u64) {
        self.st.rng = ChaCha8Rng::seed_from_u64(seed);
    }
}

#[cfg(test)]
mod tests {
    use super::Observations;
    use crate::check::check_source;
    use crate::engine::{Game, GameConfig, Status};
    use std::sync::Arc;

    fn monty(seed: u64) -> Game {
        let src = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/monty-hall.cardgame"
        ))
        .expect("example");
        let program = Arc::new(check_source(&src).program.expect("the example checks"));
        Game::new(program, GameConfig::new(2, seed))
    }

    fn choose(g: &mut Game, label: &str) {
        let Status::Decision(d) = g.status() else {
            panic!("expected a decision");
        };
        let i = d
            .options
            .iter()
            .position(|o| o == label)
            .unwrap_or_else(|| panic!("no option {label:?} in {:?}", d.options));
        g.apply(i).expect("apply");
    }

    /// Where the car is in a world: the door whose card is the car.
    fn car_door(g: &Game) -> usize {
        let v = g.view(1);
        (1..=3)
            .find(|n| {
                v.zones
                    .iter()
                    .find(|z| z.name == format!("door_{n}"))
                    .is_some_and(|z| z.cards.first() == Some(&Some("Car".to_string())))
            })
            .expect("the host sees every door")
    }

    /// A game where the contestant picks door 1, the car is behind door `car`, and the host opens
    /// door 3.
    fn picked_1_opened_3(car: usize) -> Game {
        let mut g = (0..64)
            .map(monty)
            .find(|g| car_door(g) == car)
            .expect("a deal");
        choose(&mut g, "1");
        choose(&mut g, "3");
        g
    }

    /// After the contestant picks a door and the host opens another, the consistent worlds put the car
    /// behind the other closed door about two times in three, and they are the same worlds whether
    /// the car really is behind the picked door (the host chose door 3 of two) or the other one (the
    /// host had no choice): the seat observed the same things.
    #[test]
    fn worlds_weigh_the_hosts_choice() {
        let (car_1, car_2) = (picked_1_opened_3(1), picked_1_opened_3(2));
        let obs_1 = Observations::new(&car_1, 0).expect("observations");
        let obs_2 = Observations::new(&car_2, 0).expect("observations");
        let (mut kept, mut behind_2) = (0, 0);
        for seed in 0..3000 {
            let w = car_1.consistent_world(&obs_1, seed);
            let same = car_2.consistent_world(&obs_2, seed);
            assert_eq!(
                w.as_ref().map(|w| format!("{:?}", w.view(1))),
                same.as_ref().map(|w| format!("{:?}", w.view(1))),
                "the worlds depend on what the seat cannot see (seed {seed})"
            );
            if let Some(w) = w {
                kept += 1;
                let door = car_door(&w);
                assert_ne!(door, 3, "the host never opens the car's door");
                if door == 2 {
                    behind_2 += 1;
                }
            }
        }
        // Kept: 1/3 (car behind 2) + 1/3 * 1/2 (car behind 1, host chose door 3 of two) = 1/2.
        assert!((1300..1700).contains(&kept), "kept {kept} of 3000");
        let share = f64::from(behind_2) / f64::from(kept);
        assert!(
            (0.62..0.72).contains(&share),
            "car behind door 2 in {share:.3}"
        );
    }

    /// Observations follow the game as it goes on and refuse another game.
    #[test]
    fn observations_follow_one_game() {
        let mut g = monty(3);
        let mut obs = Observations::new(&g, 0).expect("observations");
        assert_eq!(obs.decisions(), 0);
        choose(&mut g, "2");
        assert!(obs.follow(&g));
        assert_eq!(obs.decisions(), 1);
        let mut other = monty(3);
        choose(&mut other, "1");
        assert!(!obs.follow(&other));
    }
}
