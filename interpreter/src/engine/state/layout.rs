//! Engine stage: what is fixed about a game once it is created (its layout, shared between clones),
//! and the per-card variables as changes over it.

use super::*;

/// Everything about a game that is fixed once it is created (shared between clones).
#[derive(Debug, Default)]
pub(crate) struct Layout {
    pub ncards: u32,
    /// The longest name of a card kind, a tag or a zone (a bound on the texts of values, label.rs).
    pub longest_name: usize,
    /// First zone instance of every zone definition, and how many it has.
    pub zone_base: Vec<u32>,
    pub zone_len: Vec<u32>,
    /// Index of every variable within its scope.
    pub var_slot: Vec<u32>,
    pub n_pvars: usize,
    pub n_cvars: usize,
    /// The participants' per-player variables as declared, before setup (`[i * n_pvars + slot]`), to
    /// tell whether a game gave a participant a role.
    pub participant_init: Vec<Value>,
    /// Spaces as (x, y), row by row.
    pub spaces: Vec<(i64, i64)>,
    pub width: i64,
    pub height: i64,
    pub diagonal: bool,
    /// `neighbours(s)` of every space (a list of spaces), in the order `neighbours_of` gives.
    pub neighbours: Vec<Value>,
    pub nevents: usize,
    /// Global triggers per event.
    pub glob_trigs: Vec<Vec<u16>>,
    /// Per event: the zone families (declaration order) in which some card trigger listens.
    pub families: Vec<Vec<ZoneId>>,
    /// Per event: whether some card trigger listens in any zone.
    pub anywhere: Vec<bool>,
    /// `kind * nevents + event` → indices into that kind's triggers.
    pub kind_trigs: Vec<Vec<u16>>,
    /// Zone definitions attached to cards (`per card`).
    pub card_zones: Vec<usize>,
    /// Number of card properties of the program.
    pub nprops: usize,
    /// `kind * nprops + property` → the value when it is a constant for that kind.
    pub prop_const: Vec<Option<Value>>,
    /// The same table for constant numbers only (what sums over zones read).
    pub prop_int: Vec<Option<i64>>,
    /// Per kind, the words that describe its cards to a learned play-out policy
    /// (`engine::parts::kind_words`: its name, its tags, its constant properties).
    pub kind_words: Vec<Vec<String>>,
    /// Every card's per-card variables as the game was created, `[card * n_cvars + slot]` (see
    /// `CardVars`).
    pub cvar_init: Vec<Value>,
    /// Per card: the first card of the run of cards created one after another whose per-card
    /// variables as created equal its own (`CardVars::same_row`: two rows never written with the same
    /// number are equal, without comparing them).
    pub cvar_row: Vec<u32>,
    /// The game's options (`option NAME`) and table columns for its number of players.
    pub options: Vec<Value>,
    pub columns: Vec<Value>,
    /// The script's measure of a seat for bots: `fn heuristic(p: player): int`, else `fn score` of
    /// the same shape (see `Game::script_score`).
    pub measure: Option<usize>,
    /// The call of the measure of the seat held by local 0 (one expression, compiled once).
    pub measure_call: Option<Expr>,
}

impl Layout {
    /// The parts that depend only on the program.
    pub fn new(p: &Program) -> Layout {
        let mut var_slot = Vec::with_capacity(p.vars.len());
        let (mut ng, mut np, mut nc) = (0u32, 0u32, 0u32);
        for v in &p.vars {
            let c = match v.scope {
                Scope::PerPlayer => &mut np,
                Scope::PerCard => &mut nc,
                _ => &mut ng,
            };
            var_slot.push(*c);
            *c += 1;
        }
        let nevents = p
            .events
            .len()
            .max(p.turn_start.index() + 1)
            .max(p.turn_end.index() + 1);
        let mut glob_trigs = vec![Vec::new(); nevents];
        for (i, t) in p.triggers.iter().enumerate() {
            if let Some(v) = glob_trigs.get_mut(t.event.index()) {
                v.push(i as u16);
            }
        }
        let mut families: Vec<Vec<ZoneId>> = vec![Vec::new(); nevents];
        let mut anywhere = vec![false; nevents];
        let mut kind_trigs = vec![Vec::new(); p.kinds.len() * nevents];
        for (k, kd) in p.kinds.iter().enumerate() {
            for (i, t) in kd.triggers.iter().enumerate() {
                let e = t.event.index();
                if e >= nevents {
                    continue;
                }
                kind_trigs[k * nevents + e].push(i as u16);
                match t.zone {
                    Some(z) => {
                        if !families[e].contains(&z) {
                            families[e].push(z);
                        }
                    }
                    None => anywhere[e] = true,
                }
            }
        }
        for f in &mut families {
            f.sort();
        }
        let card_zones = (0..p.zones.len())
            .filter(|&z| p.zones[z].scope == Scope::PerCard)
            .collect();
        let nprops = p.props.len();
        let mut prop_const = Vec::with_capacity(p.kinds.len() * nprops);
        let mut prop_int = Vec::with_capacity(p.kinds.len() * nprops);
        for k in &p.kinds {
            for (pid, d) in p.props.iter().enumerate() {
                let e = match k.props.get(pid) {
                    Some(Some(e)) => e,
                    _ => &d.default,
                };
                prop_int.push(match &e.kind {
                    ExprKind::Const(Value::Int(i)) => Some(*i),
                    _ => None,
                });
                prop_const.push(match &e.kind {
                    ExprKind::Const(v) => Some(v.clone()),
                    // A list of constants (`recipe "Stone", "Wood"`) is a constant too.
                    ExprKind::List(items) => items
                        .iter()
                        .map(|i| match &i.kind {
                            ExprKind::Const(v) => Some(v.clone()),
                            _ => None,
                        })
                        .collect::<Option<Vec<Value>>>()
                        .map(Value::list),
                    _ => None,
                });
            }
        }
        let kind_words = (0..p.kinds.len())
            .map(|kind| {
                let constant = |pid: usize| prop_const.get(kind * nprops + pid)?.as_ref();
                crate::engine::parts::kind_words(p, kind, &constant)
            })
            .collect();
        let find = |name: &str| {
            p.fns.iter().position(|f| {
                f.name == name
                    && f.params.len() == 1
                    && f.params[0] == crate::program::Ty::Player
                    && f.ret == crate::program::Ty::Int
            })
        };
        let measure = find("heuristic").or_else(|| find("score"));
        let measure_call = measure.map(|f| {
            let seat = Expr::new(ExprKind::Local(0), Default::default());
            Expr::new(
                ExprKind::CallFn(crate::program::FnId(f as u16), vec![seat]),
                Default::default(),
            )
        });
        Layout {
            measure,
            measure_call,
            var_slot,
            n_pvars: np as usize,
            n_cvars: nc as usize,
            nevents,
            glob_trigs,
            families,
            anywhere,
            kind_trigs,
            card_zones,
            nprops,
            prop_const,
            prop_int,
            kind_words,
            ..Layout::default()
        }
    }

    /// The spaces next to space `s` (sharing a side; also a corner on a `diagonal` board), row by row
    /// from the one above-left: `neighbours(s)`.
    pub fn neighbours_of(&self, s: usize) -> Vec<Value> {
        let mut out = Vec::new();
        let Some(&(x, y)) = self.spaces.get(s) else {
            return out;
        };
        for dy in -1..=1i64 {
            for dx in -1..=1i64 {
                if (dx == 0 && dy == 0) || (dx != 0 && dy != 0 && !self.diagonal) {
                    continue;
                }
                if let Some(s) = self.space_at(x + dx, y + dy) {
                    out.push(Value::Space(s));
                }
            }
        }
        out
    }

    pub fn space_at(&self, x: i64, y: i64) -> Option<u16> {
        if x < 1 || y < 1 || x > self.width || y > self.height {
            return None;
        }
        u16::try_from((y - 1) * self.width + (x - 1)).ok()
    }

    #[inline]
    pub fn var(&self, v: VarId) -> usize {
        self.var_slot.get(v.index()).copied().unwrap_or(0) as usize
    }
}

/// The per-card variables, `[card * n_cvars + slot]`. The values every card had when the game was
/// created live in the layout (`Layout::cvar_init`, shared between clones); the state keeps only the
/// values written since (`written`) and, per index, where its written value is (`at`, `u32::MAX`
/// for none; grown up to the highest index written), so a clone copies a vector of plain numbers and
/// the values that changed, not a `Value` per card and variable.
#[derive(Clone, Debug, Default)]
pub(crate) struct CardVars {
    at: Vec<u32>,
    written: Vec<Value>,
}

impl CardVars {
    /// The value at index `i` (`None`: no such variable).
    #[inline]
    pub fn get<'s>(&'s self, l: &'s Layout, i: usize) -> Option<&'s Value> {
        match self.at.get(i) {
            Some(&k) if k != u32::MAX => self.written.get(k as usize),
            _ => l.cvar_init.get(i),
        }
    }

    /// The place of the value at index `i`, written from now on (`None`: no such variable).
    pub fn get_mut(&mut self, l: &Layout, i: usize) -> Option<&mut Value> {
        if i >= l.cvar_init.len() {
            return None;
        }
        if self.at.len() <= i {
            self.at.resize(i + 1, u32::MAX);
        }
        let mut k = self.at[i];
        if k == u32::MAX {
            k = self.written.len() as u32;
            self.written
                .push(l.cvar_init.get(i).cloned().unwrap_or_default());
            self.at[i] = k;
        }
        self.written.get_mut(k as usize)
    }

    /// Card `c`'s row of `n` values equals card `d`'s.
    pub fn same_row(&self, l: &Layout, n: usize, c: usize, d: usize) -> bool {
        // Whether the row starting at `b` was never written: its places in `at` (fewer, or none,
        // past its end) are all empty.
        let untouched = |b: usize| {
            let end = (b + n).min(self.at.len());
            let mut i = b;
            while i < end {
                if self.at[i] != u32::MAX {
                    return false;
                }
                i += 1;
            }
            true
        };
        if untouched(c * n) && untouched(d * n) {
            return l.cvar_row.get(c) == l.cvar_row.get(d) || self.same_init(l, n, c, d);
        }
        self.same_values(l, n, c, d)
    }

    /// `same_row` of two rows as created (which do not start the same run).
    #[inline(never)]
    fn same_init(&self, l: &Layout, n: usize, c: usize, d: usize) -> bool {
        l.cvar_init.get(c * n..(c + 1) * n) == l.cvar_init.get(d * n..(d + 1) * n)
    }

    /// `same_row` value by value.
    #[inline(never)]
    fn same_values(&self, l: &Layout, n: usize, c: usize, d: usize) -> bool {
        (0..n).all(|k| match (self.get(l, c * n + k), self.get(l, d * n + k)) {
            // Numbers and truths, the usual card variables, compared at once.
            (Some(Value::Int(x)), Some(Value::Int(y))) => x == y,
            (Some(Value::Bool(x)), Some(Value::Bool(y))) => x == y,
            (x, y) => x == y,
        })
    }

    /// The bytes a clone copies.
    pub fn heap_size(&self) -> usize {
        self.at.len() * 4 + self.written.len() * std::mem::size_of::<Value>()
    }
}
