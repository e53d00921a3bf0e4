//! Agents stage: the features of a position, derived from any script without knowing the game, for
//! a learned evaluation (`cardgame learn`, `model.rs`).
//!
//! They are read from one seat's view (`Game::view`), so they hold only what that seat may see; inside
//! a search the view is of a possible world, whose hidden cards are the search's guesses. Seen from
//! the deciding seat ("me", then "next", "seat+2", ... in seat order):
//! - for every seat, the count of each card kind in each of its zones (`per player` zones), the number
//!   of cards there it cannot see (`?`), and its variables that are numbers or truth values;
//! - for the shared zones, the count of each kind and of unseen cards, and the shared variables;
//! - the script's own measure of each seat (`fn heuristic`, else `fn score`: `me.measure`), where it
//!   declares one, evaluated in the game the view is of;
//! - the game's progress: the turn number.
//!
//! Zones attached to cards or spaces are left out. Every feature has a readable name (`me.hand:Copper`,
//! `next.coins`, `market:?`, `turn`), which the model file lists.

use crate::engine::{Game, View};
use crate::program::Program;
use cardgame_grammar::ast::Scope;
use std::collections::HashMap;

/// Where each feature of a script at a player count lies in the vector, and its name.
#[derive(Clone, Debug)]
pub struct FeatureSet {
    names: Vec<String>,
    kinds: HashMap<String, usize>,
    /// Per-player zone name → its index among the per-player zones.
    player_zones: HashMap<String, usize>,
    /// Per-player numeric variable name → its index among them.
    player_vars: HashMap<String, usize>,
    shared_zones: HashMap<String, usize>,
    shared_vars: HashMap<String, usize>,
    players: usize,
    /// Features in one seat's block.
    per_seat: usize,
    /// Where the shared block starts.
    shared_base: usize,
    /// Where the measures start, when the script has one.
    measure_base: Option<usize>,
}

/// Whether a variable's type holds a number the model can read (an int or a truth value).
fn numeric(ty: &crate::program::Ty) -> bool {
    matches!(ty, crate::program::Ty::Int | crate::program::Ty::Bool)
}

/// How a seat is named relative to the deciding one.
pub fn relative_name(r: usize) -> String {
    match r {
        0 => "me".into(),
        1 => "next".into(),
        r => format!("seat+{r}"),
    }
}

impl FeatureSet {
    pub fn new(program: &Program, players: u8) -> FeatureSet {
        let players = players as usize;
        let kinds: Vec<&str> = program.kinds.iter().map(|k| k.name.as_str()).collect();
        let of_scope = |scope: Scope| -> Vec<&str> {
            program
                .zones
                .iter()
                .filter(|z| z.scope == scope)
                .map(|z| z.name.as_str())
                .collect()
        };
        let pzones = of_scope(Scope::PerPlayer);
        let mut szones = of_scope(Scope::Shared);
        if !szones.contains(&"box") {
            szones.push("box");
        }
        let vars_of = |shared: bool| -> Vec<&str> {
            program
                .vars
                .iter()
                .filter(|v| numeric(&v.ty))
                .filter(|v| match v.scope {
                    Scope::PerPlayer => !shared,
                    Scope::Shared => shared,
                    _ => false,
                })
                .map(|v| v.name.as_str())
                .collect()
        };
        let pvars = vars_of(false);
        let svars = vars_of(true);
        let zone_names = |prefix: &str, zone: &str, out: &mut Vec<String>| {
            for k in &kinds {
                out.push(format!("{prefix}{zone}:{k}"));
            }
            out.push(format!("{prefix}{zone}:?"));
        };
        let mut names = Vec::new();
        for r in 0..players {
            let prefix = format!("{}.", relative_name(r));
            for z in &pzones {
                zone_names(&prefix, z, &mut names);
            }
            for v in &pvars {
                names.push(format!("{prefix}{v}"));
            }
        }
        let shared_base = names.len();
        for z in &szones {
            zone_names("", z, &mut names);
        }
        for v in &svars {
            names.push(v.to_string());
        }
        let has_measure = program.fns.iter().any(|f| {
            (f.name == "heuristic" || f.name == "score")
                && f.params == [crate::program::Ty::Player]
                && f.ret == crate::program::Ty::Int
        });
        let measure_base = has_measure.then_some(names.len());
        if has_measure {
            for r in 0..players {
                names.push(format!("{}.measure", relative_name(r)));
            }
        }
        names.push("turn".into());
        let index = |l: &[&str]| -> HashMap<String, usize> {
            l.iter()
                .enumerate()
                .map(|(i, n)| (n.to_string(), i))
                .collect()
        };
        FeatureSet {
            per_seat: pzones.len() * (kinds.len() + 1) + pvars.len(),
            kinds: index(&kinds),
            player_zones: index(&pzones),
            player_vars: index(&pvars),
            shared_zones: index(&szones),
            shared_vars: index(&svars),
            players,
            shared_base,
            measure_base,
            names,
        }
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The features of `game` seen from `seat` (its view, and the script's measures of the seats
    /// in `game`), written into `out` (resized to [`Self::len`]).
    pub fn extract(&self, game: &Game, seat: u8, out: &mut Vec<f64>) {
        self.extract_view(&game.view(seat), out);
        if let Some(base) = self.measure_base {
            let mut g = game.clone();
            let n = self.players.max(1);
            for r in 0..n {
                let q = ((seat as usize + r) % n) as u8;
                if let (Some(x), Some(v)) = (out.get_mut(base + r), g.script_score_here(q)) {
                    *x = v as f64;
                }
            }
        }
    }

    /// The features a view shows, seen from its seat, written into `out` (resized to
    /// [`Self::len`]); the measures are left at 0.
    pub fn extract_view(&self, view: &View, out: &mut Vec<f64>) {
        out.clear();
        out.resize(self.names.len(), 0.0);
        let k1 = self.kinds.len() + 1;
        let me = view.seat as usize;
        let n = self.players.max(1);
        let relative = |q: usize| (q + n - me % n) % n;
        let number = |v: &serde_json::Value| match v {
            serde_json::Value::Number(x) => x.as_f64().unwrap_or(0.0),
            serde_json::Value::Bool(b) => f64::from(u8::from(*b)),
            _ => 0.0,
        };
        for zone in &view.zones {
            let base = match self.shared_zones.get(&zone.name) {
                Some(&z) => Some(self.shared_base + z * k1),
                None => view.players.iter().find_map(|p| {
                    let rest = zone.name.strip_prefix(p.name.as_str())?.strip_prefix('.')?;
                    let z = *self.player_zones.get(rest)?;
                    Some(relative(p.seat as usize) * self.per_seat + z * k1)
                }),
            };
            let Some(base) = base else { continue };
            for card in &zone.cards {
                let at = match card {
                    Some(kind) => self.kinds.get(kind).copied().unwrap_or(k1 - 1),
                    None => k1 - 1,
                };
                if let Some(x) = out.get_mut(base + at) {
                    *x += 1.0;
                }
            }
        }
        let var_base = self.player_zones.len() * k1;
        for p in &view.players {
            let base = relative(p.seat as usize) * self.per_seat + var_base;
            for v in &p.vars {
                if let Some(&i) = self.player_vars.get(&v.name) {
                    if let Some(x) = out.get_mut(base + i) {
                        *x = number(&v.value);
                    }
                }
            }
        }
        let global_base = self.shared_base + self.shared_zones.len() * k1;
        for v in &view.globals {
            if let Some(&i) = self.shared_vars.get(&v.name) {
                if let Some(x) = out.get_mut(global_base + i) {
                    *x = number(&v.value);
                }
            }
        }
        if let Some(t) = out.last_mut() {
            *t = f64::from(view.turn);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::FeatureSet;
    use crate::check::check_source;
    use crate::engine::{Game, GameConfig};
    use std::sync::Arc;

    #[test]
    fn features_are_read_from_the_seat_s_view_by_kind_zone_and_seat() {
        let src =
            "game \"F\" { players 2 }\ncard \"Gem\" { copies 3 }\ncard \"Rock\" { copies 2 }\n\
                   zone hand per player: set, owner\nzone pool: set\n\
                   var coins per player: int = 0\nvar round: int = 0\n\
                   setup { move cards(\"Gem\", box) to seat(1).hand\n\
                   move cards(\"Rock\", box) to pool\n seat(2).coins = 4\n round = 2 }\n\
                   flow { let n = choose n in [1, 2] by seat(2)  win [seat(1)] \"x\" }\n";
        let p = Arc::new(check_source(src).program.expect("checks"));
        let g = Game::new(p.clone(), GameConfig::new(2, 1));
        let f = FeatureSet::new(&p, 2);
        let mut x = Vec::new();
        let show = |x: &[f64]| {
            f.names()
                .iter()
                .zip(x)
                .filter(|(_, v)| **v != 0.0)
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        f.extract(&g, 1, &mut x);
        assert_eq!(show(&x), "me.coins=4 next.hand:?=3 pool:Rock=2 round=2");
        f.extract(&g, 0, &mut x);
        assert_eq!(show(&x), "me.hand:Gem=3 next.coins=4 pool:Rock=2 round=2");
    }
}
