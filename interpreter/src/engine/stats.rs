//! Engine stage: read-only figures about a position for simulation statistics (who holds which cards).

use super::state::Holder;
use super::Game;

impl Game {
    /// Per seat: how many cards of each kind lie in zones that seat holds (its own zones, and zones
    /// attached to cards in them). Indexed `[seat][kind]`.
    pub fn holdings(&self) -> Vec<Vec<u32>> {
        let nk = self.prog.kinds.len();
        let mut out = vec![vec![0u32; nk]; self.st.players as usize];
        for card in &self.st.cards {
            if let Some(seat) = self.holder_seat(card.zone) {
                if let Some(slot) = out
                    .get_mut(seat as usize)
                    .and_then(|v| v.get_mut(card.kind as usize))
                {
                    *slot += 1;
                }
            }
        }
        out
    }

    /// Per seat: how many times an ability of each kind of card was performed for it (`perform`),
    /// counting the performing card (the copier, for `perform A of C as T`). Indexed `[seat][kind]`.
    pub fn performed(&self) -> Vec<Vec<u32>> {
        let nk = self.prog.kinds.len();
        (0..self.st.players as usize)
            .map(|p| {
                (0..nk)
                    .map(|k| self.st.performed.get(p * nk + k).copied().unwrap_or(0))
                    .collect()
            })
            .collect()
    }

    /// The seat holding a zone instance, following attachments to their host card (bounded, so a
    /// malformed chain cannot loop).
    fn holder_seat(&self, zone: u32) -> Option<u8> {
        let mut z = zone;
        for _ in 0..64 {
            match self.st.zones.get(z as usize)?.holder {
                Holder::Player(p) => return Some(p),
                Holder::Card(c) => z = self.st.cards.get(c as usize)?.zone,
                Holder::Shared | Holder::Space(_) => return None,
            }
        }
        None
    }
}

impl Game {
    /// An estimate of the bytes a game's state occupies (what a clone copies).
    pub fn state_size(&self) -> usize {
        use std::mem::size_of;
        let s = &self.st;
        size_of::<Game>()
            + s.cards.len() * size_of::<super::state::CardState>()
            + s.zones
                .iter()
                .map(|z| size_of::<super::state::ZoneInst>() + z.cards.len() * 4)
                .sum::<usize>()
            + s.frames.len() * size_of::<super::exec::Frame>()
            + s.watch.as_deref().map_or(0, |w| w.heap_size())
    }
}
