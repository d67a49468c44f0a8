//! Fixed, seeded measurements that anyone can run without criterion (`tengen bench`): light
//! and policy playouts per second, play+undo throughput, full searches. The counts of work
//! done are deterministic; only the times vary with the machine.

use crate::board::color::Color;
use crate::board::{Board, Move, Point};
use crate::game::rules::Rules;
use crate::game::Game;
use crate::search::policy::{self, PlayoutPolicy, Recent};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::time::{Duration, Instant};

/// One measured figure.
#[derive(Clone, Debug)]
pub struct Figure {
    pub name: String,
    /// Units of work done (playouts, moves).
    pub count: u64,
    /// A checksum of the work (total moves or score), equal on every machine for a given seed.
    pub checksum: i64,
    pub elapsed: Duration,
}

impl Figure {
    pub fn per_second(&self) -> f64 {
        self.count as f64 / self.elapsed.as_secs_f64()
    }
}

/// Runs light playouts from the empty board of side `size` for about `budget`, single thread,
/// with a generator seeded by `seed`. The checksum is the sum of the playout scores.
pub fn light_playouts(size: usize, budget: Duration, seed: u64) -> Figure {
    let figure = policy_playouts(size, PlayoutPolicy::Light, budget, seed);
    Figure { name: format!("light playouts {size}x{size}"), ..figure }
}

/// Runs playouts under `policy` from the empty board of side `size` for about `budget`,
/// single thread, seeded like [`light_playouts`]: what a policy costs against light ones.
pub fn policy_playouts(size: usize, policy: PlayoutPolicy, budget: Duration, seed: u64) -> Figure {
    let empty = Board::new(size);
    let max_moves = 3 * size * size;
    let play = |board: &mut Board, rng: &mut SmallRng| {
        policy::playout(board, policy, Color::Black, Recent::default(), max_moves, rng, |_, _| {})
    };
    // One playout first, off the clock and the checksum: the policy's tables are built on
    // first use, and the figure is the steady rate.
    let mut board = empty.clone();
    play(&mut board, &mut SmallRng::seed_from_u64(seed));
    let mut rng = SmallRng::seed_from_u64(seed);
    let start = Instant::now();
    let mut count = 0u64;
    let mut checksum = 0i64;
    while start.elapsed() < budget {
        for _ in 0..64 {
            board.copy_from(&empty);
            play(&mut board, &mut rng);
            checksum += board.playout_score() as i64;
            count += 1;
        }
    }
    let name = format!("{policy:?} playouts {size}x{size}").to_lowercase();
    Figure { name, count, checksum, elapsed: start.elapsed() }
}

/// Where a search benchmark starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    Empty,
    /// After the first `size * size / 3` moves of the seeded random game: a crowded board
    /// with captures behind it.
    MiddleGame,
}

/// A full search of `playouts` simulations (no early stop) on `threads` threads, seeded: the
/// count is simulations, the checksum the tree's node count, which with one thread changes
/// only when the search's behaviour changes.
pub fn search_speed(
    size: usize,
    playouts: usize,
    seed: u64,
    threads: usize,
    position: Position,
    deterministic: bool,
) -> Figure {
    let game = match position {
        Position::Empty => Game::new(size, Rules::chinese()),
        Position::MiddleGame => middle_game(size),
    };
    let params = crate::search::SearchParams {
        playouts,
        seed,
        threads,
        early_stop: false,
        deterministic,
        ..Default::default()
    };
    // The move model is read before the clock starts: parsing the 19×19 model's text (half
    // a second with its latent factors) is no part of a search's speed.
    crate::search::move_model::MoveModel::builtin(size);
    let start = Instant::now();
    let result = crate::search::search(&game, &params);
    let place = match position {
        Position::Empty => "empty",
        Position::MiddleGame => "middle game",
    };
    Figure {
        name: format!(
            "search {size}x{size} {place}, {threads} thread(s){}",
            if deterministic { ", waves" } else { "" }
        ),
        count: result.playouts as u64,
        checksum: result.tree_nodes as i64,
        elapsed: start.elapsed(),
    }
}

/// The game of [`Position::MiddleGame`]: the first `size * size / 3` moves of the seeded
/// random game, up to the first that the rules refuse.
pub fn middle_game(size: usize) -> Game {
    let mut game = Game::new(size, Rules::chinese());
    for (color, p) in random_game(size, 1).into_iter().take(size * size / 3) {
        if game.play(color, Move::Play(p)).is_err() {
            break;
        }
    }
    game
}

/// The moves of one light playout from the empty board: a long, capture-rich game for
/// play+undo measurements.
pub fn random_game(size: usize, seed: u64) -> Vec<(Color, Point)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut board = Board::new(size);
    let mut moves = Vec::new();
    let mut color = Color::Black;
    while let Some(p) = board.random_move(color, &mut rng) {
        board.play_unchecked(p, color);
        moves.push((color, p));
        color = color.opponent();
        if moves.len() >= size * size * 2 {
            break;
        }
    }
    moves
}

/// Plays a fixed seeded game on the `Game` layer (the default Chinese rules: positional
/// superko, snapshots) and undoes it, repeatedly, for about `budget`. Counts moves played
/// plus moves undone; moves the rules refuse (the game came from a simple-ko playout) are
/// skipped.
pub fn play_undo(size: usize, budget: Duration, seed: u64) -> Figure {
    let moves = random_game(size, seed);
    let mut game = Game::new(size, Rules::chinese());
    let start = Instant::now();
    let mut count = 0u64;
    let mut checksum = 0i64;
    while start.elapsed() < budget {
        let played = play_and_undo(&mut game, &moves, |game| {
            checksum += game.board().playout_score() as i64;
        });
        count += 2 * played;
    }
    Figure { name: format!("play+undo {size}x{size}"), count, checksum, elapsed: start.elapsed() }
}

/// Plays `moves` on `game`, skipping those its rules refuse, calls `at_end` on the position
/// reached, and undoes what was played: the number of moves played.
pub fn play_and_undo(game: &mut Game, moves: &[(Color, Point)], at_end: impl FnOnce(&Game)) -> u64 {
    let mut played = 0;
    for &(color, p) in moves {
        if game.play(color, Move::Play(p)).is_ok() {
            played += 1;
        }
    }
    at_end(game);
    for _ in 0..played {
        game.undo().expect("undo what was played");
    }
    played
}
