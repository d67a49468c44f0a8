//! A learnt model of which move a good player picks: every legal move is described by a few
//! features (its 3×3 shape, the larger diamond of twelve points around it, what it
//! captures, saves or ataris, its distance to the last two moves, its line), each feature
//! value has a strength (a "gamma"), and a move's strength
//! is the product of its values' gammas. The chance of a move is its strength over the sum
//! of all legal moves' strengths: Coulom's generalised Bradley–Terry model ("Computing Elo
//! ratings of move patterns in the game of Go", 2007), trained with his minorisation–
//! maximisation (MM) updates. The search turns the chances into priors (`priors.rs`).
//!
//! The gammas in `move_model.txt` were trained by `examples/train_move_model.rs` from GNU
//! Go's moves in 9×9 games (see docs/strength.md for the data and the accuracy). Boards
//! from 13×13 up use `move_model_big.txt`, fitted to strong human 19×19 games with the
//! large shapes of `large_shapes.rs` and latent factors of 16 numbers for every group
//! ([`Factors`]). On 9×9 that model (before its factors) lost in self-play at 0.5 s a move
//! (42.6 % of 209 games): it halves the simulations a second there.

use crate::board::color::Color;
use crate::board::{Board, Point};
use crate::search::large_shapes;
use crate::search::patterns;
use crate::search::policy;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// The feature groups: every move has exactly one value in each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// The eight points around the move, colours relative to the mover, up to rotation and
    /// reflection (the smallest key of the eight symmetric ones).
    Shape,
    /// 0 none; 1 one stone; 2 more; 3 and 4 the same where the capture also gives a
    /// liberty to an own chain in atari.
    Capture,
    /// Extending an own chain out of atari: 0 not (a move that also captures counts as
    /// 0: the capture group has it); 1 still in atari; 2 to two liberties; 3 to three or
    /// more; 4 to two liberties but into a ladder.
    Escape,
    /// 0 not a self-atari; 1 of a lone stone; 2 of two or more stones.
    SelfAtari,
    /// 0 no atari (a self-atari counts as 0); 1 an atari the chain can run from; 2 an
    /// atari into a ladder.
    Atari,
    /// 1 where the move leaves its chain two liberties and the opponent can then atari it
    /// into a ladder.
    LadderCapturable,
    /// Distance to the opponent's last stone, `dx + dy + max(dx, dy)` (2 for a neighbour,
    /// 3 diagonally) up to 17; 0 when the last move was a pass or there was none, and on
    /// the stone's own point (it was captured since: the mover's previous stone, or the
    /// opponent's under rules that allow suicide).
    LastDistance,
    /// The same to the mover's own previous stone.
    PreviousDistance,
    /// The line from the edge (0 for the first line to 4 for the fifth and further) plus 5
    /// times the stage
    /// of the game (0 under 15 % of the points filled, 1 under 40 %, 2 after).
    Line,
    /// The 3×3 shape with the four points two steps away in a straight line (a diamond of
    /// twelve points), colours relative to the mover, up to rotation and reflection,
    /// hashed to 16 bits: a rarer, larger shape whose gamma refines the 3×3 one.
    Diamond,
    /// The largest of the nested shapes around the move (`large_shapes.rs`, sizes 5 to 10)
    /// that the model's dictionary knows: 0 for none, else its number in the dictionary.
    LargeShape,
}

/// Every group, in feature order (the order of the enum, so `group as usize` indexes it).
pub const GROUPS: [Group; 11] = [
    Group::Shape,
    Group::Capture,
    Group::Escape,
    Group::SelfAtari,
    Group::Atari,
    Group::LadderCapturable,
    Group::LastDistance,
    Group::PreviousDistance,
    Group::Line,
    Group::Diamond,
    Group::LargeShape,
];

impl Group {
    /// How many values the group has.
    pub const fn values(self) -> usize {
        match self {
            Group::Shape | Group::Diamond => 1 << 16,
            Group::LargeShape => LARGE_SHAPE_VALUES,
            Group::Capture | Group::Escape => 5,
            Group::SelfAtari | Group::Atari => 3,
            Group::LadderCapturable => 2,
            Group::LastDistance | Group::PreviousDistance => 18,
            Group::Line => 15,
        }
    }

    /// The name used in the gamma file.
    pub fn name(self) -> &'static str {
        match self {
            Group::Shape => "shape",
            Group::Capture => "capture",
            Group::Escape => "escape",
            Group::SelfAtari => "self_atari",
            Group::Atari => "atari",
            Group::LadderCapturable => "ladder_capturable",
            Group::LastDistance => "last_distance",
            Group::PreviousDistance => "previous_distance",
            Group::Line => "line",
            Group::Diamond => "diamond",
            Group::LargeShape => "large_shape",
        }
    }

    /// The group with the gamma file's `name`.
    pub fn from_name(name: &str) -> Option<Group> {
        GROUPS.iter().copied().find(|g| g.name() == name)
    }
}

/// One value per group, in the order of [`GROUPS`].
/// From this size up, play is big-board play: the big model's gammas, an opening that takes
/// the empty corners first and the lines only in open space, criticality.
pub const BIG_BOARD: usize = 13;

pub type Features = [u32; GROUPS.len()];

/// Values of the large-shape group: 0 (none known) and up to 2²⁰ − 1 shapes in a model's
/// dictionary. Wider than the 3×3 and diamond keys, as 19×19 games hold far more large
/// shapes played often enough to learn (186,282 at least ten times in 36,000 games) than
/// 16 bits would number.
pub const LARGE_SHAPE_VALUES: usize = 1 << 20;

pub use crate::search::policy::Recent;

/// The features of a `color` stone on the legal point `p`, without the large shape (its
/// value needs a model's dictionary: [`MoveModel::features`]).
pub fn features(board: &Board, color: Color, p: Point, recent: Recent) -> Features {
    let opponent = color.opponent();
    let mut captured = 0;
    let mut counted = [p; 4];
    let mut counted_len = 0;
    let mut in_atari = None;
    for n in board.neighbors(p) {
        match board.stone(n) {
            Some(c) if c == opponent && board.chain_liberties(n) == 1 => {
                let chain = board.chain_id(n);
                if !counted[..counted_len].contains(&chain) {
                    counted[counted_len] = chain;
                    counted_len += 1;
                    captured += board.chain_len(n);
                }
            }
            Some(c) if c == color && board.chain_liberties(n) == 1 => in_atari = Some(n),
            _ => {}
        }
    }
    let rescues = captured > 0
        && counted[..counted_len].iter().any(|&chain| touches_own_chain_in_atari(board, chain));
    let capture = match (captured, rescues) {
        (0, _) => 0,
        (1, false) => 1,
        (_, false) => 2,
        (1, true) => 3,
        (_, true) => 4,
    };
    let self_atari = match board.self_atari_size(p, color) {
        None => 0,
        Some(1) => 1,
        Some(_) => 2,
    };
    let liberties_after = board.liberties_after(p, color, 3);
    let escape = match in_atari {
        None => 0,
        Some(_) if captured > 0 => 0,
        Some(_) if liberties_after <= 1 => 1,
        Some(chain) if liberties_after == 2 => {
            if policy::is_caught_in_ladder(board, chain) {
                4
            } else {
                2
            }
        }
        Some(_) => 3,
    };
    let atari = if self_atari > 0 {
        0
    } else {
        match atari_kind(board, p, color) {
            None => 0,
            Some(Atari::Escapable) => 1,
            Some(Atari::IntoLadder) => 2,
        }
    };
    let ladder_capturable = u32::from(
        self_atari == 0
            && escape == 0
            && liberties_after == 2
            && is_ladder_capturable(board, p, color),
    );
    let size = board.size();
    let points = size * size;
    let stones = points - board.empty_points().len();
    let stage = if stones * 100 < points * 15 {
        0
    } else if stones * 100 < points * 40 {
        1
    } else {
        2
    };
    let line = board.line(p).min(4);
    let around = own_neighbourhood(board, p, color);
    [
        u32::from(canonical_shapes()[usize::from(around)]),
        capture,
        escape,
        self_atari,
        atari,
        ladder_capturable,
        distance(board, p, recent.last),
        distance(board, p, recent.previous),
        (stage * 5 + line) as u32,
        u32::from(diamond_key_around(board, p, color, around)),
        0,
    ]
}

fn touches_own_chain_in_atari(board: &Board, opponent_chain: Point) -> bool {
    let owner = board.stone(opponent_chain).map(Color::opponent);
    board.chain_stones(opponent_chain).any(|s| {
        board
            .neighbors(s)
            .into_iter()
            .any(|n| board.stone(n) == owner && board.chain_liberties(n) == 1)
    })
}

/// Coulom's distance `dx + dy + max(dx, dy)`, capped at 17; 0 without a stone to measure
/// from, and from the point itself.
fn distance(board: &Board, p: Point, from: Option<Point>) -> u32 {
    let Some(from) = from else { return 0 };
    let (x, y) = board.coordinates(p);
    let (fx, fy) = board.coordinates(from);
    let (dx, dy) = (x.abs_diff(fx), y.abs_diff(fy));
    (dx + dy + dx.max(dy)).min(17) as u32
}

/// The 3×3 neighbourhood of `p` with `color` as black, in its canonical (smallest) form.
pub fn shape_key(board: &Board, p: Point, color: Color) -> u16 {
    canonical_shapes()[usize::from(own_neighbourhood(board, p, color))]
}

/// `patterns::neighbourhood` of `p` with `color` as black: the 3×3 key before symmetry.
fn own_neighbourhood(board: &Board, p: Point, color: Color) -> u16 {
    let key = patterns::neighbourhood(board, p);
    if color == Color::White {
        swap_colours(key)
    } else {
        key
    }
}

/// The twelve points of the diamond around a move, as (column, row) offsets: the 3×3
/// neighbours in `patterns::neighbourhood`'s order, then the four points two steps away.
const DIAMOND: [(i32, i32); 12] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (0, -2),
    (-2, 0),
    (2, 0),
    (0, 2),
];

/// The diamond of twelve points around `p` with `color` as black (two bits a point, as in
/// the 3×3 key), in its canonical (smallest) form over the eight symmetries, hashed to 16
/// bits.
pub fn diamond_key(board: &Board, p: Point, color: Color) -> u16 {
    diamond_key_around(board, p, color, own_neighbourhood(board, p, color))
}

/// [`diamond_key`] given `around`, the point's [`own_neighbourhood`]: its cells are the
/// diamond's first eight, in the same order and with the same two bits, so only the four
/// points two steps away are read from the board.
fn diamond_key_around(board: &Board, p: Point, color: Color, around: u16) -> u16 {
    let (x, y) = board.coordinates(p);
    let size = board.size() as i32;
    let mut packed = u32::from(around);
    for (k, &(dx, dy)) in DIAMOND.iter().enumerate().skip(8) {
        let (cx, cy) = (x as i32 + dx, y as i32 + dy);
        let cell = if (0..size).contains(&cx) && (0..size).contains(&cy) {
            match board.stone(board.point(cx as usize, cy as usize)) {
                Some(c) if c == color => 0,
                Some(_) => 1,
                None => 2,
            }
        } else {
            3
        };
        packed |= cell << (2 * k);
    }
    (smallest_symmetry(packed).wrapping_mul(0x9E37_79B1) >> 16) as u16
}

/// The smallest of the eight symmetries of the diamond's twelve cells packed two bits each
/// (cell `k` at bits `2k`), each symmetry put together from three table lookups, one per
/// byte: the 3×3 cells and the four outer points each map among themselves. Moving the
/// twelve cells one by one for every symmetry took 7 % of a 9×9 search's instructions.
fn smallest_symmetry(packed: u32) -> u32 {
    let tables = diamond_byte_tables();
    let bytes = [packed & 0xFF, packed >> 8 & 0xFF, packed >> 16 & 0xFF].map(|b| b as usize);
    tables
        .iter()
        .map(|t| {
            u32::from(t.inner[0][bytes[0]] | t.inner[1][bytes[1]])
                | u32::from(t.outer[bytes[2]]) << 16
        })
        .min()
        .unwrap_or(0)
}

/// One symmetry of the diamond applied to a byte of packed cells: `inner[0]` to cells 0–3,
/// `inner[1]` to cells 4–7 (both landing among the 3×3 cells' sixteen bits), `outer` to the
/// four outer points (their own eight bits).
struct ByteTables {
    inner: [[u16; 256]; 2],
    outer: [u8; 256],
}

fn diamond_byte_tables() -> &'static [ByteTables; 8] {
    static TABLES: OnceLock<Box<[ByteTables; 8]>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let symmetries = diamond_symmetries();
        Box::new(std::array::from_fn(|t| {
            let to = &symmetries[t];
            // Where byte `b`'s four cells, the first of them cell `first`, land.
            let moved = |first: usize, b: usize| {
                (0..4)
                    .fold(0u32, |out, j| out | (((b >> (2 * j)) & 3) as u32) << (2 * to[first + j]))
            };
            ByteTables {
                inner: [0, 4].map(|first| std::array::from_fn(|b| moved(first, b) as u16)),
                outer: std::array::from_fn(|b| (moved(8, b) >> 16) as u8),
            }
        }))
    })
}

/// For each of the eight symmetries, where each diamond point goes.
fn diamond_symmetries() -> &'static [[usize; 12]; 8] {
    static TABLE: OnceLock<[[usize; 12]; 8]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [[0; 12]; 8];
        for (t, to) in table.iter_mut().enumerate() {
            for (k, &(dx, dy)) in DIAMOND.iter().enumerate() {
                let (dx, dy) = if t & 4 != 0 { (dy, dx) } else { (dx, dy) };
                let dx = if t & 1 != 0 { -dx } else { dx };
                let dy = if t & 2 != 0 { -dy } else { dy };
                to[k] = DIAMOND.iter().position(|&d| d == (dx, dy)).expect("closed");
            }
        }
        table
    })
}

/// The neighbourhood key with black and white exchanged: cells 0 (black) and 1 (white) have
/// a clear high bit, and flipping their low bit swaps them; empty (2) and off board (3)
/// stay.
fn swap_colours(key: u16) -> u16 {
    key ^ (!(key >> 1) & 0x5555)
}

/// For every neighbourhood key, the smallest key among its eight rotations and reflections.
fn canonical_shapes() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        // The diamond's first eight points are the 3×3 neighbours, in the key's order, and
        // its symmetries map them among themselves: with the four outer points all zero,
        // the diamond's smallest symmetry is the 3×3 key's.
        (0..=u16::MAX).map(|key| smallest_symmetry(u32::from(key)) as u16).collect()
    })
}

/// What an atari by a stone on a point achieves.
pub(crate) enum Atari {
    /// Some chain it puts in atari is caught in a ladder.
    IntoLadder,
    /// It puts chains in atari, and each can run.
    Escapable,
}

/// Whether a `color` stone on `p` puts an opponent chain in atari, and whether one of them
/// is then caught in a ladder.
pub(crate) fn atari_kind(board: &Board, p: Point, color: Color) -> Option<Atari> {
    let opponent = color.opponent();
    // A chain with two liberties, one of them `p`, has one left after the move. A chain
    // that touches `p` on two sides is read once.
    let mut targets = [p; 4];
    let mut count = 0;
    for n in board.neighbors(p) {
        if board.stone(n) == Some(opponent) && board.chain_liberties(n) == 2 {
            let chain = board.chain_id(n);
            if !targets[..count].contains(&chain) {
                targets[count] = chain;
                count += 1;
            }
        }
    }
    if count == 0 {
        return None;
    }
    if targets[..count].iter().any(|&n| policy::is_caught_in_ladder_after(board, &[(p, color)], n))
    {
        Some(Atari::IntoLadder)
    } else {
        Some(Atari::Escapable)
    }
}

/// Whether the opponent, after a `color` stone on `p` that leaves its chain two liberties,
/// can put that chain in atari on one of them and catch it in a ladder.
pub(crate) fn is_ladder_capturable(board: &Board, p: Point, color: Color) -> bool {
    thread_local! {
        static AFTER: std::cell::RefCell<Board> = std::cell::RefCell::new(Board::new(9));
    }
    let opponent = color.opponent();
    AFTER.with(|after| {
        let after = &mut *after.borrow_mut();
        after.copy_from(board);
        after.play_unchecked(p, color);
        if after.chain_liberties(p) != 2 {
            return false;
        }
        let (a, b) = policy::two_liberties(after, p);
        [a, b].into_iter().any(|x| {
            policy::is_safe_atari(after, x, opponent)
                && policy::is_caught_in_ladder_after(after, &[(x, opponent)], p)
        })
    })
}

/// The gammas of every feature value, and the large shapes the model knows.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveModel {
    /// Per group, the gamma of each value; `train` fits them.
    pub(crate) gammas: Vec<Vec<f64>>,
    /// The large shapes known, by hash (`large_shapes::hashes`): each one's value in the
    /// large-shape group, from 1. Empty in a model without large shapes, which then never
    /// hashes them.
    shapes: HashMap<u64, u32, BuildHasherDefault<HashIsKey>>,
    /// The latent factors of feature values, for the interactions between a move's features.
    pub(crate) factors: Factors,
}

/// Most dimensions a latent factor vector may have.
pub const MAX_FACTOR_DIMENSION: usize = 32;

/// Latent factors (Xiao and Müller's Factorization Bradley–Terry model, 2016, after
/// Wistuba and Schmidt-Thieme's Latent Factor Ranking, 2013): each value of the groups that
/// have them owns a vector, and every two of a move's values multiply its strength by
/// `exp` of their vectors' dot product. A gamma alone cannot say that a contact move is
/// good next to the last stone and poor far from it; the product of the shape's and the
/// distance's vectors can. The dot products of all pairs come from one sum:
/// `Σ_{i<j} vᵢ·vⱼ = (|Σ vᵢ|² − Σ |vᵢ|²) / 2`. `examples/train_move_model.rs --factors` fits
/// them after the gammas (`train::fit_factors`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Factors {
    /// The length of every vector; 0 in a model without factors.
    pub(crate) dimension: usize,
    /// Per group, `values × dimension` numbers (value `v`'s vector at `v × dimension`), or
    /// none for a group without factors.
    pub(crate) vectors: Vec<Vec<f32>>,
}

impl Factors {
    /// Vectors of `dimension` numbers, all 0, for the values of `groups`.
    pub(crate) fn zeros(dimension: usize, groups: &[Group]) -> Factors {
        assert!((1..=MAX_FACTOR_DIMENSION).contains(&dimension), "dimension {dimension}");
        let vectors = GROUPS
            .iter()
            .map(
                |g| if groups.contains(g) { vec![0.0; g.values() * dimension] } else { Vec::new() },
            )
            .collect();
        Factors { dimension, vectors }
    }

    /// The vector of `value` in group number `g`; `None` where the group has no factors.
    pub(crate) fn vector(&self, g: usize, value: u32) -> Option<&[f32]> {
        let vectors = self.vectors.get(g).filter(|v| !v.is_empty())?;
        let start = value as usize * self.dimension;
        Some(&vectors[start..start + self.dimension])
    }

    /// The log of the factor `features`' pairs multiply a move's strength by, and the sum of
    /// their vectors into `sum` (its first `dimension` numbers; the trainer's gradient needs it).
    pub(crate) fn interaction(&self, features: &Features, sum: &mut [f32]) -> f32 {
        let sum = &mut sum[..self.dimension];
        sum.fill(0.0);
        // The squares summed per dimension too, not into one number: one running total
        // chains every addition to the one before. With 16 numbers for every group that made
        // a 19×19 expansion's features and strengths 59.7 µs instead of 44.9–49.1 µs, against
        // 31.0 µs without factors (`cargo bench --bench move_model`).
        let mut squares = [0.0; MAX_FACTOR_DIMENSION];
        let squares = &mut squares[..self.dimension];
        for (g, &value) in features.iter().enumerate() {
            if let Some(vector) = self.vector(g, value) {
                for ((s, q), &x) in sum.iter_mut().zip(squares.iter_mut()).zip(vector) {
                    *s += x;
                    *q += x * x;
                }
            }
        }
        sum.iter().zip(squares.iter()).map(|(s, q)| s * s - q).sum::<f32>() / 2.0
    }
}

/// The hasher of the large-shape dictionary: its keys are Zobrist hashes already, as evenly
/// spread as any hash of them would be, so the key is its own hash.
#[derive(Default)]
struct HashIsKey(u64);

impl Hasher for HashIsKey {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

impl Default for MoveModel {
    /// Every gamma 1: all moves equally likely.
    fn default() -> Self {
        MoveModel {
            gammas: GROUPS.iter().map(|g| vec![1.0; g.values()]).collect(),
            shapes: HashMap::default(),
            factors: Factors::default(),
        }
    }
}

impl MoveModel {
    /// The model shipped with the engine for boards of side `size`: `move_model.txt` below
    /// 13×13, and from 13×13 up `move_model_big.txt`, the human-games model with large
    /// shapes and latent factors (see the module's opening).
    pub fn builtin(size: usize) -> &'static MoveModel {
        Self::builtin_cell(size).get_or_init(|| {
            if size >= BIG_BOARD {
                MoveModel::parse(include_str!("move_model_big.txt")).expect("the big model parses")
            } else {
                MoveModel::parse(include_str!("move_model.txt")).expect("the model parses")
            }
        })
    }

    /// Where [`MoveModel::builtin`] keeps the model for `size`, read at its first use.
    fn builtin_cell(size: usize) -> &'static OnceLock<MoveModel> {
        static SMALL: OnceLock<MoveModel> = OnceLock::new();
        static BIG: OnceLock<MoveModel> = OnceLock::new();
        if size >= BIG_BOARD {
            &BIG
        } else {
            &SMALL
        }
    }

    /// Starts reading the big boards' model on a thread of its own when `size` needs it and
    /// it is not read yet: its text takes about half a second to parse, which the first
    /// search on such a board would otherwise spend out of its clock. The thread, if one
    /// started; a search that comes before it is done waits for it.
    pub fn load_in_background(size: usize) -> Option<std::thread::JoinHandle<()>> {
        if size < BIG_BOARD || Self::builtin_cell(size).get().is_some() {
            return None;
        }
        let load = move || {
            MoveModel::builtin(size);
        };
        std::thread::Builder::new().name("move model".into()).spawn(load).ok()
    }

    /// The model's dictionary of large shapes: `hashes` (as [`large_shapes::hashes`] gives
    /// them), each numbered from 1 in order as its value in the large-shape group. At most
    /// [`LARGE_SHAPE_VALUES`] − 1; hashes past that, and repeated ones, are left out.
    pub fn with_large_shapes(mut self, hashes: &[u64]) -> MoveModel {
        self.shapes.clear();
        for &hash in hashes {
            let value = self.shapes.len() + 1;
            if value >= Group::LargeShape.values() {
                break;
            }
            self.shapes.entry(hash).or_insert(value as u32);
        }
        self
    }

    /// The model with every gamma of `group` set to 1 and its factors 0, as if it did not
    /// have the group (the other groups not refitted): what the group adds to this model.
    pub fn without(&self, group: Group) -> MoveModel {
        let mut model = self.clone();
        model.gammas[group_index(group)].fill(1.0);
        if let Some(vectors) = model.factors.vectors.get_mut(group_index(group)) {
            vectors.fill(0.0);
        }
        model
    }

    /// How many large shapes the model knows.
    pub fn large_shapes(&self) -> usize {
        self.shapes.len()
    }

    /// The features of a `color` stone on the legal point `p` ([`features`]), with the
    /// largest of its large shapes that the model knows.
    pub fn features(&self, board: &Board, color: Color, p: Point, recent: Recent) -> Features {
        let mut features = features(board, color, p, recent);
        features[group_index(Group::LargeShape)] = self.large_shape_value(board, p, color);
        features
    }

    /// The value of the largest known shape around a `color` stone on `p`, 0 if none.
    fn large_shape_value(&self, board: &Board, p: Point, color: Color) -> u32 {
        if self.shapes.is_empty() {
            return 0;
        }
        large_shapes::largest_known(board, p, color, |hash| self.shapes.get(&hash).copied())
    }

    /// The strength of a move with `features`: the product of its gammas, and where the
    /// model has latent factors, `exp` of their pairs' interactions.
    pub fn strength(&self, features: &Features) -> f64 {
        let product: f64 =
            features.iter().zip(&self.gammas).map(|(&v, gammas)| gammas[v as usize]).product();
        if self.factors.dimension == 0 {
            return product;
        }
        let mut sum = [0.0; MAX_FACTOR_DIMENSION];
        product * f64::from(self.factors.interaction(features, &mut sum)).exp()
    }

    /// The groups whose values have latent factors, and the factors' dimension (0: none).
    pub fn factor_groups(&self) -> (Vec<Group>, usize) {
        let groups = GROUPS.iter().zip(&self.factors.vectors);
        let with = groups.filter(|(_, v)| !v.is_empty()).map(|(&g, _)| g).collect();
        (with, self.factors.dimension)
    }

    pub fn gamma(&self, group: Group, value: u32) -> f64 {
        self.gammas[group_index(group)][value as usize]
    }

    /// Reads the text form: `GROUP VALUE GAMMA` per line, `large_shape_hash VALUE HEX` for
    /// each large shape known, and `factor GROUP VALUE X1 … XK` for each latent factor
    /// vector (the same K in every one); `#` starts a comment; values not listed keep gamma 1
    /// and a vector of zeros. A shape key that is not in canonical form is accepted but never
    /// looked up.
    ///
    /// # Errors
    /// The line number and what is wrong with it.
    pub fn parse(text: &str) -> Result<MoveModel, String> {
        let mut model = MoveModel::default();
        for (number, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let fail = |what: &str| format!("line {}: {what}: {line}", number + 1);
            let fields: Vec<&str> = line.split_whitespace().collect();
            if let ["large_shape_hash", value, hash] = fields[..] {
                let value: u32 = value.parse().map_err(|_| fail("bad value"))?;
                let hash = u64::from_str_radix(hash, 16).map_err(|_| fail("bad hash"))?;
                if value == 0 || value as usize >= LARGE_SHAPE_VALUES {
                    return Err(fail("a large shape's value is from 1 to 2^20 - 1"));
                }
                if model.shapes.insert(hash, value).is_some() {
                    return Err(fail("a large shape needs a value from 1 and a new hash"));
                }
                continue;
            }
            if let ["factor", group, value, ref numbers @ ..] = fields[..] {
                let group = Group::from_name(group).ok_or_else(|| fail("unknown group"))?;
                let value: usize = value.parse().map_err(|_| fail("bad value"))?;
                if value >= group.values() {
                    return Err(fail("value out of range"));
                }
                let factors = &mut model.factors;
                if factors.dimension == 0 {
                    if !(1..=MAX_FACTOR_DIMENSION).contains(&numbers.len()) {
                        return Err(fail("a factor has 1 to 32 numbers"));
                    }
                    *factors = Factors::zeros(numbers.len(), &[]);
                }
                if numbers.len() != factors.dimension {
                    return Err(fail("every factor needs as many numbers as the first"));
                }
                let dimension = factors.dimension;
                let vectors = &mut factors.vectors[group_index(group)];
                if vectors.is_empty() {
                    *vectors = vec![0.0; group.values() * dimension];
                }
                for (x, number) in vectors[value * dimension..].iter_mut().zip(numbers) {
                    *x = number
                        .parse()
                        .ok()
                        .filter(|x: &f32| x.is_finite())
                        .ok_or_else(|| fail("bad number"))?;
                }
                continue;
            }
            let [group, value, gamma] = fields[..] else { return Err(fail("expected 3 fields")) };
            let group = Group::from_name(group).ok_or_else(|| fail("unknown group"))?;
            let value: usize = value.parse().map_err(|_| fail("bad value"))?;
            let gamma: f64 = gamma.parse().map_err(|_| fail("bad gamma"))?;
            if value >= group.values() {
                return Err(fail("value out of range"));
            }
            if !(gamma.is_finite() && gamma > 0.0) {
                return Err(fail("gamma must be positive"));
            }
            model.gammas[group_index(group)][value] = gamma;
        }
        Ok(model)
    }

    /// The text form [`MoveModel::parse`] reads: every gamma that is not 1, with four
    /// decimals, or four significant digits where that would round a small gamma to 0.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (group, gammas) in GROUPS.iter().zip(&self.gammas) {
            for (value, &gamma) in gammas.iter().enumerate() {
                if gamma != 1.0 {
                    let gamma =
                        if gamma >= 1e-3 { format!("{gamma:.4}") } else { format!("{gamma:.3e}") };
                    out.push_str(&format!("{} {value} {gamma}\n", group.name()));
                }
            }
        }
        let mut shapes: Vec<(u32, u64)> = self.shapes.iter().map(|(&h, &v)| (v, h)).collect();
        shapes.sort_unstable();
        for (value, hash) in shapes {
            out.push_str(&format!("large_shape_hash {value} {hash:016x}\n"));
        }
        let dimension = self.factors.dimension;
        for (group, vectors) in GROUPS.iter().zip(&self.factors.vectors) {
            for (value, vector) in vectors.chunks(dimension.max(1)).enumerate() {
                if vector.iter().any(|&x| x != 0.0) {
                    out.push_str(&format!("factor {} {value}", group.name()));
                    for x in vector {
                        out.push_str(&format!(" {x:.4}"));
                    }
                    out.push('\n');
                }
            }
        }
        out
    }
}

pub(crate) fn group_index(group: Group) -> usize {
    group as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    // The byte tables give the same smallest symmetry as moving the twelve cells one by one,
    // for every pattern of the four outer points with a spread of 3×3 cells, and for every
    // 3×3 key alone (the canonical 3×3 shapes come from it).
    #[test]
    fn diamond_symmetries_by_bytes_match_cell_by_cell() {
        let by_cells = |packed: u32| {
            diamond_symmetries()
                .iter()
                .map(|to| (0..12).fold(0u32, |out, k| out | (packed >> (2 * k) & 3) << (2 * to[k])))
                .min()
                .unwrap()
        };
        let mut differ = 0;
        for outer in 0..256u32 {
            for inner in (0..=u16::MAX as u32).step_by(97) {
                let packed = outer << 16 | inner;
                assert_eq!(smallest_symmetry(packed), by_cells(packed), "{packed:#08x}");
                differ += usize::from(by_cells(packed) != packed);
            }
        }
        assert!(differ > 0);
        for key in 0..=u16::MAX {
            assert_eq!(canonical_shapes()[usize::from(key)] as u32, by_cells(u32::from(key)));
        }
    }

    #[test]
    fn diamonds_are_the_same_in_every_orientation_and_see_two_steps_away() {
        // A black stone two steps above the move, a white one diagonally below it.
        let board = Board::from_diagram(
            ". . . . . . .
             . . . X . . .
             . . . . . . .
             . . . . . . .
             . . . . O . .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        // The same turned a quarter, with the colours swapped.
        let turned = Board::from_diagram(
            ". . . . . . .
             . . . . . . .
             . . . . . . .
             . . . . . O .
             . . X . . . .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        let key = diamond_key(&board, board.point(3, 3), Color::Black);
        assert_eq!(diamond_key(&turned, turned.point(3, 3), Color::White), key);
        assert_ne!(diamond_key(&turned, turned.point(3, 3), Color::Black), key);
        // The 3×3 shape cannot see the stone two steps away; the diamond can.
        let without = Board::from_diagram(
            ". . . . . . .
             . . . . . . .
             . . . . . . .
             . . . . . . .
             . . . . O . .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        let p = board.point(3, 3);
        assert_eq!(shape_key(&without, p, Color::Black), shape_key(&board, p, Color::Black));
        assert_ne!(diamond_key(&without, p, Color::Black), key);
        // Off-board points count: on the second line the point two steps towards the edge is
        // off the board, which the 3×3 shape does not reach.
        let empty = Board::new(7);
        let (centre, second_line) = (empty.point(3, 3), empty.point(1, 3));
        assert_eq!(
            shape_key(&empty, centre, Color::Black),
            shape_key(&empty, second_line, Color::Black)
        );
        assert_ne!(
            diamond_key(&empty, centre, Color::Black),
            diamond_key(&empty, second_line, Color::Black)
        );
    }

    #[test]
    fn shapes_are_the_same_in_every_orientation_and_for_either_colour() {
        let board = Board::from_diagram(
            ". . . . .
             . X O . .
             . . . . .
             . . . . .
             . . . . .",
        )
        .unwrap();
        // A hane under a black stone, seen by black, and its mirror image seen by white
        // with the colours swapped.
        let mirrored = Board::from_diagram(
            ". . . . .
             . . . . .
             . . . . .
             . . X O .
             . . . . .",
        )
        .unwrap();
        let key = shape_key(&board, board.point(1, 2), Color::Black);
        assert_eq!(shape_key(&mirrored, mirrored.point(3, 2), Color::White), key);
        assert_ne!(shape_key(&mirrored, mirrored.point(3, 2), Color::Black), key);
        assert_ne!(shape_key(&board, board.point(2, 2), Color::Black), key);
        assert_eq!(swap_colours(swap_colours(0xabcd)), 0xabcd);
    }

    #[test]
    fn tactical_features() {
        let board = Board::from_diagram(policy::LADDER).unwrap();
        let recent = Recent::default();
        let get = |x, y, color, group| {
            features(&board, color, board.point(x, y), recent)[group_index(group)]
        };
        // White's stone in atari: running is an escape into a ladder, and black captures a
        // lone stone there.
        let (x, y) = ladder_escape_point(&board);
        assert_eq!(get(x, y, Color::White, Group::Escape), 4);
        assert_eq!(get(x, y, Color::Black, Group::Capture), 1);
        assert_eq!(get(x, y, Color::Black, Group::Escape), 0);
        // A quiet move far away has none of the tactics.
        for group in [Group::Capture, Group::Escape, Group::SelfAtari, Group::Atari] {
            assert_eq!(get(1, 7, Color::Black, group), 0, "{group:?}");
        }
        assert_eq!(get(0, 0, Color::Black, Group::Line), 0);
        assert_eq!(get(4, 4, Color::Black, Group::Line) % 5, 4);
    }

    /// The liberty of the white chain in atari on the ladder diagram.
    fn ladder_escape_point(board: &Board) -> (usize, usize) {
        let p = board
            .points()
            .find(|&p| board.stone(p) == Some(Color::White) && board.chain_liberties(p) == 1)
            .expect("a white chain in atari");
        let liberty = board.some_liberty(p).unwrap();
        board.coordinates(liberty)
    }

    // The last stone is the opponent's, the previous one the mover's own; a pass in
    // between leaves no last stone.
    #[test]
    fn recent_stones_of_a_game() {
        use crate::board::Move;
        use crate::game::rules::Rules;
        use crate::game::Game;
        let mut game = Game::new(9, Rules::default());
        assert_eq!(Recent::of(&game), Recent::default());
        let (d4, e5) = (game.board().point(3, 5), game.board().point(4, 4));
        game.play(Color::Black, Move::Play(d4)).unwrap();
        game.play(Color::White, Move::Play(e5)).unwrap();
        assert_eq!(Recent::of(&game), Recent { last: Some(e5), previous: Some(d4) });
        game.play(Color::Black, Move::Pass).unwrap();
        assert_eq!(Recent::of(&game), Recent { last: None, previous: Some(e5) });
        // White plays twice in a row (GTP allows it): black's own previous stone is not
        // among the last two moves.
        let (c3, g7) = (game.board().point(2, 6), game.board().point(6, 2));
        game.play(Color::White, Move::Play(c3)).unwrap();
        game.play(Color::White, Move::Play(g7)).unwrap();
        assert_eq!(game.to_move(), Color::Black);
        assert_eq!(Recent::of(&game), Recent { last: Some(g7), previous: None });
    }

    #[test]
    fn distances_follow_coulom() {
        let board = Board::new(9);
        let at = |x, y| Some(board.point(x, y));
        assert_eq!(distance(&board, board.point(4, 4), at(4, 5)), 2);
        assert_eq!(distance(&board, board.point(4, 4), at(5, 5)), 3);
        assert_eq!(distance(&board, board.point(4, 4), at(6, 4)), 4);
        assert_eq!(distance(&board, board.point(0, 0), at(8, 8)), 17);
        assert_eq!(distance(&board, board.point(0, 0), None), 0);
        assert_eq!(distance(&board, board.point(3, 3), at(3, 3)), 0);
    }

    // A move's large-shape value is its largest shape the model knows; a model that knows
    // none gives 0, as do the plain features.
    #[test]
    fn the_largest_known_shape_counts() {
        let mut board = Board::new(19);
        board.play_unchecked(board.point(3, 3), Color::White);
        board.play_unchecked(board.point(5, 4), Color::Black);
        let p = board.point(3, 5);
        let hashes = large_shapes::hashes(&board, p, Color::Black);
        let recent = Recent { last: None, previous: None };
        let value = |model: &MoveModel| model.features(&board, Color::Black, p, recent)[10];
        assert_eq!(value(&MoveModel::default()), 0);
        assert_eq!(features(&board, Color::Black, p, recent)[10], 0);
        // Known: sizes 5 (value 1), 6 (value 3) and 7 (value 2); 7 is the largest.
        let model = MoveModel::default().with_large_shapes(&[hashes[0], hashes[2], hashes[1]]);
        assert_eq!(value(&model), 2);
        let model = MoveModel::default().with_large_shapes(&[hashes[0], 99]);
        assert_eq!(value(&model), 1);
        // The sizes are tried from the smallest up, to the first one unknown: a dictionary
        // of the shapes seen in games knows every smaller part of a shape it knows, so a
        // larger one after a gap is one no such dictionary holds.
        let model = MoveModel::default().with_large_shapes(&[hashes[0], hashes[2]]);
        assert_eq!(value(&model), 1);
        let model = MoveModel::default().with_large_shapes(&[98, 99]);
        assert_eq!(value(&model), 0);
        assert_eq!(group_index(Group::LargeShape), 10);
        // Past 16 bits: the 100,001st shape of a dictionary is numbered so, keeps its gamma
        // through the text form, and the one past the group's last value is left out.
        let mut dictionary: Vec<u64> = (1000..101_000).collect();
        dictionary.extend([hashes[0], hashes[1]]);
        let mut model = MoveModel::default().with_large_shapes(&dictionary);
        assert_eq!(value(&model), 100_002);
        model.gammas[group_index(Group::LargeShape)][100_002] = 6.5;
        let read = MoveModel::parse(&model.to_text()).unwrap();
        assert_eq!(read, model);
        assert_eq!(value(&read), 100_002);
        assert_eq!(read.strength(&read.features(&board, Color::Black, p, recent)), {
            let mut plain = features(&board, Color::Black, p, recent);
            plain[10] = 100_002;
            model.strength(&plain)
        });
        let full: Vec<u64> = (1..=LARGE_SHAPE_VALUES as u64).collect();
        let model = MoveModel::default().with_large_shapes(&full);
        assert_eq!(model.large_shapes(), LARGE_SHAPE_VALUES - 1);
        let last = format!("large_shape_hash {} ab", LARGE_SHAPE_VALUES);
        assert!(MoveModel::parse(&last).is_err());
    }

    // The shipped 19×19 dictionary knows every smaller part of each shape it knows, as far as
    // the positions of 24 stored 19×19 games show: for every legal move of every fifth
    // position, the sizes tried from the smallest up to the first unknown one find the same
    // largest known shape as looking up every size.
    #[test]
    fn the_shipped_dictionary_knows_the_parts_of_its_shapes() {
        let model = MoveModel::builtin(19);
        let mut checked = 0;
        for line in include_str!("../../data/move-model-19x19-search.sgfs").lines() {
            let record = crate::game::sgf::parse(line).unwrap();
            let mut game = crate::game::Game::new(19, crate::game::rules::Rules::chinese());
            for node in &record.nodes {
                let Some((color, point)) = node.mv else { continue };
                if game.moves().len().is_multiple_of(5) {
                    let board = game.board();
                    for &p in board.empty_points() {
                        let p = Point(p);
                        if !board.is_legal(p, color) {
                            continue;
                        }
                        let every_size = large_shapes::hashes(board, p, color)
                            .iter()
                            .rev()
                            .find_map(|hash| model.shapes.get(hash).copied())
                            .unwrap_or(0);
                        assert_eq!(model.large_shape_value(board, p, color), every_size);
                        checked += usize::from(every_size > 0);
                    }
                }
                game.play(color, crate::game::record::move_of(game.board(), point)).unwrap();
            }
        }
        assert!(checked > 50_000, "{checked} moves with a known shape");
    }

    // With factors, a move's strength is its gammas' product times exp of the dot product of
    // every two of its vectors, worked out here pair by pair; groups without factors and
    // values with zero vectors add nothing.
    #[test]
    fn factors_multiply_the_strength_by_their_pairs() {
        let mut model = MoveModel::default();
        model.gammas[group_index(Group::Atari)][1] = 2.0;
        model.factors = Factors::zeros(2, &[Group::Shape, Group::Atari, Group::Line]);
        let vectors = &mut model.factors.vectors;
        vectors[group_index(Group::Shape)][10..12].copy_from_slice(&[0.5, -1.0]);
        vectors[group_index(Group::Atari)][2..4].copy_from_slice(&[2.0, 0.25]);
        vectors[group_index(Group::Line)][6..8].copy_from_slice(&[-0.5, 3.0]);
        let mut features = [0; GROUPS.len()];
        features[group_index(Group::Shape)] = 5;
        features[group_index(Group::Atari)] = 1;
        features[group_index(Group::Line)] = 3;
        let dot = |a: [f64; 2], b: [f64; 2]| a[0] * b[0] + a[1] * b[1];
        let (shape, atari, line) = ([0.5, -1.0], [2.0, 0.25], [-0.5, 3.0]);
        let pairs = dot(shape, atari) + dot(shape, line) + dot(atari, line);
        let expected = 2.0 * pairs.exp();
        assert!((model.strength(&features) - expected).abs() < 1e-5 * expected);
        // A value with a zero vector: only the other two's pair counts.
        features[group_index(Group::Shape)] = 6;
        let expected = 2.0 * dot(atari, line).exp();
        assert!((model.strength(&features) - expected).abs() < 1e-5 * expected);
        // Without the line group, its factors go too.
        let without = model.without(Group::Line);
        assert!((without.strength(&features) - 2.0).abs() < 1e-9);
    }

    #[test]
    fn text_round_trip_and_errors() {
        let mut model = MoveModel::default();
        model.gammas[group_index(Group::Atari)][2] = 3.5;
        model.gammas[group_index(Group::Shape)][1234] = 0.25;
        model.gammas[group_index(Group::Line)][3] = 2e-9;
        let parsed = MoveModel::parse(&model.to_text()).unwrap();
        assert_eq!(parsed, model);
        for (i, &group) in GROUPS.iter().enumerate() {
            assert_eq!(group_index(group), i, "{group:?}");
        }
        assert!(MoveModel::parse("atari 3 1.0").is_err());
        assert!(MoveModel::parse("nonsense 0 1.0").is_err());
        assert!(MoveModel::parse("atari 1 -2").is_err());
        assert!(MoveModel::parse("atari 1").unwrap_err().contains("line 1"));
        // Large shapes: the dictionary reads back, and a value of 0, a repeated hash or a
        // hash that is not hexadecimal is refused.
        let shaped = model.clone().with_large_shapes(&[0xABCD, 0x1234_5678_9ABC_DEF0, 0xABCD, 7]);
        assert_eq!(shaped.large_shapes(), 3);
        assert_eq!(MoveModel::parse(&shaped.to_text()).unwrap(), shaped);
        assert!(MoveModel::parse("large_shape_hash 0 ab").is_err());
        assert!(MoveModel::parse("large_shape_hash 1 ab\nlarge_shape_hash 2 ab").is_err());
        assert!(MoveModel::parse("large_shape_hash 1 xyz").is_err());
        // Latent factors read back (at four decimals), and a vector of the wrong length, a
        // number that is not one, or too many numbers is refused.
        let mut factored = model.clone();
        factored.factors = Factors::zeros(3, &[Group::Shape, Group::Line]);
        factored.factors.vectors[group_index(Group::Shape)][1234 * 3..1235 * 3]
            .copy_from_slice(&[0.5, -0.25, 1.125]);
        factored.factors.vectors[group_index(Group::Line)][..3].copy_from_slice(&[2.0, 0.0, -1.0]);
        let text = factored.to_text();
        assert!(text.contains("factor shape 1234 0.5000 -0.2500 1.1250\n"), "{text}");
        assert_eq!(MoveModel::parse(&text).unwrap(), factored);
        assert_eq!(factored.factor_groups(), (vec![Group::Shape, Group::Line], 3));
        assert!(MoveModel::parse("factor line 1 0.5 0.5\nfactor line 2 0.5").is_err());
        assert!(MoveModel::parse("factor line 1 0.5 x").is_err());
        assert!(MoveModel::parse("factor line 1 0.5 inf").is_err());
        assert!(MoveModel::parse("factor line 1 0.5 1.2.3").is_err());
        assert!(MoveModel::parse("factor line 1 0.5 -").is_err());
        assert!(MoveModel::parse("factor line 15 0.5").is_err());
        assert!(MoveModel::parse(&format!("factor line 1{}", " 0.1".repeat(33))).is_err());
        for size in [9, 19] {
            let builtin = MoveModel::builtin(size);
            assert!(builtin.gamma(Group::Escape, 3) > 2.0 * builtin.gamma(Group::Escape, 0));
            assert!(builtin.gamma(Group::SelfAtari, 2) < 0.5 * builtin.gamma(Group::SelfAtari, 0));
        }
        // Below 13x13 the model of 9x9 games, with diamonds and no large shapes; from 13x13
        // up the model of strong human 19x19 games, which knows large shapes too.
        let diamonds = |size| MoveModel::builtin(size).gammas[group_index(Group::Diamond)].clone();
        assert!(diamonds(9).iter().any(|&g| g != 1.0));
        assert!(diamonds(12).iter().any(|&g| g != 1.0));
        assert_eq!(MoveModel::builtin(12).large_shapes(), 0);
        assert!(MoveModel::builtin(13).large_shapes() > 10_000);
        assert!(std::ptr::eq(MoveModel::builtin(13), MoveModel::builtin(19)));
        // The big model has latent factors of 16 numbers for every group; the 9×9 one none.
        assert_eq!(MoveModel::builtin(19).factor_groups(), (GROUPS.to_vec(), 16));
        assert_eq!(MoveModel::builtin(9).factor_groups().1, 0);
    }

    // The big boards' model can be read ahead on a thread of its own; small boards need
    // none, and once it is read there is nothing to start.
    #[test]
    fn the_big_model_loads_in_the_background() {
        assert!(MoveModel::load_in_background(9).is_none());
        if let Some(thread) = MoveModel::load_in_background(19) {
            thread.join().unwrap();
        }
        assert!(MoveModel::builtin_cell(19).get().is_some());
        assert!(MoveModel::load_in_background(13).is_none(), "read already");
    }
}
