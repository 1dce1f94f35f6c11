//! The engine's hash maps. Their keys are the analysis's own short strings and indices (names,
//! namespaces, labels, positions), the maps are built once per analysis, and nothing outside the
//! machine chooses what goes in them but the pasted text itself. std's default hasher (SipHash,
//! keyed at random per process, made to resist keys chosen by an attacker) was about 3 % of an
//! analysis of the 1k-pod JSON dump natively (callgrind: 41 of 1,393 million instructions in
//! `hash_one`); with [`Fx`] the analysis takes 1,363 million. [`Fx`] is the hash of `rustc-hash`
//! 2: an add and a multiply per eight bytes, and the same on every run.

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

impl Fx {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = self.0.wrapping_add(word).wrapping_mul(K);
    }
}

impl Hasher for Fx {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.add(u64::from_le_bytes(word.try_into().unwrap_or_default()));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last));
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

    /// The product's high bits are its best mixed; hashbrown picks buckets with the low ones, so
    /// they are turned round (as `rustc-hash` 2 does).
    #[inline]
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
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
        // A key's bytes and where a string ends both count.
        assert_ne!(build.hash_one(("ab", "c")), build.hash_one(("a", "bc")));
        assert_ne!(build.hash_one("a"), build.hash_one("a\0"));
    }
}
