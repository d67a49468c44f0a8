//! Large shapes around a move: the nested patterns of Stern, Herbrich and Graepel (2006) and
//! of Pachi's spatial dictionary. The shape of size `d` is every point whose distance from
//! the move, `dx + dy + max(dx, dy)` (Coulom's, as in the move model's distance groups), is at
//! most `d`, each point own stone, opponent stone, empty or off the board. Sizes up to 4 are
//! the move model's 3×3 shape and diamond; this module hashes the sizes from
//! [`SMALLEST_SIZE`] to [`LARGEST_SIZE`] (the largest holds 72 points around the move).
//!
//! A shape's hash is the same in all eight orientations and for either colour to move: each
//! point adds a Zobrist key chosen by where it lies and what it holds, the eight orientations'
//! hashes grow side by side ring by ring, and a size's hash is the smallest of the eight,
//! mixed with a key of the size so that the sizes never share a hash. Which of them a model
//! knows, and their gammas, is the move model's dictionary (`move_model.rs`): a move's value
//! is its largest known shape.

use crate::board::color::Color;
use crate::board::{Board, Point};
use std::sync::OnceLock;

/// The smallest size hashed here: the first one larger than the move model's diamond.
pub const SMALLEST_SIZE: u32 = 5;
/// The largest size hashed: `dx + dy + max(dx, dy) <= 10` holds 72 points, out to five
/// steps in a straight line (Pachi's spatial patterns reach as far).
pub const LARGEST_SIZE: u32 = 10;
/// How many sizes are hashed.
pub const SIZES: usize = (LARGEST_SIZE - SMALLEST_SIZE + 1) as usize;

/// The hashes of the shapes around a move, smallest size first.
pub type ShapeHashes = [u64; SIZES];

/// The points of the largest shape as offsets from the move, by distance, with the table of
/// where each goes under each orientation and the Zobrist keys.
struct Layout {
    /// `(dx, dy)` of every point, sorted by distance (then by offset, for a fixed order).
    offsets: Vec<(i32, i32)>,
    /// For each offset, the distance; the points of a size are a prefix of `offsets`.
    distances: Vec<u32>,
    /// `moved[t][k]`: the index of offset `k` under orientation `t`.
    moved: [Vec<usize>; 8],
    /// `keys[k][state]` for the offset `k` and a state: 0 own stone, 1 opponent stone, 2 off
    /// the board. An empty point adds nothing.
    keys: Vec<[u64; 3]>,
    /// A key per size, so that a shape and its larger neighbour never share a hash.
    size_keys: [u64; SIZES],
}

fn distance(dx: i32, dy: i32) -> u32 {
    let (dx, dy) = (dx.unsigned_abs(), dy.unsigned_abs());
    dx + dy + dx.max(dy)
}

/// SplitMix64: the keys must be the same in every run and every build, since the shipped
/// dictionary holds hashes.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let reach = LARGEST_SIZE as i32;
        let mut offsets: Vec<(i32, i32)> = (-reach..=reach)
            .flat_map(|dy| (-reach..=reach).map(move |dx| (dx, dy)))
            .filter(|&(dx, dy)| (dx, dy) != (0, 0) && distance(dx, dy) <= LARGEST_SIZE)
            .collect();
        offsets.sort_by_key(|&(dx, dy)| (distance(dx, dy), dy, dx));
        let distances = offsets.iter().map(|&(dx, dy)| distance(dx, dy)).collect();
        let moved = std::array::from_fn(|t| {
            offsets
                .iter()
                .map(|&(dx, dy)| {
                    let (dx, dy) = if t & 4 != 0 { (dy, dx) } else { (dx, dy) };
                    let dx = if t & 1 != 0 { -dx } else { dx };
                    let dy = if t & 2 != 0 { -dy } else { dy };
                    offsets.iter().position(|&o| o == (dx, dy)).expect("symmetric")
                })
                .collect()
        });
        let mut state = 0x7465_6E67_656E_u64; // "tengen"
        let keys = offsets.iter().map(|_| std::array::from_fn(|_| splitmix(&mut state))).collect();
        let size_keys = std::array::from_fn(|_| splitmix(&mut state));
        Layout { offsets, distances, moved, keys, size_keys }
    })
}

/// The hashes of the shapes of every size around a `color` stone on `p`, smallest size
/// first; the same in every orientation, and for the other colour on the colour-swapped
/// board.
pub fn hashes(board: &Board, p: Point, color: Color) -> ShapeHashes {
    let layout = layout();
    let (x, y) = board.coordinates(p);
    let (x, y) = (x as i32, y as i32);
    let size = board.size() as i32;
    let mut oriented = [0u64; 8];
    let mut out = [0u64; SIZES];
    let count = layout.offsets.len();
    for k in 0..count {
        let (dx, dy) = layout.offsets[k];
        let (cx, cy) = (x + dx, y + dy);
        let state = if (0..size).contains(&cx) && (0..size).contains(&cy) {
            match board.stone(board.point(cx as usize, cy as usize)) {
                Some(c) if c == color => Some(0),
                Some(_) => Some(1),
                None => None,
            }
        } else {
            Some(2)
        };
        if let Some(state) = state {
            for (t, hash) in oriented.iter_mut().enumerate() {
                *hash ^= layout.keys[layout.moved[t][k]][state];
            }
        }
        let d = layout.distances[k];
        let closes_size = k + 1 == count || layout.distances[k + 1] != d;
        if closes_size && d >= SMALLEST_SIZE {
            let index = (d - SMALLEST_SIZE) as usize;
            out[index] = oriented.iter().min().copied().unwrap_or(0) ^ layout.size_keys[index];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // The largest shape holds the 72 points the module says, and every size is a ring
    // added to the last (no size is empty, so none repeats its smaller neighbour's points).
    #[test]
    fn sizes_are_nested_rings() {
        let layout = layout();
        assert_eq!(layout.offsets.len(), 72);
        for d in SMALLEST_SIZE..=LARGEST_SIZE {
            assert!(layout.distances.contains(&d), "size {d} adds points");
        }
        assert!(layout.distances.windows(2).all(|w| w[0] <= w[1]));
    }

    // A shape hashes the same in all eight orientations and with the colours swapped and
    // the other colour to move; moving one stone of the largest ring changes only the
    // largest size's hash.
    #[test]
    fn hashes_ignore_orientation_and_colour_and_see_each_ring() {
        let size = 19;
        // An asymmetric shape around (6, 6): stones at various distances.
        let stones = [((6, 5), Color::Black), ((8, 6), Color::White), ((4, 8), Color::White)];
        let shape = |transform: &dyn Fn(i32, i32) -> (i32, i32), swap: bool| {
            let mut board = Board::new(size);
            for &((x, y), c) in &stones {
                let (tx, ty) = transform(x - 6, y - 6);
                let c = if swap { c.opponent() } else { c };
                board.play_unchecked(board.point((6 + tx) as usize, (6 + ty) as usize), c);
            }
            let mover = if swap { Color::White } else { Color::Black };
            hashes(&board, board.point(6, 6), mover)
        };
        let plain = shape(&|dx, dy| (dx, dy), false);
        let transforms: [&dyn Fn(i32, i32) -> (i32, i32); 4] =
            [&|dx, dy| (-dx, dy), &|dx, dy| (dy, dx), &|dx, dy| (-dy, -dx), &|dx, dy| (dx, -dy)];
        for transform in transforms {
            assert_eq!(shape(transform, false), plain);
        }
        assert_eq!(shape(&|dx, dy| (dx, dy), true), plain);
        // Each size differs from every other.
        for i in 0..SIZES {
            for j in i + 1..SIZES {
                assert_ne!(plain[i], plain[j]);
            }
        }
        // A stone at (4, 2) from the move (distance 4 + 2 + 4 = 10) changes the size-10
        // hash alone.
        let mut board = Board::new(size);
        for &((x, y), c) in &stones {
            board.play_unchecked(board.point(x as usize, y as usize), c);
        }
        let before = hashes(&board, board.point(6, 6), Color::Black);
        assert_eq!(before, plain);
        board.play_unchecked(board.point(10, 8), Color::Black);
        let after = hashes(&board, board.point(6, 6), Color::Black);
        assert_eq!(after[..SIZES - 1], before[..SIZES - 1]);
        assert_ne!(after[SIZES - 1], before[SIZES - 1]);
    }

    // The edge is part of the shape: the same stones near the edge and in the open differ.
    #[test]
    fn the_edge_is_seen() {
        let board = Board::new(19);
        let corner = hashes(&board, board.point(2, 2), Color::Black);
        let centre = hashes(&board, board.point(9, 9), Color::Black);
        // Size 6 reaches (3, 0): three steps from the third line is off the board.
        assert_ne!(corner[1], centre[1]);
        // Size 5 reaches (2, 1): from the third line that is still on the board.
        assert_eq!(corner[0], centre[0]);
    }
}
