//! The engine's hash maps. Their keys are the analysis's own short strings and indices (names,
//! namespaces, labels, positions), the maps are built once per analysis, and nothing outside the
//! machine chooses what goes in them but the pasted text itself. std's default hasher (SipHash,
//! keyed at random per process, made to resist keys chosen by an attacker) was about 3 % of an
//! analysis of the 1k-pod JSON dump natively (callgrind: 41 of 1,393 million instructions in
//! `hash_one`); with [`Fx`] the analysis takes 1,363 million. [`Fx`] is rustc's Fx hash (an add
//! and a multiply per integer), with a folded multiply per eight bytes of a string and at the end,
//! and the same on every run.

use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` with [`Fx`].
pub type Map<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<Fx>>;
/// A `HashSet` with [`Fx`].
pub type Set<T> = std::collections::HashSet<T, BuildHasherDefault<Fx>>;

/// rustc's Fx hash, eight bytes at a time.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fx(u64);

/// The multiplier of `rustc-hash` 2.
const K: u64 = 0xf135_7aea_2e62_a9c5;
/// The multiplier of [`Fx::finish`]'s fold (a constant of wyhash's, odd, its bits well mixed).
const FOLD: u64 = 0xa076_1d64_78bd_642f;

impl Fx {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = self.0.wrapping_add(word).wrapping_mul(K);
    }

    /// A word of a string's bytes: mixed in by a folded multiply (the 128-bit product's halves
    /// xored, as wyhash and `rustc-hash` 2's string hash do), so that its high bytes reach the
    /// state's low bits; [`Fx::add`] carries them upward only. With `add` for bytes too, names that
    /// differ in their last characters (`team-034`, `team-044`: the high bytes of a word) fell into
    /// a few buckets: a dump's 160 namespaces into 24, and a set of them took 30 ms to fill from a
    /// 10k-Pod report's 140,000 timeline entries, not 3.5; 1,000 such names filled 313 of 1,024
    /// buckets, now 646 (random values: about 632).
    #[inline]
    fn mix(&mut self, word: u64) {
        self.0 = fold(self.0 ^ word, FOLD);
    }
}

#[inline]
fn fold(a: u64, b: u64) -> u64 {
    let full = u128::from(a) * u128::from(b);
    (full as u64) ^ ((full >> 64) as u64)
}

impl Hasher for Fx {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.mix(u64::from_le_bytes(word.try_into().unwrap_or_default()));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(last));
        }
        // The last word is padded with zeros: without the length, "a" and "a\0" would be one key.
        self.add(bytes.len() as u64);
    }

    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    /// The state folded once more: an integer key's high bits reach the low bits too (hashbrown
    /// picks a bucket with the low bits and tells keys apart in a group with the top seven).
    #[inline]
    fn finish(&self) -> u64 {
        fold(self.0, FOLD)
    }
}

#[cfg(test)]
mod tests {
    use std::hash::BuildHasher;

    use super::*;

    #[test]
    fn equal_keys_hash_equal_and_near_keys_spread_over_buckets() {
        let build = BuildHasherDefault::<Fx>::default();
        assert_eq!(
            build.hash_one(("shop", "web-1")),
            build.hash_one(("shop", "web-1"))
        );
        // The low bits pick buckets: names that differ in one character fill 1,024 of them well.
        let mut buckets = Set::default();
        for i in 0..1000 {
            buckets.insert(build.hash_one(format!("web-7d9f{i}-x")) & 1023);
        }
        assert!(
            buckets.len() > 550,
            "{} buckets of 1,024 for 1,000 keys",
            buckets.len()
        );
        // Names that differ only in their last characters (the high bytes of a word), as a
        // dump's namespaces and generated names do: spread over the buckets (the low bits) and
        // over the seven bits that tell keys apart in a group (the top ones), as random values
        // would (1,000 into 1,024 buckets: about 632 filled).
        let names: Vec<String> = (0..1000).map(|i| format!("team-{i:03}")).collect();
        let low: Set<u64> = names.iter().map(|n| build.hash_one(n) & 1023).collect();
        let top: Set<u64> = names.iter().map(|n| build.hash_one(n) >> 57).collect();
        assert!(low.len() > 550, "{} buckets of 1,024 for 1,000 names", low.len());
        assert!(top.len() > 120, "{} top-seven-bit values of 128", top.len());
        // A key's bytes and where a string ends both count.
        assert_ne!(build.hash_one(("ab", "c")), build.hash_one(("a", "bc")));
        assert_ne!(build.hash_one("a"), build.hash_one("a\0"));
    }
}
