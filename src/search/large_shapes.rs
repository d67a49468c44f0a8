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
use crate::board::{Board, Point, MAX_SIZE};
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

/// The points of the largest shape as offsets from the move, by distance, with the Zobrist
/// keys each adds to the eight orientations' hashes.
struct Layout {
    /// `(dx, dy)` of every point, sorted by distance (then by offset, for a fixed order): the
    /// points of a size are a prefix.
    offsets: Vec<(i32, i32)>,
    /// For each offset, the index of the size (from [`SMALLEST_SIZE`]) whose points it
    /// completes, if it is the last of a size's points.
    closes: Vec<Option<usize>>,
    /// `oriented_keys[k][state][t]`: the key that offset `k` holding `state` (0 own stone,
    /// 1 opponent stone, 2 off the board; an empty point adds nothing) adds to the hash of
    /// orientation `t`: the key of the point that `k` lands on when the shape is turned or
    /// mirrored by `t`. The eight lie side by side, so a point's part is one XOR of eight
    /// neighbouring words.
    oriented_keys: Vec<[[u64; 8]; 3]>,
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
        let distances: Vec<u32> = offsets.iter().map(|&(dx, dy)| distance(dx, dy)).collect();
        let closes = (0..distances.len())
            .map(|k| {
                let d = distances[k];
                let last = distances.get(k + 1) != Some(&d);
                (last && d >= SMALLEST_SIZE).then(|| (d - SMALLEST_SIZE) as usize)
            })
            .collect();
        // `moved[t][k]`: the index of offset `k` under orientation `t`.
        let moved: [Vec<usize>; 8] = std::array::from_fn(|t| {
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
        // `keys[k][state]`: the key of offset `k` holding `state`, in one orientation.
        let mut state = 0x7465_6E67_656E_u64; // "tengen"
        let keys: Vec<[u64; 3]> =
            offsets.iter().map(|_| std::array::from_fn(|_| splitmix(&mut state))).collect();
        let size_keys = std::array::from_fn(|_| splitmix(&mut state));
        let oriented_keys = (0..offsets.len())
            .map(|k| std::array::from_fn(|state| std::array::from_fn(|t| keys[moved[t][k]][state])))
            .collect();
        Layout { offsets, closes, oriented_keys, size_keys }
    })
}

/// What the points off the board add to the shapes around each point of a board of one
/// size: for the point at `(x, y)`, index `y × size + x`, per size (from [`SMALLEST_SIZE`])
/// the eight orientations' hashes of every point of the shape that lies off the board. Most
/// points of a 19×19 board (280 of 361) are within five lines of an edge, where up to half of
/// the 72 points are off the board: worked out once per board size, they cost one XOR per
/// orientation and size instead of one per orientation and point.
struct EdgeTable {
    rings: Vec<[[u64; 8]; SIZES]>,
}

impl EdgeTable {
    fn new(size: usize) -> EdgeTable {
        let layout = layout();
        let size = size as i32;
        let off = |c: i32| !(0..size).contains(&c);
        let mut rings = Vec::with_capacity((size * size) as usize);
        for y in 0..size {
            for x in 0..size {
                let mut oriented = [0u64; 8];
                let mut ring = [[0u64; 8]; SIZES];
                for (k, &(dx, dy)) in layout.offsets.iter().enumerate() {
                    if off(x + dx) || off(y + dy) {
                        xor_into(&mut oriented, &layout.oriented_keys[k][OFF_BOARD]);
                    }
                    if let Some(index) = layout.closes[k] {
                        ring[index] = oriented;
                    }
                }
                rings.push(ring);
            }
        }
        EdgeTable { rings }
    }

    /// The table of boards of side `size`, made on first use.
    fn of(size: usize) -> &'static EdgeTable {
        static TABLES: [OnceLock<EdgeTable>; MAX_SIZE + 1] =
            [const { OnceLock::new() }; MAX_SIZE + 1];
        TABLES[size].get_or_init(|| EdgeTable::new(size))
    }
}

/// XORs the eight orientations' keys into their hashes.
#[inline]
fn xor_into(oriented: &mut [u64; 8], keys: &[u64; 8]) {
    for (hash, key) in oriented.iter_mut().zip(keys) {
        *hash ^= key;
    }
}

/// The state of a point off the board, in [`Layout::oriented_keys`].
const OFF_BOARD: usize = 2;

/// The hashes of the shapes of every size around a `color` stone on `p`, smallest size
/// first; the same in every orientation, and for the other colour on the colour-swapped
/// board.
pub fn hashes(board: &Board, p: Point, color: Color) -> ShapeHashes {
    let mut out = [0u64; SIZES];
    grow(board, p, color, |index, hash| {
        out[index] = hash;
        true
    });
    out
}

/// The value `known` gives the largest shape around a `color` stone on `p` that it knows,
/// 0 if none, trying the sizes from the smallest up and stopping at the first it does not
/// know. That is the largest known shape of all whenever every smaller part of a shape
/// `known` knows is known too, as in a dictionary of the shapes seen at least so often in
/// games (each occurrence of a shape is one of each of its smaller parts); in crowded
/// places, where the larger shapes are rare, it saves hashing their outer rings.
pub fn largest_known(
    board: &Board,
    p: Point,
    color: Color,
    known: impl Fn(u64) -> Option<u32>,
) -> u32 {
    let mut largest = 0;
    grow(board, p, color, |_, hash| match known(hash) {
        Some(value) => {
            largest = value;
            true
        }
        None => false,
    });
    largest
}

/// Hashes the shapes around a `color` stone on `p` ring by ring, giving each size's index
/// (from [`SMALLEST_SIZE`]) and hash to `each` as it is complete, until `each` says stop.
#[inline]
fn grow(board: &Board, p: Point, color: Color, mut each: impl FnMut(usize, u64) -> bool) {
    let layout = layout();
    let (x, y) = board.coordinates(p);
    let size = board.size();
    let edges = &EdgeTable::of(size).rings[y * size + x];
    let (x, y, size) = (x as i32, y as i32, size as i32);
    let mut oriented = [0u64; 8];
    for (k, &(dx, dy)) in layout.offsets.iter().enumerate() {
        let (cx, cy) = (x + dx, y + dy);
        if (0..size).contains(&cx) && (0..size).contains(&cy) {
            if let Some(stone) = board.stone(board.point(cx as usize, cy as usize)) {
                xor_into(&mut oriented, &layout.oriented_keys[k][usize::from(stone != color)]);
            }
        }
        if let Some(index) = layout.closes[k] {
            let edge = &edges[index];
            let smallest = (0..8).map(|t| oriented[t] ^ edge[t]).min().unwrap_or(0);
            if !each(index, smallest ^ layout.size_keys[index]) {
                return;
            }
        }
    }
}

/// [`hashes`] without the edge table, every point off the board XORed in on the spot, as it
/// was first written: what the table must reproduce.
#[cfg(test)]
fn hashes_point_by_point(board: &Board, p: Point, color: Color) -> ShapeHashes {
    let layout = layout();
    let (x, y) = board.coordinates(p);
    let (x, y) = (x as i32, y as i32);
    let size = board.size() as i32;
    let mut oriented = [0u64; 8];
    let mut out = [0u64; SIZES];
    for (k, &(dx, dy)) in layout.offsets.iter().enumerate() {
        let (cx, cy) = (x + dx, y + dy);
        let state = if (0..size).contains(&cx) && (0..size).contains(&cy) {
            match board.stone(board.point(cx as usize, cy as usize)) {
                Some(c) if c == color => Some(0),
                Some(_) => Some(1),
                None => None,
            }
        } else {
            Some(OFF_BOARD)
        };
        if let Some(state) = state {
            xor_into(&mut oriented, &layout.oriented_keys[k][state]);
        }
        if let Some(index) = layout.closes[k] {
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
        let distances: Vec<u32> = layout.offsets.iter().map(|&(dx, dy)| distance(dx, dy)).collect();
        for d in SMALLEST_SIZE..=LARGEST_SIZE {
            assert!(distances.contains(&d), "size {d} adds points");
        }
        assert!(distances.windows(2).all(|w| w[0] <= w[1]));
        // Each size is closed by its last point, in order.
        let closed: Vec<usize> = layout.closes.iter().flatten().copied().collect();
        assert_eq!(closed, (0..SIZES).collect::<Vec<_>>());
        assert_eq!(layout.closes.last(), Some(&Some(SIZES - 1)));
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

    // The edge table gives every point of boards of several sizes, crowded or not, the
    // hashes of XORing each point off the board in on the spot, for both colours.
    #[test]
    fn the_edge_table_matches_point_by_point_hashing() {
        for size in [5, 9, 13, 19, 25] {
            let moves = crate::cli::bench::random_game(size, size as u64);
            let mut board = Board::new(size);
            for (number, (color, p)) in moves.into_iter().enumerate() {
                if number.is_multiple_of(size * 4) {
                    for q in board.points() {
                        for color in [Color::Black, Color::White] {
                            let expected = hashes_point_by_point(&board, q, color);
                            assert_eq!(hashes(&board, q, color), expected, "{size} {q:?}");
                        }
                    }
                }
                board.play_unchecked(p, color);
            }
        }
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
