//! Zobrist keys for hashing whole-board positions.
//!
//! The tables are computed at compile time from a fixed seed with splitmix64, so a position's
//! hash is the same in every build and on every machine: tests can pin values, and hashes
//! written to logs can be compared across runs. The hash covers the stones and the board size
//! only; it is what positional superko compares. Side to move and ko are kept out on purpose,
//! because the rules that need them (situational superko) pair the hash with the player.

use crate::board::color::Color;

/// One key per array slot of a board (see `point::SLOTS`), so lookups need no bounds check.
const POINTS: usize = super::point::SLOTS;
const SEED: u64 = 0x7465_6e67_656e_2d31; // "tengen-1"

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const fn make_tables() -> ([[u64; POINTS]; 2], [u64; 32]) {
    let mut stones = [[0u64; POINTS]; 2];
    let mut sizes = [0u64; 32];
    let mut state = SEED;
    // Size keys first, so that growing the stone tables never changes them.
    let mut s = 0;
    while s < 32 {
        let (next, value) = splitmix64(state);
        state = next;
        sizes[s] = value;
        s += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < POINTS {
            let (next, value) = splitmix64(state);
            state = next;
            stones[c][p] = value;
            p += 1;
        }
        c += 1;
    }
    (stones, sizes)
}

const TABLES: ([[u64; POINTS]; 2], [u64; 32]) = make_tables();
static STONE_KEYS: [[u64; POINTS]; 2] = TABLES.0;
static SIZE_KEYS: [u64; 32] = TABLES.1;

/// The key toggled when a stone of `color` appears on or leaves padded index `point`.
#[inline]
pub fn stone_key(color: Color, point: usize) -> u64 {
    STONE_KEYS[color.index() & 1][point & (POINTS - 1)]
}

/// The hash of the empty board of side `size`, so that equal stone patterns on boards of
/// different sizes never share a hash.
#[inline]
pub fn empty_board_key(size: usize) -> u64 {
    SIZE_KEYS[size]
}

#[cfg(test)]
mod tests {
    use super::*;

    // Pins the tables: a change of seed or generator would silently change every stored hash.
    #[test]
    fn keys_are_pinned() {
        assert_eq!(stone_key(Color::Black, 100), 13052946589657057490);
        assert_eq!(stone_key(Color::White, 701), 17638881882623815357);
        assert_eq!(empty_board_key(9), 13637272014374407412);
    }

    // Keys must be distinct, or two different positions would hash alike by construction.
    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = STONE_KEYS.iter().flatten().copied().collect();
        all.extend_from_slice(&SIZE_KEYS);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
