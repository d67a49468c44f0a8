//! `tengen play` end to end: the real binary, a typed game on stdin.

use std::io::Write;
use std::process::{Command, Stdio};

// A short game: a move, an illegal repeat, the engine's replies, then resignation.
#[test]
fn a_typed_game() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["play", "--size", "5", "--ascii", "--playouts", "50", "--threads", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"C3\nC3\nresign\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("You play black (X), tengen plays white (O)."), "{text}");
    assert!(text.contains(" 3  . .(X). . 3"), "the last move is marked: {text}");
    assert!(text.contains("C3 is illegal: the point is occupied."), "{text}");
    assert!(text.contains("tengen plays "), "{text}");
    assert!(text.contains("You resign. tengen wins (W+R)."), "{text}");
}

// Settings that cannot work are refused with a message, not a panic.
#[test]
fn bad_settings() {
    for args in [["--size", "1"], ["--handicap", "12"], ["--rules", "nonsense"]] {
        let out =
            Command::new(env!("CARGO_BIN_EXE_tengen")).arg("play").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}
