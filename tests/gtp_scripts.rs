//! Replays every `gtp-tests/*.tst` script against tengen in-process, and against GNU Go when
//! it is installed (`/usr/games/gnugo --mode gtp --chinese-rules`) to check the scripts
//! themselves. Each script names the cases GNU Go is known to fail in a
//! `# gnugo-known-failures: ID ...` line, with the reason beside it.

use std::path::{Path, PathBuf};
use std::time::Duration;
use tengen::client::regress::run_file;
use tengen::gtp::testfile::{parse_script, replay, Outcome};
use tengen::gtp::Engine;

fn id_of(command: &str) -> u64 {
    command
        .split_whitespace()
        .next()
        .and_then(|id| id.parse().ok())
        .expect("checked commands are numbered")
}

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

// The deterministic mode's script (pinned genmove answers) passes on any thread count.
#[test]
fn deterministic_script_passes_on_any_thread_count() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests/deterministic.tst");
    let script = parse_script(&std::fs::read_to_string(&file).unwrap()).unwrap();
    for threads in ["1", "2", "4"] {
        let mut engine = Engine::default();
        engine.set_param("threads", threads).unwrap();
        let outcomes = replay(&script, &mut engine).unwrap();
        assert_eq!(outcomes.len(), 6, "every checked genmove ran");
        for outcome in outcomes {
            assert!(outcome.passed, "{threads} threads: {}", describe(&file, &outcome));
        }
    }
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
        // CI sets the variable: there a missing GNU Go is a failure, not a skipped check.
        assert!(
            std::env::var_os("TENGEN_REQUIRE_GNUGO").is_none(),
            "TENGEN_REQUIRE_GNUGO is set, but GNU Go is not installed (apt-get install gnugo)"
        );
        eprintln!("GNU Go is not installed; skipping the check of the scripts against it");
        return;
    }
    let mut problems = Vec::new();
    for file in scripts() {
        let text = std::fs::read_to_string(&file).unwrap();
        let script = parse_script(&text).unwrap();
        let known = known_gnugo_failures(&text);
        let report =
            run_file(&file, "/usr/games/gnugo --mode gtp --chinese-rules", Duration::from_secs(60));
        // Checked commands after a crash count as failed for GNU Go, so the script can list them.
        let reached: Vec<u64> = report.outcomes.iter().map(|o| id_of(&o.command)).collect();
        let unreached = script
            .iter()
            .filter(|c| c.expectation.is_some() && !reached.contains(&c.id.unwrap()))
            .map(|c| c.id.unwrap());
        for id in unreached {
            if !known.contains(&id) {
                problems.push(format!(
                    "{}: GNU Go never reached case {id}: {:?}",
                    file.display(),
                    report.error
                ));
            }
        }
        for outcome in report.outcomes {
            let id = id_of(&outcome.command);
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
