//! Engine stage: a game's cards counted where they lie, and its variables read by index, for agents
//! that read a possible world they dealt themselves (the features of a learned model).

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
