//! Engine stage: possible worlds for agents — the game redealt so that only what one seat may see is kept.

use super::Game;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The unseen places of one group of zones (zone, index) and the cards that lie there.
type Unseen = (Vec<(usize, usize)>, Vec<u32>);

impl Game {
    /// A copy of the game consistent with everything `seat` may see: every card the seat may not see
    /// (outside the box) is dealt again at random among the places of such cards, and the game's
    /// generator is reseeded, so future shuffles are unknown too. Two games that differ only in cards the
    /// seat cannot see give the same possible worlds for the same `seed`.
    pub fn determinize(&self, seat: u8, seed: u64) -> Game {
        self.deal_unseen(seat, seed, false)
    }

    /// [`Game::determinize`] for a seat that remembers whose cards are whose: every card the seat may
    /// not see is dealt again at random among the places of such cards *of the same holder* (one
    /// player's zones; or else the shared zones and every other zone together), so each player's
    /// hidden cards stay among that player's hidden zones (a deck-builder's deck and hand) and the
    /// shared hidden cards among the shared zones (a supply). It assumes what the seat could have
    /// followed in a game where no card moves unseen from one holder to another: which cards went
    /// into each player's hidden zones. Two games that differ only in where a player's unseen cards
    /// lie among that player's zones give the same possible worlds for the same `seed`.
    pub fn determinize_by_holder(&self, seat: u8, seed: u64) -> Game {
        self.deal_unseen(seat, seed, true)
    }

    fn deal_unseen(&self, seat: u8, seed: u64, by_holder: bool) -> Game {
        let mut g = self.clone();
        g.forget_history();
        let box_zone = g.prog.box_zone.index() as u32;
        // Unseen places and cards by group: one group, or one per holding player (`None`: the rest).
        let mut groups: std::collections::BTreeMap<Option<u8>, Unseen> =
            std::collections::BTreeMap::new();
        for (zi, z) in g.st.zones.declared() {
            if zi as u32 == box_zone {
                continue;
            }
            let group = match g.st.zones.holder(zi) {
                Some(super::state::Holder::Player(p)) if by_holder => Some(p),
                _ => None,
            };
            for (i, &c) in z.cards.iter().enumerate() {
                let mask = g.st.card_seen_mask(&g.prog, c);
                if seat >= 64 || mask & (1u64 << seat) == 0 {
                    let (places, cards) = groups.entry(group).or_default();
                    places.push((zi, i));
                    cards.push(c);
                }
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut dealt: Vec<((usize, usize), u32)> = Vec::new();
        for (places, mut cards) in groups.into_values() {
            // A canonical order (by kind) first, so the deal depends on what is unseen, not on where
            // it lies.
            cards.sort_by_key(|&c| (g.st.cards.get(c as usize).map_or(0, |cs| cs.kind), c));
            cards.shuffle(&mut rng);
            dealt.extend(places.into_iter().zip(cards));
        }
        for ((zi, i), c) in dealt {
            if let Some(slot) = g.st.zones.get_mut(zi).and_then(|z| z.cards.get_mut(i)) {
                *slot = c;
            }
            if let Some(cs) = g.st.cards.get_mut(c as usize) {
                cs.zone = zi as u32;
            }
        }
        g.st.rng = ChaCha8Rng::seed_from_u64(seed.rotate_left(32) ^ 0xD1B5_4A32_D192_ED03);
        // Zones were redealt in place: what the checks remembered no longer holds.
        for z in g.st.zones.stored_mut() {
            z.changed();
        }
        g.st.forget_checks();
        g
    }

    /// How well a seat is doing by the script's own measure: its `fn heuristic(p: player): int` if it
    /// declares one (a hint for bots), else its `fn score(p: player): int`.
    pub fn script_score(&self, seat: u8) -> Option<i64> {
        self.clone().script_score_here(seat)
    }

    /// [`Game::script_score`] evaluated in this game: without a copy when the measure is pure (it
    /// reads the state and changes nothing, so the game is left as it was), on a copy otherwise.
    pub fn script_score_here(&mut self, seat: u8) -> Option<i64> {
        let f = self.layout.measure?;
        let layout = self.layout.clone();
        let call = layout.measure_call.as_ref()?;
        self.seat_call_here(f, call, seat)
    }

    /// Every seat's score by the script's own `fn score(p: player): int` (docs/language.md), when it
    /// has one and every call gives a number, as the command line shows it (`run`, `play`, `serve`).
    pub fn scores(&self) -> Option<Vec<i64>> {
        self.clone().scores_here()
    }

    /// [`Game::scores`] evaluated in this game: a pure `fn score` by its compiled call (the
    /// walker's where it cannot answer), changing nothing; any other by the walker, seat after
    /// seat, in this game.
    pub(crate) fn scores_here(&mut self) -> Option<Vec<i64>> {
        use crate::program::{Expr, ExprKind, FnId, Ty};
        use crate::value::Value;
        let prog = self.prog.clone();
        let f = (prog.fns.iter())
            .position(|f| f.name == "score" && f.params == [Ty::Player] && f.ret == Ty::Int)?;
        if prog.pure_fns.get(f) == Some(&true) {
            return (0..self.players())
                .map(|p| self.seat_function_here(f, p))
                .collect();
        }
        (0..self.players())
            .map(|p| {
                let seat = Expr::new(ExprKind::Const(Value::Player(p)), Default::default());
                let call = Expr::new(
                    ExprKind::CallFn(FnId(f as u16), vec![seat]),
                    Default::default(),
                );
                match self.eval(&call, 1) {
                    Ok(Value::Int(n)) => Some(n),
                    _ => None,
                }
            })
            .collect()
    }

    /// The value for `seat` of the script's function `f`, of the shape `fn NAME(p: player): int`
    /// (`score`, for the figures a simulation reports after each turn), evaluated in this game
    /// without changing it.
    pub fn seat_function_here(&mut self, f: usize, seat: u8) -> Option<i64> {
        use crate::program::{Expr, ExprKind, FnId};
        let seat_expr = Expr::new(ExprKind::Local(0), Default::default());
        let call = Expr::new(
            ExprKind::CallFn(FnId(f as u16), vec![seat_expr]),
            Default::default(),
        );
        self.seat_call_here(f, &call, seat)
    }

    /// `call` (of function `f`, its seat in local 0) for `seat`: without a copy when the function is
    /// pure (it reads the state and changes nothing, so the game is left as it was), on a copy
    /// otherwise.
    fn seat_call_here(&mut self, f: usize, call: &crate::program::Expr, seat: u8) -> Option<i64> {
        // On `Engine::Closures`, the call compiled (closures/mod.rs), which changes nothing.
        let p = &*self.prog;
        let compiled = (p.closures.as_deref())
            .filter(|_| self.st.fixed.closures && !self.st.recording)
            .and_then(|cl| cl.seat_value(f, (p, &self.st, &self.layout), seat));
        // A runtime error the closures met is the walker's too (no value: as below); debug
        // builds check it on the walker.
        let fault = match compiled {
            Some(Ok(v)) => return Some(v),
            Some(Err(fault)) => fault,
            None => None,
        };
        #[cfg(not(debug_assertions))]
        if fault.is_some() {
            return None;
        }
        let slots = self.prog.fns.get(f)?.slots.max(1);
        let seat = crate::value::Value::Player(seat);
        let value = if self.prog.pure_fns.get(f) == Some(&true) {
            // The work and the nesting depth are the only things a pure evaluation changes.
            let (work, depth) = (self.st.exec_count, self.st.depth);
            let v = self.eval_with(call, slots, seat);
            self.st.exec_count = work;
            self.st.depth = depth;
            v
        } else {
            let mut g = self.clone();
            g.set_recording(false);
            g.eval_with(call, slots, seat)
        };
        super::sites::check_oracle(&self.prog, fault, &value);
        match value {
            Ok(crate::value::Value::Int(i)) => Some(i),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::agents::make_agent;
    use crate::check::check_source;
    use crate::engine::{Game, GameConfig, Status};
    use std::sync::Arc;

    fn game() -> Game {
        let src = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/duel.cardgame"
        ))
        .expect("example");
        let program = Arc::new(check_source(&src).program.expect("the example checks"));
        Game::new(program, GameConfig::new(2, 11))
    }

    /// Swap two cards the seat cannot see: the other player's hand and deck.
    fn swap_hidden(g: &Game, seat: u8) -> Game {
        let mut h = g.clone();
        let other = 1 - seat;
        let zone_of = |name: &str| {
            (0..h.st.zones.len())
                .find(|&z| {
                    matches!(h.st.zones.holder(z), Some(super::super::state::Holder::Player(p)) if p == other)
                        && h.prog.zones[h.st.zones.def(z).index()].name == name
                })
                .expect("zone")
        };
        let (hand, deck) = (zone_of("hand"), zone_of("deck"));
        let pos = h.st.zones[deck]
            .cards
            .iter()
            .position(|&d| {
                h.st.zones[hand]
                    .cards
                    .iter()
                    .all(|&c| h.st.cards[c as usize].kind != h.st.cards[d as usize].kind)
            })
            .expect("a deck card of a kind not in the hand");
        let a = h.st.zones[hand].cards[0];
        let b = h.st.zones[deck].cards[pos];
        h.st.zones[hand].cards[0] = b;
        h.st.zones[deck].cards[pos] = a;
        h.st.cards[a as usize].zone = deck as u32;
        h.st.cards[b as usize].zone = hand as u32;
        h
    }

    #[test]
    fn search_agents_never_read_hidden_cards() {
        let g = game();
        let d = match g.status() {
            Status::Decision(d) => d.clone(),
            other => panic!("expected a decision, got {other:?}"),
        };
        assert!(d.options.len() > 1, "the test needs a real choice");
        let seat = d.player;
        let h = swap_hidden(&g, seat);
        // The hidden cards really differ...
        assert_ne!(format!("{:?}", g.st.zones), format!("{:?}", h.st.zones));
        // ...yet the seat's view is the same, and so are its possible worlds and its choices.
        assert_eq!(format!("{:?}", g.view(seat)), format!("{:?}", h.view(seat)));
        for s in 0..5 {
            let (a, b) = (g.determinize(seat, s), h.determinize(seat, s));
            assert_eq!(
                format!("{:?}", a.view(1 - seat)),
                format!("{:?}", b.view(1 - seat))
            );
        }
        for s in 0..5 {
            let (a, b) = (
                g.determinize_by_holder(seat, s),
                h.determinize_by_holder(seat, s),
            );
            assert_eq!(
                format!("{:?}", a.view(1 - seat)),
                format!("{:?}", b.view(1 - seat))
            );
        }
        for spec in ["mcts:60", "greedy", "ismcts:60", "ismcts:60:random:owners"] {
            let mut x = make_agent(g.program(), spec, 3, seat).expect("agent");
            let mut y = make_agent(g.program(), spec, 3, seat).expect("agent");
            assert_eq!(
                x.choose(&g, &d),
                y.choose(&h, &d),
                "{spec} looked at hidden cards"
            );
        }
    }

    /// The kinds of the cards each holder (a player, else the shared zones) has in its zones.
    fn kinds_by_holder(g: &Game) -> Vec<(Option<u8>, Vec<u16>)> {
        let mut by: std::collections::BTreeMap<Option<u8>, Vec<u16>> = Default::default();
        let box_zone = g.prog.box_zone.index();
        for (zi, z) in g.st.zones.declared() {
            if zi == box_zone {
                continue;
            }
            let holder = match g.st.zones.holder(zi) {
                Some(super::super::state::Holder::Player(p)) => Some(p),
                _ => None,
            };
            let kinds = by.entry(holder).or_default();
            kinds.extend(z.cards.iter().map(|&c| g.st.cards[c as usize].kind));
        }
        by.into_iter()
            .map(|(h, mut k)| {
                k.sort_unstable();
                (h, k)
            })
            .collect()
    }

    /// In a deck-builder, `determinize_by_holder` keeps every player's cards among that player's
    /// zones (its deck and hand are redealt among themselves) and the supply's among the shared
    /// zones, while `determinize` mixes a deck with the supply.
    #[test]
    fn worlds_by_holder_keep_each_players_cards() {
        let src = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/market-race.cardgame"
        ))
        .expect("example");
        let program = Arc::new(check_source(&src).program.expect("the example checks"));
        let mut g = Game::new(program, GameConfig::new(2, 5));
        // A few turns in, so that decks, hands and discards hold bought cards.
        for step in 0..30 {
            match g.status() {
                Status::Decision(d) => {
                    let i = step % d.options.len();
                    g.apply(i).expect("applies");
                }
                _ => break,
            }
        }
        let real = kinds_by_holder(&g);
        let (mut moved, mut mixed) = (false, false);
        for s in 0..10 {
            let w = g.determinize_by_holder(0, s);
            assert_eq!(kinds_by_holder(&w), real, "seed {s}");
            assert_eq!(format!("{:?}", w.view(0)), format!("{:?}", g.view(0)));
            moved |= format!("{:?}", w.st.zones) != format!("{:?}", g.st.zones);
            mixed |= kinds_by_holder(&g.determinize(0, s)) != real;
        }
        assert!(moved, "the unseen cards must be redealt");
        assert!(mixed, "determinize mixes the holders' cards");
    }

    /// A choice among cards the decider may not see is a blind pick; `show` lets it see them.
    #[test]
    fn hidden_cards_are_offered_blind_until_shown() {
        let src = r#"
game "Peek" {
  players 2
  option peek: bool = false "show the hand first"
}
tags kind: Gem
card "Ruby" { is Gem copies 2 }
card "Opal" { is Gem copies 1 }
zone hand per player: set, owner
zone loot per player: set
flow {
  move box to seat(2).hand
  if peek { show seat(2).hand to seat(1) }
  let c = choose c in seat(2).hand by seat(1)
  move c to seat(1).loot
  win [seat(1)] "done"
}
"#;
        let program = Arc::new(check_source(src).program.expect("checks"));
        let blind = Game::new(program.clone(), GameConfig::new(2, 1));
        let d = blind.decision().expect("a decision");
        assert_eq!(
            d.options,
            vec![
                "a card from P2.hand",
                "a card from P2.hand #2",
                "a card from P2.hand #3"
            ]
        );
        let mut config = GameConfig::new(2, 1);
        config.options = vec![(crate::program::OptionId(0), crate::value::Value::Bool(true))];
        let peeking = Game::new(program.clone(), config);
        let d = peeking.decision().expect("a decision");
        assert_eq!(d.options, vec!["Ruby", "Opal"]);
    }

    /// `sort(k in L by k)` orders kinds as the cards are defined, whatever the order of `L`: the
    /// names of a hidden pile's cards listed so tell nothing of which lies on top.
    #[test]
    fn kinds_sorted_by_kind_follow_the_order_cards_are_defined() {
        let src = r#"
game "Kinds" { players 2 }
card "Ruby" { copies 1 }
card "Opal" { copies 1 }
card "Jade" { copies 1 }
zone deck: pile
flow {
  move box to deck
  shuffle deck
  let k = choose k in sort(k in kinds(deck) by k) by seat(1)
  win [seat(1)] "done"
}
"#;
        let program = Arc::new(check_source(src).program.expect("checks"));
        let mut orders = std::collections::BTreeSet::new();
        for seed in 1..12 {
            let g = Game::new(program.clone(), GameConfig::new(2, seed));
            let deck = g.view(0).zones.into_iter().find(|z| z.name == "deck");
            orders.insert(format!("{:?}", deck.map(|z| z.cards)));
            let d = g.decision().expect("a decision");
            assert_eq!(d.options, vec!["Ruby", "Opal", "Jade"]);
        }
        assert!(orders.len() > 1, "the shuffles must give different orders");
    }

    /// `sort` takes a number or a kind as its key, nothing else.
    #[test]
    fn sort_by_a_player_is_a_type_error() {
        let src = r#"
game "Sorts" { players 2 }
card "Ruby" { copies 1 }
zone deck: pile
flow {
  let l = sort(c in deck by c.owner)
  win [seat(1)] "{l}"
}
"#;
        let checked = check_source(src);
        assert!(
            checked.diagnostics.iter().any(|d| d.code == "E201"),
            "{:?}",
            checked.diagnostics
        );
        assert!(checked.program.is_none());
    }
}
