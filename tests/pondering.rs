//! Pondering through the real binary (`--ponder`): after a `genmove` the engine searches on
//! the opponent's time, answers the next command within milliseconds, and the next
//! `genmove` starts from the pondered tree.

mod pipes;

use pipes::{numbers_after, GtpProcess};
use std::time::{Duration, Instant};

/// The count after the word `key` in a log line: 1234 in `pondered 1234 simulations`.
fn count_after(line: &str, key: &str) -> usize {
    *numbers_after(line, key).first().unwrap_or_else(|| panic!("no count after {key}: {line}"))
        as usize
}

/// Engine options: 9×9, one thread, a seeded 2,000-playout budget, and `extra`.
fn engine(extra: &[&str]) -> GtpProcess {
    let base = ["--size", "9", "--threads", "1", "--playouts", "2000", "--seed", "5"];
    GtpProcess::start_logging(&[&base[..], extra].concat())
}

/// The nodes `genmove w` keeps of the tree when it follows `genmove b` after a second's
/// wait, and the simulations pondered in that second (read from the debug log).
fn kept_after_a_second(extra: &[&str]) -> (usize, Option<usize>) {
    let mut engine = engine(extra);
    engine.ask("clear_board");
    engine.ask("genmove b");
    std::thread::sleep(Duration::from_secs(1));
    engine.ask("genmove w");
    let pondering = !extra.is_empty();
    let pondered = pondering.then(|| count_after(&engine.log_until("pondered "), "pondered"));
    let kept = count_after(&engine.log_until("tree: kept "), "kept");
    (kept, pondered)
}

// A second of pondering runs far more simulations than the move's own budget, and the next
// move keeps them: more than twice the nodes it keeps without pondering.
#[test]
fn the_next_move_starts_from_the_pondered_tree() {
    let (kept_pondering, pondered) = kept_after_a_second(&["--ponder", "30"]);
    let pondered = pondered.unwrap();
    let (kept_alone, _) = kept_after_a_second(&[]);
    assert!(pondered > 2000, "pondered {pondered} simulations");
    assert!(
        kept_pondering > 2 * kept_alone,
        "kept {kept_pondering} nodes after pondering {pondered} simulations, {kept_alone} without"
    );
}

// While it ponders, each command is answered within 50 ms (the ponder stops at once, and
// starts again after the answer).
#[test]
fn pondering_stops_within_milliseconds() {
    let mut engine = engine(&["--ponder", "30"]);
    engine.ask("clear_board");
    engine.ask("genmove b");
    let mut slowest = Duration::ZERO;
    for _ in 0..5 {
        std::thread::sleep(Duration::from_millis(300));
        let asked = Instant::now();
        assert_eq!(engine.ask("name"), "tengen");
        slowest = slowest.max(asked.elapsed());
    }
    let pondered = count_after(&engine.log_until("pondered "), "pondered");
    assert!(pondered > 0, "it was pondering");
    assert!(slowest < Duration::from_millis(50), "slowest answer {slowest:?}");
}
