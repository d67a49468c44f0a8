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
//! from 13×13 up use `move_model_big.txt`, the model from before the diamond, whose
//! gammas leave the diamond at 1: there the diamond did not help.

use crate::board::{Board, Point};
use crate::color::Color;
use crate::patterns;
use crate::policy;
use crate::sgf;
use std::ops::Range;
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
}

/// Every group, in feature order (the order of the enum, so `group as usize` indexes it).
pub const GROUPS: [Group; 10] = [
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
];

impl Group {
    /// How many values the group has.
    pub fn values(self) -> usize {
        match self {
            Group::Shape | Group::Diamond => 1 << 16,
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
        }
    }

    /// The group with the gamma file's `name`.
    pub fn from_name(name: &str) -> Option<Group> {
        GROUPS.iter().copied().find(|g| g.name() == name)
    }
}

/// One value per group, in the order of [`GROUPS`].
pub type Features = [u16; GROUPS.len()];

pub use crate::policy::Recent;

/// The features of a `color` stone on the legal point `p`.
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
    let ladder_capturable = u16::from(
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
        canonical_shapes()[usize::from(around)],
        capture,
        escape,
        self_atari,
        atari,
        ladder_capturable,
        distance(board, p, recent.last),
        distance(board, p, recent.previous),
        (stage * 5 + line) as u16,
        diamond_key_around(board, p, color, around),
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
fn distance(board: &Board, p: Point, from: Option<Point>) -> u16 {
    let Some(from) = from else { return 0 };
    let (x, y) = board.coordinates(p);
    let (fx, fy) = board.coordinates(from);
    let (dx, dy) = (x.abs_diff(fx), y.abs_diff(fy));
    (dx + dy + dx.max(dy)).min(17) as u16
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

/// The gammas of every feature value.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveModel {
    gammas: Vec<Vec<f64>>,
}

impl Default for MoveModel {
    /// Every gamma 1: all moves equally likely.
    fn default() -> Self {
        MoveModel { gammas: GROUPS.iter().map(|g| vec![1.0; g.values()]).collect() }
    }
}

impl MoveModel {
    /// The model shipped with the engine for boards of side `size`: `move_model.txt` below
    /// 13×13, and from 13×13 up `move_model_big.txt`, the earlier model without the
    /// diamond shapes (with them, 19×19 self-play went no better; see docs/strength.md).
    pub fn builtin(size: usize) -> &'static MoveModel {
        static SMALL: OnceLock<MoveModel> = OnceLock::new();
        static BIG: OnceLock<MoveModel> = OnceLock::new();
        if size >= super::priors::BIG_BOARD {
            BIG.get_or_init(|| {
                MoveModel::parse(include_str!("move_model_big.txt")).expect("the big model parses")
            })
        } else {
            SMALL.get_or_init(|| {
                MoveModel::parse(include_str!("move_model.txt")).expect("the model parses")
            })
        }
    }

    /// The strength of a move with `features`: the product of its gammas.
    pub fn strength(&self, features: &Features) -> f64 {
        features.iter().zip(&self.gammas).map(|(&v, gammas)| gammas[usize::from(v)]).product()
    }

    pub fn gamma(&self, group: Group, value: u16) -> f64 {
        self.gammas[group_index(group)][usize::from(value)]
    }

    /// Reads the text form: `GROUP VALUE GAMMA` per line; `#` starts a comment; values not
    /// listed keep gamma 1. A shape key that is not in canonical form is accepted but never
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
        out
    }
}

pub(crate) fn group_index(group: Group) -> usize {
    group as usize
}

/// Positions to learn from: each with the features of every legal move and the share of
/// the choice each move had: all of it for the one move played, or a search's visits spread
/// over several.
#[derive(Clone, Debug, Default)]
pub struct TrainingSet {
    candidates: Vec<Features>,
    /// Per position: its first candidate, its candidate count and its range in `shares`.
    positions: Vec<(usize, usize, Range<usize>)>,
    /// (candidate index within its position, share); a position's shares sum to 1.
    shares: Vec<(usize, f64)>,
}

impl TrainingSet {
    /// Adds a position whose legal moves have `candidates`, of which `chosen` was played.
    pub fn add(&mut self, candidates: &[Features], chosen: usize) {
        self.add_shares(candidates, &[(chosen, 1.0)]);
    }

    /// Adds a position whose legal moves have `candidates`, where each move of `weights`
    /// (candidate index, weight such as a search's visits) was chosen in proportion to its
    /// weight. Weights that are not positive and finite are dropped; a position left with
    /// none is not added.
    pub fn add_shares(&mut self, candidates: &[Features], weights: &[(usize, f64)]) {
        let weights: Vec<_> = weights.iter().filter(|(_, w)| w.is_finite() && *w > 0.0).collect();
        assert!(weights.iter().all(|(i, _)| *i < candidates.len()), "the chosen are candidates");
        if weights.is_empty() {
            return;
        }
        let total: f64 = weights.iter().map(|(_, w)| w).sum();
        let first_share = self.shares.len();
        self.shares.extend(weights.iter().map(|&&(i, w)| (i, w / total)));
        let shares = first_share..self.shares.len();
        self.positions.push((self.candidates.len(), candidates.len(), shares));
        self.candidates.extend_from_slice(candidates);
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// How often `model` gives the chosen move (the one with the largest share) the highest
    /// strength (ties count as misses), and the mean log-likelihood of the choices: of the
    /// chosen move, or with shares the mean of their moves' log-likelihoods weighted by share.
    pub fn evaluate(&self, model: &MoveModel) -> (f64, f64) {
        let mut hits = 0;
        let mut log_likelihood = 0.0;
        for (start, len, shares) in &self.positions {
            let shares = &self.shares[shares.clone()];
            let strengths: Vec<f64> =
                self.candidates[*start..start + len].iter().map(|f| model.strength(f)).collect();
            let chosen = shares.iter().max_by(|a, b| a.1.total_cmp(&b.1)).map_or(0, |&(i, _)| i);
            let best = strengths[chosen];
            if strengths.iter().enumerate().all(|(i, &s)| i == chosen || s < best) {
                hits += 1;
            }
            let total: f64 = strengths.iter().sum();
            for &(i, share) in shares {
                log_likelihood += share * (strengths[i] / total).ln();
            }
        }
        let n = self.positions.len().max(1) as f64;
        (hits as f64 / n, log_likelihood / n)
    }
}

/// Fits the gammas to `set` by `iterations` rounds of MM updates, one group after another;
/// the groups in `without` keep gamma 1, as if the model did not have them.
/// Each value also gets one virtual win and one virtual loss against a gamma of 1, so rare
/// values stay near 1 instead of running off to 0 or infinity (Coulom's prior).
pub fn train(set: &TrainingSet, iterations: usize, without: &[Group]) -> MoveModel {
    train_from(MoveModel::default(), set, iterations, without)
}

/// [`train`] starting from the gammas of `model` instead of all 1, so that the groups in
/// `without` keep those gammas: e.g. a model's shapes, learnt from many games, with the other
/// groups refitted to positions of another board size.
pub fn train_from(
    mut model: MoveModel,
    set: &TrainingSet,
    iterations: usize,
    without: &[Group],
) -> MoveModel {
    let mut wins: Vec<Vec<f64>> = GROUPS.iter().map(|g| vec![0.0; g.values()]).collect();
    for (start, _, shares) in &set.positions {
        for &(i, share) in &set.shares[shares.clone()] {
            for (g, &value) in set.candidates[start + i].iter().enumerate() {
                wins[g][usize::from(value)] += share;
            }
        }
    }
    let mut strengths = vec![0.0; set.candidates.len()];
    for _ in 0..iterations {
        for g in (0..GROUPS.len()).filter(|&g| !without.contains(&GROUPS[g])) {
            for (s, f) in strengths.iter_mut().zip(&set.candidates) {
                *s = model.strength(f);
            }
            // Denominator of each value's update: over positions, the strength its
            // candidates would have without this group's gamma, over the position's total.
            let mut denominators = vec![0.0; model.gammas[g].len()];
            for &(start, len, _) in &set.positions {
                let total: f64 = strengths[start..start + len].iter().sum();
                for (f, &s) in set.candidates[start..start + len].iter().zip(&strengths[start..]) {
                    let value = usize::from(f[g]);
                    denominators[value] += s / model.gammas[g][value] / total;
                }
            }
            for (value, gamma) in model.gammas[g].iter_mut().enumerate() {
                if denominators[value] == 0.0 && wins[g][value] == 0.0 {
                    continue;
                }
                let virtual_games = 2.0 / (*gamma + 1.0);
                *gamma = (wins[g][value] + 1.0) / (denominators[value] + virtual_games);
            }
        }
    }
    model
}

/// A training label in a game record: the comment on a move saying that `name` would have
/// played at SGF point `(x, y)` (column and row from the top left, from 0) in the position
/// before it. `examples/label_positions.rs` writes them, `examples/train_move_model.rs`
/// learns from them.
pub fn label_comment(name: &str, point: (u8, u8)) -> String {
    format!("{name}: {}", sgf_point(point))
}

/// A label in a game record for a search's choice: the comment on a move saying that
/// `name`'s search visited these SGF points this many times in the position before it, e.g.
/// `T10k: pd 4120 dp 2890 qq 35`.
pub fn visits_comment(name: &str, visits: &[((u8, u8), u32)]) -> String {
    let moves: Vec<String> = visits.iter().map(|&(p, n)| format!("{} {n}", sgf_point(p))).collect();
    format!("{name}: {}", moves.join(" "))
}

fn sgf_point(point: (u8, u8)) -> String {
    let mut text = String::new();
    sgf::push_point(&mut text, point);
    text
}

/// The moves a label by `name` gives on a `size` board, with their weights: the one point of
/// a [`label_comment`] with weight 1, or the points of a [`visits_comment`] with their visits.
/// `None` for any other comment, and for one with a point off that board.
pub fn labelled_moves(comment: &str, name: &str, size: u8) -> Option<Vec<((u8, u8), f64)>> {
    let words: Vec<&str> = comment.strip_prefix(name)?.strip_prefix(": ")?.split(' ').collect();
    let point = |word: &str| sgf::parse_point(word, size);
    if let [word] = words[..] {
        return Some(vec![(point(word)?, 1.0)]);
    }
    let pairs = words.chunks(2).map(|pair| match *pair {
        [p, n] => Some((point(p)?, f64::from(n.parse::<u32>().ok()?))),
        _ => None,
    });
    pairs.collect()
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

    // A label reads back as its point on boards that hold it, and nothing else reads as one.
    #[test]
    fn labels_read_back_and_other_comments_are_not_labels() {
        for point in [(0, 0), (2, 6), (8, 8), (18, 3)] {
            let comment = label_comment("GNU Go", point);
            assert_eq!(labelled_moves(&comment, "GNU Go", 19), Some(vec![(point, 1.0)]));
        }
        assert_eq!(label_comment("GNU Go", (2, 6)), "GNU Go: cg");
        assert_eq!(labelled_moves("GNU Go: jj", "GNU Go", 9), None, "off a 9x9 board");
        assert_eq!(labelled_moves("GNU Go: cg", "Pachi", 9), None, "another name");
        for comment in ["GNU Go: pass", "GNU Go: c", "GNU Go: cgh", "GNU Go:cg", "good move", ""] {
            assert_eq!(labelled_moves(comment, "GNU Go", 9), None, "{comment:?}");
        }
        // A search's visits read back as weights, and only whole pairs on the board count.
        let visits = [((15, 3), 4120), ((3, 15), 2890), ((16, 16), 35)];
        let comment = visits_comment("T10k", &visits);
        assert_eq!(comment, "T10k: pd 4120 dp 2890 qq 35");
        let read = labelled_moves(&comment, "T10k", 19).unwrap();
        assert_eq!(read, visits.map(|(p, n)| (p, f64::from(n))));
        for comment in ["T10k: pd 4120 dp", "T10k: pd 41x0", "T10k: pd -3", "T10k: pd 1 tt 2"] {
            assert_eq!(labelled_moves(comment, "T10k", 19), None, "{comment:?}");
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
        use crate::game::Game;
        use crate::rules::Rules;
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

    // A position whose choice is spread 1:4 over two moves teaches what one choice in five
    // and four in five of the same position do, and scores the same.
    #[test]
    fn shares_teach_as_the_choices_they_spread() {
        let candidates: Vec<Features> = (0..2)
            .map(|value| {
                let mut f = [0u16; GROUPS.len()];
                f[group_index(Group::Capture)] = value;
                f
            })
            .collect();
        let (mut spread, mut played) = (TrainingSet::default(), TrainingSet::default());
        for position in 0..500 {
            spread.add_shares(&candidates, &[(0, 10.0), (1, 40.0), (1, -3.0), (0, f64::NAN)]);
            played.add(&candidates, usize::from(position % 5 != 0));
        }
        spread.add_shares(&candidates, &[(0, 0.0)]);
        assert_eq!(spread.len(), 500, "a position with no positive weight is not added");
        let (from_spread, from_played) = (train(&spread, 30, &[]), train(&played, 30, &[]));
        let ratio = |m: &MoveModel| m.gamma(Group::Capture, 1) / m.gamma(Group::Capture, 0);
        assert!((ratio(&from_spread) - 4.0).abs() < 0.1, "{}", ratio(&from_spread));
        assert!((ratio(&from_spread) - ratio(&from_played)).abs() < 1e-9);
        let (spread_hits, spread_ll) = spread.evaluate(&from_spread);
        let (played_hits, played_ll) = played.evaluate(&from_spread);
        assert_eq!(spread_hits, 1.0, "the move with the larger share is the one chosen");
        assert!((played_hits - 0.8).abs() < 1e-9);
        assert!((spread_ll - played_ll).abs() < 1e-9, "{spread_ll} {played_ll}");
    }

    // Data drawn from known gammas: training recovers their ratios.
    #[test]
    fn training_recovers_known_strengths() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let truth = [1.0, 4.0, 0.25];
        let mut set = TrainingSet::default();
        for _ in 0..4000 {
            let candidates: Vec<Features> = (0..6)
                .map(|_| {
                    let mut f = [0u16; GROUPS.len()];
                    f[group_index(Group::Capture)] = rng.gen_range(0..3);
                    f
                })
                .collect();
            let strength = |f: &Features| truth[usize::from(f[group_index(Group::Capture)])];
            let total: f64 = candidates.iter().map(strength).sum();
            let mut pick = rng.gen::<f64>() * total;
            let chosen = candidates
                .iter()
                .position(|f| {
                    pick -= strength(f);
                    pick < 0.0
                })
                .unwrap_or(candidates.len() - 1);
            set.add(&candidates, chosen);
        }
        let model = train(&set, 30, &[]);
        // Left out, the group keeps gamma 1 for every value.
        let without = train(&set, 30, &[Group::Capture]);
        assert!((0..3).all(|v| without.gamma(Group::Capture, v) == 1.0));
        // Started from other gammas, a group left out keeps them, and a group trained still
        // finds the ratios of the data.
        let mut start = MoveModel::default();
        start.gammas[group_index(Group::Capture)][..3].copy_from_slice(&[2.0, 3.0, 5.0]);
        let kept = train_from(start.clone(), &set, 30, &[Group::Capture]);
        assert_eq!(kept.gammas[group_index(Group::Capture)][..3], [2.0, 3.0, 5.0]);
        let refitted = train_from(start, &set, 30, &[]);
        let refitted_ratio = refitted.gamma(Group::Capture, 1) / refitted.gamma(Group::Capture, 0);
        assert!((refitted_ratio - 4.0).abs() < 0.6, "{refitted_ratio}");
        let ratio = |v| model.gamma(Group::Capture, v) / model.gamma(Group::Capture, 0);
        assert!((ratio(1) - 4.0).abs() < 0.6, "{}", ratio(1));
        assert!((ratio(2) - 0.25).abs() < 0.06, "{}", ratio(2));
        // Ties count as misses, so the untrained model never picks the move played.
        assert_eq!(set.evaluate(&MoveModel::default()).0, 0.0);
        let (accuracy, log_likelihood) = set.evaluate(&model);
        assert!(accuracy > 0.1, "{accuracy}");
        assert!(log_likelihood > set.evaluate(&MoveModel::default()).1 + 0.1);
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
        for size in [9, 19] {
            let builtin = MoveModel::builtin(size);
            assert!(builtin.gamma(Group::Escape, 3) > 2.0 * builtin.gamma(Group::Escape, 0));
            assert!(builtin.gamma(Group::SelfAtari, 2) < 0.5 * builtin.gamma(Group::SelfAtari, 0));
        }
        // The diamonds count below 13x13 only.
        let diamonds = |size| MoveModel::builtin(size).gammas[group_index(Group::Diamond)].clone();
        assert!(diamonds(9).iter().any(|&g| g != 1.0));
        assert!(diamonds(12).iter().any(|&g| g != 1.0));
        assert!(diamonds(13).iter().all(|&g| g == 1.0));
    }
}
