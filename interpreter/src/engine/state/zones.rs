//! Engine stage: where the cards of a game are: each card's state, and the zone instances that hold
//! them with their versions.

use super::*;

/// Where a zone instance hangs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Holder {
    Shared,
    Player(u8),
    Card(u32),
    Space(u16),
}

#[derive(Clone, Debug)]
pub(crate) struct CardState {
    pub kind: u16,
    /// The zone instance that holds the card.
    pub zone: u32,
    pub face_up: bool,
}

/// The cards of one zone instance. Which zone and holder it is lies in `ZoneMeta` (fixed once the
/// game is created), so a clone copies only the cards and the version.
#[derive(Clone, Debug, Default)]
pub(crate) struct ZoneInst {
    /// Bottom first: the top of the zone is the end of the vector.
    pub cards: Vec<u32>,
    /// Bumped by every change of `cards` (what the checks' records compare, see `watch.rs`).
    pub ver: u32,
}

/// An instance of a per-card zone that was never touched: no cards, version 0.
static UNTOUCHED: ZoneInst = ZoneInst {
    cards: Vec::new(),
    ver: 0,
};

/// What is fixed about every zone instance, shared between clones.
#[derive(Debug, Default)]
pub(crate) struct ZoneMeta {
    /// The definition of every instance, by instance id.
    pub def: Vec<ZoneId>,
    /// Where every instance hangs, by instance id.
    pub holder: Vec<Holder>,
    /// The instance ids in the order of the script: definitions as declared, then holders (seats,
    /// cards, spaces) in order. Views and redeals follow it.
    pub declared: Vec<u32>,
}

/// The zone instances of a game, by id. The instances of shared, per-player and per-space zones come
/// first and are stored in a vector; the instances of per-card zones (one per card and definition,
/// ids from `dense.len()` on) are stored only once something changed them, in a vector sorted by id,
/// so the empty zones of a game's cards cost nothing in a clone. Reading an untouched one gives an
/// empty instance; writing one creates it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Zones {
    dense: Vec<ZoneInst>,
    sparse: Vec<(u32, ZoneInst)>,
    pub meta: std::sync::Arc<ZoneMeta>,
}

impl Zones {
    /// `dense` instances stored at once; `meta` describes them and the per-card ones after them.
    pub fn new(dense: usize, meta: ZoneMeta) -> Zones {
        Zones {
            dense: vec![ZoneInst::default(); dense],
            sparse: Vec::new(),
            meta: std::sync::Arc::new(meta),
        }
    }

    /// Number of instance ids.
    #[inline]
    pub fn len(&self) -> usize {
        self.meta.def.len()
    }

    #[inline]
    pub fn get(&self, z: usize) -> Option<&ZoneInst> {
        if let Some(zi) = self.dense.get(z) {
            return Some(zi);
        }
        if z >= self.len() {
            return None;
        }
        Some(
            match self.sparse.binary_search_by_key(&(z as u32), |e| e.0) {
                Ok(i) => &self.sparse[i].1,
                Err(_) => &UNTOUCHED,
            },
        )
    }

    /// The instance, created if it was untouched.
    #[inline(never)]
    pub fn get_mut(&mut self, z: usize) -> Option<&mut ZoneInst> {
        if z < self.dense.len() {
            return self.dense.get_mut(z);
        }
        if z >= self.len() {
            return None;
        }
        let i = match self.sparse.binary_search_by_key(&(z as u32), |e| e.0) {
            Ok(i) => i,
            Err(i) => {
                self.sparse.insert(i, (z as u32, ZoneInst::default()));
                i
            }
        };
        Some(&mut self.sparse[i].1)
    }

    /// The definition of instance `z`.
    #[inline]
    pub fn def(&self, z: usize) -> ZoneId {
        self.meta.def.get(z).copied().unwrap_or(ZoneId(0))
    }

    /// Where instance `z` hangs.
    #[inline]
    pub fn holder(&self, z: usize) -> Option<Holder> {
        self.meta.holder.get(z).copied()
    }

    /// The stored instances (every instance of a shared, per-player or per-space zone, and the
    /// per-card ones something changed), by id.
    pub fn stored(&self) -> impl Iterator<Item = (usize, &ZoneInst)> {
        self.dense
            .iter()
            .enumerate()
            .chain(self.sparse.iter().map(|(z, zi)| (*z as usize, zi)))
    }

    /// Every stored instance, to change in place.
    pub fn stored_mut(&mut self) -> impl Iterator<Item = &mut ZoneInst> {
        self.dense
            .iter_mut()
            .chain(self.sparse.iter_mut().map(|(_, zi)| zi))
    }

    /// Every instance id in the order of the script (see `ZoneMeta::declared`) with its instance.
    pub fn declared(&self) -> impl Iterator<Item = (usize, &ZoneInst)> {
        self.meta
            .declared
            .iter()
            .filter_map(|&z| self.get(z as usize).map(|zi| (z as usize, zi)))
    }

    /// The bytes a clone copies for the zones.
    pub fn heap_size(&self) -> usize {
        use std::mem::size_of;
        self.dense.len() * size_of::<ZoneInst>()
            + self.sparse.len() * size_of::<(u32, ZoneInst)>()
            + self
                .stored()
                .map(|(_, zi)| zi.cards.len() * 4)
                .sum::<usize>()
    }
}

impl std::ops::Index<usize> for Zones {
    type Output = ZoneInst;
    #[inline]
    fn index(&self, z: usize) -> &ZoneInst {
        match self.get(z) {
            Some(zi) => zi,
            None => panic!("zone instance {z} out of range"),
        }
    }
}

impl std::ops::IndexMut<usize> for Zones {
    #[inline]
    fn index_mut(&mut self, z: usize) -> &mut ZoneInst {
        if z < self.dense.len() {
            return &mut self.dense[z];
        }
        match self.get_mut(z) {
            Some(zi) => zi,
            None => panic!("zone instance {z} out of range"),
        }
    }
}

impl ZoneInst {
    /// Marks the cards changed.
    #[inline]
    pub fn changed(&mut self) {
        self.ver = self.ver.wrapping_add(1);
    }
}
