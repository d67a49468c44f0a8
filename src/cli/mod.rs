//! The subcommands a person runs by hand, on top of every other layer: `bench` (fixed,
//! seeded playouts and searches with their speed) and `terminal` (`tengen play`, a game
//! against the engine in the terminal).

pub mod bench;
pub mod terminal;
