//! Criticality (Coulom, "Criticality: a Monte-Carlo heuristic for Go programs", 2009): how
//! much owning a point at the end of a simulation goes with winning it. A point that ends up
//! black's whenever black wins and white's whenever white wins decides the game, whoever
//! plays there; a point that is black's either way (a safe group, settled territory) decides
//! nothing. The search adds a move's criticality to its value at every node, so that play
//! goes where the game is being decided instead of where the moves only look good by
//! themselves: on 19×19 the search otherwise left weak groups for moves far away.
//!
//! For a point x over the simulations so far, with `v` the share in which x's owner at the
//! end won, `v_b` and `v_w` the shares in which black and white owned it, and `P_B`, `P_W`
//! the shares black and white won:
//!
//! ```text
//! criticality(x) = v − (v_b × P_B + v_w × P_W)
//! ```
//!
//! the covariance between owning x and winning, 0 where the two are independent.

use super::tree::Stats;
use crate::board::color::Color;
use crate::board::{Board, Point, SLOTS};
use std::sync::atomic::{AtomicU32, Ordering};

/// Simulations needed before criticality counts: fewer say more about the noise than about
/// the position.
pub const MIN_SAMPLES: u32 = 64;

/// The counts one search collects, shared by its threads. Updated with plain loads and
/// stores, as the RAVE statistics are: a lost increment under contention is harmless here.
pub struct Criticality {
    /// What a move's criticality is multiplied by in its value; 0 leaves the counts off.
    weight: f64,
    /// Per point index, three counts: simulations its owner won, black owned it, white did.
    counts: Box<[AtomicU32]>,
    samples: AtomicU32,
    black_wins: AtomicU32,
}

/// What [`Criticality::view`] reads once per move choice, for the points it then asks about.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    counts: &'a [AtomicU32],
    samples: f64,
    black_rate: f64,
}

impl Criticality {
    /// Empty counts for criticality weighing `weight` in a move's value. A weight of 0 (or
    /// less) turns the counts off: nothing is allocated or recorded, and every view is `None`.
    pub fn new(weight: f64) -> Criticality {
        let weight = weight.max(0.0);
        let len = if weight > 0.0 { 3 * SLOTS } else { 0 };
        Criticality {
            weight,
            counts: (0..len).map(|_| AtomicU32::new(0)).collect(),
            samples: AtomicU32::new(0),
            black_wins: AtomicU32::new(0),
        }
    }

    /// Whether the counts are kept, so that a search should ask for them.
    pub fn enabled(&self) -> bool {
        !self.counts.is_empty()
    }

    /// What a move's criticality is multiplied by in its value.
    pub fn weight(&self) -> f64 {
        self.weight
    }

    /// Counts the finished simulation that left `board` and was won by `winner`. Owners are
    /// those of [`Board::playout_owner`].
    pub fn record(&self, board: &Board, winner: Color) {
        if !self.enabled() {
            return;
        }
        let winner_sign = if winner == Color::Black { 1 } else { -1 };
        for p in board.points() {
            let owner = board.playout_owner(p);
            let at = 3 * p.index();
            if owner == winner_sign {
                Stats::bump(&self.counts[at]);
            }
            match owner {
                1 => Stats::bump(&self.counts[at + 1]),
                -1 => Stats::bump(&self.counts[at + 2]),
                _ => {}
            }
        }
        if winner == Color::Black {
            Stats::bump(&self.black_wins);
        }
        Stats::bump(&self.samples);
    }

    /// Writes the criticality of every point of `board` into `out` (by point index) and says
    /// whether it did: not while the counts are off or too few. Threads keep such a copy,
    /// refreshed every few simulations, because the move choice asks about every child.
    pub fn fill(&self, board: &Board, out: &mut [f32]) -> bool {
        let Some(view) = self.view() else { return false };
        for p in board.points() {
            out[p.index()] = view.of(p) as f32;
        }
        true
    }

    /// The counts as they stand, or `None` while they are off or too few.
    pub fn view(&self) -> Option<View<'_>> {
        let samples = self.samples.load(Ordering::Relaxed);
        if !self.enabled() || samples < MIN_SAMPLES {
            return None;
        }
        let samples = f64::from(samples);
        let black_rate = f64::from(self.black_wins.load(Ordering::Relaxed)) / samples;
        Some(View { counts: &self.counts, samples, black_rate })
    }
}

impl View<'_> {
    /// The criticality of `p`, between −1 and 1 (see the module documentation).
    #[inline]
    pub fn of(&self, p: Point) -> f64 {
        let at = 3 * p.index();
        let share =
            |i: usize| f64::from(self.counts[at + i].load(Ordering::Relaxed)) / self.samples;
        let (winner_owned, black_owned, white_owned) = (share(0), share(1), share(2));
        winner_owned - (black_owned * self.black_rate + white_owned * (1.0 - self.black_rate))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(diagram: &str) -> Board {
        Board::from_diagram(diagram).expect("valid diagram")
    }

    /// Simulations that end with the left column black's when black wins and white's when
    /// white wins, and the right column black's either way.
    fn recorded(games: u32) -> (Criticality, Board, Board) {
        let black_won = board(
            "X . X
             X . X
             X . X",
        );
        let white_won = board(
            "O . X
             O . X
             O . X",
        );
        let criticality = Criticality::new(0.2);
        for i in 0..games {
            if i % 2 == 0 {
                criticality.record(&black_won, Color::Black);
            } else {
                criticality.record(&white_won, Color::White);
            }
        }
        (criticality, black_won, white_won)
    }

    #[test]
    fn a_point_that_goes_with_the_winner_is_critical() {
        let (criticality, b, _) = recorded(MIN_SAMPLES);
        let view = criticality.view().expect("enough samples");
        // Owned by the winner in every simulation, by each side half the time, each side
        // winning half: 1 − (½ × ½ + ½ × ½).
        assert!((view.of(b.point(0, 1)) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn a_point_owned_whoever_wins_is_not() {
        let (criticality, b, _) = recorded(MIN_SAMPLES);
        let view = criticality.view().expect("enough samples");
        // Black's in every simulation: ½ − (1 × ½ + 0).
        assert!(view.of(b.point(2, 1)).abs() < 1e-9);
        // The middle column is no one's at the end (a point between black and empty is
        // neither side's in a playout's count).
        assert_eq!(view.of(b.point(1, 1)), 0.0);
    }

    #[test]
    fn fill_copies_every_point() {
        let (criticality, b, _) = recorded(MIN_SAMPLES);
        let mut out = vec![f32::NAN; SLOTS];
        assert!(criticality.fill(&b, &mut out));
        let view = criticality.view().expect("enough samples");
        for p in b.points() {
            assert_eq!(out[p.index()], view.of(p) as f32);
        }
        assert!(!Criticality::new(0.0).fill(&b, &mut out));
    }

    #[test]
    fn too_few_samples_or_off_give_no_view() {
        let (criticality, _, _) = recorded(MIN_SAMPLES - 1);
        assert!(criticality.view().is_none());
        let off = Criticality::new(0.0);
        off.record(&Board::new(9), Color::Black);
        assert!(off.view().is_none());
        assert!(!off.enabled());
        // A negative weight is off too, not a penalty for critical points.
        let negative = Criticality::new(-0.5);
        assert!(!negative.enabled());
        assert_eq!(negative.weight(), 0.0);
        assert!(Criticality::new(0.2).enabled());
    }
}
