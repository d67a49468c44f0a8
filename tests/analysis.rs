//! Live analysis over GTP (`lz-analyze`, `analyze`): the response framing GUIs rely on (`=`
//! at once, one line of `info` segments per interval, an empty line when the next input
//! arrives), the fields of each segment, `avoid`/`allow`, and stopping on input through the
//! real binary's pipes.

mod pipes;

use pipes::{numbers_after, GtpProcess, Lines, PATIENCE};
use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};
use tengen::gtp::server::run_on_text;
use tengen::gtp::Engine;
use tengen::search::SearchParams;

/// The release binary on 9×9 with one thread and `extra` options, its pipes open (stderr
/// too, for the graphics test).
fn start(extra: &[&str]) -> (Child, ChildStdin, Lines) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["gtp", "--threads", "1", "--size", "9"])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = child.stdin.take().unwrap();
    let output = Lines::new(child.stdout.take().unwrap());
    (child, input, output)
}

fn engine() -> Engine {
    let mut engine = Engine::default();
    engine.set_search_params(SearchParams { threads: 1, ..SearchParams::default() });
    engine
}

/// One `info` segment's fields, keyed by name; `pv` holds the rest of the segment.
fn segments(line: &str) -> Vec<Vec<(String, String)>> {
    line.split("info ")
        .filter(|s| !s.trim().is_empty())
        .map(|segment| {
            let (head, pv) = segment.split_once(" pv ").expect("pv comes last");
            let words: Vec<&str> = head.split_whitespace().collect();
            let mut fields: Vec<(String, String)> =
                words.chunks(2).map(|kv| (kv[0].to_string(), kv[1].to_string())).collect();
            fields.push(("pv".into(), pv.trim().to_string()));
            fields
        })
        .collect()
}

/// The visits of all the candidates of an analysis line.
fn total_visits(line: &str) -> u32 {
    segments(line).iter().map(|s| field(s, "visits").parse::<u32>().unwrap()).sum()
}

fn field<'a>(segment: &'a [(String, String)], name: &str) -> &'a str {
    &segment.iter().find(|(k, _)| k == name).unwrap_or_else(|| panic!("no {name}")).1
}

// `=` first, then info lines whose segments have Leela Zero's fields in order, win rates in
// [0, 10000], vertices on the board and a pv that starts with the move; an empty line ends
// the response before the next command's answer.
#[test]
fn lz_analyze_format() {
    let out = run_on_text(&mut engine(), b"boardsize 9\n7 lz-analyze B 5\nname\n");
    let (analysis, rest) = out.split_once("=\n\n").unwrap().1.split_once("\n\n").unwrap();
    assert_eq!(rest, "= tengen\n\n", "{out}");
    let mut lines = analysis.lines();
    assert_eq!(lines.next(), Some("=7"), "{out}");
    let info: Vec<&str> = lines.collect();
    assert!(!info.is_empty(), "at least the line at the stop: {out}");
    for line in info {
        let segments = segments(line);
        assert!(!segments.is_empty());
        for (order, s) in segments.iter().enumerate() {
            let keys: Vec<&str> = s.iter().map(|(k, _)| k.as_str()).collect();
            assert_eq!(keys, ["move", "visits", "winrate", "prior", "lcb", "order", "pv"]);
            let winrate: i64 = field(s, "winrate").parse().unwrap();
            let lcb: i64 = field(s, "lcb").parse().unwrap();
            assert!((0..=10_000).contains(&winrate) && lcb <= winrate, "{line}");
            assert_eq!(field(s, "order"), order.to_string());
            let mv = field(s, "move");
            assert!(
                tengen::board::vertex::parse_move(&tengen::Board::new(9), mv).is_some(),
                "{mv}"
            );
            assert!(field(s, "pv").starts_with(mv), "{line}");
            assert!(field(s, "visits").parse::<u32>().unwrap() > 0);
        }
    }
}

// `avoid` keeps moves out of the analysis; `allow` keeps it to the moves listed; `maxmoves`
// caps the segments; bad arguments are a syntax error and change nothing.
#[test]
fn avoid_allow_and_limits() {
    let out = run_on_text(&mut engine(), b"boardsize 9\nlz-analyze B 5 avoid B E5,D4,F6 1\nname\n");
    assert!(!out.contains("move E5 ") && !out.contains("move D4 ") && !out.contains("move F6 "));
    assert!(out.contains("info move "), "{out}");
    let out = run_on_text(&mut engine(), b"boardsize 9\nlz-analyze B 5 allow B C3,G7 1\nname\n");
    let allowed: Vec<_> =
        out.lines().filter(|l| l.starts_with("info")).flat_map(segments).collect();
    assert!(!allowed.is_empty(), "{out}");
    for s in &allowed {
        assert!(["C3", "G7"].contains(&field(s, "move")), "{out}");
    }
    let out = run_on_text(&mut engine(), b"boardsize 9\nanalyze 5 maxmoves 2\nname\n");
    let counts: Vec<usize> =
        out.lines().filter(|l| l.starts_with("info")).map(|l| segments(l).len()).collect();
    assert_eq!(counts.iter().max(), Some(&2), "capped at two, and two there: {out}");
    let out = run_on_text(&mut engine(), b"lz-analyze B 5 avoid\nlz-analyze purple\nname\n");
    assert_eq!(out, "? syntax error\n\n? syntax error\n\n= tengen\n\n");
}

// Through the real binary: lines keep coming while nothing is sent, and the next command
// stops the analysis at once (Sabaki sends `protocol_version`), answered after the empty
// line that ends the analysis.
#[test]
fn stops_when_input_arrives() {
    let (mut child, mut input, output) = start(&[]);
    input.write_all(b"lz-analyze 5\n").unwrap();
    input.flush().unwrap();
    assert_eq!(output.next(), "=\n");
    for _ in 0..3 {
        let line = output.next();
        assert!(line.starts_with("info move "), "{line}");
    }
    let asked = Instant::now();
    input.write_all(b"protocol_version\n").unwrap();
    input.flush().unwrap();
    let mut rest = Vec::new();
    loop {
        let line = output.next();
        if line == "= 2\n" {
            break;
        }
        rest.push(line);
    }
    assert!(asked.elapsed() < Duration::from_millis(500), "{:?}", asked.elapsed());
    assert_eq!(rest.last().map(String::as_str), Some("\n"), "the empty line ends it: {rest:?}");
    input.write_all(b"quit\n").unwrap();
    assert!(child.wait().unwrap().success());
}

// The README's promise: any input ends an analysis within 50 ms, also between lines a
// second apart (the stop does not wait for the next report), each time it is asked.
#[test]
fn stops_within_50_ms_between_long_intervals() {
    let (mut child, mut input, output) = start(&[]);
    for round in 0..4 {
        input.write_all(b"lz-analyze 100\n").unwrap();
        input.flush().unwrap();
        assert_eq!(output.next(), "=\n");
        std::thread::sleep(Duration::from_millis(300));
        let asked = Instant::now();
        input.write_all(b"protocol_version\n").unwrap();
        input.flush().unwrap();
        while output.next() != "= 2\n" {}
        let took = asked.elapsed();
        assert!(took < Duration::from_millis(50), "round {round}: {took:?}");
        assert_eq!(output.next(), "\n");
    }
    input.write_all(b"quit\n").unwrap();
    assert!(child.wait().unwrap().success());
}

// With `deterministic` on, a seed and `maxvisits`, the analysis ends on the same line
// (visits, win rates, score leads, ownership, variations) on 1, 2 and 4 threads, however
// often it reports: one seed for the whole analysis, the simulations numbered on across its
// time slices, and on 19×19 the criticality counts kept from slice to slice.
#[test]
fn deterministic_analysis_with_maxvisits_on_any_thread_count() {
    let last_line = |size: &str, threads: &str, interval: &str, visits: u32| {
        let args = ["--size", size, "--threads", threads, "--seed", "7", "--deterministic", "true"];
        let mut engine = GtpProcess::start(&args);
        let command = format!("kata-analyze {interval} maxvisits {visits} ownership true");
        let answer = engine.ask(&command);
        answer.lines().last().expect("an info line").to_string()
    };
    for (size, visits) in [("9", 3000), ("19", 1000)] {
        let one = last_line(size, "1", "10", visits);
        let counted = total_visits(&one);
        assert!((visits - 10..=visits).contains(&counted), "{size}: {counted} in {one}");
        assert_eq!(last_line(size, "2", "1", visits), one, "{size}×{size}, 2 threads");
        assert_eq!(last_line(size, "4", "100", visits), one, "{size}×{size}, 4 threads");
    }
}

// kata-analyze: float win rates, score lead and ownership from the side to move's view: in
// a position black clearly leads, black's lead and ownership are positive and white's the
// same numbers negated in sign; the ownership covers every point, row by row from the top
// row (KataGo's order). The position has no symmetry, so a mirrored, flipped, rotated or
// transposed map fails: black's wall on row 4 owns row 5, white's on row 2 owns row 1, and
// on row 3 black holds A3 and C3, white E3.
#[test]
fn kata_analyze_scores_and_ownership() {
    let stones = [
        "b A4", "b B4", "b C4", "b D4", "b E4", "w A2", "w B2", "w C2", "w D2", "w E2", "b A3",
        "b C3", "w E3",
    ];
    let setup: String = std::iter::once("boardsize 5\nkomi 0.5\n".to_string())
        .chain(stones.iter().map(|s| format!("play {s}\n")))
        .collect();
    let last_line = |color: &str| {
        let input = format!("{setup}kata-analyze {color} 5 ownership true ownershipStdev true rootInfo true pvVisits true\nname\n");
        let out = run_on_text(&mut engine(), input.as_bytes());
        out.lines().rfind(|l| l.starts_with("info")).unwrap_or_else(|| panic!("{out}")).to_string()
    };
    for (color, sign) in [("B", 1.0), ("W", -1.0)] {
        let line = last_line(color);
        let ownership = numbers_after(&line, "ownership");
        assert_eq!(ownership.len(), 25, "{line}");
        assert!(ownership.iter().all(|v| (-1.0..=1.0).contains(v)));
        // Row 5 (values 0–4) is black's, row 1 (20–24) white's; A3 (10) black's, E3 (14)
        // white's.
        let black_owns = |i: usize| sign * ownership[i] > 0.5;
        let white_owns = |i: usize| sign * ownership[i] < -0.5;
        assert!((0..5).all(black_owns) && (20..25).all(white_owns), "{color}: {line}");
        assert!(black_owns(10) && white_owns(14), "{color}: {line}");
        assert_eq!(numbers_after(&line, "ownershipStdev").len(), 25);
        let lead = numbers_after(&line, "scoreLead")[0];
        assert!(sign * lead > 0.0, "{color}: {line}");
        let winrate = numbers_after(&line, "winrate")[0];
        assert!((0.0..=1.0).contains(&winrate) && sign * (winrate - 0.5) > 0.0, "{line}");
        assert!(line.contains(" pvVisits ") && line.contains(" rootInfo visits "), "{line}");
    }
}

// genmove_analyze: analysis lines while thinking, then `play VERTEX`, and the move is played.
#[test]
fn genmove_analyze_plays_and_reports() {
    let mut engine = engine();
    engine.set_search_params(SearchParams {
        playouts: 30_000,
        threads: 1,
        ..SearchParams::default()
    });
    let out = run_on_text(
        &mut engine,
        b"boardsize 9\n5 lz-genmove_analyze b 1\n6 kata-genmove_analyze w 1\n",
    );
    let responses: Vec<&str> = out.split_terminator("\n\n").collect();
    assert_eq!(responses.len(), 3, "{out}");
    for (response, id) in responses[1..].iter().zip(["=5", "=6"]) {
        let lines: Vec<&str> = response.lines().collect();
        assert_eq!(lines[0], id, "{out}");
        let play = lines.last().unwrap().strip_prefix("play ").expect("ends with play");
        assert!(
            tengen::board::vertex::parse_move(&tengen::Board::new(9), play).is_some(),
            "{play}"
        );
        assert!(lines.len() > 2, "at least one analysis line while thinking: {out}");
        assert!(lines[1..lines.len() - 1].iter().all(|l| l.starts_with("info move ")), "{out}");
    }
    assert_eq!(engine.game().moves().len(), 2, "both moves were played");
    let out = run_on_text(&mut engine, b"genmove_analyze 10\n");
    assert_eq!(out, "? syntax error\n\n", "the colour is required");
    // Ownership asked of a genmove reaches its lines while it thinks.
    let out = run_on_text(&mut engine, b"kata-genmove_analyze b 1 ownership true\n");
    let line = out.lines().rfind(|l| l.starts_with("info")).unwrap_or_else(|| panic!("{out}"));
    let ownership = numbers_after(line, "ownership");
    assert_eq!(ownership.len(), 81);
    assert!(ownership.iter().any(|&v| v != 0.0), "{line}");
}

/// Each response of a session as (success, text).
fn answers(input: &str) -> Vec<(bool, String)> {
    let out = run_on_text(&mut engine(), input.as_bytes());
    out.split_terminator("\n\n").map(tengen::gtp::server::split_response).collect()
}

// One table of search parameters in two dialects: KataGo's JSON and GoGui's `param` lines;
// a value set in one shows in the other; unknown keys and bad values are clear errors.
#[test]
fn parameter_table() {
    let r = answers(
        "kata-get-params\nkata-set-param playouts 500\ntengen-param\ntengen-param priors 0\nkata-get-params\nkata-set-param nonsense 1\nkata-set-param playouts -3\ntengen-param policy heavy\n\
         kata-set-param model_prior 0\nkata-get-params\nkata-set-param model_prior -1\n\
         kata-set-param prior_weight 1.5\nkata-get-params\nkata-set-param prior_weight big\n\
         kata-set-param prior_weight auto\nkata-get-params\n\
         tengen-param dead_chain_prior 1\nkata-get-params\nkata-set-param dead_chain_prior yes\n\
         kata-set-param criticality 0.25\nkata-get-params\nkata-set-param criticality -1\n\
         tengen-param criticality auto\ntengen-param\n",
    );
    let json = tengen::gtp::json::parse_flat_object(&r[0].1).unwrap();
    let keys: Vec<&str> = json.iter().map(|(k, _)| k.as_str()).collect();
    let table: Vec<&str> = tengen::gtp::params::PARAMS.iter().map(|p| p.key).collect();
    assert_eq!(keys, table);
    assert!(r[1].0 && r[2].1.contains("[string] playouts 500"), "{r:?}");
    assert!(r[2].1.contains("[list/light/tactical/patterns] policy patterns"), "{r:?}");
    assert!(r[3].0 && r[4].1.contains("\"priors\":false") && r[4].1.contains("\"playouts\":500"));
    assert_eq!(r[5], (false, "unknown parameter 'nonsense'".to_string()));
    assert_eq!(r[6], (false, "bad value for parameter 'playouts'".to_string()));
    assert_eq!(r[7], (false, "bad value for parameter 'policy'".to_string()));
    // The move model's weight: on by default, 0 turns it off, negative is refused.
    assert!(r[0].1.contains("\"model_prior\":40"), "{r:?}");
    // The priors' weight follows the board size unless set.
    assert!(r[0].1.contains("\"prior_weight\":\"auto\""), "{r:?}");
    assert!(r[11].0 && r[12].1.contains("\"prior_weight\":1.5"), "{r:?}");
    assert_eq!(r[13], (false, "bad value for parameter 'prior_weight'".to_string()));
    assert!(r[14].0 && r[15].1.contains("\"prior_weight\":\"auto\""), "{r:?}");
    assert!(r[0].1.contains("\"rave_equivalence\":20000,"), "{r:?}");
    assert!(r[8].0 && r[9].1.contains("\"model_prior\":0"), "{r:?}");
    assert_eq!(r[10], (false, "bad value for parameter 'model_prior'".to_string()));
    // The dead-chain prior: off by default, a GoGui check box, on with 1.
    assert!(r[0].1.contains("\"dead_chain_prior\":false"), "{r:?}");
    assert!(r[2].1.contains("[bool] dead_chain_prior 0"), "{r:?}");
    assert!(r[16].0 && r[17].1.contains("\"dead_chain_prior\":true"), "{r:?}");
    assert_eq!(r[18], (false, "bad value for parameter 'dead_chain_prior'".to_string()));
    // Criticality's weight follows the board size unless set; negative is refused.
    assert!(r[0].1.contains("\"criticality\":\"auto\""), "{r:?}");
    assert!(r[19].0 && r[20].1.contains("\"criticality\":0.25"), "{r:?}");
    assert_eq!(r[21], (false, "bad value for parameter 'criticality'".to_string()));
    assert!(r[22].0 && r[23].1.contains("[string] criticality auto"), "{r:?}");
}

// GoGui's analyze menu: every listed command is known, and the graphics commands answer in
// GoGui's gfx language over the whole board.
#[test]
fn gogui_analyze_commands() {
    let r = answers("gogui-analyze_commands\n");
    let entries: Vec<String> = r[0].1.lines().map(String::from).collect();
    assert!(entries.len() >= 6, "{entries:?}");
    let mut input = String::from("boardsize 9\nplay b E5\nplay w C3\n");
    for entry in &entries {
        let command = entry.splitn(3, '/').nth(2).unwrap();
        let name = command.split_whitespace().next().unwrap();
        input.push_str(&format!("known_command {name}\n{command}\n"));
    }
    let r = answers(&input);
    for (i, entry) in entries.iter().enumerate() {
        let (known, answer) = (&r[3 + 2 * i], &r[4 + 2 * i]);
        assert_eq!(known.1, "true", "{entry}");
        assert!(answer.0, "{entry}: {answer:?}");
        match entry.split('/').nth(2).unwrap() {
            "tengen-ownership" => {
                let words: Vec<&str> = answer.1.split_whitespace().collect();
                assert_eq!(words[0], "INFLUENCE");
                assert_eq!(words.len(), 1 + 2 * 81, "{answer:?}");
            }
            "tengen-best_moves" => assert!(answer.1.starts_with("LABEL "), "{answer:?}"),
            "tengen-pv" => assert!(answer.1.starts_with("VAR b "), "{answer:?}"),
            _ => {}
        }
    }
}

// `maxvisits` ends the analysis by itself (the empty line comes without any input), and the
// same position analysed again goes on from the tree it has: its first line, after one
// interval of 10 ms (a few hundred simulations from scratch), already counts what the first
// analysis left, and a budget the tree already holds ends it at once.
#[test]
fn analysis_budget_and_resumption() {
    let (mut child, mut input, output) = start(&[]);
    let mut analyse = |command: &str| -> Vec<u32> {
        input.write_all(command.as_bytes()).unwrap();
        input.flush().unwrap();
        assert_eq!(output.next(), "=\n", "{command}");
        let mut totals = Vec::new();
        let started = Instant::now();
        loop {
            assert!(started.elapsed() < PATIENCE, "{command}: still analysing: {totals:?}");
            let line = output.next();
            if line == "\n" {
                return totals;
            }
            totals.push(total_visits(&line));
        }
    };
    let first = *analyse("lz-analyze 5 maxvisits 3000\n").last().expect("info lines");
    assert!((2900..6000).contains(&first), "{first}");
    let again = analyse("lz-analyze 1 maxvisits 6000\n");
    assert!(again[0] >= first, "the first line after 10 ms counts the kept tree: {again:?}");
    assert!(*again.last().unwrap() >= 5900, "{again:?}");
    let done = analyse("lz-analyze 1 maxvisits 6000\n");
    assert_eq!(done.len(), 1, "nothing left to search: {done:?}");
    input.write_all(b"quit\n").unwrap();
    assert!(child.wait().unwrap().success());
}

// GoGui's `# interrupt` makes a long genmove answer at once, with a real move; with
// `live_gfx` on, stderr carries `gogui-gfx:` best-move labels while it thinks.
#[test]
fn interrupt_and_live_graphics() {
    let (child, mut input, output) = start(&["--playouts", "100000000"]);
    input.write_all(b"tengen-param live_gfx 1\ngenmove b\n").unwrap();
    input.flush().unwrap();
    assert_eq!(output.next(), "=\n", "the parameter is set");
    assert_eq!(output.next(), "\n");
    std::thread::sleep(Duration::from_millis(1200));
    let asked = Instant::now();
    input.write_all(b"# interrupt\n").unwrap();
    input.flush().unwrap();
    let line = output.next();
    assert!(asked.elapsed() < Duration::from_millis(500), "{:?}", asked.elapsed());
    let answer = line.trim().strip_prefix("= ").expect("an answer");
    assert!(tengen::board::vertex::parse_move(&tengen::Board::new(9), answer).is_some(), "{line}");
    input.write_all(b"quit\n").unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("gogui-gfx:\nLABEL "), "{stderr}");
}
