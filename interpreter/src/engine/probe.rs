//! Engine stage (below the state): what tests and debug builds switch off in one game, and what
//! its shortcuts did, kept by the game itself (never by the thread or the process).
//!
//! A game carries a [`Probe`] in debug builds and tests only (`State::probe`): the debug checks
//! that compare a shortcut with the general path set its switches while they run, and the tests
//! create a game without some shortcuts ([`Without`], `GameConfig::without`) or read what its
//! shortcuts did ([`Counted`]). A clone copies it with the state.

/// Tests: the shortcuts a game is created without, to compare what they answer with what the
/// engine answers without them.
#[cfg(test)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Without {
    /// No pure call remembered while options are listed (`State::remember`).
    pub memo: bool,
    /// Every menu listed by the general enumeration (`enum_action`): no loop of one parameter,
    /// no tables of kinds.
    pub menu_shortcuts: bool,
}

/// Tests: how many times the shortcuts of one game answered.
#[cfg(test)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counted {
    /// Pure calls found remembered (`MemoTable::find`).
    pub calls_remembered: u64,
    /// Cards a menu passed over by a table of kinds (menus.rs).
    pub passed_by_kind: u64,
    /// Cards a menu skipped as identical to one tried before (options.rs; debug builds).
    pub cards_skipped: u64,
    /// Values the closures' value closures gave (closures/value.rs): locals given, `for` lists,
    /// the parts of a `log`, a `choose`'s candidates.
    pub values: u64,
    /// Texts the closures built (closures/texts.rs): labels, prompts, texts of `log` and `win`.
    pub texts: u64,
    /// Statements the closures compiled that the walker ran, a closure not answering (exec.rs).
    pub walked: u64,
    /// Statements the walker's loop ran itself (exec.rs, `run_block`): not compiled, or their
    /// closures not answering; each game's first `shuffle` among them.
    pub statements: u64,
    /// Parts of a `log` the walker evaluated while nobody records, their value closure not
    /// compiled or not answering (closures/in_place.rs).
    pub parts_walked: u64,
    /// Expressions the walker evaluated, but its leaves (constants, locals, `you`, `active`):
    /// decisions' and guards' among them (eval.rs).
    pub evaluated: u64,
    /// Per place the walker is entered from outside eval.rs and stmt.rs ([`Site`]): its calls and
    /// the expressions evaluated under them (`Mach::eval_at`).
    pub sites: [Tally; super::sites::SITES],
}

/// Tests: one [`Site`]'s calls of the walker and the expressions it evaluated under them.
#[cfg(test)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub calls: u64,
    pub evaluated: u64,
}

#[cfg(test)]
impl Counted {
    /// `self` with `other`'s counts added.
    pub(crate) fn add(&mut self, o: &Counted) {
        self.calls_remembered += o.calls_remembered;
        self.passed_by_kind += o.passed_by_kind;
        self.cards_skipped += o.cards_skipped;
        self.values += o.values;
        self.texts += o.texts;
        self.walked += o.walked;
        self.statements += o.statements;
        self.parts_walked += o.parts_walked;
        self.evaluated += o.evaluated;
        for (t, u) in self.sites.iter_mut().zip(&o.sites) {
            t.calls += u.calls;
            t.evaluated += u.evaluated;
        }
    }
}

/// Debug builds and tests: one game's switches of its shortcuts, and the counts of what they did.
#[derive(Clone, Debug, Default)]
pub(crate) struct Probe {
    /// Menus are listed by the general enumeration alone: while a debug check lists a menu a
    /// second time, or for a whole game created `Without::menu_shortcuts`.
    pub plain: bool,
    #[cfg(test)]
    pub without: Without,
    #[cfg(test)]
    pub counted: Counted,
    /// Tests: per place in the source the walker was entered from (the outermost expression it
    /// evaluated, by `#[track_caller]`), its entries and the expressions evaluated under them.
    #[cfg(test)]
    pub entries: std::collections::BTreeMap<(&'static str, u32), Tally>,
}

impl Probe {
    /// The probe of a game created with `config`.
    #[cfg_attr(not(test), allow(unused_variables))]
    pub fn of(config: &super::GameConfig) -> Probe {
        Probe {
            #[cfg(test)]
            plain: config.without.menu_shortcuts,
            #[cfg(test)]
            without: config.without,
            ..Probe::default()
        }
    }
}
