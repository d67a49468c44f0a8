//! Ownership and the status of chains, estimated from playouts: who owns each point at the
//! end of many continuations of the position (settling playouts: tactical ones, which
//! capture chains in atari and put no big chain in atari, except two or three stones given
//! up for a shortage of liberties, the kill that looks like seki, or four to six whose
//! capture leaves a dead shape; half of them with each
//! side moving first, since at the end of a game either may). A chain that its owner loses
//! in most of them is dead, and so is a chain in atari whose opponents around it live,
//! unless taking it is a snapback; whether a living chain is in seki is read from the
//! liberties it shares (see [`chain_statuses`]). `final_score` and `final_status_list` both
//! use this one evaluator, so they always agree with each other.
//!
//! Playouts run in parallel batches whose generators are seeded from the caller's seed and the
//! batch number, so the estimate is the same for a given seed whatever the thread count.

use crate::board::color::Color;
use crate::board::{Board, Point};
use crate::game::Game;
use crate::search::policy::{self, PlayoutPolicy, Recent};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use rayon::prelude::*;

/// Playouts per batch: the unit of parallel work and of seeding.
const BATCH: usize = 32;

/// Mean ownership above which a chain counts as alive, and below whose negation as dead.
const CERTAIN: f64 = 0.3;

/// Per-point ownership in [-1, 1] from black's side (+1 black owns the point in every
/// playout), indexed by `Point::index()`.
#[derive(Clone, Debug)]
pub struct Ownership {
    values: Vec<f64>,
}

impl Ownership {
    /// Runs `playouts` playouts (rounded up to whole batches) from the game's position, each
    /// side moving first in half of them.
    pub fn estimate(game: &Game, playouts: usize, seed: u64) -> Ownership {
        let start = game.board();
        let batches = playouts.div_ceil(BATCH).max(1);
        let max_moves = 3 * start.size() * start.size();
        let sums = (0..batches)
            .into_par_iter()
            .map(|batch| {
                let mut rng = SmallRng::seed_from_u64(
                    seed ^ (batch as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                );
                let mut sums = vec![0i32; crate::board::SLOTS];
                let mut board = start.clone();
                let first = if batch % 2 == 0 { game.to_move() } else { game.to_move().opponent() };
                for _ in 0..BATCH {
                    board.copy_from(start);
                    policy::playout(
                        &mut board,
                        PlayoutPolicy::Settling,
                        first,
                        Recent::default(),
                        max_moves,
                        &mut rng,
                        |_, _| {},
                    );
                    for p in board.points() {
                        sums[p.index()] += board.playout_owner(p);
                    }
                }
                sums
            })
            .reduce(
                || vec![0i32; crate::board::SLOTS],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        let total = (batches * BATCH) as f64;
        Ownership { values: sums.into_iter().map(|s| s as f64 / total).collect() }
    }

    /// Ownership of `p` from black's side, in [-1, 1].
    pub fn of(&self, p: Point) -> f64 {
        self.values[p.index()]
    }
}

/// The life status of a chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Alive,
    Dead,
    Seki,
}

/// Every chain on the board with its status, each chain named by its stones in board order.
///
/// A chain its owner keeps in most playouts is alive, one it loses in most is dead, and one
/// that neither side clearly keeps goes to the side that owns it more often. Then a chain in
/// atari is dead if every opponent chain touching it lives, none of them in atari too, and
/// taking it is no snapback: once both have passed, the opponent may take it first, and a ko
/// it starts is the taker's (GNU Go counts so; the playouts, retaking at random, kept such a
/// stone in most of them). (Settling playouts never fill a seki's shared liberties with a
/// self-atari of seven stones or more, nor of four to six unless their capture leaves a dead
/// shape, so such chains in seki come out alive; two or three stones may be given up where
/// the opponent is short of liberties too, and four to six for a dead shape, which kills
/// what only looks like seki and may break a real one between small chains; never where the
/// opponent's chain left in atari keeps an eye, so a seki of one eye each stands.)
/// A living chain is in seki when it shares a liberty with a living opposing chain and has
/// at most one liberty of its own: no two eyes, yet alive.
pub fn chain_statuses(board: &Board, ownership: &Ownership) -> Vec<(Vec<Point>, Status)> {
    // Each chain's stones and whether it lives, and every stone's chain.
    let mut chain_of = vec![usize::MAX; crate::board::SLOTS];
    let mut chains: Vec<(Vec<Point>, bool)> = Vec::new();
    for p in board.points() {
        let Some(color) = board.stone(p) else { continue };
        if chain_of[p.index()] != usize::MAX {
            continue;
        }
        let mut stones: Vec<Point> = board.chain_stones(p).collect();
        stones.sort();
        let sign = if color == Color::Black { 1.0 } else { -1.0 };
        let mean =
            stones.iter().map(|&s| sign * ownership.of(s)).sum::<f64>() / stones.len() as f64;
        let alive = if mean >= CERTAIN {
            true
        } else if mean <= -CERTAIN {
            false
        } else {
            mean >= 0.0
        };
        for s in &stones {
            chain_of[s.index()] = chains.len();
        }
        chains.push((stones, alive));
    }
    // A chain in atari whose takers all live is dead; the verdicts above decide who lives.
    let by_playouts: Vec<bool> = chains.iter().map(|(_, alive)| *alive).collect();
    for (stones, alive) in &mut chains {
        let p = stones[0];
        if *alive && board.chain_liberties(p) == 1 && !capture_backfires(board, p) {
            let color = board.stone(p);
            // Opponents in atari too are a race that whoever moves first wins: no rule.
            let takers_live = stones.iter().flat_map(|&s| board.neighbors(s)).all(|n| {
                board.stone(n).is_none()
                    || board.stone(n) == color
                    || (by_playouts[chain_of[n.index()]] && board.chain_liberties(n) > 1)
            });
            *alive = !takers_live;
        }
    }
    let lives = |p: Point| board.stone(p).is_some() && chains[chain_of[p.index()]].1;
    chains
        .iter()
        .map(|(stones, alive)| {
            if !alive {
                return (stones.clone(), Status::Dead);
            }
            let color = board.stone(stones[0]);
            let mut liberties: Vec<Point> = stones
                .iter()
                .flat_map(|&s| board.neighbors(s))
                .filter(|&n| board.cell(n) == crate::board::Cell::Empty)
                .collect();
            liberties.sort();
            liberties.dedup();
            let shared = |l: &Point| {
                board
                    .neighbors(*l)
                    .into_iter()
                    .any(|n| board.stone(n).is_some_and(|c| Some(c) != color) && lives(n))
            };
            let shared_count = liberties.iter().filter(|l| shared(l)).count();
            let own = liberties.len() - shared_count;
            // No chain in atari is in seki: its one liberty is a capture.
            let seki = shared_count > 0 && own <= 1 && liberties.len() >= 2;
            let status = if seki { Status::Seki } else { Status::Alive };
            (stones.clone(), status)
        })
        .collect()
}

/// Whether the opponent taking the chain through `chain`, in atari, only loses more to the
/// retake (a snapback), so that the chain is not simply dead.
fn capture_backfires(board: &Board, chain: Point) -> bool {
    let (Some(color), Some(liberty)) = (board.stone(chain), board.some_liberty(chain)) else {
        return false;
    };
    policy::is_snapback_capture(board, liberty, color.opponent())
}

/// One stone of every chain with `status`, for `score::count`'s dead and seki lists.
pub fn chains_with(statuses: &[(Vec<Point>, Status)], status: Status) -> Vec<Point> {
    statuses.iter().filter(|(_, s)| *s == status).map(|(stones, _)| stones[0]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Rules;

    fn game(diagram: &str) -> Game {
        let board = Board::from_diagram(diagram).unwrap();
        let mut game = Game::new(board.size(), Rules::chinese());
        for p in board.points() {
            if let Some(c) = board.stone(p) {
                game.add_setup_stone(c, p).unwrap();
            }
        }
        game
    }

    // A lone stone inside the opponent's secure area is dead; the walls and the area are alive.
    #[test]
    fn lone_invader_is_dead() {
        let g = game(
            ". . . X O . . . .
             . . . X O . . . .
             . . . X O . . . .
             . . . X O . . . .
             . O . X O . . . .
             . . . X O . . . .
             . . . X O . . . .
             . . . X O . . . .
             . . . X O . . . .",
        );
        let ownership = Ownership::estimate(&g, 512, 1);
        let statuses = chain_statuses(g.board(), &ownership);
        let dead = chains_with(&statuses, Status::Dead);
        assert_eq!(dead, vec![g.board().point(1, 4)]);
        assert!(ownership.of(g.board().point(0, 0)) > 0.3, "black's side");
        assert!(ownership.of(g.board().point(8, 8)) < -0.3, "white's side");
        assert_eq!(statuses.len(), 3, "two walls and the invader");
    }

    // The same seed gives the same estimate, whatever the scheduling of the batches.
    #[test]
    fn estimate_is_reproducible() {
        let g = game(". . . . .\n. X . O .\n. . . . .\n. O . X .\n. . . . .");
        let a = Ownership::estimate(&g, 256, 9);
        let b = Ownership::estimate(&g, 256, 9);
        assert_eq!(a.values, b.values);
    }
}
