//! tengen: a Go engine. The crate is layered so that dependencies point one way:
//! `board` (stones, chains, liberties, hash) ← `game` (rules, history, undo) and `score`
//! (counting) ← the search and GTP layers. The README's Architecture section has one line
//! per module.

pub mod bench;
pub mod board;
pub mod color;
pub mod display;
pub mod game;
pub mod gtp;
pub mod handicap;
pub mod json;
pub mod matchplay;
pub mod ownership;
pub mod patterns;
pub mod policy;
pub mod record;
pub mod regress;
pub mod rules;
pub mod score;
pub mod search;
pub mod sgf;
pub mod terminal;
pub mod time;
pub mod vertex;
pub mod zobrist;

pub use board::{Board, IllegalMove, Move, Point};
pub use color::Color;
pub use game::Game;
pub use rules::Rules;
