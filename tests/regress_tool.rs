//! `tengen regress` end to end: the shipped scripts pass on tengen, a failing expectation and
//! an unexpected pass are reported with exit status 1, and a hung engine is reported with
//! status 2 instead of being waited on. Also the reports' common exit: a closed stdout ends
//! the report tools quietly.

mod common;

use common::Scratch;
use std::path::{Path, PathBuf};
use std::process::Command;

fn tengen() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
}

/// A script `name` holding `text` in a scratch folder, which goes when the folder is dropped.
fn scratch(name: &str, text: &str) -> (Scratch, PathBuf) {
    let dir = Scratch::new("regress");
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

// The shipped scripts replay cleanly through the tool, with a JUnit file written.
#[test]
fn shipped_scripts_pass() {
    let dir = Scratch::new("junit");
    let junit = dir.join("junit.xml");
    let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests");
    let out = tengen().arg("regress").arg("--junit").arg(&junit).arg(&scripts).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    let last = stdout.lines().last().unwrap();
    assert!(last.ends_with(" passed, 0 failed"), "{last}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("<testsuite name=") && !xml.contains("<failure"));
}

// A wrong expectation fails, a `*` failure that passes is an unexpected pass: status 1.
#[test]
fn failures_and_unexpected_passes() {
    let (_dir, script) = scratch(
        "mixed.tst",
        "1 name\n#? [tengen]\n2 protocol_version\n#? [3]\n3 protocol_version\n#? [2]*\n4 frobnicate\n#? [.*]\n",
    );
    let out = tengen().arg("regress").arg(&script).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains(":3: FAIL: `2 protocol_version`"), "{stdout}");
    assert!(stdout.contains(":5: unexpected pass: `3 protocol_version`"), "{stdout}");
    assert!(stdout.contains(":7: FAIL: `4 frobnicate` answered ? \"unknown command\""), "{stdout}");
    assert!(stdout.ends_with("2 passed, 2 failed\n"), "{stdout}");
}

// Patterns as gogui-regress reads them (Java, MULTILINE and DOTALL, the whole answer):
// lookahead over list_commands' lines, an inline case flag, word boundaries; each judged
// the way gogui-regress judges it, the failing ones too.
#[test]
fn java_style_patterns() {
    let script = concat!(
        "1 list_commands\n#? [(?=.*^name$)(?=.*^version$).*]\n",
        "2 list_commands\n#? [(?=.*^name$)(?=.*^frobnicate$).*]\n",
        "boardsize 9\nclear_board\nplay b D1\nplay w E5\n",
        "3 color D1\n#? [(?i)BLACK]\n",
        "4 final_status_list alive\n#? [(?=.*\\bD1\\b)(?!.*\\b[AB]\\d\\b).*]\n",
        "5 final_status_list alive\n#? [(?=.*\\bD\\b).*]\n",
    );
    let (_dir, script) = scratch("java.tst", script);
    let out = tengen().arg("regress").arg(&script).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("FAIL: `2 list_commands`"), "{stdout}");
    assert!(stdout.contains("FAIL: `5 final_status_list alive`"), "{stdout}");
    assert!(stdout.ends_with("3 passed, 2 failed\n"), "{stdout}");
}

// An engine that never answers is reported after the timeout, with status 2.
#[test]
fn hung_engine_is_reported() {
    let (_dir, script) = scratch("hang.tst", "1 name\n#? [.*]\n");
    let out = tengen()
        .args(["regress", "--engine", "sleep 30", "--timeout", "0.3"])
        .arg(&script)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains("ERROR: line 1: `1 name`: no response within the timeout"), "{stdout}");
}

// GNU Go's `&` mark: the answer is shown and counted neither as a pass nor as a failure, so
// a wrong pattern under it does not change the exit status.
#[test]
fn ampersand_results_are_shown_not_checked() {
    let (_dir, script) =
        scratch("ignored.tst", "1 name\n#? [tengen]\n2 protocol_version\n#? [9]&\n");
    let out = tengen().arg("regress").arg(&script).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains(":3: not checked: `2 protocol_version` answered = \"2\""), "{stdout}");
    assert!(stdout.contains("1 passed, 0 failed (0 unexpected), 1 not checked"), "{stdout}");
    assert!(stdout.ends_with("1 passed, 0 failed\n"), "{stdout}");
}

/// Runs tengen with `args`, its stdout closed at once: the exit code and stderr.
fn run_with_closed_stdout(args: &[&str]) -> (Option<i32>, String) {
    use std::process::Stdio;
    let mut child =
        tengen().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

// A report whose reader has gone away (`tengen bench | head -1`) ends the program quietly,
// without a panic; a regression run still gives its verdict in the exit status.
#[test]
fn closed_stdout_ends_quietly() {
    let (code, stderr) = run_with_closed_stdout(&["bench", "--seconds", "0.01"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    let (_dir, script) = scratch("closed.tst", "1 protocol_version\n#? [3]\n");
    let (code, stderr) = run_with_closed_stdout(&["regress", script.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
