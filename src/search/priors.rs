//! Prior knowledge for new tree nodes: virtual simulations given to a move when its node is
//! created, from cheap heuristics — captures, atari escapes, self-atari, closeness to the
//! last move, the lines of the board in the opening. They go into the node's RAVE
//! statistics, so they steer the first visits and fade as real results arrive, at the rate
//! the RAVE weight fades.

use crate::board::{Board, Move, Point};
use crate::color::Color;

/// Virtual simulations and wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prior {
    pub visits: u32,
    pub wins: u32,
}

impl Prior {
    const fn new(visits: u32, wins: u32) -> Prior {
        Prior { visits, wins }
    }

    fn add(&mut self, other: Prior) {
        self.visits += other.visits;
        self.wins += other.wins;
    }
}

/// Every move starts even, so that unvisited children are ordered by what the heuristics add.
const EVEN: Prior = Prior::new(10, 5);
const CAPTURE: Prior = Prior::new(20, 18);
const ESCAPE: Prior = Prior::new(20, 16);
const BIG_SELF_ATARI: Prior = Prior::new(20, 1);
const LONE_SELF_ATARI: Prior = Prior::new(10, 3);
const NEAR_LAST_MOVE: Prior = Prior::new(10, 7);
const OPENING_EDGE: Prior = Prior::new(20, 3);
const OPENING_SECOND_LINE: Prior = Prior::new(10, 3);
const OPENING_GOOD_LINE: Prior = Prior::new(10, 7);
const EARLY_PASS: Prior = Prior::new(30, 1);

/// The prior of `mv` for `color` on `board`, the opponent's last stone at `last`.
pub fn prior(board: &Board, color: Color, mv: Move, last: Option<Point>) -> Prior {
    let mut prior = EVEN;
    let size = board.size();
    let points = size * size;
    let empty = board.empty_points().len();
    let p = match mv {
        Move::Pass => {
            // Passing early gives the board away; late, the search decides unaided.
            if empty * 2 > points {
                prior.add(EARLY_PASS);
            }
            return prior;
        }
        Move::Play(p) => p,
    };
    let opponent = color.opponent();
    let mut captures = false;
    let mut escapes = false;
    for n in board.neighbors(p) {
        match board.stone(n) {
            Some(c) if c == opponent && board.chain_liberties(n) == 1 => captures = true,
            Some(c) if c == color && board.chain_liberties(n) == 1 => escapes = true,
            _ => {}
        }
    }
    if captures {
        prior.add(CAPTURE);
    }
    match board.self_atari_size(p, color) {
        Some(stones) if stones >= 2 => prior.add(BIG_SELF_ATARI),
        Some(_) => prior.add(LONE_SELF_ATARI),
        // An extension out of atari counts only where it gains liberties.
        None if escapes && !captures => prior.add(ESCAPE),
        None => {}
    }
    if let Some(last) = last {
        let (x, y) = board.coordinates(p);
        let (lx, ly) = board.coordinates(last);
        if x.abs_diff(lx) + y.abs_diff(ly) <= 2 || (x.abs_diff(lx) == 1 && y.abs_diff(ly) == 1) {
            prior.add(NEAR_LAST_MOVE);
        }
    }
    // The opening: the first and second lines are slow, the third and fourth are where
    // games start (on boards large enough to have them).
    if size >= 9 && empty * 5 > points * 4 {
        let (x, y) = board.coordinates(p);
        let line = x.min(y).min(size - 1 - x).min(size - 1 - y);
        match line {
            0 => prior.add(OPENING_EDGE),
            1 => prior.add(OPENING_SECOND_LINE),
            2 | 3 => prior.add(OPENING_GOOD_LINE),
            _ => {}
        }
    }
    prior
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rate(prior: Prior) -> f64 {
        f64::from(prior.wins) / f64::from(prior.visits)
    }

    // Captures and escapes look good, self-atari bad, all relative to an ordinary move.
    #[test]
    fn tactical_priors() {
        let board = Board::from_diagram(
            ". . . . . . .
             . . . . . . .
             . X X X . . .
             X O O O . . .
             . X X X . . .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        let at = |x, y| Move::Play(board.point(x, y));
        let ordinary = prior(&board, Color::Black, at(6, 0), None);
        let capture = prior(&board, Color::Black, at(4, 3), None);
        let escape = prior(&board, Color::White, at(4, 3), None);
        assert!(rate(capture) > rate(ordinary) + 0.15, "{capture:?} {ordinary:?}");
        assert!(rate(escape) > rate(ordinary) + 0.15, "{escape:?}");
        let big_self_atari = Board::from_diagram(
            ". . . . .
             . . . . .
             X X X . .
             O O X . .
             . . X . .",
        )
        .unwrap();
        let filling =
            prior(&big_self_atari, Color::White, Move::Play(big_self_atari.point(0, 4)), None);
        assert!(rate(filling) < 0.3, "{filling:?}");
    }

    // In the opening the edge is poor and the third line good; passing early is poor.
    #[test]
    fn opening_priors() {
        let board = Board::new(19);
        let at = |x, y| Move::Play(board.point(x, y));
        let edge = prior(&board, Color::Black, at(0, 5), None);
        let third = prior(&board, Color::Black, at(2, 5), None);
        let centre = prior(&board, Color::Black, at(9, 9), None);
        assert!(rate(edge) < rate(centre) && rate(centre) < rate(third));
        assert!(rate(prior(&board, Color::Black, Move::Pass, None)) < 0.2);
        let near = prior(&board, Color::Black, at(10, 10), Some(board.point(9, 9)));
        assert!(rate(near) > rate(centre));
    }
}
