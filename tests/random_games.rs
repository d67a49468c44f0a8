//! Thousands of seeded random games on every board size, checked move by move against the
//! flood-fill reference in `reference/`: the incremental chains, liberties, empty list and
//! hash against a from-scratch rebuild, the stones and prisoners against the reference, the
//! legality of every point under each ko rule, and undo against the state before the move.

mod reference;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use reference::RefGame;
use tengen::game::rules::{KoRule, Rules};
use tengen::{Color, Game, Move};

fn index(game: &Game, p: tengen::Point) -> usize {
    let (x, y) = game.board().coordinates(p);
    y * game.board().size() + x
}

fn check_same(game: &Game, reference: &RefGame, context: &str) {
    let board = game.board();
    board.check_invariants().unwrap_or_else(|e| panic!("{context}: {e}\n{board:?}"));
    let mut checked = vec![false; reference.grid.len()];
    for p in board.points() {
        let i = index(game, p);
        assert_eq!(board.stone(p), reference.grid[i], "{context}: stone at {p:?}");
        if board.stone(p).is_some() && !checked[i] {
            let (stones, liberties) = RefGame::chain(&reference.grid, reference, i);
            for &s in &stones {
                checked[s] = true;
            }
            assert_eq!(board.chain_liberties(p), liberties.len(), "{context}: liberties {p:?}");
            assert_eq!(board.chain_len(p), stones.len(), "{context}: chain size {p:?}");
        }
    }
    for color in Color::BOTH {
        assert_eq!(board.prisoners(color), reference.prisoners[color.index()], "{context}");
    }
}

fn check_legality(game: &Game, reference: &RefGame, context: &str) {
    for color in Color::BOTH {
        for p in game.board().points() {
            let fast = game.check(color, Move::Play(p));
            let slow = reference.is_legal(index(game, p), color);
            assert_eq!(
                fast.is_ok(),
                slow,
                "{context}: {color} at {p:?}: {fast:?}\n{:?}",
                game.board()
            );
        }
    }
}

/// Plays one random game of up to `max_moves`, checking everything after every move.
fn random_game(size: usize, seed: u64, max_moves: usize, full_legality: bool) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let ko = [KoRule::Positional, KoRule::Simple, KoRule::Situational][rng.gen_range(0..3)];
    let suicide_allowed = rng.gen_bool(0.25);
    let rules = Rules { ko, suicide_allowed, ..Rules::chinese() };
    let mut game = Game::new(size, rules);
    let mut reference = RefGame::new(size, ko, suicide_allowed, Color::Black);
    let mut color = Color::Black;
    for turn in 0..max_moves {
        let context =
            format!("size {size} seed {seed} turn {turn} {ko:?} suicide {suicide_allowed}");
        let candidates: Vec<tengen::Point> = game.board().points().collect();
        // Mostly legal moves, sometimes an illegal attempt or a pass, sometimes a colour twice.
        let mv = if rng.gen_bool(0.03) {
            Move::Pass
        } else {
            let legal = game.legal_points(color);
            if legal.is_empty() || rng.gen_bool(0.05) {
                Move::Play(candidates[rng.gen_range(0..candidates.len())])
            } else {
                Move::Play(legal[rng.gen_range(0..legal.len())])
            }
        };
        let before = game.board().clone();
        let to_move_before = game.to_move();
        let (passes_before, moves_before) = (game.consecutive_passes(), game.moves().len());
        let fast = game.play(color, mv);
        let slow = reference.play(
            match mv {
                Move::Play(p) => Some(index(&game, p)),
                Move::Pass => None,
            },
            color,
        );
        assert_eq!(fast.is_ok(), slow, "{context}: {mv:?} {fast:?}");
        if fast.is_err() {
            assert_eq!(game.board(), &before, "{context}: illegal move changed the board");
            continue;
        }
        check_same(&game, &reference, &context);
        if full_legality {
            check_legality(&game, &reference, &context);
        }
        game.undo().unwrap();
        assert_eq!(game.board(), &before, "{context}: undo");
        assert_eq!(game.board().hash(), before.hash(), "{context}: undo hash");
        assert_eq!(game.to_move(), to_move_before, "{context}: undo side to move");
        assert_eq!(game.consecutive_passes(), passes_before, "{context}: undo passes");
        assert_eq!(game.moves().len(), moves_before, "{context}: undo history");
        game.board().check_invariants().unwrap();
        // Under superko, a position the undo left in the history would refuse this replay.
        game.play(color, mv).expect("replaying the undone move");
        if !rng.gen_bool(0.05) {
            color = color.opponent();
        }
        if game.is_over() {
            break;
        }
    }
}

// Small boards, where every rule interaction shows up quickly: 2,400 games.
#[test]
fn random_games_small_boards() {
    for size in 2..=9 {
        for seed in 0..300 {
            random_game(size, seed * 31 + size as u64, 4 * size * size, true);
        }
    }
}

// Medium and large boards, 19×19 and 25×25 included: fewer, longer games.
#[test]
fn random_games_large_boards() {
    for size in 10..=19 {
        for seed in 0..20 {
            random_game(size, 1000 + seed, 3 * size * size, seed < 4);
        }
    }
    for seed in 0..10 {
        random_game(25, 2000 + seed, 3 * 25 * 25, seed < 2);
    }
}

// The board's `hash_after` predicts the hash of every legal non-suicidal move.
#[test]
fn hash_after_matches_play() {
    let mut rng = SmallRng::seed_from_u64(5);
    for size in [3, 5, 9, 13] {
        let mut board = tengen::Board::new(size);
        let mut color = Color::Black;
        for _ in 0..size * size * 2 {
            for p in board.points() {
                if board.is_legal(p, color) {
                    let mut copy = board.clone();
                    copy.play_unchecked(p, color);
                    assert_eq!(board.hash_after(p, color), copy.hash());
                }
            }
            match board.random_move(color, &mut rng) {
                Some(p) => {
                    board.play_unchecked(p, color);
                }
                None => break,
            }
            color = color.opponent();
        }
    }
}
