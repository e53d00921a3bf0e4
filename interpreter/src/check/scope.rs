//! Checks stage: local scopes of a body being lowered (slots, binders, what the body may do).

use crate::program::{Slot, Ty};
use std::collections::HashMap;

/// What kind of body is being lowered: it decides what statements are allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// Setup, flow, procedures, abilities, actions, triggers, test steps.
    Statements,
    /// A `check` block: no decisions.
    Check,
    /// A function or a property: one expression.
    Pure,
}

/// The locals of one body: a stack of scopes over one frame of slots.
pub struct Ctx {
    scopes: Vec<HashMap<String, (Slot, Ty)>>,
    next: u16,
    pub max: u16,
    pub kind: BodyKind,
    pub loops: u32,
    /// Player names of a rules test (seat 1, 2, ...).
    pub names: Vec<String>,
}

impl Ctx {
    pub fn new(kind: BodyKind) -> Self {
        Ctx {
            scopes: vec![HashMap::new()],
            next: 0,
            max: 0,
            kind,
            loops: 0,
            names: vec![],
        }
    }
    pub fn push(&mut self) {
        self.scopes.push(HashMap::new());
    }
    /// Leave a scope. Slots are not reused, so a paused frame never sees a slot change meaning.
    pub fn pop(&mut self) {
        self.scopes.pop();
    }
    pub fn bind(&mut self, name: &str, ty: Ty) -> Slot {
        let slot = self.next;
        self.next = self.next.saturating_add(1);
        self.max = self.max.max(self.next);
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), (slot, ty));
        }
        slot
    }
    /// A slot with no name, for the engine's own use.
    pub fn hidden_slot(&mut self) -> Slot {
        self.bind("", Ty::Any)
    }
    /// Give a local the type of a value assigned to it (a local started as `[]` or `none`).
    pub fn refine(&mut self, name: &str, ty: Ty) {
        if let Some(entry) = self.scopes.iter_mut().rev().find_map(|s| s.get_mut(name)) {
            entry.1 = ty;
        }
    }
    pub fn get(&self, name: &str) -> Option<(Slot, Ty)> {
        self.scopes.iter().rev().find_map(|s| s.get(name).cloned())
    }
    pub fn local_names(&self) -> Vec<String> {
        self.scopes
            .iter()
            .flat_map(|s| s.keys().filter(|k| !k.is_empty()).cloned())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::check::check_source;
    use crate::engine::{Game, GameConfig, Status};
    use std::sync::Arc;

    /// `let order = []` then `order = order + [...]`: the loop over `order` knows its players, so
    /// `p.inplay` is the player's zone (it used to read nothing, silently).
    #[test]
    fn a_local_started_as_an_empty_list_takes_the_type_of_its_first_value() {
        let src = r#"game "Order" { players 3 }
zone inplay per player: set
card "X" { copies 1 }
flow {
  move box to seat(2).inplay
  let order = []
  for q in everyone {
    order = order + filter(r in everyone where r == q)
  }
  for p in order {
    if count(p.inplay) == 1 { win [p] "found" }
  }
  win [] "not found"
}
"#;
        let checked = check_source(src);
        assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
        let p = checked.program.expect("the script checks");
        let g = Game::new(Arc::new(p), GameConfig::new(3, 1));
        match g.status() {
            Status::Over(o) => {
                assert_eq!(o.reason, "found");
                assert_eq!(o.winners, vec![1]);
            }
            s => panic!("{s:?}"),
        }
    }
}
