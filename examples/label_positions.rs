//! Asks a GTP engine (GNU Go by default) what it would play in the positions of game records,
//! for the move model to learn from more positions than the engine's own games hold:
//!
//!     cargo run --release --example label_positions -- --out labelled.sgfs \
//!         data/move-model-games.sgfs
//!
//! Every move of a player whose `PB`/`PW` name does not contain `--player` gets, before it is
//! played, the engine's `reg_genmove` in that position; the answer goes into the move's
//! comment as `GNU Go: dd` (the `--player` name and an SGF point; passes and resignations
//! are not written), which `train_move_model` learns from as if that player had played it
//! there. Moves of `--player` itself are left as they are: they are labels already.
//!
//! Engines without `reg_genmove` (Pachi) are asked with `genmove` and `undo` instead:
//!
//!     cargo run --release --example label_positions -- --out pachi.sgfs --player Pachi \
//!         --genmove-undo --engine "bash -c 'cd DIR && exec ./pachi -D -t =5000 threads=1'" \
//!         data/move-model-games.sgfs
//!
//! With `--search-playouts N` tengen's own search labels instead, in this process, and the
//! comment lists the moves it visited with their visits (`T10k: pd 4120 dp 2890`):
//!
//!     cargo run --release --example label_positions -- --out search.sgfs --player T10k \
//!         --search-playouts 10000 games19.sgfs
//!
//! The output is one game per line, in the order of the input, so that `train_move_model`
//! holds out the same games. Records it cannot replay (setup stones, handicap, an illegal move
//! by the engine's judgement) are written back unlabelled from that point on.

use clap::Parser;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;
use tengen::board::vertex;
use tengen::client::process::GtpProcess;
use tengen::game::record;
use tengen::game::rules::Rules;
use tengen::game::sgf::{self, SgfRecord};
use tengen::game::Game;
use tengen::search::{self, SearchParams};
use tengen::train;
use tengen::{Board, Color, Move};

#[derive(Parser)]
struct Args {
    /// Where to write the labelled records (one per line).
    #[arg(long)]
    out: PathBuf,
    /// The engine that labels positions.
    #[arg(long, default_value = "/usr/games/gnugo --mode gtp --chinese-rules --level 10 --seed 1")]
    engine: String,
    /// The name the labels carry; moves by players whose name contains it are not labelled.
    #[arg(long, default_value = "GNU Go")]
    player: String,
    /// Label with tengen's own search of this many playouts (one thread, seed 1), run in this
    /// process, instead of `--engine`: the label lists every move the search visited in at
    /// least 1 of 200 of its simulations, with its visits, for the model to learn the
    /// search's spread of choices rather than its one pick.
    #[arg(long)]
    search_playouts: Option<usize>,
    /// Ask with `genmove` and take the move back with `undo`, for engines without GNU Go's
    /// `reg_genmove` (Pachi: `--engine "bash -c 'cd DIR && exec ./pachi -t =5000 threads=1'"`).
    #[arg(long)]
    genmove_undo: bool,
    /// Engines (or searches) run at once, one game each.
    #[arg(long, default_value_t = 2)]
    jobs: usize,
    /// `.sgfs` files (one game per line) or `.sgf` files.
    records: Vec<PathBuf>,
}

fn main() {
    let args = Args::parse();
    let mut texts = Vec::new();
    for path in &args.records {
        let Ok(text) = std::fs::read_to_string(path) else {
            eprintln!("label_positions: cannot read {}", path.display());
            std::process::exit(2);
        };
        if path.extension().is_some_and(|e| e == "sgfs") {
            texts.extend(text.lines().filter(|l| !l.trim().is_empty()).map(str::to_string));
        } else {
            // One game per output line: line breaks inside it become spaces.
            texts.push(text.replace('\n', " "));
        }
    }
    let Ok(mut out) = std::fs::File::create(&args.out) else {
        eprintln!("label_positions: cannot write {}", args.out.display());
        std::process::exit(2);
    };
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<(usize, String)>();
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.max(1) {
            let sender = sender.clone();
            let (texts, next, args) = (&texts, &next, &args);
            scope.spawn(move || {
                let mut engine = args.search_playouts.is_none().then(|| start(&args.engine));
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(text) = texts.get(index) else { break };
                    let labelled = match sgf::parse(text) {
                        Ok(mut record) => {
                            if let Some(gtp) = &mut engine {
                                if label(&mut record, gtp, &args.player, args.genmove_undo).is_err()
                                {
                                    eprintln!("game {}: the engine failed; restarting", index + 1);
                                    engine = Some(start(&args.engine));
                                }
                            } else if let Some(playouts) = args.search_playouts {
                                label_by_search(&mut record, playouts, &args.player);
                            }
                            sgf::write(&record).replace('\n', " ")
                        }
                        Err(_) => text.clone(),
                    };
                    if sender.send((index, labelled)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Lines are written in input order as soon as every earlier one is in.
        let (mut pending, mut written) = (BTreeMap::new(), 0);
        for (index, line) in receiver {
            pending.insert(index, line);
            while let Some(line) = pending.remove(&written) {
                if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
                    eprintln!("label_positions: cannot write {}", args.out.display());
                    std::process::exit(1);
                }
                written += 1;
                if written % 50 == 0 {
                    eprintln!("{written} of {} games labelled", texts.len());
                }
            }
        }
    });
}

fn start(command: &str) -> GtpProcess {
    match GtpProcess::spawn(command, Path::new("."), Duration::from_secs(120)) {
        Ok(engine) => engine,
        Err(error) => {
            eprintln!("label_positions: cannot start {command}: {error}");
            std::process::exit(2);
        }
    }
}

/// Labels the moves of `record` not played by `player` with the visits of tengen's search
/// of `playouts` in the position before each.
fn label_by_search(record: &mut SgfRecord, playouts: usize, player: &str) {
    if !labels_fit(record) {
        return;
    }
    let params = SearchParams { playouts, seed: 1, threads: 1, ..SearchParams::default() };
    let is_player = players(record, player);
    let rules = record::rules_of(record, &Rules::default());
    let mut game = Game::new(record.size.into(), rules);
    for node in &mut record.nodes {
        let Some((color, point)) = node.mv else { continue };
        if !is_player[usize::from(color == Color::White)] {
            game.set_to_move(color);
            let result = search::search(&game, &params);
            let least = (result.root_visits / 200).max(1);
            let visits: Vec<((u8, u8), u32)> = (result.candidates.iter())
                .filter(|&&(_, n, _)| n >= least)
                .filter_map(|&(mv, n, _)| match mv {
                    Move::Play(q) => Some((record::sgf_point_of(game.board(), q), n)),
                    Move::Pass => None,
                })
                .collect();
            if !visits.is_empty() {
                node.comment = Some(train::visits_comment(player, &visits));
            }
        }
        if game.play(color, record::move_of(game.board(), point)).is_err() {
            return;
        }
    }
}

/// Whether `record` can be labelled: no setup stones, no handicap, a size the board takes.
fn labels_fit(record: &SgfRecord) -> bool {
    let setup = record.nodes.iter().any(|n| !n.add_black.is_empty() || !n.add_white.is_empty());
    !setup && record.handicap.unwrap_or(0) == 0 && Board::is_valid_size(record.size.into())
}

/// For black and white: whether the record names `player` as that side, whose moves are
/// labels already.
fn players(record: &SgfRecord, player: &str) -> [bool; 2] {
    let named = |name: &Option<String>| name.as_deref().is_some_and(|n| n.contains(player));
    [named(&record.black_name), named(&record.white_name)]
}

/// Labels the moves of `record` not played by `player`, replaying the game on `engine`.
/// `Err` when the engine stopped answering; a refused move only ends the labelling there.
fn label(
    record: &mut SgfRecord,
    engine: &mut GtpProcess,
    player: &str,
    genmove_undo: bool,
) -> Result<(), ()> {
    if !labels_fit(record) {
        return Ok(());
    }
    let size = record.size;
    // Only for turning SGF points into GTP vertices and back; the engine keeps the game.
    let board = Board::new(size.into());
    let is_player = players(record, player);
    let mut ask = |line: &str| engine.command(line).map_err(|_| ());
    if !ask(&format!("boardsize {size}"))?.ok || !ask("clear_board")?.ok {
        return Ok(());
    }
    ask(&format!("komi {}", record.komi.unwrap_or(7.5)))?;
    for node in &mut record.nodes {
        let Some((color, point)) = node.mv else { continue };
        let name = if color == Color::Black { "black" } else { "white" };
        if !is_player[usize::from(color == Color::White)] {
            let answer = if genmove_undo {
                let answer = ask(&format!("genmove {name}"))?;
                // GTP's genmove plays what it answers, a pass too; a resignation plays nothing.
                let played = answer.ok && !answer.text.trim().eq_ignore_ascii_case("resign");
                if played && !ask("undo")?.ok {
                    return Ok(());
                }
                answer
            } else {
                ask(&format!("reg_genmove {name}"))?
            };
            if answer.ok {
                if let Some(Move::Play(q)) = vertex::parse_move(&board, answer.text.trim()) {
                    let point = record::sgf_point_of(&board, q);
                    node.comment = Some(train::label_comment(player, point));
                }
            }
        }
        let mv = record::move_of(&board, point);
        if !ask(&format!("play {name} {}", vertex::format_move(&board, mv)))?.ok {
            return Ok(());
        }
    }
    Ok(())
}
