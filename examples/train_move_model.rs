//! Trains the move model (`src/search/move_model.rs`) from game records:
//!
//!     cargo run --release --example train_move_model -- --out src/search/move_model.txt \
//!         --player "GNU Go" DIR_OR_SGF...
//!
//! The records are SGF files, folders of them, or `.sgfs` files holding one game per line
//! (`data/move-model-games.sgfs` is the set the shipped model was trained on).
//! Every move by a player whose `PB`/`PW` name contains `--player` (after the first `--skip`
//! moves, which come from an opening book) is a position to learn from: the features of
//! every move the search would consider there, and the one played. One game in every
//! `--holdout` is kept out of training and used to measure how often the model's first
//! choice is the move played.
//!
//! A move whose comment reads `GNU Go: dd` (the `--player` name and an SGF point, as
//! `examples/label_positions.rs` writes them) is a position to learn from too, with that
//! point as the move chosen there, whoever played on. A comment listing a search's visits
//! (`T10k: pd 4120 dp 2890`, from `label_positions --search-playouts`) spreads the choice
//! over its moves in proportion to their visits.
//!
//! `--start FILE` begins from another model's gammas, and the groups named with `--without`
//! keep them: e.g. the shapes of a model learnt from many 9×9 games, with the line, distance
//! and tactical groups refitted to 19×19 positions:
//!
//!     cargo run --release --example train_move_model -- --out /tmp/big.txt --player T10k \
//!         --size 19 --start src/search/move_model_big.txt --without shape --without diamond \
//!         labelled19.sgfs

use clap::Parser;
use std::path::{Path, PathBuf};
use tengen::game::rules::Rules;
use tengen::game::Game;
use tengen::game::{record, sgf};
use tengen::search::move_model::{self, Features, Recent};
use tengen::train::{self, TrainingSet};
use tengen::{Board, Color, Move, Point};

#[derive(Parser)]
struct Args {
    /// Where to write the gammas.
    #[arg(long)]
    out: PathBuf,
    /// Learn from the moves of players whose name contains this, and from labels in
    /// comments that start with it.
    #[arg(long, default_value = "GNU Go")]
    player: String,
    /// Moves at the start of each game not to learn from.
    #[arg(long, default_value_t = 2)]
    skip: usize,
    /// Rounds of MM updates.
    #[arg(long, default_value_t = 25)]
    iterations: usize,
    /// Keep one game in this many out of training, for measuring.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(2..))]
    holdout: u64,
    /// Learn only from games on this board size (all sizes when not given).
    #[arg(long)]
    size: Option<u8>,
    /// Also measure these models (files in the `--out` format) on the held-out games, to
    /// compare them with the new one on the same positions.
    #[arg(long)]
    compare: Vec<PathBuf>,
    /// Leave this feature group out (its gammas stay 1), e.g. `--without diamond`.
    #[arg(long)]
    without: Vec<String>,
    /// Learn from the first this many games only (in the order the records are read).
    #[arg(long)]
    first: Option<usize>,
    /// Start from this model's gammas (a file in the `--out` format) instead of all 1; the
    /// groups left out with `--without` keep them.
    #[arg(long)]
    start: Option<PathBuf>,
    /// Of a label's moves with visits, learn only from those with at least this share of the
    /// most visited one's (0 keeps them all): a search also visits the moves it refutes.
    #[arg(long, default_value_t = 0.0)]
    least_share: f64,
    /// SGF files, or folders of them.
    records: Vec<PathBuf>,
}

/// The model in the gamma file at `path`; a file that cannot be read ends the program.
fn read_model(path: &Path) -> move_model::MoveModel {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string());
    text.and_then(|text| move_model::MoveModel::parse(&text)).unwrap_or_else(|error| {
        eprintln!("train_move_model: {}: {error}", path.display());
        std::process::exit(2);
    })
}

fn main() {
    let args = Args::parse();
    // The models to compare are read first, so that a wrong path fails before the training.
    let others: Vec<_> = args.compare.iter().map(|path| (path, read_model(path))).collect();
    let start = args.start.as_deref().map(read_model).unwrap_or_default();
    let mut without = Vec::new();
    for name in &args.without {
        let Some(group) = move_model::Group::from_name(name) else {
            eprintln!("train_move_model: no feature group {name}");
            std::process::exit(2);
        };
        without.push(group);
    }
    let mut files = Vec::new();
    for path in &args.records {
        collect(path, &mut files);
    }
    files.sort();
    let (mut training, mut held_out) = (TrainingSet::default(), TrainingSet::default());
    // One game per `.sgf` file, or one per line of an `.sgfs` file (a collection).
    let mut texts = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        if file.extension().is_some_and(|e| e == "sgfs") {
            texts.extend(text.lines().filter(|l| !l.trim().is_empty()).map(str::to_string));
        } else {
            texts.push(text);
        }
    }
    if let Some(first) = args.first {
        texts.truncate(first);
    }
    let (mut trained_on, mut measured_on) = (0, 0);
    for (index, text) in texts.iter().enumerate() {
        let Ok(record) = sgf::parse(text) else {
            eprintln!("skipping game {}: not SGF", index + 1);
            continue;
        };
        let holdout = args.holdout as usize;
        let (set, count) = if index % holdout == holdout - 1 {
            (&mut held_out, &mut measured_on)
        } else {
            (&mut training, &mut trained_on)
        };
        match learn_from(&record, &args, set) {
            Ok(true) => *count += 1,
            Ok(false) => eprintln!("skipping game {}: a size, handicap or setup", index + 1),
            Err(()) => {
                *count += 1;
                eprintln!("skipping the rest of game {}: an illegal move", index + 1);
            }
        }
    }
    eprintln!(
        "{} positions of {trained_on} games to train on, {} of {measured_on} held out",
        training.len(),
        held_out.len()
    );
    let model = train::train_from(start, &training, args.iterations, &without);
    for (name, set) in [("training", &training), ("held out", &held_out)] {
        let (accuracy, log_likelihood) = set.evaluate(&model);
        eprintln!(
            "{name}: first choice is the move played in {:.1} % (mean log-likelihood {:.3})",
            100.0 * accuracy,
            log_likelihood
        );
    }
    for (path, other) in &others {
        let (accuracy, log_likelihood) = held_out.evaluate(other);
        eprintln!(
            "{} on the held out: first choice is the move played in {:.1} % (mean \
             log-likelihood {:.3})",
            path.display(),
            100.0 * accuracy,
            log_likelihood
        );
    }
    let header = format!(
        "# tengen move model: gammas of the move features (src/search/move_model.rs), from\n\
         # {} positions of {trained_on} games ({}'s moves), trained by\n\
         # examples/train_move_model.rs with {} MM rounds. Values not listed have gamma 1.\n",
        training.len(),
        args.player,
        args.iterations
    );
    if let Err(error) = std::fs::write(&args.out, header + &model.to_text()) {
        eprintln!("train_move_model: writing {}: {error}", args.out.display());
        std::process::exit(1);
    }
}

fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else { return };
        for entry in entries.flatten() {
            collect(&entry.path(), files);
        }
    } else if path.extension().is_some_and(|e| e == "sgf" || e == "sgfs") {
        files.push(path.to_path_buf());
    }
}

/// Adds the learning player's moves of `record` to `set`, under the record's rules (`RU`,
/// else Chinese). `Ok(false)`: a record the model is not for (a size the board does not
/// support or other than `--size`, handicap or setup stones). `Err`: an illegal move, where
/// it stopped.
fn learn_from(record: &sgf::SgfRecord, args: &Args, set: &mut TrainingSet) -> Result<bool, ()> {
    let learns = |name: &Option<String>| name.as_deref().is_some_and(|n| n.contains(&args.player));
    let learner = [learns(&record.black_name), learns(&record.white_name)];
    let setup = record.nodes.iter().any(|n| !n.add_black.is_empty() || !n.add_white.is_empty());
    let other_size = args.size.is_some_and(|size| size != record.size);
    if setup || other_size || !Board::is_valid_size(record.size as usize) {
        return Ok(false);
    }
    let mut game = Game::new(record.size as usize, record::rules_of(record, &Rules::default()));
    for node in &record.nodes {
        let Some((color, point)) = node.mv else { continue };
        let mv = record::move_of(game.board(), point);
        let label = node
            .comment
            .as_deref()
            .and_then(|c| train::labelled_moves(c, &args.player, record.size));
        let chosen: Vec<(Point, f64)> = match (mv, label) {
            (_, Some(moves)) => {
                let point = |xy| record::point_of(game.board(), xy);
                let most = moves.iter().map(|&(_, weight)| weight).fold(0.0, f64::max);
                let kept = moves.into_iter().filter(|&(_, w)| w >= args.least_share * most);
                kept.map(|(xy, weight)| (point(xy), weight)).collect()
            }
            (Move::Play(p), None) if learner[usize::from(color == Color::White)] => vec![(p, 1.0)],
            _ => Vec::new(),
        };
        if !chosen.is_empty() && game.moves().len() >= args.skip {
            game.set_to_move(color);
            let recent = Recent::of(&game);
            let board = game.board();
            let moves: Vec<_> = game
                .legal_points(color)
                .into_iter()
                .filter(|&q| !board.is_true_eye(q, color))
                .collect();
            // Chosen points that are not candidates (an eye filled, say) are left out.
            let weights: Vec<(usize, f64)> = chosen
                .iter()
                .filter_map(|&(p, weight)| Some((moves.iter().position(|&q| q == p)?, weight)))
                .collect();
            if !weights.is_empty() {
                let candidates: Vec<Features> =
                    moves.iter().map(|&q| move_model::features(board, color, q, recent)).collect();
                set.add_shares(&candidates, &weights);
            }
        }
        game.play(color, mv).map_err(|_| ())?;
    }
    Ok(true)
}
