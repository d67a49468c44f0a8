//! Perft: the number of legal stone-move sequences of a given length from the empty board
//! (black first, colours alternating, no passes, Chinese rules: positional superko, no
//! suicide), counted by the engine's `Game` and by the flood-fill reference, and pinned.
//! Any change in legality, capture or repetition handling changes these numbers.

mod reference;

use reference::RefGame;
use tengen::game::rules::{KoRule, Rules};
use tengen::{Color, Game, Move};

fn perft_fast(game: &mut Game, color: Color, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for p in game.legal_points(color) {
        game.play(color, Move::Play(p)).unwrap();
        total += perft_fast(game, color.opponent(), depth - 1);
        game.undo().unwrap();
    }
    total
}

fn perft_reference(game: &RefGame, color: Color, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for i in 0..game.size * game.size {
        let mut next = game.clone();
        if next.play(Some(i), color) {
            total += perft_reference(&next, color.opponent(), depth - 1);
        }
    }
    total
}

fn perft_both(size: usize, depth: u32) -> u64 {
    let mut game = Game::new(size, Rules::chinese());
    let fast = perft_fast(&mut game, Color::Black, depth);
    let reference = RefGame::new(size, KoRule::Positional, false, Color::Black);
    assert_eq!(
        fast,
        perft_reference(&reference, Color::Black, depth),
        "{size}x{size} depth {depth}"
    );
    fast
}

// 2×2: small enough that captures, suicide and superko all occur within a few plies.
#[test]
fn perft_2x2() {
    let counts: Vec<u64> = (1..=12).map(|d| perft_both(2, d)).collect();
    assert_eq!(counts, PINNED_2X2);
}

// 3×3 to six plies.
#[test]
fn perft_3x3() {
    let counts: Vec<u64> = (1..=6).map(|d| perft_both(3, d)).collect();
    assert_eq!(counts, PINNED_3X3);
}

// 4×4 to five plies.
#[test]
fn perft_4x4() {
    let counts: Vec<u64> = (1..=5).map(|d| perft_both(4, d)).collect();
    assert_eq!(counts, PINNED_4X4);
}

const PINNED_2X2: [u64; 12] = [4, 12, 24, 16, 32, 32, 16, 48, 80, 32, 64, 32];
const PINNED_3X3: [u64; 6] = [9, 72, 504, 2976, 14720, 56176];
const PINNED_4X4: [u64; 5] = [16, 240, 3360, 43576, 521800];
