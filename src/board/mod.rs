//! The board layer: `point` (points, moves, cells and the array sizes), `color`, `zobrist`
//! (the hash keys), `vertex` (points as `D4` text), and here the fast [`Board`]. It knows
//! nothing of rules beyond one move, of history or of search.
//!
//! The fast board: stones, chains, exact liberty counts, captures, simple ko and the hash.
//!
//! Representation. Points live on a padded one-dimensional index: a board of side `n` uses
//! rows of `n + 1` cells (one shared off-board column) plus an off-board row above and below,
//! so the four neighbours of any on-board point are `p ± 1` and `p ± stride`, and the
//! diagonals `p ± stride ± 1`, without bounds checks. Every array has room for the largest
//! board (25×25) and lives inline: the board never touches the heap, and `Clone` is a copy.
//!
//! A chain (a solidly connected group of stones) is a circular list through `next_stone`,
//! named by its head point; its stone count and its *exact* number of distinct liberties are
//! stored at the head and kept up to date move by move: a new stone takes one liberty from
//! each distinct adjacent chain, a merge counts only the liberties the absorbed chain adds,
//! and a captured stone gives one liberty to each distinct adjacent chain. Nothing is ever
//! recounted by flood fill. `check_invariants` recomputes everything from scratch for tests.
//!
//! Start reading at [`Board::try_play`] (the checked path) and [`Board::play_unchecked`]
//! (the playout path). The board knows nothing of side to move, history or superko: that is
//! `game`'s job.

pub mod color;
pub mod point;
pub mod vertex;
pub mod zobrist;

use color::Color;
use point::slot;
pub use point::{Cell, Move, Point, MAX_POINTS, MAX_SIZE, MIN_SIZE, SLOTS};
use std::fmt;

/// Why a move may not be played. The board itself can report the first four; the superko
/// variants come from `game`, which owns the position history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The point is outside the board.
    OffBoard,
    /// A stone is already there.
    Occupied,
    /// The move would leave its own chain without liberties after captures.
    Suicide,
    /// The move retakes a simple ko at once.
    Ko,
    /// The move recreates an earlier whole-board position (positional superko).
    PositionalSuperko,
    /// The move recreates an earlier position with the same player having moved into it.
    SituationalSuperko,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::OffBoard => "off board",
            IllegalMove::Occupied => "occupied",
            IllegalMove::Suicide => "suicide",
            IllegalMove::Ko => "ko",
            IllegalMove::PositionalSuperko => "positional superko",
            IllegalMove::SituationalSuperko => "situational superko",
        })
    }
}

impl std::error::Error for IllegalMove {}

/// Bit offsets of the three counters packed into `neighbor_counts`.
const COUNT_BITS: u32 = 4;
const EMPTY_SHIFT: u32 = 2 * COUNT_BITS;
const COUNT_MASK: u16 = (1 << COUNT_BITS) - 1;

#[inline]
fn count_shift(color: Color) -> u32 {
    color.index() as u32 * COUNT_BITS
}

/// Which of four neighbours' chain heads (0 for an empty or off-board point) name a chain
/// not named before them, other than the chain `skip`: each chain once, computed without
/// branches for the liberty updates of [`Board::play_unchecked`] and removals.
#[inline(always)]
fn first_of_each(heads: [u16; 4], skip: u16) -> [bool; 4] {
    let counted = heads.map(|h| (h != 0) & (h != skip));
    [
        counted[0],
        counted[1] & (heads[1] != heads[0]),
        counted[2] & (heads[2] != heads[0]) & (heads[2] != heads[1]),
        counted[3] & (heads[3] != heads[0]) & (heads[3] != heads[1]) & (heads[3] != heads[2]),
    ]
}

/// The points of `points` whose bits are set in `mask` (as from
/// [`Board::chains_with_liberties`]), in order.
#[inline]
pub fn points_in<const N: usize>(points: [Point; N], mut mask: u32) -> impl Iterator<Item = Point> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            points[i]
        })
    })
}

/// What one move did to the board, enough for the caller to keep its own bookkeeping.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MoveEffect {
    /// Opponent stones removed.
    pub captured: u16,
    /// Own stones removed by a suicide (only where the caller allowed suicide).
    pub suicided: u16,
}

/// The board position. See the module documentation for the representation.
#[derive(Clone)]
pub struct Board {
    size: u8,
    /// Distance between vertically adjacent points: `size + 1`.
    stride: u16,
    /// What each padded index holds. Off-board cells never change after `new`.
    cells: [Cell; SLOTS],
    /// For a stone: the head of its chain. Zero (an off-board index, never a head) for empty
    /// and off-board cells, so "is this neighbour in chain h" is a single comparison.
    chain_head: [u16; SLOTS],
    /// For a stone: the next stone of its chain; following it from any stone visits the whole
    /// chain once and returns to the start.
    next_stone: [u16; SLOTS],
    /// At a chain head: the number of distinct empty points adjacent to the chain. Slot 0
    /// stays 0: the branch-free updates add or subtract 0 there for empty and off-board
    /// neighbours, whose head is 0.
    liberties: [u16; SLOTS],
    /// At a chain head: the number of stones in the chain.
    chain_size: [u16; SLOTS],
    /// For each on-board point: how many of its four neighbours are black, white and empty,
    /// 4 bits each (black lowest). An off-board neighbour counts as both black and white, so
    /// "all neighbours are black or off board" is `black count == 4`.
    neighbor_counts: [u16; SLOTS],
    /// The empty on-board points, in no order; the first `empty_count` entries are valid.
    empties: [u16; SLOTS],
    /// For an empty point: its position in `empties`. Meaningless otherwise.
    empty_position: [u16; SLOTS],
    empty_count: u16,
    /// The point where the player `ko_color` may not play at once (a simple ko retake).
    ko_point: Option<Point>,
    ko_color: Color,
    /// Stones captured so far by black and by white (prisoners, for territory scoring).
    prisoners: [u32; 2],
    /// Zobrist hash of the size and the stones: equal positions have equal hashes.
    hash: u64,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_diagram())
    }
}

impl PartialEq for Board {
    /// Boards are equal when they hold the same stones, the same ko and the same prisoners.
    /// The internal layout of chains (which stone is head, list order) may differ.
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size
            && self.hash == other.hash
            && self.ko_point == other.ko_point
            && (self.ko_point.is_none() || self.ko_color == other.ko_color)
            && self.prisoners == other.prisoners
            && self.points().all(|p| self.cells[p.index()] == other.cells[p.index()])
    }
}

impl Board {
    /// An empty board of side `size`.
    ///
    /// # Panics
    /// If `size` is outside `MIN_SIZE..=MAX_SIZE`; callers taking sizes from users check with
    /// [`Board::is_valid_size`] first.
    pub fn new(size: usize) -> Board {
        assert!(Board::is_valid_size(size), "board size {size} unsupported");
        let stride = size + 1;
        let mut board = Board {
            size: size as u8,
            stride: stride as u16,
            cells: [Cell::OffBoard; SLOTS],
            chain_head: [0; SLOTS],
            next_stone: [0; SLOTS],
            liberties: [0; SLOTS],
            chain_size: [0; SLOTS],
            neighbor_counts: [0; SLOTS],
            empties: [0; SLOTS],
            empty_position: [0; SLOTS],
            empty_count: 0,
            ko_point: None,
            ko_color: Color::Black,
            prisoners: [0; 2],
            hash: zobrist::empty_board_key(size),
        };
        for y in 0..size {
            for x in 0..size {
                let p = board.point(x, y).index();
                board.cells[p] = Cell::Empty;
                board.empty_position[p] = board.empty_count;
                board.empties[slot(board.empty_count)] = p as u16;
                board.empty_count += 1;
            }
        }
        let points: Vec<Point> = board.points().collect();
        for p in points {
            let mut counts = 0u16;
            for n in board.neighbors(p) {
                counts += match board.cells[n.index()] {
                    Cell::Empty => 1 << EMPTY_SHIFT,
                    _ => (1 << count_shift(Color::Black)) | (1 << count_shift(Color::White)),
                };
            }
            board.neighbor_counts[p.index()] = counts;
        }
        board
    }

    /// Makes `self` a copy of `source` by copying only the slots a board of that size uses:
    /// far cheaper than `clone_from` on small boards, which is what playouts start with.
    pub fn copy_from(&mut self, source: &Board) {
        let used = (source.size() + 2) * (source.size() + 1) + 1;
        if self.size != source.size {
            // Slots past `used` keep what they held, which on a board of another size
            // includes on-board cells: restore the off-board ring there.
            self.cells[used..].fill(Cell::OffBoard);
        }
        self.size = source.size;
        self.stride = source.stride;
        self.cells[..used].copy_from_slice(&source.cells[..used]);
        self.chain_head[..used].copy_from_slice(&source.chain_head[..used]);
        self.next_stone[..used].copy_from_slice(&source.next_stone[..used]);
        self.liberties[..used].copy_from_slice(&source.liberties[..used]);
        self.chain_size[..used].copy_from_slice(&source.chain_size[..used]);
        self.neighbor_counts[..used].copy_from_slice(&source.neighbor_counts[..used]);
        self.empty_position[..used].copy_from_slice(&source.empty_position[..used]);
        let empties = source.empty_count as usize;
        self.empties[..empties].copy_from_slice(&source.empties[..empties]);
        self.empty_count = source.empty_count;
        self.ko_point = source.ko_point;
        self.ko_color = source.ko_color;
        self.prisoners = source.prisoners;
        self.hash = source.hash;
    }

    /// Whether `size` is a board side this board supports.
    pub fn is_valid_size(size: usize) -> bool {
        (MIN_SIZE..=MAX_SIZE).contains(&size)
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// The point at column `x` (0 = left) and row `y` (0 = top).
    ///
    /// # Panics
    /// In debug builds, if the coordinates are off the board.
    #[inline]
    pub fn point(&self, x: usize, y: usize) -> Point {
        debug_assert!(x < self.size() && y < self.size());
        Point(((y + 1) * self.stride as usize + x + 1) as u16)
    }

    /// The point at column `x` and row `y` (0 = top), or `None` off the board.
    pub fn checked_point(&self, x: usize, y: usize) -> Option<Point> {
        (x < self.size() && y < self.size()).then(|| self.point(x, y))
    }

    /// Column (0 = left) and row (0 = top) of an on-board point.
    #[inline]
    pub fn coordinates(&self, p: Point) -> (usize, usize) {
        let stride = self.stride as usize;
        (p.index() % stride - 1, p.index() / stride - 1)
    }

    /// The line of the on-board point `p`, counted from the nearest edge: 0 on the first
    /// line.
    pub fn line(&self, p: Point) -> usize {
        let (x, y) = self.coordinates(p);
        let last = self.size() - 1;
        x.min(y).min(last - x).min(last - y)
    }

    /// Whether `p` is a point of this board (and not the padding ring).
    #[inline]
    pub fn is_on_board(&self, p: Point) -> bool {
        (p.0 as usize) < MAX_POINTS && self.cells[p.index()] != Cell::OffBoard
    }

    /// All on-board points, row by row from the top-left corner.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        let n = self.size();
        (0..n).flat_map(move |y| (0..n).map(move |x| self.point(x, y)))
    }

    /// The four orthogonal neighbours, off-board ones included. `p` may itself be off board
    /// (the branch-free scans ask for a neighbour's neighbours): the arithmetic wraps, and
    /// [`Point::index`] masks the result into the arrays.
    #[inline]
    pub fn neighbors(&self, p: Point) -> [Point; 4] {
        let s = self.stride;
        [
            Point(p.0.wrapping_sub(s)),
            Point(p.0.wrapping_sub(1)),
            Point(p.0.wrapping_add(1)),
            Point(p.0.wrapping_add(s)),
        ]
    }

    /// The eight points around `p`: the four neighbours, then the four diagonals.
    #[inline]
    pub fn around(&self, p: Point) -> [Point; 8] {
        let [a, b, c, d] = self.neighbors(p);
        let [e, f, g, h] = self.diagonals(p);
        [a, b, c, d, e, f, g, h]
    }

    /// The four diagonal neighbours, off-board ones included.
    #[inline]
    pub fn diagonals(&self, p: Point) -> [Point; 4] {
        let s = self.stride;
        [Point(p.0 - s - 1), Point(p.0 - s + 1), Point(p.0 + s - 1), Point(p.0 + s + 1)]
    }

    #[inline]
    pub fn cell(&self, p: Point) -> Cell {
        self.cells[p.index()]
    }

    /// The colour of the stone on `p`, if any.
    #[inline]
    pub fn stone(&self, p: Point) -> Option<Color> {
        self.cells[p.index()].color()
    }

    /// The head point naming the chain of the stone on `p`.
    #[inline]
    pub fn chain_id(&self, p: Point) -> Point {
        debug_assert!(self.stone(p).is_some());
        Point(self.chain_head[p.index()])
    }

    /// Exact liberty count of the chain of the stone on `p`.
    #[inline]
    pub fn chain_liberties(&self, p: Point) -> usize {
        debug_assert!(self.stone(p).is_some());
        self.liberties[slot(self.chain_head[p.index()])] as usize
    }

    /// Stone count of the chain of the stone on `p`.
    #[inline]
    pub fn chain_len(&self, p: Point) -> usize {
        debug_assert!(self.stone(p).is_some());
        self.chain_size[slot(self.chain_head[p.index()])] as usize
    }

    /// A liberty of the chain through the stone on `p` (the only one, for a chain in atari),
    /// found by walking the chain.
    pub fn some_liberty(&self, p: Point) -> Option<Point> {
        self.chain_stones(p).find_map(|s| {
            self.neighbors(s).into_iter().find(|n| self.cells[n.index()] == Cell::Empty)
        })
    }

    /// The stones of the chain through `p`.
    pub fn chain_stones(&self, p: Point) -> ChainStones<'_> {
        ChainStones { board: self, start: p.0, current: Some(p.0) }
    }

    /// The empty points, in no particular order.
    #[inline]
    pub fn empty_points(&self) -> &[u16] {
        &self.empties[..self.empty_count as usize]
    }

    /// Stones removed so far by `color`'s captures (prisoners held by `color`).
    pub fn prisoners(&self, color: Color) -> u32 {
        self.prisoners[color.index()]
    }

    /// The simple-ko point and the player who may not retake there now, if any.
    pub fn ko(&self) -> Option<(Point, Color)> {
        self.ko_point.map(|p| (p, self.ko_color))
    }

    /// Forgets the ko: after a pass, or any other move, the ban lapses.
    #[inline]
    pub fn clear_ko(&mut self) {
        self.ko_point = None;
    }

    /// Zobrist hash of size and stones.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    fn count_of(&self, p: Point, shift: u32) -> u16 {
        (self.neighbor_counts[p.index()] >> shift) & COUNT_MASK
    }

    /// Whether any neighbour of `p` holds a stone. From the packed counts alone: off-board
    /// neighbours count in both the black and the white field, so the stone neighbours are
    /// `(black + white) - 2 × off-board`, where off-board is `(black + white) - (4 - empty)`.
    #[inline]
    fn has_stone_neighbor(&self, p: Point) -> bool {
        let black = self.count_of(p, count_shift(Color::Black));
        let white = self.count_of(p, count_shift(Color::White));
        let not_empty = 4 - self.count_of(p, EMPTY_SHIFT);
        2 * not_empty != black + white
    }

    /// A bit for each of `points` (bit `i` for `points[i]`) holding a `color` stone whose
    /// chain has exactly `liberties` liberties. Without branches: playout policies ask this
    /// of a move's neighbours, where the answers are as good as random to the branch
    /// predictor. Iterate the points with [`points_in`].
    #[inline(always)]
    pub fn chains_with_liberties<const N: usize>(
        &self,
        points: [Point; N],
        color: Color,
        liberties: u16,
    ) -> u32 {
        let stone = Cell::stone(color);
        points.iter().enumerate().fold(0, |mask, (i, q)| {
            let libs = self.liberties[slot(self.chain_head[q.index()])];
            let hit = (self.cells[q.index()] == stone) & (libs == liberties);
            mask | (hit as u32) << i
        })
    }

    /// How many of `p`'s neighbours are empty.
    #[inline]
    pub fn empty_neighbor_count(&self, p: Point) -> usize {
        self.count_of(p, EMPTY_SHIFT) as usize
    }

    /// Whether every neighbour of `p` is a `color` stone or off board: an eye-like point, not
    /// necessarily a real eye.
    #[inline]
    pub fn is_eyeish(&self, p: Point, color: Color) -> bool {
        self.count_of(p, count_shift(color)) == 4
    }

    /// The classic single-point true-eye test used by playouts: `p` is empty, all neighbours
    /// are `color` or off board, and the opponent holds at most one diagonal in the centre
    /// (none on the edge or in the corner). It errs towards "not an eye" only in positions
    /// whose diagonals are themselves eyes (two-headed dragons), which playouts may fill.
    #[inline]
    pub fn is_true_eye(&self, p: Point, color: Color) -> bool {
        if self.cells[p.index()] != Cell::Empty || !self.is_eyeish(p, color) {
            return false;
        }
        self.diagonals_allow_eye(p, color)
    }

    /// The diagonal half of the true-eye test: fewer than two enemy diagonals in the centre,
    /// none on the edge. Counted without branches: which diagonals hold what is as good as
    /// random in a playout.
    #[inline(always)]
    fn diagonals_allow_eye(&self, p: Point, color: Color) -> bool {
        let enemy = Cell::stone(color.opponent());
        let cells = self.diagonals(p).map(|d| self.cells[d.index()]);
        let enemy_diagonals: u32 = cells.iter().map(|&c| (c == enemy) as u32).sum();
        let off_board = cells.iter().fold(false, |any, &c| any | (c == Cell::OffBoard));
        enemy_diagonals + (off_board as u32) < 2
    }

    /// Whether `color` may play on `p` under the simple-ko, no-suicide rules, without
    /// changing the board. Cheap: it reads neighbour counts and adjacent chains only.
    pub fn check_move(&self, p: Point, color: Color) -> Result<(), IllegalMove> {
        if !self.is_on_board(p) {
            return Err(IllegalMove::OffBoard);
        }
        if self.cells[p.index()] != Cell::Empty {
            return Err(IllegalMove::Occupied);
        }
        if self.ko_point == Some(p) && self.ko_color == color {
            return Err(IllegalMove::Ko);
        }
        self.check_placement(p, color)
    }

    /// Like [`Board::check_move`] but blind to the simple-ko ban, for callers that judge
    /// repetitions themselves (superko).
    ///
    /// # Errors
    /// `OffBoard`, `Occupied` or `Suicide`.
    pub fn check_placement(&self, p: Point, color: Color) -> Result<(), IllegalMove> {
        if !self.is_on_board(p) {
            return Err(IllegalMove::OffBoard);
        }
        if self.cells[p.index()] != Cell::Empty {
            return Err(IllegalMove::Occupied);
        }
        if self.has_liberty_after(p, color) {
            Ok(())
        } else {
            Err(IllegalMove::Suicide)
        }
    }

    /// Whether a `color` stone on the empty point `p` would have a liberty once captures are
    /// made: an empty neighbour, a friendly chain with a liberty to spare, or a capture.
    #[inline(always)]
    fn has_liberty_after(&self, p: Point, color: Color) -> bool {
        if self.empty_neighbor_count(p) > 0 {
            return true;
        }
        // No neighbour is empty: each is a stone or off board. Without branches, as the
        // other neighbour scans here.
        let own = Cell::stone(color);
        self.neighbors(p).iter().fold(false, |found, n| {
            let cell = self.cells[n.index()];
            let libs = self.liberties[slot(self.chain_head[n.index()])];
            found | ((cell != Cell::OffBoard) & ((cell == own) == (libs > 1)))
        })
    }

    /// Whether `p` is empty and playable for `color` (no suicide, no simple-ko retake).
    #[inline]
    pub fn is_legal(&self, p: Point, color: Color) -> bool {
        self.cells[p.index()] == Cell::Empty
            && !(self.ko_point == Some(p) && self.ko_color == color)
            && self.has_liberty_after(p, color)
    }

    /// Plays a `color` stone on `p` after checking it under simple ko with suicide forbidden.
    ///
    /// # Errors
    /// `OffBoard`, `Occupied`, `Ko` or `Suicide`; the board is unchanged then.
    pub fn try_play(&mut self, p: Point, color: Color) -> Result<MoveEffect, IllegalMove> {
        self.check_move(p, color)?;
        Ok(self.play_unchecked(p, color))
    }

    /// Plays a `color` stone on `p` where suicide is allowed: a stone whose own chain has no
    /// liberty after captures removes that whole chain (Tromp–Taylor, New Zealand).
    ///
    /// # Errors
    /// `OffBoard`, `Occupied` or `Ko`; the board is unchanged then.
    pub fn try_play_allowing_suicide(
        &mut self,
        p: Point,
        color: Color,
    ) -> Result<MoveEffect, IllegalMove> {
        match self.check_move(p, color) {
            Ok(()) | Err(IllegalMove::Suicide) => {}
            Err(e) => return Err(e),
        }
        let mut effect = self.play_unchecked(p, color);
        let head = Point(self.chain_head[p.index()]);
        if self.liberties[head.index()] == 0 {
            effect.suicided = self.remove_chain(head);
            self.prisoners[color.opponent().index()] += effect.suicided as u32;
            self.ko_point = None;
        }
        Ok(effect)
    }

    /// Plays a `color` stone on `p`, which the caller knows to be legal (empty, not a ko
    /// retake; a suicide leaves a chain without liberties, which only
    /// [`Board::try_play_allowing_suicide`] cleans up). This is the playout path.
    pub fn play_unchecked(&mut self, p: Point, color: Color) -> MoveEffect {
        debug_assert_eq!(self.cells[p.index()], Cell::Empty);
        let enemy = Cell::stone(color.opponent());
        self.ko_point = None;
        let lonely = !self.has_stone_neighbor(p);
        self.place_stone(p, color);
        if lonely {
            return MoveEffect::default();
        }

        // The new stone takes liberty `p` from every distinct adjacent chain. Done without
        // branches on the neighbours: which of them are stones, and which chains repeat, is
        // a coin toss for the branch predictor in a random playout, and its misses cost more
        // than the few instructions spent here. An empty or off-board neighbour has head 0
        // and, like a repeated head, subtracts nothing (slot 0 is off board, never a head).
        let neighbors = self.neighbors(p);
        let heads = neighbors.map(|n| self.chain_head[n.index()]);
        let first = first_of_each(heads, 0);
        for i in 0..4 {
            self.liberties[slot(heads[i])] -= first[i] as u16;
        }
        let own = Cell::stone(color);
        let mut friends = [0u16; 4];
        let mut friend_count = 0;
        let mut captures = 0u32;
        for i in 0..4 {
            let cell = self.cells[neighbors[i].index()];
            friends[friend_count & 3] = heads[i];
            friend_count += (first[i] & (cell == own)) as usize;
            let dead = first[i] & (cell == enemy) & (self.liberties[slot(heads[i])] == 0);
            captures |= (dead as u32) << i;
        }
        // Two opponent chains never touch each other, so removing one cannot change
        // whether another is captured.
        let mut captured = 0u16;
        let mut captured_at = p;
        if captures != 0 {
            for i in 0..4 {
                if captures & (1 << i) != 0 {
                    captured += self.remove_chain(Point(heads[i]));
                    captured_at = neighbors[i];
                }
            }
            self.prisoners[color.index()] += captured as u32;
        }

        // Join the friendly chains into one, the largest absorbing the rest. Captures only
        // removed enemy chains, so the friendly heads gathered above are still heads.
        for &head in &friends[..friend_count] {
            self.merge_chains(p, Point(head));
        }

        let head = slot(self.chain_head[p.index()]);
        if captured == 1 && self.chain_size[head] == 1 && self.liberties[head] == 1 {
            self.ko_point = Some(captured_at);
            self.ko_color = color.opponent();
        }
        MoveEffect { captured, suicided: 0 }
    }

    /// The hash the board would have after `color` plays the legal, non-suicidal move `p`,
    /// without playing it: the search and the superko test use it to look ahead cheaply.
    pub fn hash_after(&self, p: Point, color: Color) -> u64 {
        let mut hash = self.hash ^ zobrist::stone_key(color, p.index());
        let enemy = Cell::stone(color.opponent());
        let mut seen = [0u16; 4];
        let mut seen_count = 0;
        for n in self.neighbors(p) {
            if self.cells[n.index()] != enemy {
                continue;
            }
            let head = self.chain_head[n.index()];
            if self.liberties[slot(head)] != 1 || seen[..seen_count].contains(&head) {
                continue;
            }
            seen[seen_count] = head;
            seen_count += 1;
            for s in self.chain_stones(n) {
                hash ^= zobrist::stone_key(color.opponent(), s.index());
            }
        }
        hash
    }

    /// Puts a lone `color` stone on the empty point `p`: cell, one-stone chain with its empty
    /// neighbours as liberties, empty list, neighbour counts and hash. Adjacent chains are
    /// the caller's business.
    #[inline(always)]
    fn place_stone(&mut self, p: Point, color: Color) {
        let i = p.index();
        self.remove_from_empties(p);
        self.cells[i] = Cell::stone(color);
        self.chain_head[i] = p.0;
        self.next_stone[i] = p.0;
        self.chain_size[i] = 1;
        self.liberties[i] = self.empty_neighbor_count(p) as u16;
        self.hash ^= zobrist::stone_key(color, i);
        let delta = (1u16 << count_shift(color)).wrapping_sub(1 << EMPTY_SHIFT);
        for n in self.neighbors(p) {
            self.neighbor_counts[n.index()] = self.neighbor_counts[n.index()].wrapping_add(delta);
        }
    }

    #[inline]
    fn remove_from_empties(&mut self, p: Point) {
        let position = self.empty_position[p.index()];
        self.empty_count -= 1;
        let last = self.empties[slot(self.empty_count)];
        self.empties[slot(position)] = last;
        self.empty_position[slot(last)] = position;
    }

    #[inline]
    fn add_to_empties(&mut self, p: Point) {
        self.empty_position[p.index()] = self.empty_count;
        self.empties[slot(self.empty_count)] = p.0;
        self.empty_count += 1;
    }

    /// Merges the chains of the friendly stones `a` and `b`. The smaller chain's stones are
    /// re-headed one at a time; an empty neighbour of one of them is a new liberty unless it
    /// already touches a stone carrying the big chain's head, which covers both the big
    /// chain's own liberties and those already counted for earlier re-headed stones.
    fn merge_chains(&mut self, a: Point, b: Point) {
        let mut big = self.chain_head[a.index()];
        let mut small = self.chain_head[b.index()];
        if self.chain_size[slot(big)] < self.chain_size[slot(small)] {
            std::mem::swap(&mut big, &mut small);
        }
        let mut stone = small;
        loop {
            // Without branches, as in `play_unchecked`: the test runs on every neighbour,
            // empty or not, off-board ones included.
            let mut gained = 0;
            for n in self.neighbors(Point(stone)) {
                let empty = self.cells[n.index()] == Cell::Empty;
                let already = self
                    .neighbors(n)
                    .iter()
                    .fold(false, |any, m| any | (self.chain_head[m.index()] == big));
                gained += (empty & !already) as u16;
            }
            self.liberties[slot(big)] += gained;
            self.chain_head[slot(stone)] = big;
            stone = self.next_stone[slot(stone)];
            if stone == small {
                break;
            }
        }
        self.chain_size[slot(big)] += self.chain_size[slot(small)];
        self.next_stone.swap(big as usize, small as usize);
    }

    /// Removes the whole chain headed by `head`, giving each freed point as a liberty to every
    /// distinct chain around it. Returns the number of stones removed.
    fn remove_chain(&mut self, head: Point) -> u16 {
        let color = self.stone(head).expect("removing a chain needs a stone");
        let delta = (1u16 << EMPTY_SHIFT).wrapping_sub(1 << count_shift(color));
        let mut removed = 0;
        let mut stone = head.0;
        loop {
            let next = self.next_stone[slot(stone)];
            let p = Point(stone);
            self.cells[p.index()] = Cell::Empty;
            self.chain_head[p.index()] = 0;
            self.hash ^= zobrist::stone_key(color, p.index());
            self.add_to_empties(p);
            let neighbors = self.neighbors(p);
            let heads = neighbors.map(|n| self.chain_head[n.index()]);
            let first = first_of_each(heads, head.0);
            for i in 0..4 {
                let n = neighbors[i].index();
                self.neighbor_counts[n] = self.neighbor_counts[n].wrapping_add(delta);
                self.liberties[slot(heads[i])] += first[i] as u16;
            }
            removed += 1;
            stone = next;
            if stone == head.0 {
                break;
            }
        }
        removed
    }

    /// Puts a stone on an empty point as a setup (handicap, SGF `AB`/`AW`) rather than as a
    /// move: captures still happen so the position stays a legal one, no ko is created, and
    /// no prisoners are counted.
    ///
    /// # Errors
    /// `OffBoard` or `Occupied`, or `Suicide` if the stone would have no liberty.
    pub fn set_stone(&mut self, p: Point, color: Color) -> Result<(), IllegalMove> {
        match self.check_move(p, color) {
            Ok(()) | Err(IllegalMove::Ko) => {}
            Err(e) => return Err(e),
        }
        let prisoners = self.prisoners;
        self.play_unchecked(p, color);
        self.prisoners = prisoners;
        self.ko_point = None;
        Ok(())
    }

    /// Empties the point `p` as a setup (SGF `AE`), keeping chains and liberties exact.
    /// Rebuilds the board from its stones: setup is rare and must never be subtly wrong.
    pub fn clear_point(&mut self, p: Point) {
        if self.stone(p).is_none() {
            return;
        }
        let mut rebuilt = Board::new(self.size());
        rebuilt.prisoners = self.prisoners;
        for q in self.points() {
            if let (Some(color), true) = (self.stone(q), q != p) {
                // Each remaining stone had a liberty in a legal position or gains one here.
                rebuilt.play_unchecked(q, color);
            }
        }
        rebuilt.ko_point = None;
        rebuilt.prisoners = self.prisoners;
        *self = rebuilt;
    }

    /// Plays a uniform light playout starting with `to_move` until both players pass or
    /// `max_moves` moves are made: each side plays a random legal move that does not fill its
    /// own true eye, and passes when it has none. Simple ko only. Returns the number of moves
    /// (passes excluded).
    pub fn playout<R: rand::Rng + ?Sized>(
        &mut self,
        to_move: Color,
        max_moves: usize,
        rng: &mut R,
    ) -> usize {
        self.playout_recording(to_move, max_moves, rng, |_, _| {})
    }

    /// [`Board::playout`], calling `on_move(point, colour)` for every stone played: the
    /// search records which player reached each point first (all-moves-as-first).
    #[inline]
    pub fn playout_recording<R: rand::Rng + ?Sized>(
        &mut self,
        to_move: Color,
        max_moves: usize,
        rng: &mut R,
        on_move: impl FnMut(Point, Color),
    ) -> usize {
        self.playout_with(to_move, max_moves, |board, color| board.random_move(color, rng), on_move)
    }

    /// The playout loop with the move choice left to `choose` (a playout policy): plays its
    /// moves, passes when it has none, stops after two passes in a row or `max_moves` stones.
    #[inline]
    pub fn playout_with(
        &mut self,
        mut to_move: Color,
        max_moves: usize,
        mut choose: impl FnMut(&Board, Color) -> Option<Point>,
        mut on_move: impl FnMut(Point, Color),
    ) -> usize {
        let mut passes = 0;
        let mut moves = 0;
        while passes < 2 && moves < max_moves {
            match choose(self, to_move) {
                Some(p) => {
                    self.play_unchecked(p, to_move);
                    on_move(p, to_move);
                    passes = 0;
                    moves += 1;
                }
                None => {
                    self.ko_point = None;
                    passes += 1;
                }
            }
            to_move = to_move.opponent();
        }
        moves
    }

    /// A uniformly chosen legal move for `color` that does not fill one of its true eyes, or
    /// `None` when there is none. Scans the empty list from a random start, so the choice is
    /// uniform over runs of acceptable points, the usual trade of exactness for speed.
    #[inline]
    pub fn random_move<R: rand::Rng + ?Sized>(&self, color: Color, rng: &mut R) -> Option<Point> {
        self.random_move_where(color, rng, |_, _| true)
    }

    /// [`Board::random_move`] restricted to the points `also` accepts (a playout policy's
    /// extra condition), tested only on points that are already acceptable.
    #[inline]
    pub fn random_move_where<R: rand::Rng + ?Sized>(
        &self,
        color: Color,
        rng: &mut R,
        also: impl Fn(&Board, Point) -> bool,
    ) -> Option<Point> {
        let count = self.empty_count as usize;
        if count == 0 {
            return None;
        }
        let start = ((rng.next_u32() as u64 * count as u64) >> 32) as usize;
        let mut i = start;
        loop {
            let p = Point(self.empties[slot(i as u16)]);
            if self.is_acceptable_playout_move(p, color) && also(self, p) {
                return Some(p);
            }
            i += 1;
            if i == count {
                i = 0;
            }
            if i == start {
                return None;
            }
        }
    }

    /// If a `color` stone on the empty point `p` would leave its chain with exactly one
    /// liberty after captures (self-atari), the number of stones in that chain; `None`
    /// otherwise. The cheap exits come first; the liberties are counted by
    /// [`Board::liberties_after`], only until a second one is found.
    pub fn self_atari_size(&self, p: Point, color: Color) -> Option<usize> {
        if self.empty_neighbor_count(p) >= 2 {
            return None;
        }
        let own = Cell::stone(color);
        let mut stones = 1;
        let mut chains = [0u16; 4];
        let mut chain_count = 0;
        for n in self.neighbors(p) {
            let cell = self.cells[n.index()];
            if cell == Cell::Empty || cell == Cell::OffBoard {
                continue;
            }
            if cell != own {
                // A capture frees at least the captured points: too many to count cheaply
                // here, and a capturing move is never treated as self-atari.
                if self.chain_liberties(n) == 1 {
                    return None;
                }
                continue;
            }
            let head = self.chain_head[n.index()];
            if chains[..chain_count].contains(&head) {
                continue;
            }
            chains[chain_count] = head;
            chain_count += 1;
            stones += self.chain_len(n);
            if self.chain_liberties(n) >= 3 {
                return None;
            }
        }
        (self.liberties_after(p, color, 2) == 1).then_some(stones)
    }

    /// The liberties the chain of a `color` stone on the empty point `p` would have, counted
    /// up to `limit`: `p`'s empty neighbours, those of the own chains it joins, and the
    /// points of opponent stones next to `p` that it captures. Captured stones that touch
    /// only the joined chains are not counted, so the figure may fall short, never over.
    /// `limit` is at most 8.
    pub fn liberties_after(&self, p: Point, color: Color, limit: usize) -> usize {
        let mut liberties = [Point(0); 8];
        let limit = limit.min(liberties.len());
        // `p`'s own empty neighbours are distinct liberties: often enough on their own.
        if self.empty_neighbor_count(p) >= limit {
            return limit;
        }
        let mut found = 0;
        let mut add = |q: Point, found: &mut usize| {
            if q != p && !liberties[..*found].contains(&q) {
                liberties[*found] = q;
                *found += 1;
            }
            *found >= limit
        };
        let own = Cell::stone(color);
        let mut chains = [0u16; 4];
        let mut chain_count = 0;
        for n in self.neighbors(p) {
            let cell = self.cells[n.index()];
            if cell == Cell::Empty {
                if add(n, &mut found) {
                    return found;
                }
            } else if cell == Cell::OffBoard {
                continue;
            } else if cell != own {
                if self.chain_liberties(n) == 1 && add(n, &mut found) {
                    return found;
                }
            } else {
                let head = self.chain_head[n.index()];
                if chains[..chain_count].contains(&head) {
                    continue;
                }
                chains[chain_count] = head;
                chain_count += 1;
                // The chain's liberties other than `p` are all liberties after the move, and
                // their number is known: enough of them ends the count at once, and the walk
                // over the chain's stones stops when it has seen them all.
                let others = self.liberties[slot(head)] as usize - 1;
                if others >= limit {
                    return limit;
                }
                if others == 0 {
                    continue;
                }
                let mut own = [Point(0); 8];
                let mut own_count = 0;
                'walk: for s in self.chain_stones(n) {
                    for q in self.neighbors(s) {
                        if q == p
                            || self.cells[q.index()] != Cell::Empty
                            || own[..own_count].contains(&q)
                        {
                            continue;
                        }
                        own[own_count] = q;
                        own_count += 1;
                        if add(q, &mut found) {
                            return found;
                        }
                        if own_count == others {
                            break 'walk;
                        }
                    }
                }
            }
        }
        found
    }

    /// Whether a playout may play `color` on the empty point `p`: legal (simple ko, no
    /// suicide) and not filling one of its own true eyes. Ordered for the common cases.
    #[inline(always)]
    pub fn is_acceptable_playout_move(&self, p: Point, color: Color) -> bool {
        if self.empty_neighbor_count(p) > 0 {
            // Neither an eye nor suicide; a ko point never has an empty neighbour.
            return true;
        }
        if self.is_eyeish(p, color) && self.diagonals_allow_eye(p, color) {
            return false;
        }
        !(self.ko_point == Some(p) && self.ko_color == color) && self.has_liberty_after(p, color)
    }

    /// Area score from black's side, without komi, for a finished playout: stones plus empty
    /// points whose neighbours all belong to one colour. Larger empty regions, which finished
    /// playouts almost never leave, count for nobody; `score` has the exact count.
    pub fn playout_score(&self) -> i32 {
        let mut score = 0i32;
        let stride = self.stride as usize;
        for row in 1..=self.size() {
            for i in row * stride + 1..row * stride + 1 + self.size() {
                score += self.playout_owner(Point(i as u16));
            }
        }
        score
    }

    /// Who holds `p` at the end of a playout, +1 black, -1 white, 0 nobody: a stone, or an
    /// empty point whose neighbours all belong to one colour.
    #[inline]
    pub fn playout_owner(&self, p: Point) -> i32 {
        match self.cells[p.index()] {
            Cell::Black => 1,
            Cell::White => -1,
            _ if self.is_eyeish(p, Color::Black) => 1,
            _ if self.is_eyeish(p, Color::White) => -1,
            _ => 0,
        }
    }

    /// Parses a diagram: one row per line from the top, `X`/`x`/`B`/`#` black, `O`/`o`/`W`/`@`
    /// white, `.`, `+`, `,` or `-` empty; spaces are ignored, as are lines that are empty or
    /// start with a column label. Stones are placed as setup, so captures in the diagram are
    /// made and the result is always a legal position.
    ///
    /// # Errors
    /// A message when the rows are not square, the size is unsupported, or a character is
    /// unknown.
    pub fn from_diagram(text: &str) -> Result<Board, String> {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|line| line.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|row: &Vec<char>| !row.is_empty())
            .collect();
        let size = rows.len();
        if !Board::is_valid_size(size) {
            return Err(format!("diagram has {size} rows; sizes 2..=25 are supported"));
        }
        let mut board = Board::new(size);
        for (y, row) in rows.iter().enumerate() {
            if row.len() != size {
                return Err(format!("row {} has {} points, expected {size}", y + 1, row.len()));
            }
            for (x, &c) in row.iter().enumerate() {
                let color = match c {
                    'X' | 'x' | 'B' | '#' => Some(Color::Black),
                    'O' | 'o' | 'W' | '@' => Some(Color::White),
                    '.' | '+' | ',' | '-' => None,
                    other => return Err(format!("unknown character {other:?} in the diagram")),
                };
                if let Some(color) = color {
                    board
                        .set_stone(board.point(x, y), color)
                        .map_err(|e| format!("stone at column {x}, row {y}: {e}"))?;
                }
            }
        }
        Ok(board)
    }

    /// The board as a diagram in the format `from_diagram` reads: `X` black, `O` white, `.`
    /// empty, one row per line, no labels.
    pub fn to_diagram(&self) -> String {
        let mut out = String::with_capacity(self.size() * (self.size() + 1));
        for y in 0..self.size() {
            for x in 0..self.size() {
                out.push(match self.cells[self.point(x, y).index()] {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    _ => '.',
                });
            }
            out.push('\n');
        }
        out
    }

    /// Recomputes chains, liberties, neighbour counts, the empty list and the hash from the
    /// stones alone and compares them with the incremental state.
    ///
    /// # Errors
    /// A description of the first mismatch.
    pub fn check_invariants(&self) -> Result<(), String> {
        if self.liberties[0] != 0 {
            return Err("the liberty count in slot 0, never a head, was changed".into());
        }
        let mut hash = zobrist::empty_board_key(self.size());
        let mut empty_seen = 0;
        let mut chain_checked = [false; SLOTS];
        for p in self.points() {
            let i = p.index();
            let mut counts = 0u16;
            for n in self.neighbors(p) {
                counts += match self.cells[n.index()] {
                    Cell::Empty => 1 << EMPTY_SHIFT,
                    Cell::OffBoard => {
                        (1 << count_shift(Color::Black)) | (1 << count_shift(Color::White))
                    }
                    Cell::Black => 1 << count_shift(Color::Black),
                    Cell::White => 1 << count_shift(Color::White),
                };
            }
            if counts != self.neighbor_counts[i] {
                return Err(format!("neighbour counts wrong at {p:?}"));
            }
            match self.cells[i] {
                Cell::Empty => {
                    empty_seen += 1;
                    let position = self.empty_position[i] as usize;
                    if position >= self.empty_count as usize || self.empties[position] != p.0 {
                        return Err(format!("empty list misses {p:?}"));
                    }
                    if self.chain_head[i] != 0 {
                        return Err(format!("empty point {p:?} names a chain"));
                    }
                }
                Cell::Black | Cell::White => {
                    let color = self.stone(p).unwrap();
                    hash ^= zobrist::stone_key(color, i);
                    if !chain_checked[i] {
                        for s in self.check_chain_of(p)? {
                            chain_checked[s.index()] = true;
                        }
                    }
                }
                Cell::OffBoard => return Err(format!("{p:?} is on the board but off-board")),
            }
        }
        if empty_seen != self.empty_count as usize {
            return Err("empty count wrong".into());
        }
        if hash != self.hash {
            return Err("hash differs from a recomputed one".into());
        }
        Ok(())
    }

    /// Flood-fills the chain of the stone on `p`, compares head, stone list, size and
    /// liberties with the incremental state, and returns the chain's stones.
    fn check_chain_of(&self, p: Point) -> Result<Vec<Point>, String> {
        let color = self.cells[p.index()];
        let head = self.chain_head[p.index()];
        let mut in_chain = [false; SLOTS];
        let mut is_liberty = [false; SLOTS];
        let mut stones = vec![p];
        in_chain[p.index()] = true;
        let mut liberties = 0;
        let mut next = 0;
        while next < stones.len() {
            let q = stones[next];
            next += 1;
            for n in self.neighbors(q) {
                match self.cells[n.index()] {
                    c if c == color && !in_chain[n.index()] => {
                        in_chain[n.index()] = true;
                        stones.push(n);
                    }
                    Cell::Empty if !is_liberty[n.index()] => {
                        is_liberty[n.index()] = true;
                        liberties += 1;
                    }
                    _ => {}
                }
            }
        }
        if stones.iter().any(|s| self.chain_head[s.index()] != head) {
            return Err(format!("chain of {p:?} has several heads"));
        }
        let listed: Vec<Point> = self.chain_stones(p).take(MAX_POINTS + 1).collect();
        if listed.len() != stones.len() || listed.iter().any(|s| !in_chain[s.index()]) {
            return Err(format!("stone list of the chain of {p:?} is wrong"));
        }
        if self.chain_size[slot(head)] as usize != stones.len() {
            return Err(format!("chain size wrong at {p:?}"));
        }
        if self.liberties[slot(head)] as usize != liberties {
            return Err(format!(
                "chain of {p:?} has {liberties} liberties, recorded {}",
                self.liberties[slot(head)]
            ));
        }
        Ok(stones)
    }
}

/// Iterator over the stones of one chain, following the circular list.
pub struct ChainStones<'a> {
    board: &'a Board,
    start: u16,
    current: Option<u16>,
}

impl Iterator for ChainStones<'_> {
    type Item = Point;

    fn next(&mut self) -> Option<Point> {
        let here = self.current?;
        let next = self.board.next_stone[slot(here)];
        self.current = (next != self.start).then_some(next);
        Some(Point(here))
    }
}

#[cfg(test)]
mod tests;
