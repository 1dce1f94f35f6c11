//! The engine's hash maps. Their keys are the analysis's own short strings and indices (names,
//! namespaces, labels, positions), the maps are built once per analysis, and nothing outside the
//! machine chooses what goes in them but the pasted text itself. std's default hasher (SipHash,
//! keyed at random per process, made to resist keys chosen by an attacker) was about 3 % of an
//! analysis of the 1k-pod JSON dump natively (callgrind: 41 of 1,393 million instructions in
//! `hash_one`); with [`Fx`] the analysis takes 1,363 million. [`Fx`] is rustc's Fx hash (an add
//! and a multiply per integer), with a multiply and a shift per eight bytes of a string, and the
//! same on every run.

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

    /// A word of a string's bytes: multiplied in, then its product's high half folded onto its
    /// low half (a shift and an xor), so that the word's high bytes reach the state's low bits,
    /// which [`Fx::add`]'s product never does (a product carries upward only). With `add` for bytes
    /// too, names that differ in their last characters (`team-034`, `team-044`: the high bytes of a
    /// word) fell into a few buckets: a dump's 160 namespaces into 24, and a set of them took 30 ms
    /// to fill from a 10k-Pod report's 140,000 timeline entries, not 3.5; 1,000 such names filled
    /// 313 of 1,024 buckets, now 602 (random values: about 632). A 128-bit folded multiply (wyhash's)
    /// spreads them as well but is slow as wasm: the rules' stage of the 1k YAML dump took 136–142
    /// ms in Node against 108–119 this way.
    #[inline]
    fn mix(&mut self, word: u64) {
        let x = (self.0 ^ word).wrapping_mul(K);
        self.0 = x ^ (x >> 32);
    }
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
        // Names that differ only in their last characters (the high bytes of a word), as a
        // dump's namespaces and generated names do: spread over the buckets (the low bits) and
        // over the seven bits that tell keys apart in a group (the top ones), as random values
        // would (1,000 into 1,024 buckets: about 632 filled).
        for pattern in ["team-", "billing-worker-5c7f9d8b46-", ""] {
            let names: Vec<String> = (0..1000).map(|i| format!("{pattern}{i:03}")).collect();
            let low: Set<u64> = names.iter().map(|n| build.hash_one(n) & 1023).collect();
            let top: Set<u64> = names.iter().map(|n| build.hash_one(n) >> 57).collect();
            assert!(low.len() > 550, "{pattern}: {} buckets of 1,024", low.len());
            assert!(
                top.len() > 120,
                "{pattern}: {} top-seven-bit values of 128",
                top.len()
            );
        }
        // A key's bytes and where a string ends both count.
        assert_ne!(build.hash_one(("ab", "c")), build.hash_one(("a", "bc")));
        assert_ne!(build.hash_one("a"), build.hash_one("a\0"));
    }
}
