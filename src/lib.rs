//! tengen: a Go engine. Each folder is a layer, and dependencies point one way:
//!
//! - [`board`]: points, moves, colours, Zobrist keys and the fast board (chains, exact
//!   liberties, captures, simple ko, hash); knows nothing of rules beyond one move.
//! - [`game`]: a game on top of the board (side to move, superko history, undo), the rules,
//!   scoring, handicap, the clock, SGF and game records.
//! - [`search`]: the Monte Carlo tree search with its playout policies, patterns, priors, the
//!   move model and the ownership estimate, and the player around it (time, passing,
//!   resigning, pondering); never parses text.
//! - [`gtp`]: the Go Text Protocol server, translating text into calls on `game` and
//!   `search` and their results back into text.
//! - [`client`]: drives other GTP programs (`regress`, `match`); beside `gtp`, whose script
//!   format it reads.
//! - [`train`]: fitting the move model to game records, for the examples.
//! - [`cli`]: the subcommands a person runs by hand (`bench`, `play`).
//!
//! The README's Architecture section has one line per file.

pub mod board;
pub mod cli;
pub mod client;
pub mod game;
pub mod gtp;
pub mod search;
pub mod train;

pub use board::color::Color;
pub use board::{Board, IllegalMove, Move, Point};
pub use game::rules::Rules;
pub use game::Game;
