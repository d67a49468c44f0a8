//! Replays every `gtp-tests/*.tst` script against tengen in-process, and against GNU Go when
//! it is installed (`/usr/games/gnugo --mode gtp --chinese-rules`) to check the scripts
//! themselves. Each script names the cases GNU Go is known to fail in a
//! `# gnugo-known-failures: ID ...` line, with the reason beside it.

use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use tengen::gtp::testfile::{parse_script, replay, Outcome, Session};
use tengen::gtp::Engine;

fn scripts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("gtp-tests exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tst"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "expected the regression scripts, found {files:?}");
    files
}

fn describe(file: &Path, outcome: &Outcome) -> String {
    format!(
        "{}:{}: `{}` answered {}{:?}, expected {}[{}]{}",
        file.display(),
        outcome.line,
        outcome.command,
        if outcome.succeeded { "= " } else { "? " },
        outcome.answer,
        if outcome.negated { "!" } else { "" },
        outcome.pattern,
        if outcome.expected_failure { " (marked as a known failure)" } else { "" }
    )
}

// Every script passes on tengen: no unexpected failure and no unexpected pass.
#[test]
fn scripts_pass_on_tengen() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in scripts() {
        let script = parse_script(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let mut engine = Engine::default();
        engine.set_files_dir(file.parent().unwrap());
        for outcome in replay(&script, &mut engine).unwrap() {
            checked += 1;
            if outcome.is_unexpected() {
                problems.push(describe(&file, &outcome));
            }
        }
    }
    assert!(checked > 100, "only {checked} checked commands");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A GTP program over pipes, for checking the scripts against another engine.
struct Program {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    /// Set once the program has exited: later commands count as failed, not as errors, so
    /// a crash shows up as failures the script can list.
    exited: bool,
}

impl Session for Program {
    fn send(&mut self, line: &str) -> io::Result<(bool, String)> {
        if self.exited || writeln!(self.input, "{line}").and_then(|_| self.input.flush()).is_err() {
            self.exited = true;
            return Ok((false, "(the engine has exited)".into()));
        }
        let mut lines = Vec::new();
        loop {
            let mut text = String::new();
            if self.output.read_line(&mut text)? == 0 {
                self.exited = true;
                return Ok((false, "(the engine has exited)".into()));
            }
            let text = text.trim_end_matches(['\r', '\n']).to_string();
            if text.is_empty() && !lines.is_empty() {
                break;
            }
            if !text.is_empty() {
                lines.push(text);
            }
        }
        let first = lines.remove(0);
        let ok = first.starts_with('=');
        let head = first[1..].trim_start_matches(|c: char| c.is_ascii_digit());
        let head = head.strip_prefix(' ').unwrap_or(head).to_string();
        let mut all = vec![head];
        all.extend(lines);
        let text = all.into_iter().filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n");
        Ok((ok, text))
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn known_gnugo_failures(text: &str) -> Vec<u64> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("# gnugo-known-failures:"))
        .flat_map(|ids| ids.split_whitespace().filter_map(|id| id.parse().ok()).collect::<Vec<_>>())
        .collect()
}

// The scripts mean what they say: GNU Go, an independent engine, fails exactly the cases
// each script lists as its known failures.
#[test]
fn scripts_agree_with_gnugo_where_installed() {
    let gnugo = Path::new("/usr/games/gnugo");
    if !gnugo.exists() {
        eprintln!("GNU Go is not installed; skipping the check of the scripts against it");
        return;
    }
    let mut problems = Vec::new();
    for file in scripts() {
        let text = std::fs::read_to_string(&file).unwrap();
        let script = parse_script(&text).unwrap();
        let known = known_gnugo_failures(&text);
        let mut child = Command::new(gnugo)
            .args(["--mode", "gtp", "--chinese-rules"])
            .current_dir(file.parent().unwrap())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start gnugo");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let mut program = Program { child, input, output, exited: false };
        let outcomes = replay(&script, &mut program).expect("gnugo answers");
        for outcome in outcomes {
            let id: u64 = outcome.command.split_whitespace().next().unwrap().parse().unwrap();
            if !outcome.passed && !known.contains(&id) {
                problems
                    .push(format!("GNU Go fails a case not listed: {}", describe(&file, &outcome)));
            }
            if outcome.passed && known.contains(&id) {
                problems.push(format!(
                    "GNU Go passes a case listed as failing: {}",
                    describe(&file, &outcome)
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
