//! Engine stage: calls of pure functions remembered while one decision's options are listed (a
//! cache owned by the game, docs/engine.md "Caches").

use super::*;

/// The calls of pure functions remembered while options are listed. A call is found by a table
/// of 1,024 places addressed by the hash of its function, `you`, `this` and arguments (open
/// addressing, the next place on a collision; at most 512 calls are remembered, so at least half
/// the places are free); the arguments of every remembered call lie one after the other in `args`,
/// so remembering a call allocates nothing once the vectors have grown.
///
/// Remembering changes nothing observable: a call found here adds the work its body did when it
/// was evaluated (`MemoEntry::work`), so budgets end games at the same step whether a call was
/// remembered or not. So the calls of a function are no longer looked for once that has not paid
/// (`FnMemo`). A clone starts with none, and with every function looked for.
///
/// The table lives behind a box made at the first call remembered, so that a game's state (copied
/// by every clone) holds one pointer for it.
#[derive(Debug, Default)]
pub(crate) struct Memo(Option<Box<MemoTable>>);

#[derive(Debug, Default)]
pub(crate) struct MemoTable {
    /// The remembered calls, in the order they were remembered.
    calls: Vec<MemoEntry>,
    /// The arguments of the remembered calls (`MemoEntry::args` is a range of it).
    args: Vec<Value>,
    /// 1 + an index of `calls`, or 0 for a free place (`MEMO_PLACES` places once used).
    table: Vec<u16>,
    /// By function: whether looking for its calls pays (kept while the memo is cleared).
    by_fn: Vec<FnMemo>,
}

/// How looking for the calls of one function paid: how often it was done, and the work the calls
/// found saved.
#[derive(Clone, Copy, Debug, Default)]
struct FnMemo {
    tries: u32,
    saved: u64,
    off: bool,
}

/// A function's calls are looked for as long as they save on average at least this much work per
/// look. (Measured with callgrind over random games: Heart of Crown's calls pay at 1 and cost 1%
/// more instructions at 2; Crafty Explorers' and Craft the Crown's calls, most of them never made
/// twice, cost 13% and 4% when all are looked for.)
const MEMO_WORTH: u64 = 1;

/// The places of `Memo::table`: a power of two, at least twice the most calls remembered.
const MEMO_PLACES: usize = 1024;

impl Clone for Memo {
    fn clone(&self) -> Memo {
        Memo::default()
    }
}

impl Memo {
    /// Whether the calls of `f` are looked for.
    #[inline]
    pub fn wanted(&self, f: u16) -> bool {
        self.0.as_ref().is_none_or(|t| t.wanted(f))
    }

    /// The table, made at the first use.
    #[inline]
    pub fn table(&mut self) -> &mut MemoTable {
        self.0.get_or_insert_with(Default::default)
    }

    #[inline]
    pub fn clear(&mut self) {
        if let Some(t) = &mut self.0 {
            t.clear();
        }
    }
}

impl MemoTable {
    /// The place where a call's search starts.
    #[inline]
    fn place(f: u16, you: Option<u8>, this: Option<u32>, hash: u64) -> usize {
        let you = you.map_or(0, |y| y as u64 + 1);
        let this = this.map_or(0, |t| t as u64 + 1);
        let h = (hash ^ (f as u64) << 48 ^ you << 40 ^ this).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 54) as usize & (MEMO_PLACES - 1)
    }

    /// Whether the calls of `f` are looked for.
    #[inline]
    pub fn wanted(&self, f: u16) -> bool {
        self.by_fn.get(f as usize).is_none_or(|m| !m.off)
    }

    /// The remembered value of a call and the work its body did, if any. Counts the look for
    /// `wanted`: from 128 looks on, at every power of two, a function whose calls found saved less
    /// than `MEMO_WORTH` work a look is no longer looked for.
    #[inline]
    pub fn find(
        &mut self,
        f: u16,
        you: Option<u8>,
        this: Option<u32>,
        args: &[Value],
        hash: u64,
    ) -> Option<(&Value, u64)> {
        let found = self.look(f, you, this, args, hash);
        if self.by_fn.len() <= f as usize {
            self.by_fn.resize(f as usize + 1, FnMemo::default());
        }
        let stats = &mut self.by_fn[f as usize];
        stats.tries += 1;
        if let Some(i) = found {
            stats.saved += self.calls[i].work;
        }
        if stats.tries >= 128 && stats.tries.is_power_of_two() {
            stats.off = stats.saved < stats.tries as u64 * MEMO_WORTH;
        }
        let m = &self.calls[found?];
        Some((&m.value, m.work))
    }

    /// Where a call lies among `calls`, if it was remembered.
    #[inline]
    fn look(
        &self,
        f: u16,
        you: Option<u8>,
        this: Option<u32>,
        args: &[Value],
        hash: u64,
    ) -> Option<usize> {
        if self.calls.is_empty() {
            return None;
        }
        let mut at = Self::place(f, you, this, hash);
        loop {
            let i = (*self.table.get(at)? as usize).checked_sub(1)?;
            let m = self.calls.get(i)?;
            // The hash of the arguments first: most remembered calls differ there.
            if m.hash == hash
                && m.f == f
                && m.you == you
                && m.this == this
                && self.args.get(m.args.0 as usize..m.args.1 as usize) == Some(args)
            {
                return Some(i);
            }
            at = (at + 1) & (MEMO_PLACES - 1);
        }
    }

    /// Remembers a call of `f` with arguments `args` (of hash `hash`), its value and the work its
    /// body did, unless `most` calls are remembered already.
    #[allow(clippy::too_many_arguments)]
    pub fn remember(
        &mut self,
        f: u16,
        you: Option<u8>,
        this: Option<u32>,
        args: &[Value],
        hash: u64,
        value: Value,
        work: u64,
        most: usize,
    ) {
        let n = self.calls.len();
        if n >= most.min(MEMO_PLACES / 2) {
            return;
        }
        if self.table.is_empty() {
            self.table.resize(MEMO_PLACES, 0);
        }
        let mut at = Self::place(f, you, this, hash);
        while self.table[at] != 0 {
            at = (at + 1) & (MEMO_PLACES - 1);
        }
        self.table[at] = n as u16 + 1;
        let start = self.args.len() as u32;
        self.args.extend_from_slice(args);
        self.calls.push(MemoEntry {
            f,
            you,
            this,
            args: (start, self.args.len() as u32),
            hash,
            place: at as u16,
            value,
            work,
        });
    }

    #[inline]
    pub fn clear(&mut self) {
        if self.calls.is_empty() {
            return;
        }
        for m in self.calls.drain(..) {
            self.table[m.place as usize] = 0;
        }
        self.args.clear();
    }
}

/// A remembered call of a pure function: the function, `you`, `this`, its arguments (a range of
/// `Memo::args`), its value and work, and its place in `Memo::table`.
#[derive(Clone, Debug)]
struct MemoEntry {
    f: u16,
    you: Option<u8>,
    this: Option<u32>,
    args: (u32, u32),
    /// The arguments' hash (`Fx::of_values`).
    hash: u64,
    place: u16,
    value: Value,
    /// The work the call's body did (`State::exec_count`).
    work: u64,
}
