//! `--max-memory` as the kernel counts it: the peak resident memory of the real binary on
//! 19×19, read from `/proc/PID/status` of the child, through moves that carry their tree
//! over (the old and the new tree alive at once) and pondering on the opponent's time.
#![cfg(target_os = "linux")]

mod pipes;

use pipes::GtpProcess;
use std::time::Duration;

/// Mebibytes in a `/proc/PID/status` line such as `VmHWM:   18432 kB`.
fn status_mib(pid: u32, key: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with(key)).unwrap_or_else(|| panic!("{key}"));
    let kib: f64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib / 1024.0
}

/// The peak resident memory, in MiB, of `tengen gtp` on 19×19 with two threads and `extra`
/// options, after three moves with a second of pondering after each (where `extra` turns
/// pondering on): the ponder's tree grows on the opponent's time and the next move carries
/// it over.
fn peak_mib(extra: &[&str]) -> f64 {
    let mut engine = GtpProcess::start(&[&["--size", "19", "--threads", "2"], extra].concat());
    let pid = engine.child.id();
    engine.ask("clear_board");
    for color in ["b", "w", "b"] {
        engine.ask(&format!("genmove {color}"));
        std::thread::sleep(Duration::from_millis(1200));
    }
    status_mib(pid, "VmHWM:")
}

// With a 4 MiB cap the process peaks within what it needs without a tree, plus two capped
// trees (one carried into the other) and 4 MiB of slack for the allocator. The same moves
// without the cap go far past that bound, so the check would catch a cap ignored.
#[test]
fn max_memory_caps_resident_memory_through_moves_and_pondering() {
    let base = peak_mib(&["--playouts", "50"]);
    let bound = base + 2.0 * 4.0 + 4.0;
    let work = ["--playouts", "20000", "--ponder", "1"];
    let capped = peak_mib(&[&work[..], &["--max-memory", "4"]].concat());
    assert!(capped <= bound, "capped at 4 MiB: peak {capped:.1} MiB, bound {bound:.1} MiB");
    let free = peak_mib(&work);
    eprintln!("peak resident: base {base:.1}, capped {capped:.1}, free {free:.1} MiB");
    assert!(free > bound, "without the cap: peak {free:.1} MiB, bound {bound:.1} MiB");
}
