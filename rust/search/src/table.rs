//! The zobrist hash of a position and the transposition table.

use pacru_engine::geometry::bits;
use pacru_engine::rng::splitmix;
use pacru_engine::{Move, Position};
use std::sync::OnceLock;

/// Keys: chevrons by seat and code (4 x 648), markers by seat and field (4 x 81), then
/// the seat to move (4), the eliminated set (16) and the trigger (5).
fn keys() -> &'static [u64] {
    static KEYS: OnceLock<Vec<u64>> = OnceLock::new();
    KEYS.get_or_init(|| {
        (0..4 * 648 + 4 * 81 + 4 + 16 + 5u64)
            .map(|i| splitmix(i ^ 0x5eed))
            .collect()
    })
}

/// The zobrist hash of `pos` (ply and idle count left out).
pub fn zobrist(pos: &Position) -> u64 {
    let k = keys();
    let mut h = 0u64;
    for seat in 0..usize::from(pos.players.min(4)) {
        for code in pos.chevrons[seat].iter() {
            h ^= k[seat * 648 + usize::from(code)];
        }
        for f in bits(pos.markers[seat]) {
            h ^= k[4 * 648 + seat * 81 + usize::from(f)];
        }
    }
    let base = 4 * 648 + 4 * 81;
    h ^= k[base + usize::from(pos.to_move % 4)];
    h ^= k[base + 4 + usize::from(pos.out & 15)];
    // The trigger -1..3 as the key index 0..4.
    let trigger = usize::try_from(pos.trigger.clamp(-1, 3) + 1).unwrap_or(0);
    h ^ k[base + 20 + trigger]
}

/// How a stored value bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u64,
    pub value: i32,
    pub depth: u8,
    pub bound: Bound,
    pub best: Move,
}

/// A table of `size` (a power of two) entries, replaced when the new one is as deep.
pub struct Table {
    entries: Vec<Option<Entry>>,
}

impl Table {
    pub fn new(size: usize) -> Table {
        Table {
            entries: vec![None; size],
        }
    }

    fn slot(&self, key: u64) -> usize {
        // The low bits of the key (the length is a power of two): the mask makes it fit.
        let mask = u64::try_from(self.entries.len() - 1).unwrap_or(u64::MAX);
        usize::try_from(key & mask).unwrap_or(0)
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[self.slot(key)].filter(|e| e.key == key)
    }

    pub fn store(&mut self, key: u64, value: i32, depth: u8, bound: Bound, best: Move) {
        let slot = self.slot(key);
        let keep = self.entries[slot].is_some_and(|e| e.key != key && e.depth > depth);
        if !keep {
            self.entries[slot] = Some(Entry {
                key,
                value,
                depth,
                bound,
                best,
            });
        }
    }
}
