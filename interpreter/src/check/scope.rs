//! Checks stage: local scopes of a body being lowered (slots, binders, what the body may do).

use crate::program::{Expr, Slot, Ty};
use cardgame_grammar::ast::Span;
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
    /// Each local's slot, type, and where its name is written (empty for the engine's own slots).
    scopes: Vec<HashMap<String, (Slot, Ty, Span)>>,
    /// Per scope: where its slots start when they are given back at its end (a block's), `None`
    /// when they are kept (an expression's binders, a choice's).
    starts: Vec<Option<u16>>,
    next: u16,
    pub max: u16,
    pub kind: BodyKind,
    pub loops: u32,
    /// How many `round { }` the statement being checked is written in.
    pub rounds: u32,
    /// Player names of a rules test (seat 1, 2, ...).
    pub names: Vec<String>,
    /// Where `you` names nobody (`setup`: no player acts yet), the name of that place.
    pub no_you: Option<&'static str>,
    /// In a procedure: the type its `return` gives (`Some(None)`: a procedure without one);
    /// `None` elsewhere.
    pub ret: Option<Option<Ty>>,
    /// Whether functions with binders of their own may be copied into this body's calls
    /// (inline.rs): not into a strategy's rules, whose check of what a rule reads does not look
    /// into the functions it calls.
    pub copies_binders: bool,
    /// In a rules test's steps: the statistics read with `stat NAME` and the hidden local each is
    /// given (filled by the test runner before each step); `None` where statistics are not read.
    pub stat_reads: Option<Vec<(u16, Slot)>>,
    /// In a rules test's steps: `stat NAME[K]` of a statistic with a key, with K and the hidden
    /// local that holds what it recorded so far for K.
    pub stat_key_reads: Vec<(u16, Expr, Slot)>,
}

impl Ctx {
    pub fn new(kind: BodyKind) -> Self {
        Ctx {
            scopes: vec![HashMap::new()],
            starts: vec![None],
            next: 0,
            max: 0,
            kind,
            loops: 0,
            rounds: 0,
            names: vec![],
            no_you: None,
            ret: None,
            copies_binders: true,
            stat_reads: None,
            stat_key_reads: Vec::new(),
        }
    }
    /// Enter a scope whose slots stay taken after it ends: binders inside an expression, which a
    /// list walked where it lies may still read while an outer binder is written, and a choice's.
    pub fn push(&mut self) {
        self.scopes.push(HashMap::new());
        self.starts.push(None);
    }
    /// Enter a block's scope (a block, a loop's local and body): when it ends, the slots of its
    /// locals are given to the locals bound after it. Nothing reads a local after its scope ends,
    /// and every local is written before it is read, so a slot never changes meaning while it
    /// is live; the frame holds the most slots live at once (`max`), not one per local.
    pub fn push_block(&mut self) {
        self.scopes.push(HashMap::new());
        self.starts.push(Some(self.next));
    }
    /// Leave the innermost scope.
    pub fn pop(&mut self) {
        self.scopes.pop();
        if let Some(Some(start)) = self.starts.pop() {
            self.next = start;
        }
    }
    pub fn bind(&mut self, name: &str, ty: Ty) -> Slot {
        self.bind_at(name, ty, Span::default())
    }
    /// Bind a local whose name is written at `span`.
    pub fn bind_at(&mut self, name: &str, ty: Ty, span: Span) -> Slot {
        let slot = self.next;
        self.next = self.next.saturating_add(1);
        self.max = self.max.max(self.next);
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), (slot, ty, span));
        }
        slot
    }
    /// Give a name to a slot reserved earlier with [`Ctx::hidden_slot`] (an action's parameters,
    /// which the engine fills by position while binders in their domains take later slots).
    pub fn name_slot(&mut self, name: &str, slot: Slot, ty: Ty, span: Span) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), (slot, ty, span));
        }
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
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).map(|(slot, ty, _)| (*slot, ty.clone())))
    }
    /// Where the local `name` is declared (its name in a `let`, a parameter, a binder).
    pub fn declared_at(&self, name: &str) -> Option<Span> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).map(|(_, _, span)| *span))
            .filter(|s| !s.is_empty())
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

    /// A binder inside an action parameter's domain (`sort(x in ... by x)`) does not take the slot the
    /// engine fills with the parameter: the label and the body see the chosen values (they used to
    /// read `none`).
    #[test]
    fn a_binder_in_an_action_domain_leaves_the_parameters_their_slots() {
        let src = r#"game "Slots" { players 2 }
zone hand: set
card "Ruby" { copies 1 }
card "Opal" { copies 1 }
action pick(k in sort(x in kinds(hand) by x), n in filter(m in 1..3 where m > 1)) label "Take {k} {n}" {
  win [you] "took {k} {n}"
}
flow {
  move box to hand
  actions by seat(1) once [pick]
}
"#;
        let checked = check_source(src);
        assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
        let p = checked.program.expect("the script checks");
        let mut g = Game::new(Arc::new(p), GameConfig::new(2, 1));
        let d = g.decision().expect("a decision");
        assert_eq!(
            d.options,
            vec!["Take Ruby 2", "Take Ruby 3", "Take Opal 2", "Take Opal 3"]
        );
        g.apply(3).expect("applies");
        match g.status() {
            Status::Over(o) => assert_eq!(o.reason, "took Opal 3"),
            s => panic!("{s:?}"),
        }
    }
    /// Messages never show the checker's internal "any" type.
    #[test]
    fn messages_about_untyped_values_use_plain_words() {
        let src = "game \"A\" { players 2 }\nflow {\n  let xs = []\n  let n = xs + 1\n  win [seat(1)] \"x\"\n}\n";
        let checked = check_source(src);
        let messages: Vec<&str> = checked
            .diagnostics
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(messages, vec!["expected a list, found an int"]);
        assert!(checked
            .diagnostics
            .iter()
            .all(|d| !format!("{} {:?}", d.label, d.help).contains("any")));
    }
    /// An unknown event, action, procedure or function has a help even when no name is close.
    #[test]
    fn unknown_names_without_a_close_match_say_how_to_declare_one() {
        let src = "game \"U\" { players 2 }\nflow {\n  emit qqqq()\n  actions by seat(1) once [wwww]\n  zzzz()\n  let n = yyyy(1)\n  win [seat(1)] \"x\"\n}\n";
        let checked = check_source(src);
        let found: Vec<(&str, &str)> = checked
            .diagnostics
            .iter()
            .map(|d| (d.code, d.help.as_deref().unwrap_or("")))
            .collect();
        assert_eq!(
            found,
            vec![
                ("E108", "declare it with `event NAME(...)`"),
                ("E109", "declare it with `action NAME(x in L) { ... }`"),
                ("E110", "declare it with `proc NAME(p: player) { ... }`"),
                (
                    "E110",
                    "declare it with `fn NAME(p: player): int = E`, or see the built-in functions in docs/language.md"
                ),
            ]
        );
    }
}
