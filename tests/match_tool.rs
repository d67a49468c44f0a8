//! `tengen match` end to end, against scripted fake engines (`examples/fake_gtp_engine.rs`)
//! for every way a game can end, and one short real match of tengen against itself.

mod common;

use common::Scratch;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn tengen_path() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tengen"))
}

/// The fake engine's command line with `args`.
fn fake(args: &str) -> String {
    format!("{} {args}", common::example("fake_gtp_engine").display())
}

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("match-{name}"))
}

struct Run {
    status: Option<i32>,
    stdout: String,
    stderr: String,
}

impl From<std::process::Output> for Run {
    fn from(out: std::process::Output) -> Run {
        Run {
            status: out.status.code(),
            stdout: String::from_utf8(out.stdout).unwrap(),
            stderr: String::from_utf8(out.stderr).unwrap(),
        }
    }
}

fn run_match(args: &[&str]) -> Run {
    Command::new(tengen_path()).arg("match").args(args).output().unwrap().into()
}

/// `sh ARGS` in the repository root, where the opt-in scripts of `tools/` run, with `env`
/// added to the environment.
#[cfg(unix)]
fn run_sh(args: &[&str], env: &[(&str, &Path)]) -> Run {
    let mut command = Command::new("sh");
    command.current_dir(env!("CARGO_MANIFEST_DIR")).args(args);
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().unwrap().into()
}

/// A one-game match on 9×9 between two fakes, returning the output.
fn one_game(black: &str, white: &str, extra: &[&str]) -> Run {
    let (black, white) = (fake(black), fake(white));
    let mut args = vec!["--black", &black, "--white", &white, "--size", "9"];
    args.extend_from_slice(extra);
    let run = run_match(&args);
    assert_eq!(run.status, Some(0), "{}{}", run.stdout, run.stderr);
    run
}

fn game_line(run: &Run) -> &str {
    run.stdout.lines().find(|l| l.starts_with("game 1:")).expect(&run.stdout)
}

// With `--cleanup never`, two passes are scored by a referee (tengen itself) even when a
// player disagrees; each player's own score is compared to it.
#[test]
fn two_passes_scored_by_the_referee() {
    let referee = format!("{} gtp", tengen_path().display());
    let run = one_game(
        "--name passer --score W+7.5",
        "--name other --score B+1",
        &["--referee", &referee, "--cleanup", "never"],
    );
    let line = game_line(&run);
    assert!(line.contains(": W+7.5 after 2 moves; two passes; scored by the referee"), "{line}");
    assert!(run.stdout.contains("A's own final_score agreed with the referee in 1 of 1"));
    assert!(run.stdout.contains("B's own final_score agreed with the referee in 0 of 1"));
}

// Without a referee the players must agree; with `--cleanup never` the result is unknown
// when they do not, never guessed.
#[test]
fn two_passes_without_referee() {
    let agree = one_game("--score W+7.5", "--score W+7.5", &[]);
    assert!(game_line(&agree).contains(": W+7.5 after 2 moves; two passes; scored by both players"));
    let differ = one_game("--score B+1", "--score W+7.5", &["--cleanup", "never"]);
    assert!(game_line(&differ).contains(": ? after 2 moves"), "{}", differ.stdout);
    assert!(differ.stdout.contains("unknown results: 1"));
    assert!(differ.stdout.contains("games: 1 (0 decided, 0 drawn, 1 unknown)"));
}

// Resignation, and every kind of forfeit, each with its reason.
#[test]
fn resignations_and_forfeits() {
    let cases = [
        ("--genmove resign", "", "W+R", "black resigned"),
        (
            "--genmove first-legal",
            "--genmove occupied",
            "B+F",
            "white forfeits: played the illegal move A9 (occupied)",
        ),
        (
            "--genmove garbage",
            "",
            "W+F",
            "black forfeits: answered `genmove black` with `over there`, not a move",
        ),
        (
            "--genmove error",
            "",
            "W+F",
            "black forfeits: answered `genmove black` with the error `cannot think`",
        ),
        ("--genmove crash", "", "W+F", "black forfeits: exited (crashed?) during `genmove black`"),
        ("--genmove first-legal", "--refuse-play", "B+F", "white forfeits: refused the legal move"),
    ];
    for (black, white, result, reason) in cases {
        let run = one_game(black, white, &[]);
        let line = game_line(&run);
        assert!(line.contains(&format!(": {result} after")), "{black} / {white}: {line}");
        assert!(line.contains(reason), "{black} / {white}: {line}");
    }
}

// A hung engine is a forfeit after the timeout, not a hung match.
#[test]
fn hung_engine_forfeits() {
    let run = one_game("", "--genmove hang", &["--timeout", "0.5"]);
    let line = game_line(&run);
    assert!(
        line.contains("B+F after 1 moves; white forfeits: no answer to `genmove white` in time"),
        "{line}"
    );
}

// Stray output does not keep a hung engine alive: the timeout is for the whole answer.
#[test]
fn chatty_hung_engine_forfeits() {
    let run = one_game("", "--genmove chatty", &["--timeout", "0.5"]);
    assert!(game_line(&run).contains("white forfeits: no answer to `genmove white` in time"));
}

// A move slower than the clock plus the lag allowance loses on time; a fast one does not.
#[test]
fn loss_on_time() {
    let slow = one_game("--genmove slow:0.6", "", &["--time-per-move", "0.2", "--lag", "0.1"]);
    let line = game_line(&slow);
    assert!(line.contains(": W+T after 0 moves; black lost on time"), "{line}");
    let fast = one_game(
        "--genmove slow:0.05 --score 0",
        "--score 0",
        &["--time-settings", "0 1 2", "--lag", "0.1"],
    );
    assert!(game_line(&fast).contains(": 0 after 2 moves"), "{}", fast.stdout);
}

// A game that goes on past the move limit stops unscored.
#[test]
fn move_limit() {
    let run = one_game("--genmove first-legal", "--genmove first-legal", &["--max-moves", "12"]);
    assert!(game_line(&run).contains(": ? after 12 moves; stopped unscored at the move limit (12)"));
}

// The SPRT stops the match as soon as it decides: every win for A is worth about 0.42.
#[test]
fn sprt_stops_early() {
    let (a, b) = (fake("--name strong"), fake("--name weak --genmove resign"));
    let run = run_match(&[
        "--black",
        &a,
        "--white",
        &b,
        "--size",
        "9",
        "--games",
        "100",
        "--alternate",
        "--sprt",
        "0,200",
    ]);
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("games: 8 (8 decided"), "{}", run.stdout);
    assert!(run.stdout.contains("H1 accepted"), "{}", run.stdout);
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

// Colours alternate with correct PB/PW/RE in every record, openings are each played once
// with each colour, and a match started again with its results file plays only what is
// missing.
#[test]
fn alternation_openings_records_and_resume() {
    let dir = scratch("records");
    let openings = dir.join("openings");
    std::fs::create_dir_all(&openings).unwrap();
    std::fs::write(openings.join("a.sgf"), "(;SZ[9];B[ee];W[cc])").unwrap();
    std::fs::write(openings.join("b.sgf"), "(;SZ[9];B[gc])").unwrap();
    let results = dir.join("results.jsonl");
    let sgf_dir = dir.join("sgf");
    let (a, b) = (fake("--name Alpha"), fake("--name Beta --genmove resign"));
    let args = |games: &'static str| {
        vec![
            "--black".to_string(),
            a.clone(),
            "--white".into(),
            b.clone(),
            "--size".into(),
            "9".into(),
            "--alternate".into(),
            "--games".into(),
            games.into(),
            "--openings".into(),
            openings.display().to_string(),
            "--results".into(),
            results.display().to_string(),
            "--sgf-dir".into(),
            sgf_dir.display().to_string(),
        ]
    };
    let first: Vec<String> = args("3");
    let run = run_match(&first.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    let game2 = read(&sgf_dir.join("game-0002.sgf"));
    assert!(game2.contains("PB[Beta 1]") && game2.contains("PW[Alpha 1]"), "{game2}");
    assert!(game2.contains(";B[ee];W[cc]") && !game2.contains("B[]"), "opening a: {game2}");
    assert!(game2.contains("RE[W+R]"), "Beta (black) resigned: {game2}");
    let game3 = read(&sgf_dir.join("game-0003.sgf"));
    assert!(game3.contains("PB[Alpha 1]") && game3.contains(";B[gc]"), "{game3}");
    assert!(game3.contains("RE[B+R]"), "{game3}");
    assert_eq!(read(&results).lines().count(), 3);

    let again: Vec<String> = args("4");
    let run = run_match(&again.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("resuming after 3 recorded games"), "{}", run.stdout);
    assert!(run.stdout.contains("game 4:") && !run.stdout.contains("game 1:"), "{}", run.stdout);
    assert!(run.stdout.contains("A wins           2         2       4"), "{}", run.stdout);
    let lines = read(&results);
    assert_eq!(lines.lines().count(), 4);
    assert!(lines.lines().last().unwrap().contains("\"opening\":\"b\""), "{lines}");
}

// Settings that cannot work are refused before any game starts.
#[test]
fn bad_settings_are_refused() {
    let a = fake("");
    for bad in [
        vec!["--black", "no-such-engine-xyz", "--white", &a],
        vec!["--black", &a, "--white", &a, "--sprt", "5"],
        vec!["--black", &a, "--white", &a, "--time-settings", "10 x 1"],
        vec!["--black", &a, "--white", &a, "--size", "40"],
        vec!["--black", &a, "--white", &a, "--openings", "/no/such/file.sgf"],
        vec!["--black", &a, "--white", &a, "--size", "9", "--handicap", "1"],
        vec!["--black", &a, "--white", &a, "--size", "9", "--handicap", "10"],
        vec!["--black", &a, "--white", &a, "--handicap", "2", "--openings", "openings/9x9"],
        vec!["--black", &a, "--white", &a, "--cleanup", "sometimes"],
        vec!["--black", &a, "--white", &a, "--cleanup-moves", "1"],
    ] {
        let run = run_match(&bad);
        assert_eq!(run.status, Some(2), "{bad:?}: {}", run.stdout);
        assert!(!run.stderr.is_empty(), "{bad:?}");
    }
}

/// A match of quick tengens (50 playouts, never resigning) refereed by tengen, records into
/// `dir`, with the `extra` settings.
fn tengen_match(dir: &Path, extra: &[&str]) -> Run {
    let engine =
        format!("{} gtp --playouts 50 --threads 1 --resign-threshold 0", tengen_path().display());
    let referee = format!("{} gtp", tengen_path().display());
    let dir = dir.to_str().unwrap();
    let mut args = vec!["--black", &engine, "--white", &engine, "--referee", &referee];
    args.extend_from_slice(&["--sgf-dir", dir]);
    args.extend_from_slice(extra);
    run_match(&args)
}

// One short real match: tengen against itself, refereed by tengen, colours alternating.
#[test]
fn tengen_against_itself() {
    let dir = scratch("self");
    let run =
        tengen_match(&dir, &["--size", "7", "--games", "2", "--alternate", "--parallel", "2"]);
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("games: 2 (2 decided"), "{}", run.stdout);
    assert!(run.stdout.contains("A forfeits: 0") && run.stdout.contains("B forfeits: 0"));
    for game in ["game-0001.sgf", "game-0002.sgf"] {
        let text = read(&dir.join(game));
        assert!(text.contains("RE[B+") || text.contains("RE[W+"), "{text}");
    }
}

// A handicap game: every program is told the stones, white moves first, and the record
// holds the handicap.
#[test]
fn handicap_games() {
    let dir = scratch("handicap");
    let run = tengen_match(&dir, &["--size", "9", "--handicap", "3"]);
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("games: 1 (1 decided"), "{}", run.stdout);
    let text = read(&dir.join("game-0001.sgf"));
    assert!(text.contains("HA[3]") && text.contains("AB[cc][gc][cg]"), "{text}");
    let first_move = text.find(";W[").expect("white moved");
    assert!(text.find(";B[").is_none_or(|black| black > first_move), "{text}");
}

// The results file records the handicap, and a match with another handicap does not
// resume from it; a player that puts its handicap stones elsewhere forfeits.
#[test]
fn handicap_results_and_misplaced_stones() {
    let dir = scratch("handicap-results");
    let results = dir.join("results.jsonl");
    let (a, b) = (fake("--score W+1"), fake("--score W+1"));
    let results_arg = results.to_str().unwrap();
    let with = |handicap: &str, black: &str| {
        let args = ["--black", black, "--white", &b, "--size", "9", "--handicap", handicap];
        run_match(&[&args[..], &["--results", results_arg]].concat())
    };
    let run = with("2", &a);
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    assert!(read(&results).contains("\"handicap\":2,"), "{}", read(&results));
    let other = with("3", &a);
    assert_eq!(other.status, Some(2), "{}", other.stdout);
    assert!(other.stderr.contains("another handicap"), "{}", other.stderr);

    let misplacing = fake("--misplace-handicap");
    let run = run_match(&["--black", &misplacing, "--white", &b, "--size", "9", "--handicap", "2"]);
    let line = game_line(&run);
    assert!(line.contains("W+F"), "{line}");
    assert!(line.contains("black forfeits: placed the handicap on `A9 B9`"), "{line}");
}

// `{game}` in an engine command becomes the game number (for per-game seeds).
#[test]
fn game_number_placeholder() {
    let (a, b) = (fake("--score W+{game}"), fake("--score W+{game}"));
    let run = run_match(&["--black", &a, "--white", &b, "--size", "9", "--games", "2"]);
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("game 1: fake 1 (B) - fake 1 (W): W+1 after"), "{}", run.stdout);
    assert!(run.stdout.contains("game 2: fake 1 (B) - fake 1 (W): W+2 after"), "{}", run.stdout);
}

// The referee's command takes the game number too (GNU Go seeded per game).
#[test]
fn game_number_placeholder_in_the_referee() {
    let (a, b) = (fake("--score B+9"), fake("--score B+9"));
    let referee = fake("--score W+{game}");
    let run = run_match(&[
        "--black",
        &a,
        "--white",
        &b,
        "--games",
        "2",
        "--referee",
        &referee,
        "--cleanup",
        "never",
    ]);
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("game 1: fake 1 (B) - fake 1 (W): W+1 after"), "{}", run.stdout);
    assert!(run.stdout.contains("game 2: fake 1 (B) - fake 1 (W): W+2 after"), "{}", run.stdout);
}

/// One of the three 9x9 seki of issue #47 (the same boards as gtp-tests/scoring.tst): the
/// black and white stones in an order that captures nothing, and the count with both
/// chains alive. The first is no real seki (black kills by giving up five stones, as
/// scoring.tst explains), but the fake players here never play the kill, so the cleanup
/// counts it as the players leave it.
struct Seki {
    black: &'static str,
    white: &'static str,
    /// The count with both chains alive, the shared liberties nobody's.
    count: &'static str,
    /// What GNU Go says, calling white's enclosed chain dead.
    gnugo: &'static str,
}

const SEKI: [Seki; 3] = [
    Seki {
        black: "D9,D8,D7,D6,G6,H6,J6,D5,F5,G5,D4,F4,D3,E3,F3,J3,D2,E2,H2,J2,D1,E1,F1,J1",
        white: "C9,C8,C7,C6,C5,H5,J5,C4,G4,H4,C3,G3,C2,F2,G2,C1,G1,H1",
        count: "W+0.5",
        gnugo: "B+19.5",
    },
    Seki {
        black: "E9,E8,E7,E6,E5,G5,H5,J5,E4,F4,G4,E3,F3,E2,J2,E1,H1,J1",
        white: "D9,D8,D7,D6,D5,D4,H4,J4,D3,G3,H3,D2,F2,G2,H2,D1,F1",
        count: "W+16.5",
        gnugo: "B+1.5",
    },
    Seki {
        black: "A6,B6,C6,D6,E6,F6,G6,H6,J6,C5,D5,E5,A4,B4,C4,E4,F4,F3,E2,F2,G2,A1,B1,C1,G1",
        white: "A7,B7,C7,D7,E7,F7,G7,H7,J7,D4,A3,B3,C3,D3,E3,B2,D2,D1,E1,F1",
        count: "W+4.5",
        gnugo: "B+19.5",
    },
];

impl Seki {
    /// The moves of a game that reaches the seki and ends in two passes: black plays its
    /// stones, white its own and then passes between black's last ones, and black passes.
    fn game_moves(&self) -> usize {
        let [black, white] = [self.black, self.white].map(|m| m.split(',').count());
        black + white + (black - white) + 1
    }
}

/// A one-game 9x9 match reaching `seki`, recording into `dir`: the players' `final_score`s
/// and extra fake options are `black`/`white`, the referee a fake answering `referee`.
fn seki_game(
    dir: &Path,
    seki: &Seki,
    black: &str,
    white: &str,
    referee: &str,
    extra: &[&str],
) -> Run {
    let black = fake(&format!("--name Black --moves {} {black}", seki.black));
    let white = fake(&format!("--name White --moves {} {white}", seki.white));
    let referee = fake(&format!("--name referee --score {referee}"));
    let results = dir.join("results.jsonl");
    let sgf_dir = dir.join("sgf");
    let mut args = vec!["--black", &black, "--white", &white, "--size", "9", "--referee", &referee];
    let (results, sgf_dir) = (results.to_str().unwrap(), sgf_dir.to_str().unwrap());
    args.extend_from_slice(&["--results", results, "--sgf-dir", sgf_dir]);
    args.extend_from_slice(extra);
    let run = run_match(&args);
    assert_eq!(run.status, Some(0), "{}{}", run.stdout, run.stderr);
    run
}

// When the players and the referee disagree, the game is cleaned up and counted with every
// stone alive: each seki of issue #47 scores as the players leave it, not as the referee
// (GNU Go) counts it, and the results file and the record say so.
#[test]
fn disagreement_is_cleaned_up_and_counted() {
    for (i, seki) in SEKI.iter().enumerate() {
        let dir = scratch(&format!("seki-{i}"));
        let black = format!("--score {}", seki.gnugo);
        let white = format!("--score {}", seki.count);
        let run = seki_game(&dir, seki, &black, &white, seki.gnugo, &[]);
        let moves = seki.game_moves() + 2;
        let expected = format!(
            ": {} after {moves} moves; two passes; the scores differ ({} / {} / referee {}); \
             after 2 cleanup moves counted with every stone alive",
            seki.count, seki.gnugo, seki.count, seki.gnugo
        );
        assert!(game_line(&run).contains(&expected), "{}", run.stdout);
        assert!(run.stdout.contains("games with a cleanup phase: 1"), "{}", run.stdout);
        let results = read(&dir.join("results.jsonl"));
        assert!(results.contains(&format!("\"result\":\"{}\"", seki.count)), "{results}");
        assert!(results.contains("\"cleanup_moves\":2,"), "{results}");
        let sgf = read(&dir.join("sgf").join("game-0001.sgf")).replace('\n', "");
        assert!(sgf.contains(&format!("RE[{}]", seki.count)), "{sgf}");
        // The game's two passes, then the cleanup's two, the first of them with the comment.
        let cleanup = ";B[];W[]C[The cleanup phase begins: the scores differ";
        assert!(sgf.contains(cleanup) && sgf.trim_end().ends_with(";B[])"), "{sgf}");
    }
}

// Players and referee that agree score the game as before: no cleanup, no extra moves.
#[test]
fn agreement_needs_no_cleanup() {
    let dir = scratch("seki-agree");
    let seki = &SEKI[0];
    let score = format!("--score {}", seki.count);
    let run = seki_game(&dir, seki, &score, &score, seki.count, &[]);
    let expected = format!(
        ": {} after {} moves; two passes; scored by the referee",
        seki.count,
        seki.game_moves()
    );
    assert!(game_line(&run).ends_with(&expected), "{}", run.stdout);
    assert!(!run.stdout.contains("cleanup"), "{}", run.stdout);
    assert!(read(&dir.join("results.jsonl")).contains("\"cleanup_moves\":0,"));
    assert!(!read(&dir.join("sgf").join("game-0001.sgf")).contains("cleanup"));
}

// `--cleanup never` leaves the game to the referee, wrong as it is; `--cleanup always`
// counts it even when everybody agrees on the wrong score.
#[test]
fn cleanup_never_and_always() {
    let seki = &SEKI[1];
    let wrong = format!("--score {}", seki.gnugo);
    let never =
        seki_game(&scratch("seki-never"), seki, &wrong, "", seki.gnugo, &["--cleanup", "never"]);
    let expected = format!(
        ": {} after {} moves; two passes; scored by the referee",
        seki.gnugo,
        seki.game_moves()
    );
    assert!(game_line(&never).ends_with(&expected), "{}", never.stdout);
    let always = seki_game(
        &scratch("seki-always"),
        seki,
        &wrong,
        &wrong,
        seki.gnugo,
        &["--cleanup", "always"],
    );
    let expected = format!(
        ": {} after {} moves; two passes; cleanup after every game (scores {} / {} / referee {}); \
         after 2 cleanup moves counted with every stone alive",
        seki.count,
        seki.game_moves() + 2,
        seki.gnugo,
        seki.gnugo,
        seki.gnugo
    );
    assert!(game_line(&always).ends_with(&expected), "{}", always.stdout);
}

// A cleanup phase that does not end in two passes within `--cleanup-moves` stops unscored.
#[test]
fn cleanup_move_limit() {
    let run =
        one_game("--score B+1 --cleanup-moves A1,B1,C1", "--score W+1", &["--cleanup-moves", "3"]);
    let expected = ": ? after 5 moves; two passes; the scores differ (B+1 / W+1); the cleanup did \
                    not end within 3 moves; stopped unscored";
    assert!(game_line(&run).ends_with(expected), "{}", run.stdout);
    assert!(run.stdout.contains("unknown results: 1"), "{}", run.stdout);
}

// A player that does not know kgs-genmove_cleanup is asked `genmove` in the cleanup, and
// the dead stones it captures there are counted as captured: white's J9 inside black's
// area, left on the board, would give W+4.5 (the stone white's, H9 and J8 nobody's).
#[test]
fn cleanup_falls_back_to_genmove() {
    let dir = scratch("seki-genmove");
    let seki = Seki {
        black: "D9,D8,D7,D6,G6,H6,J6,D5,F5,G5,D4,F4,D3,E3,F3,J3,D2,E2,H2,J2,D1,E1,F1,J1,pass,H9,J8",
        white: "C9,C8,C7,C6,C5,H5,J5,C4,G4,H4,C3,G3,C2,F2,G2,C1,G1,H1,J9",
        ..SEKI[0]
    };
    let (black_log, white_log) = (dir.join("black.log"), dir.join("white.log"));
    let black = format!("--no-cleanup --score W+0.5 --log {}", black_log.display());
    let white = format!("--score W+0.5 --log {}", white_log.display());
    let run = seki_game(&dir, &seki, &black, &white, "B+19.5", &[]);
    // The game: 24 black stones and a pass, 19 white stones and 5 passes; the cleanup: W
    // pass, B H9, W pass, B J8 (taking J9), W pass, B pass.
    let expected = ": W+0.5 after 55 moves; two passes; the scores differ (W+0.5 / W+0.5 / \
                    referee B+19.5); after 6 cleanup moves counted with every stone alive";
    assert!(game_line(&run).ends_with(expected), "{}", run.stdout);
    let black_log = read(&black_log);
    let after_score = &black_log[black_log.find("final_score").expect(&black_log)..];
    assert!(after_score.contains("known_command kgs-genmove_cleanup"), "{black_log}");
    assert_eq!(after_score.matches("genmove black").count(), 3, "{black_log}");
    assert!(!black_log.contains("kgs-genmove_cleanup black"), "{black_log}");
    let white_log = read(&white_log);
    assert_eq!(white_log.matches("kgs-genmove_cleanup white").count(), 3, "{white_log}");
    let sgf = read(&dir.join("sgf").join("game-0001.sgf"));
    assert!(sgf.contains(";B[ha]") && sgf.contains(";B[ib]"), "{sgf}");
}

/// `tengen match-report` on these results files with the `extra` options.
fn match_report(files: &[&Path], extra: &[&str]) -> Run {
    let out =
        Command::new(tengen_path()).arg("match-report").args(extra).args(files).output().unwrap();
    Run {
        status: out.status.code(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// The summary table at the end of a match's output, without the seconds a move (which
/// differ from run to run).
fn summary_without_times(stdout: &str) -> String {
    let start = stdout.rfind("match: A = ").expect(stdout);
    stdout[start..]
        .lines()
        .filter(|line| !line.contains("seconds per move"))
        .collect::<Vec<_>>()
        .join("\n")
}

// A seeded match played whole, and the same match as three shards merged by `match-report`,
// give the same summary (but for the seconds a move) and the same records; each shard plays
// only its own games. Duplicate and missing games are named, and a file of another match is
// refused.
#[test]
fn shards_merged_equal_one_run() {
    let dir = scratch("shards");
    let engine = format!(
        "{} gtp --playouts 40 --threads 1 --resign-threshold 0 --seed {{game}}",
        tengen_path().display()
    );
    let play = |name: &str, extra: &[&str]| {
        let (sgf_dir, results) = (dir.join(name), dir.join(format!("{name}.jsonl")));
        let (sgf, res) = (sgf_dir.display().to_string(), results.display().to_string());
        let mut args = vec!["--black", &engine, "--white", &engine, "--size", "7"];
        args.extend(["--games", "7", "--alternate", "--sgf-dir", &sgf, "--results", &res]);
        args.extend_from_slice(extra);
        let run = run_match(&args);
        assert_eq!(run.status, Some(0), "{name}: {}{}", run.stdout, run.stderr);
        (run, sgf_dir, results)
    };
    let (whole, whole_sgf, _) = play("whole", &[]);
    let mut shard_results = Vec::new();
    for k in 0..3 {
        let shard = format!("{k}/3");
        let (run, sgf_dir, results) = play(&format!("shard-{k}"), &["--shard", &shard]);
        let played: Vec<usize> =
            (1..=7).filter(|game| run.stdout.contains(&format!("\ngame {game}: "))).collect();
        let own: Vec<usize> = (1..=7).filter(|game| (game - 1) % 3 == k).collect();
        assert_eq!(played, own, "shard {shard}: {}", run.stdout);
        for game in own {
            let name = format!("game-{game:04}.sgf");
            assert_eq!(read(&sgf_dir.join(&name)), read(&whole_sgf.join(&name)), "{name}");
        }
        shard_results.push(results);
    }
    let files: Vec<&Path> = shard_results.iter().map(PathBuf::as_path).collect();
    let merged = match_report(&files, &[]);
    assert_eq!(merged.status, Some(0), "{}", merged.stderr);
    assert_eq!(summary_without_times(&merged.stdout), summary_without_times(&whole.stdout));
    assert!(!merged.stdout.contains("duplicate") && !merged.stdout.contains("missing"));

    let partial = match_report(&[files[0], files[0], files[1]], &["--games", "8"]);
    assert_eq!(partial.status, Some(0), "{}", partial.stderr);
    assert!(partial.stdout.contains("games: 5 ("), "{}", partial.stdout);
    assert!(partial.stdout.contains("duplicate games: 3\n  game 1: "), "{}", partial.stdout);
    assert!(partial.stdout.contains("missing games: 3 (3 6 8)"), "{}", partial.stdout);

    let other = dir.join("other.jsonl");
    let line = read(files[0]).lines().next().unwrap().replace("\"size\":7", "\"size\":9");
    std::fs::write(&other, format!("{line}\n")).unwrap();
    let refused = match_report(&[files[1], &other], &[]);
    assert_eq!(refused.status, Some(2), "{}", refused.stdout);
    assert!(
        refused.stderr.contains("other.jsonl:1: a game of another match"),
        "{}",
        refused.stderr
    );
    for bad in ["3/3", "x", "1/0"] {
        let run = run_match(&["--black", &engine, "--white", &engine, "--shard", bad]);
        assert_eq!(run.status, Some(2), "--shard {bad}");
    }
    let run =
        run_match(&["--black", &engine, "--white", &engine, "--shard", "0/2", "--sprt", "0,30"]);
    assert_eq!(run.status, Some(2), "a shard cannot stop the match on its own SPRT");
}

// A match killed in the middle of a game resumes with that game played again from the
// start: every game recorded exactly once, and the SGF files of all of them written. A run
// killed while writing a results line leaves an unfinished line, which the next run cuts off
// (with a warning) rather than refusing the file.
#[test]
fn a_match_killed_mid_game_resumes() {
    let dir = scratch("killed");
    let results = dir.join("results.jsonl");
    let sgf_dir = dir.join("sgf");
    let slow = fake("--genmove slow:0.15 --score B+1");
    let args = [
        "match",
        "--black",
        &slow,
        "--white",
        &slow,
        "--size",
        "9",
        "--games",
        "4",
        "--results",
        results.to_str().unwrap(),
        "--sgf-dir",
        sgf_dir.to_str().unwrap(),
    ];
    let mut first = Command::new(tengen_path()).args(args).stdout(Stdio::null()).spawn().unwrap();
    let started = Instant::now();
    // Each game takes two slow passes, about 0.3 s: kill the match 0.1 s into game 2.
    while std::fs::read_to_string(&results).unwrap_or_default().lines().count() < 1 {
        assert!(started.elapsed() < Duration::from_secs(30), "game 1 never recorded");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(100));
    first.kill().unwrap();
    first.wait().unwrap();
    let recorded = read(&results).lines().count();
    assert!(recorded < 4, "killed too late: {recorded} games recorded");
    // As a kill inside a write would leave it: half a line, no newline.
    let mut file = std::fs::OpenOptions::new().append(true).open(&results).unwrap();
    file.write_all(b"{\"game\":4,\"first_eng").unwrap();
    drop(file);

    let run = run_match(&args[1..]);
    assert_eq!(run.status, Some(0), "{}{}", run.stdout, run.stderr);
    let resuming = format!("resuming after {recorded} recorded games");
    assert!(run.stdout.contains(&resuming), "{}", run.stdout);
    assert!(run.stderr.contains("unfinished last line"), "{}", run.stderr);
    let text = read(&results);
    let mut games: Vec<usize> = text
        .lines()
        .map(|line| {
            let number = line.strip_prefix("{\"game\":").expect(line).split(',').next().unwrap();
            number.parse().unwrap()
        })
        .collect();
    games.sort_unstable();
    assert_eq!(games, [1, 2, 3, 4], "{text}");
    for game in 1..=4 {
        assert!(sgf_dir.join(format!("game-{game:04}.sgf")).exists(), "game {game}'s SGF");
    }
    assert!(run.stdout.contains("games: 4 (4 decided"), "{}", run.stdout);
}

/// `budget_option` of `tools/budget.sh`, the one reading of a thinking budget that the match
/// scripts share.
#[cfg(unix)]
fn budget_option(budget: &str) -> Run {
    run_sh(&["-c", ". tools/budget.sh; budget_option test-script \"$1\"", "sh", budget], &[])
}

#[cfg(unix)]
#[test]
fn match_scripts_read_playouts_and_times() {
    for (budget, option) in [
        ("1000", "--playouts 1000"),
        ("0.5s", "--time 0.5"),
        ("1s", "--time 1"),
        ("2.5s", "--time 2.5"),
    ] {
        let run = budget_option(budget);
        assert_eq!(
            (run.status, run.stdout.trim(), run.stderr.as_str()),
            (Some(0), option, ""),
            "{budget}"
        );
    }
    for budget in ["", "x", "0.5", "s", ".5s", "5.s", "1.2.3s", "1a.5s", "10ss", "-5", "5 s"] {
        let run = budget_option(budget);
        assert_eq!((run.status, run.stdout.as_str()), (Some(2), ""), "{budget:?} accepted");
        assert!(
            run.stderr.starts_with("test-script: ") && run.stderr.contains(&format!("'{budget}'")),
            "{budget:?}: {}",
            run.stderr
        );
    }
}

/// `tools/selfplay.sh` with `/bin/echo` as the engine prints the match it would play: both
/// sides get the budget, one thread and the game's seed before their own options.
#[cfg(unix)]
#[test]
fn selfplay_script_gives_both_sides_the_budget() {
    let dir = scratch("selfplay-script");
    let results = dir.join("results.jsonl");
    let selfplay = |budget: &str| {
        run_sh(
            &["tools/selfplay.sh", "10", budget, "--param a=1", "--param b=2"],
            &[("BIN", Path::new("/bin/echo")), ("RESULTS", &results)],
        )
    };
    for (budget, option) in [("0.5s", "--time 0.5"), ("1000", "--playouts 1000")] {
        let run = selfplay(budget);
        assert_eq!(run.status, Some(0), "{budget}: {}", run.stderr);
        let side = |options: &str| {
            format!("env  /bin/echo gtp {option} --threads 1 --seed {{game}} {options}")
        };
        let expected = format!(
            "match --black {} --white {} --size 9 --komi 7.5 --games 10 --alternate",
            side("--param a=1"),
            side("--param b=2")
        );
        assert!(run.stdout.starts_with(&expected), "{budget}: {}", run.stdout);
    }
    let run = selfplay("0.5");
    assert_eq!(run.status, Some(2));
    assert!(run.stdout.is_empty(), "a match ran with a malformed budget");
    assert!(run.stderr.starts_with("selfplay.sh: "), "{}", run.stderr);
}
