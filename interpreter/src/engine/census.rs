//! Engine stage: a game's cards counted where they lie, and its variables read by index, for agents
//! that read a possible world they dealt themselves (the features of a learned model); and a
//! fingerprint of a position as one seat sees it.

use super::state::Holder;
use super::Game;
use crate::value::Value;
use cardgame_grammar::ast::Scope;

impl Game {
    /// Calls `f(zone, holder, kinds)` once for every shared or per-player zone whose definition
    /// `counted` accepts: the index of the zone's definition in `Program::zones`, the player
    /// holding that zone (`None` for a shared one) and its cards' kinds (indices in
    /// `Program::kinds`), in the zone's order. Zones attached to cards or spaces are left out; the
    /// box is not. It reads every card, seen or not: it is for a world an agent dealt from what its
    /// seat knows (`Game::determinize`, `Game::determinize_by_holder`), never for the real game. A
    /// zone left out costs nothing, however many cards it holds.
    pub fn each_zone(
        &self,
        counted: impl Fn(usize) -> bool,
        mut f: impl FnMut(usize, Option<u8>, CardKinds<'_>),
    ) {
        for (zi, z) in self.st.zones.declared() {
            let holder = match self.st.zones.holder(zi) {
                Some(Holder::Shared) => None,
                Some(Holder::Player(p)) => Some(p),
                Some(Holder::Card(_)) | Some(Holder::Space(_)) | None => continue,
            };
            let def = self.st.zones.def(zi).index();
            if !counted(def) {
                continue;
            }
            let kinds = CardKinds {
                ids: z.cards.iter(),
                cards: &self.st.cards,
            };
            f(def, holder, kinds);
        }
    }

    /// The value of the variable `var` (its index in `Program::vars`): a shared one's, or
    /// `player`'s own for a per-player one (`None` for a per-card or per-space variable or an index out of
    /// range). A private variable is read like any other: the caller decides who may see it.
    pub fn var_value(&self, var: usize, player: u8) -> Option<&Value> {
        let def = self.prog.vars.get(var)?;
        let slot = *self.layout.var_slot.get(var)? as usize;
        match def.scope {
            Scope::PerPlayer => self
                .st
                .pvars
                .get(player as usize * self.layout.n_pvars + slot),
            Scope::Shared => self.st.globals.get(slot),
            Scope::PerCard | Scope::PerSpace => None,
        }
    }
}

impl Game {
    /// A fingerprint of the position as `seat` sees it: the turn, who is active, the pending
    /// decision (who decides, its prompt and the set of its options), every zone's count and the
    /// cards `seat` sees in it (kind, face, per-card variables; in order where the zone is
    /// ordered, as a multiset where it is a set), the shared variables, every player's variables
    /// but the other seats' private ones, and who is out. Two positions with the same fingerprint
    /// look the same to `seat` (but for a collision of the 64-bit hash) and are the same where
    /// nothing hidden differs. What the running statements hold in their own locals (a loop's
    /// counter, a menu's remaining actions) is not part of it. For agents that must not go round
    /// in circles (`agents/revisits.rs`).
    pub fn seen_fingerprint(&self, seat: u8) -> u64 {
        use std::hash::{Hash, Hasher};
        let (prog, layout, st) = (&self.prog, &self.layout, &self.st);
        let mut h = super::hash::Fx::default();
        (st.turn, st.active).hash(&mut h);
        match &st.status {
            super::Status::Decision(d) => {
                // The options as a set: a set zone's order, which lists them, is not the position.
                let mut options: Vec<&String> = d.options.iter().collect();
                options.sort_unstable();
                (d.player, &d.prompt, options).hash(&mut h);
            }
            other => std::mem::discriminant(other).hash(&mut h),
        }
        let n_cvars = layout.n_cvars;
        let mut set: Vec<u64> = Vec::new();
        for (zi, zone) in st.zones.declared() {
            (zi, zone.cards.len()).hash(&mut h);
            let ordered = prog
                .zones
                .get(st.zones.def(zi).index())
                .is_some_and(|z| z.ordered);
            set.clear();
            for &c in &zone.cards {
                let Some(card) = st.cards.get(c as usize) else {
                    continue;
                };
                let mask = st.seen_mask(prog, zi as u32, card.face_up) | st.known(c);
                let mut one = super::hash::Fx::default();
                if seat < 64 && mask & (1u64 << seat) != 0 {
                    (card.kind, card.face_up).hash(&mut one);
                    for slot in 0..n_cvars {
                        st.cvars
                            .get(layout, c as usize * n_cvars + slot)
                            .hash(&mut one);
                    }
                } else {
                    u16::MAX.hash(&mut one);
                }
                match ordered {
                    true => one.finish().hash(&mut h),
                    false => set.push(one.finish()),
                }
            }
            set.sort_unstable();
            set.hash(&mut h);
        }
        st.globals.hash(&mut h);
        for (v, def) in prog.vars.iter().enumerate() {
            if def.scope != Scope::PerPlayer {
                continue;
            }
            let slot = layout.var_slot.get(v).copied().unwrap_or(0) as usize;
            let players = st.pvars.len() / layout.n_pvars.max(1);
            for p in 0..players {
                if p == usize::from(seat) || !def.private {
                    st.pvars.get(p * layout.n_pvars + slot).hash(&mut h);
                }
            }
        }
        (&st.eliminated, &st.out_for_round).hash(&mut h);
        h.finish()
    }
}

/// The kinds of a zone's cards, in the zone's order ([`Game::each_zone`]).
pub struct CardKinds<'a> {
    ids: std::slice::Iter<'a, u32>,
    cards: &'a [super::state::CardState],
}

impl CardKinds<'_> {
    /// How many cards the zone holds.
    pub fn held(&self) -> usize {
        self.ids.len()
    }
}

impl Iterator for CardKinds<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        loop {
            let id = *self.ids.next()?;
            if let Some(card) = self.cards.get(id as usize) {
                return Some(usize::from(card.kind));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Game, GameConfig, Status};
    use std::sync::Arc;

    fn game(file: &str, players: u8, seed: u64) -> Game {
        let path = format!("{}/../{file}", env!("CARGO_MANIFEST_DIR"));
        let src = std::fs::read_to_string(path).expect("the script");
        let program = crate::check::check_source(&src).program.expect("checks");
        Game::new(Arc::new(program), GameConfig::new(players, seed))
    }

    fn take(game: &mut Game, label: &str) -> bool {
        let Status::Decision(d) = game.status() else {
            return false;
        };
        match d.options.iter().position(|o| o == label) {
            Some(i) => game.apply(i).is_ok(),
            None => false,
        }
    }

    /// A world dealt from a seat's view looks the same to that seat; the other seat sees another
    /// position; a move changes it.
    #[test]
    fn a_world_dealt_from_a_seats_view_looks_the_same_to_it() {
        let mut g = game("examples/market-race.cardgame", 2, 4);
        for _ in 0..12 {
            let Status::Decision(d) = g.status() else {
                break;
            };
            let seat = d.player;
            let here = g.seen_fingerprint(seat);
            for seed in 0..4 {
                assert_eq!(g.determinize(seat, seed).seen_fingerprint(seat), here);
                assert_eq!(
                    g.determinize_by_holder(seat, seed).seen_fingerprint(seat),
                    here
                );
            }
            assert_ne!(g.seen_fingerprint(1 - seat), here);
            let last = d.options.len() - 1;
            g.apply(last).expect("applies");
            assert_ne!(g.seen_fingerprint(seat), here);
        }
    }

    /// Buying a card and selling it back at one price (Craft the Crown) comes back to the same
    /// position, though the card now lies elsewhere in the Market (a set) and the options are
    /// listed in another order.
    #[test]
    fn buying_a_card_and_selling_it_back_comes_back_to_the_same_position() {
        let mut g = game("games/craft-the-crown.cardgame", 2, 1);
        let mut checked = 0;
        for _ in 0..400 {
            let Status::Decision(d) = g.status() else {
                break;
            };
            let (seat, options) = (d.player, d.options.clone());
            if let Some(buy) = options.iter().find(|o| o.starts_with("Buy ")) {
                let here = g.seen_fingerprint(seat);
                let mut back = g.clone();
                let sell = buy.replacen("Buy", "Sell", 1);
                if take(&mut back, buy) && take(&mut back, &sell) {
                    assert_eq!(back.seen_fingerprint(seat), here, "{buy}, then {sell}");
                    checked += 1;
                }
            }
            let last = options.len() - 1;
            g.apply(last).expect("applies");
        }
        assert!(checked > 5, "{checked} buys sold back");
    }
}
