//! A scripted GTP engine for testing controllers (`tengen match`, `tengen regress`): it keeps
//! the position honestly but answers `genmove` the way it is told to misbehave.
//!
//! ```text
//! fake_gtp_engine [--name NAME] [--score RESULT] [--genmove BEHAVIOUR] [--refuse-play]
//!                 [--misplace-handicap] [--moves LIST] [--cleanup-moves LIST] [--no-cleanup]
//!                 [--log FILE]
//! ```
//!
//! `--moves A1,B2,pass` answers the first `genmove`s with these moves in turn, then follows
//! BEHAVIOUR. `kgs-genmove_cleanup` answers with the `--cleanup-moves` in turn, then passes;
//! `--no-cleanup` leaves that command unknown (and `known_command` says so). `--log` appends
//! every command received to FILE, one a line.
//!
//! BEHAVIOUR: `pass` (the default), `resign`, `first-legal` (the first legal point that is
//! not an own eye, else pass), `occupied` (the first occupied point, else A1), `garbage`,
//! `error`, `crash`, `hang`, `chatty` (hang while printing stray lines), `slow:SECONDS`
//! (think, then pass). `--score` is the answer to
//! `final_score` (without it, an error); `--refuse-play` rejects every `play`;
//! `--misplace-handicap` answers `fixed_handicap` with the first points of the board instead
//! of the stones it placed.

use std::io::{BufRead, Write};
use std::time::Duration;
use tengen::board::vertex::{format_move, parse_move};
use tengen::{Color, Game, Move, Rules};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let option =
        |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let name = option("--name").unwrap_or_else(|| "fake".into());
    let score = option("--score");
    let behaviour = option("--genmove").unwrap_or_else(|| "pass".into());
    let refuse_play = args.iter().any(|a| a == "--refuse-play");
    let misplace_handicap = args.iter().any(|a| a == "--misplace-handicap");
    let no_cleanup = args.iter().any(|a| a == "--no-cleanup");
    let list = |name: &str| -> Vec<String> {
        let text = option(name).unwrap_or_default();
        text.split(',').map(str::trim).filter(|m| !m.is_empty()).rev().map(String::from).collect()
    };
    // Scripted moves, the next one last.
    let mut moves = list("--moves");
    let mut cleanup_moves = list("--cleanup-moves");
    let mut log = option("--log")
        .and_then(|path| std::fs::OpenOptions::new().create(true).append(true).open(path).ok());
    let known = |command: &str| {
        KNOWN.contains(&command) && !(no_cleanup && command == "kgs-genmove_cleanup")
    };
    let mut game = Game::new(19, Rules::chinese());
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if let Some(log) = log.as_mut() {
            let _ = writeln!(log, "{line}");
        }
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else { continue };
        let (id, command) = match first.parse::<u64>() {
            Ok(id) => (id.to_string(), words.next().unwrap_or("")),
            Err(_) => (String::new(), first),
        };
        let args: Vec<&str> = words.collect();
        let answer: Result<String, String> = match command {
            "name" => Ok(name.clone()),
            "version" => Ok("1".into()),
            "protocol_version" => Ok("2".into()),
            "boardsize" => match args.first().and_then(|s| s.parse().ok()) {
                Some(size) => {
                    game = Game::new(size, Rules::chinese());
                    Ok(String::new())
                }
                None => Err("syntax error".into()),
            },
            "clear_board" => {
                game = Game::new(game.board().size(), Rules::chinese());
                Ok(String::new())
            }
            "komi" | "time_settings" | "time_left" => Ok(String::new()),
            "play" if refuse_play => Err("illegal move".into()),
            "play" => play(&mut game, &args),
            "undo" => game.undo().map_err(|_| "cannot undo".to_string()).map(|()| String::new()),
            "final_score" => score.clone().ok_or_else(|| "cannot score".into()),
            "fixed_handicap" => match args.first().and_then(|n| n.parse().ok()) {
                Some(stones) => match game.place_fixed_handicap(stones) {
                    Ok(points) => {
                        let board = game.board();
                        let shown: Vec<_> = if misplace_handicap {
                            board.points().take(points.len()).collect()
                        } else {
                            points
                        };
                        let vertices: Vec<String> =
                            shown.into_iter().map(|p| format_move(board, Move::Play(p))).collect();
                        Ok(vertices.join(" "))
                    }
                    Err(_) => Err("invalid number of stones".into()),
                },
                None => Err("syntax error".into()),
            },
            "known_command" => Ok(known(args.first().copied().unwrap_or("")).to_string()),
            "genmove" => {
                let color = args.first().and_then(|c| Color::parse(c)).unwrap_or(Color::Black);
                match moves.pop() {
                    Some(mv) => scripted(&mut game, color, &mv),
                    None => genmove(&mut game, color, &behaviour),
                }
            }
            "kgs-genmove_cleanup" if known(command) => {
                let color = args.first().and_then(|c| Color::parse(c)).unwrap_or(Color::Black);
                scripted(&mut game, color, &cleanup_moves.pop().unwrap_or_else(|| "pass".into()))
            }
            "quit" => {
                let _ = write!(out, "={id}\n\n");
                let _ = out.flush();
                return;
            }
            _ => Err("unknown command".into()),
        };
        let _ = match answer {
            Ok(text) if text.is_empty() => write!(out, "={id}\n\n"),
            Ok(text) => write!(out, "={id} {text}\n\n"),
            Err(text) => write!(out, "?{id} {text}\n\n"),
        };
        let _ = out.flush();
    }
}

/// The commands answered (`kgs-genmove_cleanup` unless `--no-cleanup`).
const KNOWN: [&str; 16] = [
    "name",
    "version",
    "protocol_version",
    "boardsize",
    "clear_board",
    "komi",
    "time_settings",
    "time_left",
    "play",
    "undo",
    "final_score",
    "fixed_handicap",
    "genmove",
    "kgs-genmove_cleanup",
    "known_command",
    "quit",
];

/// Answers a scripted move, playing it here when it is legal (the controller is the one to
/// refuse it otherwise).
fn scripted(game: &mut Game, color: Color, vertex: &str) -> Result<String, String> {
    if let Some(mv) = parse_move(game.board(), vertex) {
        let _ = game.play(color, mv);
    }
    Ok(vertex.to_string())
}

fn play(game: &mut Game, args: &[&str]) -> Result<String, String> {
    let color = args.first().and_then(|c| Color::parse(c)).ok_or("syntax error")?;
    let mv = args.get(1).and_then(|v| parse_move(game.board(), v)).ok_or("syntax error")?;
    game.play(color, mv).map(|()| String::new()).map_err(|_| "illegal move".to_string())
}

fn genmove(game: &mut Game, color: Color, behaviour: &str) -> Result<String, String> {
    let board = game.board();
    let mv = match behaviour {
        "resign" => return Ok("resign".into()),
        "garbage" => return Ok("over there".into()),
        "error" => return Err("cannot think".into()),
        "crash" => std::process::exit(3),
        "hang" => loop {
            std::thread::sleep(Duration::from_secs(1));
        },
        // Hung, but printing stray lines all the while.
        "chatty" => loop {
            println!("thinking...");
            std::thread::sleep(Duration::from_millis(50));
        },
        "first-legal" => game
            .legal_points(color)
            .into_iter()
            .find(|&p| !board.is_true_eye(p, color))
            .map_or(Move::Pass, Move::Play),
        "occupied" => {
            let occupied = board.points().find(|&p| board.stone(p).is_some());
            Move::Play(occupied.unwrap_or_else(|| board.point(0, board.size() - 1)))
        }
        slow if slow.starts_with("slow:") => {
            let seconds: f64 = slow[5..].parse().unwrap_or(1.0);
            std::thread::sleep(Duration::from_secs_f64(seconds));
            Move::Pass
        }
        _ => Move::Pass,
    };
    let text = format_move(game.board(), mv);
    // An occupied point is not played here: the controller is the one to refuse it.
    if game.check(color, mv).is_ok() {
        let _ = game.play(color, mv);
    }
    Ok(text)
}
