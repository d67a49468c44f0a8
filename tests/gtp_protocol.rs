//! Whole-engine GTP behaviour: exact error texts, framing, ids, robustness against any input
//! (a property test over random byte streams and command mixes), and the real binary's
//! stdout carrying nothing but GTP.

mod common;

use common::Scratch;
use proptest::prelude::*;
use std::io::Write;
use std::process::{Command, Stdio};
use tengen::gtp::server::run_on_text;
use tengen::gtp::Engine;
use tengen::search::SearchParams;

/// An engine with a small search, so tests that generate many moves stay fast, whose
/// relative file names (random `printsgf WORD`) land in a scratch folder of its own, not the
/// checkout; the folder goes with the engine.
struct TestEngine {
    engine: Engine,
    _files: Scratch,
}

impl std::ops::Deref for TestEngine {
    type Target = Engine;

    fn deref(&self) -> &Engine {
        &self.engine
    }
}

impl std::ops::DerefMut for TestEngine {
    fn deref_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }
}

fn engine() -> TestEngine {
    let mut engine = Engine::default();
    engine.set_search_params(SearchParams { playouts: 300, ..SearchParams::default() });
    let files = Scratch::new("gtp-files");
    engine.set_files_dir(files.to_path_buf());
    TestEngine { engine, _files: files }
}

fn session(input: &str) -> String {
    run_on_text(&mut engine(), input.as_bytes())
}

/// Responses of a session, each as (success, text).
fn responses(input: &str) -> Vec<(bool, String)> {
    let out = session(input);
    assert!(out.is_empty() || out.ends_with("\n\n"), "unterminated output {out:?}");
    out.split_terminator("\n\n").map(tengen::gtp::server::split_response).collect()
}

// loadsgf reads regular files of at most 16 MiB: a folder, a FIFO, a device (the engine's own
// standard input among them) and a larger file are refused with `cannot load file`, at once
// (a FIFO with no writer would block a reader for ever), and the game stays as it was.
#[test]
fn loadsgf_limits() {
    let dir = Scratch::new("loadsgf-limits");
    let big = dir.join("big.sgf");
    let mut text = String::from("(;GM[1]FF[4]SZ[9]C[");
    text.push_str(&"x".repeat(16 << 20));
    text.push_str("];B[ee])");
    std::fs::write(&big, text).unwrap();
    let fifo = dir.join("fifo.sgf");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let mut input = String::from("boardsize 9\nplay b E5\n");
    for path in [dir.to_path_buf(), fifo, big, "/dev/stdin".into(), "/dev/zero".into()] {
        input.push_str(&format!("loadsgf {}\n", path.display()));
    }
    input.push_str("color E5\nquery_boardsize\n");
    let started = std::time::Instant::now();
    let r = responses(&input);
    assert!(started.elapsed() < std::time::Duration::from_secs(20), "{:?}", started.elapsed());
    for (ok, answer) in &r[2..7] {
        assert!(!ok && answer == "cannot load file", "{r:?}");
    }
    assert_eq!(r[7], (true, "black".to_string()), "{r:?}");
    assert_eq!(r[8], (true, "9".to_string()), "{r:?}");
}

// The error texts the specification and the GUIs expect, one per failure kind.
#[test]
fn error_texts() {
    let cases = [
        ("frobnicate", "unknown command"),
        ("boardsize 4294967305", "syntax error"),
        ("boardsize 2147483647", "unacceptable size"),
        ("boardsize 0", "unacceptable size"),
        ("boardsize 1", "unacceptable size"),
        ("boardsize 26", "unacceptable size"),
        ("boardsize -3", "syntax error"),
        ("time_settings 99999999999999999999999 1 1", "syntax error"),
        ("time_left b 99999999999999999999999 1", "syntax error"),
        ("kata-time_settings fischer 300", "syntax error"),
        ("kgs-time_settings hourglass 60", "syntax error"),
        ("time_left b -5 0", "syntax error"),
        ("time_settings 300 30", "syntax error"),
        ("fixed_handicap 4294967298", "syntax error"),
        ("boardsize x", "syntax error"),
        ("komi 7.5x", "syntax error"),
        ("play b A1.5", "syntax error"),
        ("play b", "syntax error"),
        ("play b Z25", "illegal move"),
        ("undo", "cannot undo"),
        ("loadsgf /nonexistent/file.sgf", "cannot load file"),
        ("fixed_handicap 1", "invalid number of stones"),
        ("fixed_handicap 10", "invalid number of stones"),
        ("set_free_handicap D4 D4", "bad vertex list"),
        ("set_free_handicap D4 pass", "bad vertex list"),
        ("set_free_handicap D4 Z30", "bad vertex list"),
        ("final_status_list maybe", "syntax error"),
        ("kata-set-rules {\"bogus\":1}", "unknown rules key 'bogus'"),
        ("kata-set-rules {\"ko\":\"SOMETIMES\"}", "bad value for rules key 'ko'"),
        ("kata-set-rules go-for-it", "unknown rules 'go-for-it'"),
        ("kgs-rules martian", "unknown rules"),
    ];
    for (command, expected) in cases {
        assert_eq!(responses(command), vec![(false, expected.to_string())], "{command}");
    }
    let occupied = responses("play b D4\nplay w D4\nfixed_handicap 2");
    assert_eq!(occupied[1], (false, "illegal move".into()));
    assert_eq!(occupied[2], (false, "board not empty".into()));
}

// Ids are echoed on success and failure; CR/LF input works; comments and blank lines vanish.
#[test]
fn framing() {
    let out =
        session("1 name\r\n\r\n# comment\n\n  2 frobnicate  \r\n3 protocol_version # trailing\n");
    assert_eq!(out, "=1 tengen\n\n?2 unknown command\n\n=3 2\n\n");
}

// Commands after quit are not read; quit answers first; end of input ends cleanly.
#[test]
fn quit_and_eof() {
    assert_eq!(session("quit\nname\n"), "=\n\n");
    assert_eq!(session("9 quit"), "=9\n\n");
    assert_eq!(session(""), "");
}

// Several moves of one colour in a row are legal (GUIs set up positions that way), colours
// and vertices in any case.
#[test]
fn same_colour_twice_and_cases() {
    let r = responses("play B d4\nplay BLACK Q16\nplay White k10\ngenmove WHITE\ngenmove b");
    assert!(r.iter().all(|(ok, _)| *ok), "{r:?}");
    let vertex = &r[3].1;
    assert!(
        vertex == "pass" || vertex.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()),
        "{vertex}"
    );
}

// showboard has no empty line inside and shows the stones; list_commands lists only known
// commands, each of which known_command confirms.
#[test]
fn showboard_and_command_table() {
    let out = session("boardsize 5\nplay b C3\nshowboard");
    let board = out.split("\n\n").nth(2).unwrap();
    assert!(board.contains(" 3  . .(X). . 3"), "{board}");
    assert!(!board.trim_end().contains("\n\n"));
    let list = responses("list_commands")[0].1.clone();
    for name in list.lines() {
        assert_eq!(responses(&format!("known_command {name}"))[0].1, "true", "{name}");
    }
    assert_eq!(responses("known_command frobnicate")[0].1, "false");
}

// final_score and tengen-count on a finished position, the dead stone removed.
#[test]
fn final_score_removes_dead_stones() {
    let mut input = String::from("boardsize 9\nkomi 7.5\n");
    for row in 1..=9 {
        input.push_str(&format!("play b D{row}\nplay w E{row}\n"));
    }
    input.push_str(
        "play w B5\nfinal_score\nfinal_status_list dead\nfinal_status_list alive\ntengen-count\n",
    );
    let r = responses(&input);
    let n = r.len();
    assert_eq!(r[n - 4], (true, "W+16.5".into()));
    assert_eq!(r[n - 3], (true, "B5".into()));
    assert_eq!(r[n - 2].1.lines().count(), 2, "the two walls: {:?}", r[n - 2]);
    assert!(r[n - 1].1.starts_with("黑 36 子，负 8 又 1/2 子"));
}

// printsgf output loads back through loadsgf to the same position.
#[test]
fn printsgf_round_trip() {
    let dir = Scratch::new("gtp-sgf");
    let path = dir.join("game.sgf");
    let path = path.to_str().unwrap();
    let r = responses(&format!(
        "boardsize 9\nkomi 5.5\nplay b E5\nplay w C3\nplay b pass\nprintsgf {path}\nclear_board\nloadsgf {path}\ncolor E5\ncolor C3\nget_komi\nprintsgf"
    ));
    assert!(r.iter().all(|(ok, _)| *ok), "{r:?}");
    assert_eq!(r[8].1, "black");
    assert_eq!(r[9].1, "white");
    assert_eq!(r[10].1, "5.5");
    assert!(r[11].1.starts_with("(;FF[4]") && r[11].1.contains(";B[ee]"), "{}", r[11].1);
}

// Self-play by genmove: every move legal, and the game ends with two passes (or a
// resignation) long before the board could be filled twice over.
#[test]
fn genmove_plays_a_game_to_the_end() {
    let mut engine = engine();
    let mut answers = Vec::new();
    let mut input = String::from("boardsize 7\n");
    run_on_text(&mut engine, input.as_bytes());
    for turn in 0..200 {
        input = format!("genmove {}\n", if turn % 2 == 0 { "b" } else { "w" });
        let (ok, answer) =
            tengen::gtp::server::split_response(&run_on_text(&mut engine, input.as_bytes()));
        assert!(ok, "{answers:?}");
        answers.push(answer);
        let n = answers.len();
        if answers[n - 1] == "resign"
            || (n >= 2 && answers[n - 1] == "pass" && answers[n - 2] == "pass")
        {
            break;
        }
    }
    let n = answers.len();
    let ended = answers[n - 1] == "resign" || answers[n - 2..] == ["pass", "pass"];
    assert!(ended, "{answers:?}");
    assert!(engine.game().board().check_invariants().is_ok());
}

// With a clock, genmove stays inside the time it has, however many playouts it may run:
// one-second byo-yomi periods on 19x19, and then a tiny absolute main time.
#[test]
fn genmove_respects_the_clock() {
    let mut engine = Engine::default();
    engine.set_search_params(SearchParams { playouts: usize::MAX, ..SearchParams::default() });
    // Byo-yomi: every move inside its one-second period; absolute: the three moves together
    // inside the two seconds.
    for (setting, per_move, all) in
        [("kgs-time_settings byoyomi 0 1 3", 1.0, 3.0), ("time_settings 2 0 0", 2.0, 2.0)]
    {
        run_on_text(&mut engine, format!("clear_board\n{setting}\n").as_bytes());
        let mut spent = 0.0;
        for _ in 0..3 {
            let started = std::time::Instant::now();
            let out = run_on_text(&mut engine, b"genmove b\n");
            let elapsed = started.elapsed().as_secs_f64();
            spent += elapsed;
            assert!(out.starts_with("= ") && !out.contains("resign"), "{out}");
            assert!(elapsed < per_move, "{setting}: {elapsed:.3} s for one move");
        }
        assert!(spent < all, "{setting}: {spent:.3} s for three moves");
    }
}

// Absurd clocks (the largest a GTP int allows; beyond it is a syntax error, pinned in
// error_texts) and rule/size combinations are answered like any other, never panicked on.
// The playout budget is set, so binds under those clocks (which would allow a day a move).
#[test]
fn absurd_settings_are_survived() {
    for setup in [
        "time_settings 2147483647 0 0",
        "time_left b 2147483647 0",
        "kgs-time_settings byoyomi 0 2147483647 5",
        "kata-time_settings fischer 2147483647 2147483647",
        "kata-set-rules ancient\nboardsize 5",
        "kata-set-rules ancient\nboardsize 6\nclear_board",
    ] {
        let moves = "genmove b\ngenmove w\ngenmove b\nname";
        let r = responses(&format!("boardsize 7\nkata-set-param playouts 2000\n{setup}\n{moves}"));
        assert!(r.iter().all(|(ok, _)| *ok), "{setup}: {r:?}");
        assert_eq!(r.last().unwrap().1, "tengen");
    }
}

// A game both players passed in and the controller resumed (KGS's cleanup phase) still gets
// real moves, not a pass or a resignation for want of candidates.
#[test]
fn moves_after_two_passes() {
    let r = responses(
        "boardsize 9\nplay b E5\nplay w pass\nplay b pass\nkgs-genmove_cleanup w\ngenmove b",
    );
    for (ok, answer) in &r[4..] {
        assert!(*ok && answer != "pass" && answer != "resign", "{r:?}");
    }
}

// kgs-genmove_cleanup does not pass while the opponent has dead stones on the board.
#[test]
fn cleanup_captures_dead_stones_before_passing() {
    let mut input = String::from("boardsize 9\nkomi 7.5\n");
    for row in 1..=9 {
        input.push_str(&format!("play b D{row}\nplay w E{row}\n"));
    }
    input.push_str("play w B5\nplay w pass\nkgs-genmove_cleanup b\n");
    let r = responses(&input);
    let (ok, answer) = r.last().unwrap();
    assert!(*ok && is_point(answer), "a move on the board, not pass or resign: {r:?}");
}

/// Whether a genmove answer names a point of the 9×9 board (not `pass`, not `resign`).
fn is_point(answer: &str) -> bool {
    let board = tengen::Board::new(9);
    matches!(tengen::board::vertex::parse_move(&board, answer), Some(tengen::Move::Play(_)))
}

// Black wins the count once white's dead B5 is removed, and white has passed: a plain
// genmove passes, but with --capture-all-dead (CGOS) black first captures the dead stone.
#[test]
fn capture_all_dead_before_passing() {
    let mut input = String::from("boardsize 9\nkomi 7.5\n");
    for row in 1..=9 {
        input.push_str(&format!("play b E{row}\nplay w F{row}\n"));
    }
    input.push_str("play w B5\nplay w pass\ngenmove b\n");
    let plain = responses(&input);
    assert_eq!(plain.last().unwrap().1, "pass", "{plain:?}");
    let mut cgos = engine();
    cgos.set_capture_all_dead(true);
    let out = run_on_text(&mut cgos, input.as_bytes());
    let last = out.split_terminator("\n\n").last().unwrap();
    assert!(last.strip_prefix("= ").is_some_and(is_point), "{out}");
}

/// A line as the specification's preprocessing leaves it, written here from the text of
/// GTP 2 section 2.2 rather than with the engine's own `preprocess`: control characters
/// other than HT removed, everything from `#` on dropped, HT made a space; `None` when only
/// whitespace is left (no command, no answer). Bytes that are not UTF-8 are characters of
/// their own, never whitespace.
fn spec_line(raw: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(raw);
    let mut kept = String::new();
    for c in text.chars().take_while(|&c| c != '#') {
        if c == '\t' {
            kept.push(' ');
        } else if !c.is_control() {
            kept.push(c);
        }
    }
    let words: Vec<&str> = kept.split_whitespace().collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// Lines the loop must answer for `input`.
fn executable_lines(input: &[u8]) -> usize {
    input.split(|&b| b == b'\n').filter(|line| spec_line(line).is_some()).count()
}

/// Whether some line of `input` is `quit` (with or without an id).
fn contains_quit(input: &[u8]) -> bool {
    input.split(|&b| b == b'\n').filter_map(spec_line).any(|line| {
        let mut words = line.split(' ');
        let first = words.next().unwrap_or("");
        let name =
            if first.bytes().all(|b| b.is_ascii_digit()) { words.next() } else { Some(first) };
        name == Some("quit")
    })
}

const WORDS: &[&str] = &[
    "play",
    "genmove",
    "undo",
    "boardsize",
    "clear_board",
    "komi",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "final_score",
    "final_status_list",
    "showboard",
    "loadsgf",
    "printsgf",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "kata-set-rules",
    "kgs-rules",
    "is_legal",
    "color",
    "b",
    "w",
    "black",
    "white",
    "pass",
    "A1",
    "D4",
    "T19",
    "Z25",
    "I5",
    "9",
    "19",
    "25",
    "0",
    "-1",
    "7.5",
    "1e308",
    "nan",
    "{\"ko\":\"SIMPLE\"}",
    "dead",
    "alive",
    "seki",
    "byoyomi",
    "canadian",
    "#",
    "\t",
    "4294967305",
    "99999999999999999999",
    "é",
    "\u{0}",
];

/// Whole commands for the random mixes: moves and setups that change the game, and the
/// same kinds of command refused (an occupied point, a bad size, a handicap on stones).
const WHOLE_LINES: &[&str] = &[
    "play b D4",
    "play w Q16",
    "play b Q4",
    "play w D16",
    "play b D4",
    "boardsize 9",
    "boardsize 0",
    "boardsize 26",
    "komi 6.5",
    "komi x",
    "fixed_handicap 2",
    "fixed_handicap 1",
    "undo",
    "clear_board",
    "kata-set-rules tromp-taylor",
    "kata-set-rules nonsense",
    "time_settings 300 30",
    "time_left b 10 0",
    "loadsgf /nonexistent",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    // Random bytes: every executable line gets exactly one response and the engine still
    // answers name afterwards.
    #[test]
    fn random_bytes_get_one_answer_per_line(bytes in proptest::collection::vec(any::<u8>(), 0..20_000)) {
        prop_assume!(!contains_quit(&bytes));
        let mut input = bytes.clone();
        input.extend_from_slice(b"\n1000 name\n");
        let out = run_on_text(&mut engine(), &input);
        prop_assert_eq!(out.matches("\n\n").count(), executable_lines(&input));
        prop_assert!(out.ends_with("=1000 tengen\n\n"));
        for response in out.split_terminator("\n\n") {
            prop_assert!(response.starts_with('=') || response.starts_with('?'), "{:?}", response);
        }
    }

    // Random mixes of real command words and arguments, and of whole commands that move
    // the game on or are refused: the same, with a board that stays consistent throughout.
    #[test]
    fn random_command_mixes(lines in proptest::collection::vec(proptest::collection::vec(0..WORDS.len() + WHOLE_LINES.len(), 1..5), 1..40)) {
        let mut input = String::new();
        for words in &lines {
            if let Some(whole) = WHOLE_LINES.get(words[0].wrapping_sub(WORDS.len())) {
                input.push_str(whole);
            } else {
                let line: Vec<&str> = words.iter().map(|&i| WORDS[i % WORDS.len()]).collect();
                input.push_str(&line.join(" "));
            }
            input.push('\n');
        }
        prop_assume!(!contains_quit(input.as_bytes()));
        input.push_str("1000 name\n");
        let mut whole = engine();
        let out = run_on_text(&mut whole, input.as_bytes());
        prop_assert_eq!(out.matches("\n\n").count(), executable_lines(input.as_bytes()));
        prop_assert!(out.ends_with("=1000 tengen\n\n"));
        prop_assert!(whole.game().board().check_invariants().is_ok());
        // Line by line on a fresh engine: a line answered with an error changes nothing.
        let mut stepwise = engine();
        for line in input.lines() {
            let before = stepwise.state_fingerprint();
            let out = run_on_text(&mut stepwise, format!("{line}\n").as_bytes());
            if out.starts_with('?') {
                prop_assert_eq!(stepwise.state_fingerprint(), before, "{}", line);
            }
        }
    }
}

// The real binary: stdout carries only GTP responses, even with logging raised; a 1 MB line
// and binary garbage are answered; end of input exits with status 0.
#[test]
fn binary_speaks_only_gtp() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["gtp", "--log-level", "debug"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = Vec::new();
    input.extend_from_slice(b"1 name\n");
    input.extend(std::iter::repeat_n(b'x', 1 << 20));
    input.extend_from_slice(b"\n\xff\xfe\x00garbage\x01\n2 boardsize 9\n3 genmove b\n4 loadsgf /nonexistent\n5 final_score\n");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        stdin.write_all(&input).unwrap();
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let responses: Vec<&str> = stdout.split_terminator("\n\n").collect();
    assert_eq!(responses.len(), 7, "{stdout}");
    assert!(responses.iter().all(|r| r.starts_with('=') || r.starts_with('?')), "{stdout}");
    assert_eq!(responses[0], "=1 tengen");
    assert!(responses[1].starts_with("? unknown command"));
    assert!(responses[5].starts_with("?4 cannot load file"));
    assert!(!output.stderr.is_empty(), "debug logging goes to stderr");
}

/// The binary run with `args`, asked for its parameters: everything it printed, and how it
/// ended. A bad option ends the process before it reads: the pipe may be closed then.
fn params_with(args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(b"kata-get-params\nquit\n");
    child.wait_with_output().unwrap()
}

// `--param KEY=VALUE` sets the same table as kata-set-param; a bad one stops the start.
#[test]
fn param_option() {
    let run = |args: &[&str]| params_with(&[&["gtp"], args].concat());
    let out = run(&["--param", "playouts=123", "--param", "policy=light"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\"playouts\":123") && text.contains("\"policy\":\"light\""), "{text}");
    for bad in ["bogus=1", "playouts", "threads=0"] {
        let out = run(&["--param", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--param"), "{bad}");
    }
}

// Every parameter of the table is a flag of its own, the same at the top level as after
// `gtp` (as GNU Go, Pachi and Leela users write them), listed by `--help`; a value outside
// the table's range stops the start with clap's error; a subcommand after top-level engine
// options is refused rather than silently ignoring them.
#[test]
fn engine_options_at_the_top_level() {
    let run = params_with;
    for prefix in [&[][..], &["gtp"][..]] {
        let args = [prefix, &["--playouts", "5000", "--threads", "2", "--exploration", "0.25"]];
        let out = run(&args.concat());
        let text = String::from_utf8(out.stdout).unwrap();
        for field in ["\"playouts\":5000", "\"threads\":2", "\"exploration\":0.25"] {
            assert!(text.contains(field), "{prefix:?} {field}: {text}");
        }
        // A time without playouts thinks for the whole time.
        let out = run(&[prefix, &["--time", "2"]].concat());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("\"time\":2") && !text.contains("\"playouts\":10000"), "{text}");
    }
    let help = Command::new(env!("CARGO_BIN_EXE_tengen")).arg("--help").output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    for flag in ["--playouts", "--threads", "--exploration", "--max-memory", "--live-gfx"] {
        assert!(help.contains(flag), "{flag}: {help}");
    }
    for bad in [&["--threads", "0"][..], &["--exploration", "x"], &["--playouts", "5", "gtp"]] {
        let out = run(bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(out.stdout.is_empty(), "{bad:?}");
    }
}
