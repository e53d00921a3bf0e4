//! Engine stage: a fast hash for the engine's own tables (option fingerprints, remembered calls).

use std::hash::Hasher;

/// The multiply-and-rotate hash of rustc (`FxHash`), much cheaper than the standard SipHash for the
/// few words of an option or of a call's arguments. It only sorts values into buckets (option
/// fingerprints) or spares comparisons (remembered calls) before values are compared, so it decides
/// nothing that is seen: a collision only costs a comparison.
#[derive(Default, Clone, Copy)]
pub(crate) struct Fx(u64);

impl Hasher for Fx {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }
}

/// Hashes a value as option fingerprints and remembered calls do: a list by its length and first item
/// only, so that a long list is not walked for every option or call (equal lists still hash alike);
/// any other value whole.
pub(crate) fn hash_shallow<H: Hasher>(v: &crate::value::Value, h: &mut H) {
    use std::hash::Hash;
    match v {
        crate::value::Value::List(items) => {
            items.len().hash(h);
            items.first().hash(h);
        }
        v => v.hash(h),
    }
}

impl Fx {
    const K: u64 = 0xf135_7aea_2e62_a9c5;

    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = self.0.wrapping_add(word).wrapping_mul(Self::K);
    }

    /// The hash of a call's arguments (`hash_shallow` of each).
    pub fn of_values(values: &[crate::value::Value]) -> u64 {
        let mut h = Fx::default();
        for v in values {
            hash_shallow(v, &mut h);
        }
        h.finish()
    }
}
