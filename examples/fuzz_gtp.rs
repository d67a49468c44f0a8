//! Opt-in fuzz run of the GTP front end (not run by CI): millions of generated lines, each
//! taken the way the I/O loop takes it (preprocessing, id and name, then the engine), with
//! two checks after every line: it did not panic, and a line answered with an error left
//! everything a command may change as it was (`Engine::state_fingerprint`: the game, the
//! next game's rules, the clock, the settings).
//!
//! `cargo run --release --example fuzz_gtp -- [LINES] [SEED] [WORKERS]`
//! (defaults 10,000,000, 1, 2; each worker drives its own engine with its own seed).
//!
//! The lines are grammar-aware, so that most reach the engine rather than stopping at the
//! parser: a command name (any tengen knows, or a near miss), a few arguments drawn from
//! colours, vertices on and off the board, numbers at and past every limit, rule names,
//! JSON, time systems, parameter keys and file paths, and then, for a fifth of the lines,
//! byte-level damage (random bytes, control characters, `#`, tabs, invalid UTF-8). The
//! streaming analysis commands are left out (the I/O loop, not the engine, runs them), and
//! commands that search run rarely and on 8 playouts, so that the run takes minutes. File
//! names are relative to a scratch folder, or paths `printsgf` cannot write (a folder,
//! `/dev/null`): the run writes nothing outside the scratch folder.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::Instant;
use tengen::gtp::command::COMMAND_NAMES;
use tengen::gtp::server::{parse_request, preprocess};
use tengen::gtp::Engine;

/// Commands the I/O loop streams rather than the engine answering them.
const STREAMING: &[&str] =
    &["lz-analyze", "analyze", "kata-analyze", "lz-genmove_analyze", "kata-genmove_analyze"];

/// Commands that run a search or estimate ownership: milliseconds each, so rarer.
const SEARCHING: &[&str] = &[
    "genmove",
    "reg_genmove",
    "kgs-genmove_cleanup",
    "final_score",
    "final_status_list",
    "tengen-ownership",
    "tengen-best_moves",
    "tengen-pv",
    "tengen-count",
    "genmove_analyze",
];

const NEAR_MISSES: &[&str] = &["", "PLAY", "Genmove", "play_", "boardsize2", "kata-", "=", "?"];

const WORDS: &[&str] = &[
    "b",
    "w",
    "B",
    "W",
    "black",
    "white",
    "BLACK",
    "x",
    "empty",
    "A1",
    "a1",
    "T19",
    "t19",
    "J9",
    "I5",
    "i9",
    "Z25",
    "Y25",
    "A26",
    "A0",
    "A-1",
    "AA1",
    "Q16",
    "D4",
    "E5",
    "C3",
    "pass",
    "PASS",
    "resign",
    "0",
    "1",
    "2",
    "3",
    "5",
    "7",
    "9",
    "13",
    "19",
    "25",
    "26",
    "-1",
    "-0",
    "7.5",
    "-7.5",
    "0.5",
    "1e308",
    "-1e308",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "2147483647",
    "2147483648",
    "99999999999999999999",
    "0x10",
    "+3",
    "1.",
    ".5",
    "chinese",
    "japanese",
    "tromp-taylor",
    "aga",
    "new-zealand",
    "korean",
    "ancient",
    "{\"ko\":\"SIMPLE\"}",
    "{\"scoring\":\"AREA\"}",
    "{}",
    "{",
    "none",
    "absolute",
    "byoyomi",
    "canadian",
    "fischer",
    "alive",
    "dead",
    "seki",
    "playouts",
    "threads",
    "exploration",
    "max_memory",
    "policy",
    "time",
    "resign_threshold",
    "light",
    "tactical",
    "patterns",
    "auto",
    "true",
    "false",
    "interval",
    "maxmoves",
    "avoid",
    "allow",
    "ownership",
    "no/such/folder/x.sgf",
    "/dev/null",
    "/dev/zero",
    "/tmp",
    "game.sgf",
    "out.sgf",
    "missing.sgf",
    "é",
    "\u{fffd}",
];

/// Commands that change the game, with the shape of their arguments (c: colour, v: vertex,
/// n: number, s: board size, r: rules, f: file, t: time system, k: parameter key), so that
/// half the lines are well formed and the game moves on.
const TEMPLATES: &[(&str, &str)] = &[
    ("play", "cv"),
    ("play", "cv"),
    ("play", "cv"),
    ("play", "cv"),
    ("undo", ""),
    ("clear_board", ""),
    ("boardsize", "s"),
    ("komi", "n"),
    ("fixed_handicap", "n"),
    ("set_free_handicap", "vvv"),
    ("time_settings", "nnn"),
    ("time_left", "cnn"),
    ("kgs-time_settings", "tnnn"),
    ("kata-set-rules", "r"),
    ("kgs-rules", "r"),
    ("loadsgf", "f"),
    ("loadsgf", "fn"),
    ("is_legal", "cv"),
    ("kata-set-param", "kn"),
];

const COLOURS: &[&str] = &["b", "w", "black", "white", "B", "W"];
const SIZES: &[&str] = &["9", "9", "9", "5", "7", "13", "19", "2", "25", "1", "26", "0"];
const RULES: &[&str] =
    &["chinese", "japanese", "tromp-taylor", "aga", "korean", "ancient", "{\"ko\":\"SIMPLE\"}"];
const FILES: &[&str] = &["game.sgf", "game.sgf", "missing.sgf", "/dev/null", "/tmp", "out.sgf"];
const TIME_SYSTEMS: &[&str] = &["none", "absolute", "byoyomi", "canadian", "fischer"];
const KEYS: &[&str] =
    &["exploration", "resign_threshold", "rave_equivalence", "prior_weight", "dynamic_komi"];

fn pick<'a>(rng: &mut SmallRng, words: &[&'a str]) -> &'a str {
    words[rng.gen_range(0..words.len())]
}

/// A well-formed argument of `kind` (see [`TEMPLATES`]), now and then out of range.
fn argument(rng: &mut SmallRng, kind: char) -> String {
    match kind {
        'c' => pick(rng, COLOURS).to_string(),
        'v' if rng.gen_bool(0.05) => "pass".to_string(),
        'v' => {
            let column = b"ABCDEFGHJKLMNOPQRST"[rng.gen_range(0..19)];
            format!("{}{}", char::from(column), rng.gen_range(1..20))
        }
        's' => pick(rng, SIZES).to_string(),
        'r' => pick(rng, RULES).to_string(),
        'f' => pick(rng, FILES).to_string(),
        't' => pick(rng, TIME_SYSTEMS).to_string(),
        'k' => pick(rng, KEYS).to_string(),
        _ if rng.gen_bool(0.1) => pick(rng, WORDS).to_string(),
        _ => format!("{}", rng.gen_range(-2..40) as f64 / 2.0),
    }
}

/// One generated raw line, without its newline.
fn generate(rng: &mut SmallRng) -> Vec<u8> {
    let mut line = String::new();
    if rng.gen_bool(0.3) {
        line.push_str(&rng.gen_range(0u64..100_000).to_string());
        line.push(' ');
    }
    if rng.gen_bool(0.5) {
        let (name, kinds) = TEMPLATES[rng.gen_range(0..TEMPLATES.len())];
        line.push_str(name);
        for kind in kinds.chars() {
            line.push(' ');
            line.push_str(&argument(rng, kind));
        }
        return damaged(rng, line.into_bytes());
    }
    let name = loop {
        let name = if rng.gen_bool(0.05) {
            NEAR_MISSES[rng.gen_range(0..NEAR_MISSES.len())]
        } else {
            COMMAND_NAMES[rng.gen_range(0..COMMAND_NAMES.len())]
        };
        let rare = SEARCHING.contains(&name) && !rng.gen_bool(1.0 / 300.0);
        if !STREAMING.contains(&name) && !rare {
            break name;
        }
    };
    line.push_str(name);
    for _ in 0..rng.gen_range(0..5) {
        line.push(' ');
        if rng.gen_bool(0.1) {
            let letter = char::from(b'A' + rng.gen_range(0..26));
            line.push_str(&format!("{letter}{}", rng.gen_range(0..28)));
        } else {
            line.push_str(WORDS[rng.gen_range(0..WORDS.len())]);
        }
    }
    damaged(rng, line.into_bytes())
}

/// `bytes`, for a fifth of the lines with one to three bytes inserted or removed.
fn damaged(rng: &mut SmallRng, mut bytes: Vec<u8>) -> Vec<u8> {
    if rng.gen_bool(0.2) {
        for _ in 0..rng.gen_range(1..4) {
            let at = rng.gen_range(0..=bytes.len());
            match rng.gen_range(0..5) {
                0 => bytes.insert(at, rng.gen()),
                1 if at < bytes.len() => {
                    bytes.remove(at);
                }
                2 => bytes.insert(at, b"#\t\r\0\x7f"[rng.gen_range(0..5)]),
                3 => bytes.insert(at, 0xff),
                _ => bytes.insert(at, b' '),
            }
        }
    }
    bytes.retain(|&b| b != b'\n');
    bytes
}

#[derive(Default)]
struct Tally {
    lines: u64,
    executed: u64,
    errors: u64,
    panics: u64,
    changed_on_error: u64,
    broken_boards: u64,
}

fn fresh_engine(files: &Path) -> Engine {
    let mut engine = Engine::new(9, Default::default(), 1);
    engine.set_files_dir(files);
    engine.set_param("threads", "1").expect("threads is a parameter");
    engine
}

/// Drives one engine through `lines` generated lines; reports failures as they happen, with
/// the lines that led to them.
fn work(lines: u64, seed: u64, files: &Path) -> Tally {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut engine = fresh_engine(files);
    let mut tally = Tally::default();
    let mut recent: VecDeque<String> = VecDeque::with_capacity(20);
    let mut state = engine.state_fingerprint();
    let report = |what: &str, recent: &VecDeque<String>| {
        eprintln!("worker {seed}: {what}; the last lines were:");
        for line in recent {
            eprintln!("    {line}");
        }
    };
    for _ in 0..lines {
        tally.lines += 1;
        let raw = generate(&mut rng);
        if recent.len() == 20 {
            recent.pop_front();
        }
        recent.push_back(format!("{:?}", String::from_utf8_lossy(&raw)));
        let Some(line) = preprocess(&raw) else { continue };
        let request = parse_request(&line);
        tally.executed += 1;
        if SEARCHING.contains(&request.name.as_str()) {
            // A search of a few playouts, whatever the lines before set.
            for (key, value) in [("playouts", "8"), ("time", "0"), ("threads", "1")] {
                engine.set_param(key, value).expect("a valid setting");
            }
            state = engine.state_fingerprint();
        }
        let args: Vec<&str> = request.args.iter().map(String::as_str).collect();
        let answer = catch_unwind(AssertUnwindSafe(|| engine.handle(&request.name, &args)));
        match answer {
            Err(_) => {
                tally.panics += 1;
                report("panic", &recent);
                engine = fresh_engine(files);
                state = engine.state_fingerprint();
                continue;
            }
            Ok(Err(_)) => {
                tally.errors += 1;
                let after = engine.state_fingerprint();
                if after != state {
                    tally.changed_on_error += 1;
                    report("an error answer changed the state", &recent);
                    state = after;
                }
            }
            Ok(Ok(_)) => state = engine.state_fingerprint(),
        }
        if tally.lines % 64 == 0 && engine.game().board().check_invariants().is_err() {
            tally.broken_boards += 1;
            report("board invariants broken", &recent);
            engine = fresh_engine(files);
            state = engine.state_fingerprint();
        }
    }
    tally
}

fn main() {
    let mut args = std::env::args().skip(1);
    let lines: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let workers: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2).max(1);
    let files = std::env::temp_dir().join(format!("tengen-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&files).expect("a scratch folder");
    std::fs::write(files.join("game.sgf"), "(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[cc];B[gc])")
        .expect("a game record to load");
    // Panics are counted and reported with their lines; the default hook's message is noise.
    std::panic::set_hook(Box::new(|_| {}));
    let started = Instant::now();
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let share = lines / workers + u64::from(w < lines % workers);
                let files = &files;
                scope.spawn(move || work(share, seed * 1000 + w, files))
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a worker")).collect()
    });
    let _ = std::fs::remove_dir_all(&files);
    let sum = |f: fn(&Tally) -> u64| tallies.iter().map(f).sum::<u64>();
    let failures = sum(|t| t.panics) + sum(|t| t.changed_on_error) + sum(|t| t.broken_boards);
    println!(
        "fuzz_gtp: {} lines ({} reached the engine, {} answered with an error) in {:.0} s, \
         seed {seed}, {workers} workers: {} panics, {} state changes after an error, {} broken \
         boards",
        sum(|t| t.lines),
        sum(|t| t.executed),
        sum(|t| t.errors),
        started.elapsed().as_secs_f64(),
        sum(|t| t.panics),
        sum(|t| t.changed_on_error),
        sum(|t| t.broken_boards),
    );
    std::process::exit(i32::from(failures > 0));
}
