//! The Go Text Protocol, version 2: the only way GUIs, match runners and servers talk to
//! tengen. Parse → execute → format: `server` reads and preprocesses lines and writes
//! responses, `command` turns a line into a typed [`command::Command`] (one table of names
//! drives dispatch and `list_commands`), `engine` executes it. `testfile` and `regex` read the
//! GNU Go-format regression scripts in `gtp-tests/`; `analysis` writes the live-analysis
//! lines; `json` reads and writes the flat JSON objects of KataGo's rules and match results;
//! `params` is the one table of engine parameters.

pub mod analysis;
pub mod command;
pub mod engine;
pub mod json;
pub mod params;
pub mod regex;
pub mod server;
pub mod testfile;

pub use engine::Engine;
