//! Engine stage: a game's cards counted where they lie, and its variables read by index, for agents
//! that read a possible world they dealt themselves (the features of a learned model).

use super::state::Holder;
use super::Game;
use crate::value::Value;
use cardgame_grammar::ast::Scope;

impl Game {
    /// Calls `f(zone, holder, kind)` for every card in a shared or per-player zone: the index of
    /// the zone's definition in `Program::zones`, the player holding that zone (`None` for a shared
    /// one) and the index of the card's kind in `Program::kinds`. Zones attached to cards or spaces
    /// are left out; the box is not. It reads every card, seen or not: it is for a world an agent
    /// dealt from what its seat knows (`Game::determinize`, `Game::determinize_by_holder`), never
    /// for the real game. Only the zones whose definition `counted` accepts are read (a zone left
    /// out costs nothing, however many cards it holds).
    pub fn each_card(
        &self,
        counted: impl Fn(usize) -> bool,
        mut f: impl FnMut(usize, Option<u8>, usize),
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
            for &c in &z.cards {
                if let Some(card) = self.st.cards.get(c as usize) {
                    f(def, holder, card.kind as usize);
                }
            }
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
