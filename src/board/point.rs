//! Points, moves and what a point holds, on the padded index every board array uses (see
//! the representation note in [`crate::board`]). The sizes here are shared by the board and
//! the Zobrist tables.

use super::color::Color;

/// Largest supported board side.
pub const MAX_SIZE: usize = 25;
/// Smallest supported board side.
pub const MIN_SIZE: usize = 2;
/// Padded indices needed for the largest board: `(n + 2)` rows of `n + 1` cells, plus one so
/// that the lower-right diagonal of the last point is still inside the array.
pub const MAX_POINTS: usize = (MAX_SIZE + 2) * (MAX_SIZE + 1) + 1;
/// Length of the per-point arrays: a power of two above `MAX_POINTS`, so that indices masked
/// with `SLOTS - 1` are provably in bounds and the hot paths carry no bounds checks.
pub const SLOTS: usize = 1024;
const _: () = assert!(SLOTS >= MAX_POINTS && SLOTS.is_power_of_two());

/// The array slot of a padded index.
#[inline(always)]
pub(crate) fn slot(index: u16) -> usize {
    index as usize & (SLOTS - 1)
}

/// A board point as a padded index. Only `Board` creates on-board points; `Point` values from
/// one board size mean nothing on another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub u16);

impl Point {
    /// The padded index, as an array slot (see `SLOTS`).
    #[inline(always)]
    pub fn index(self) -> usize {
        slot(self.0)
    }
}

/// A move: a stone on a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Play(Point),
    Pass,
}

impl Move {
    /// The point played, or `None` for a pass.
    pub fn point(self) -> Option<Point> {
        match self {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        }
    }
}

/// What a point holds. The discriminants of the stones equal `Color::index()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Cell {
    Black = 0,
    White = 1,
    Empty = 2,
    OffBoard = 3,
}

impl Cell {
    #[inline]
    pub fn stone(color: Color) -> Cell {
        match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    /// The colour of the stone here, if any.
    #[inline]
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}
