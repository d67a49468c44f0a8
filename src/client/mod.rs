//! Drives other GTP programs: `process` spawns an engine and talks to it with timeouts,
//! `regress` replays the `gtp-tests/` scripts against any engine as gogui-regress does, and
//! `matchplay` plays matches between two engines (`tengen match`). Beside `gtp`, whose
//! script format it reads; nothing in the engine imports it.

pub mod matchplay;
pub mod process;
pub mod regress;
