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
//! Strong human games (every move a lesson: `--player ''`), `.sgfs.gz` read as they are, with
//! the large shapes harvested from the moves played at least `--large-shapes` times, one
//! position in `--sample` kept, on all cores:
//!
//!     cargo run --release --example train_move_model -- --out /tmp/pro.txt --player '' \
//!         --size 19 --large-shapes 20 --sample 2 --first 10000 ../shared/games/pro-0[1-6].sgfs.gz
//!
//! `--evaluate` measures a model (`--model FILE`, else the one shipped for the records' board
//! size) on every position of the records, training nothing:
//!
//!     cargo run --release --example train_move_model -- --evaluate --player '' \
//!         --first 500 ../shared/games/pro-07.sgfs.gz
//!
//! `--factors K` then fits latent factors of K dimensions (`move_model::Factors`) to the
//! values of the `--factor-group` groups by stochastic gradient ascent, `--factor-epochs`
//! passes over the training positions (`--factor-gammas`: the gammas move too), writing the
//! model after each pass and measuring it on the held-out games. From a model already fitted:
//!
//!     cargo run --release --example train_move_model -- --out /tmp/factors.txt --player '' \
//!         --size 19 --start src/search/move_model_big.txt --iterations 0 --factors 16 \
//!         --sample 6 ../shared/games/pro-01.sgfs.gz
//!
//! With `--factor-slices` each pass gathers its own positions afresh, the next slice of one
//! in `--sample` (pass 1 the positions the gammas' sample keeps, pass 2 another slice, …), so
//! that the passes see more positions than memory holds at once. A `--start` model that
//! already has the factors asked for (the same K and groups) goes on from them: a second
//! sweep over the slices, at a smaller `--factor-rate`, on top of the first.
//!
//! `--start FILE` begins from another model's gammas, and the groups named with `--without`
//! keep them: e.g. the shapes of a model learnt from many 9×9 games, with the line, distance
//! and tactical groups refitted to 19×19 positions:
//!
//!     cargo run --release --example train_move_model -- --out /tmp/big.txt --player T10k \
//!         --size 19 --start src/search/move_model_big.txt --without shape --without diamond \
//!         labelled19.sgfs

use clap::Parser;
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use tengen::game::rules::Rules;
use tengen::game::{record, sgf};
use tengen::search::large_shapes;
use tengen::search::move_model::{self, MoveModel, Recent};
use tengen::train::{self, TrainingSet};
use tengen::{Board, Color, Game, Move, Point};

#[derive(Parser)]
struct Args {
    /// Where to write the gammas (not with `--evaluate`).
    #[arg(long, required_unless_present = "evaluate")]
    out: Option<PathBuf>,
    /// Learn from the moves of players whose name contains this (`''`: every player), and
    /// from labels in comments that start with it.
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
    /// Leave this feature group out (its gammas stay 1), e.g. `--without diamond`; with
    /// `--evaluate`, also measure the model with each such group's gammas set to 1.
    #[arg(long)]
    without: Vec<String>,
    /// Learn from the first this many games only (in the order the records are read).
    #[arg(long)]
    first: Option<usize>,
    /// Start from this model's gammas (a file in the `--out` format) instead of all 1; the
    /// groups left out with `--without` keep them. Where its latent factors are those that
    /// `--factors` and `--factor-group` ask for, the factor passes go on from them.
    #[arg(long)]
    start: Option<PathBuf>,
    /// Of a label's moves with visits, learn only from those with at least this share of the
    /// most visited one's (0 keeps them all): a search also visits the moves it refutes.
    #[arg(long, default_value_t = 0.0)]
    least_share: f64,
    /// Learn from one position in this many (chosen by a hash of the game and move number,
    /// the same in every run): fewer positions from more games.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    sample: u64,
    /// Give the model the large shapes (`src/search/large_shapes.rs`) played at least this
    /// often in the training games (all their positions, sampled or not), the most frequent
    /// first, at most 2²⁰ − 1 (0: none).
    #[arg(long, default_value_t = 0)]
    large_shapes: u32,
    /// After the gammas, fit latent factors of this many dimensions (0: none) to the values of
    /// the `--factor-group` groups, for the interactions between a move's features.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=32))]
    factors: u64,
    /// A group whose values get latent factors (repeat for several; `all`: every group); with
    /// `--factors` and none named: every group but the diamond and the large shape.
    #[arg(long)]
    factor_group: Vec<String>,
    /// Passes of the factors' gradient ascent over the training positions.
    #[arg(long, default_value_t = 3)]
    factor_epochs: usize,
    /// The factors' first step size (pass n takes it over n + 1).
    #[arg(long, default_value_t = 0.02)]
    factor_rate: f32,
    /// The factors' L2 weight.
    #[arg(long, default_value_t = 0.01)]
    factor_regularisation: f32,
    /// Let the gammas move with the factors' gradient ascent (else they keep the MM fit). They
    /// have no L2 weight: on a second sweep of the 19×19 slices one grew past 10¹⁶⁰ and the
    /// fit fell apart (`docs/strength.md`).
    #[arg(long)]
    factor_gammas: bool,
    /// Give each factor pass other positions: pass n learns from the positions that
    /// `--sample` leaves out for slice n (one in `--sample`, as the first pass), gathered
    /// afresh, so that six passes at `--sample 6` see every position once.
    #[arg(long)]
    factor_slices: bool,
    /// Measure a model on every position of the records instead of training one.
    #[arg(long)]
    evaluate: bool,
    /// With `--evaluate`: the model to measure (the shipped one for the board size when not
    /// given).
    #[arg(long, requires = "evaluate")]
    model: Option<PathBuf>,
    /// SGF files, `.sgfs` collections (one game per line, also gzipped as `.sgfs.gz`), or
    /// folders of them.
    records: Vec<PathBuf>,
}

/// The feature groups of `names`; an unknown name ends the program.
fn groups_named(names: &[String]) -> Vec<move_model::Group> {
    let group = |name: &String| {
        move_model::Group::from_name(name).unwrap_or_else(|| {
            eprintln!("train_move_model: no feature group {name}");
            std::process::exit(2);
        })
    };
    names.iter().map(group).collect()
}

/// The model in the gamma file at `path`; a file that cannot be read ends the program.
fn read_model(path: &Path) -> MoveModel {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string());
    text.and_then(|text| MoveModel::parse(&text)).unwrap_or_else(|error| {
        eprintln!("train_move_model: {}: {error}", path.display());
        std::process::exit(2);
    })
}

/// The games of the records, one SGF text each: one per `.sgf` file, one per line of an
/// `.sgfs` collection (gzipped or not), in the order of the sorted file names.
fn read_games(records: &[PathBuf]) -> Vec<String> {
    let mut files = Vec::new();
    for path in records {
        collect(path, &mut files);
    }
    files.sort();
    let mut texts = Vec::new();
    for file in &files {
        let name = file.to_string_lossy();
        let text = if name.ends_with(".gz") {
            let mut text = String::new();
            let read = std::fs::File::open(file)
                .and_then(|f| flate2::read::GzDecoder::new(f).read_to_string(&mut text));
            read.map(|_| text)
        } else {
            std::fs::read_to_string(file)
        };
        let Ok(text) = text else {
            eprintln!("train_move_model: cannot read {name}");
            continue;
        };
        if name.ends_with(".sgfs") || name.ends_with(".sgfs.gz") {
            texts.extend(text.lines().filter(|l| !l.trim().is_empty()).map(str::to_string));
        } else {
            texts.push(text);
        }
    }
    texts
}

fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else { return };
        for entry in entries.flatten() {
            collect(&entry.path(), files);
        }
    } else {
        let name = path.to_string_lossy();
        if [".sgf", ".sgfs", ".sgfs.gz"].iter().any(|e| name.ends_with(e)) {
            files.push(path.to_path_buf());
        }
    }
}

fn main() {
    let args = Args::parse();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .format_timestamp_secs()
        .init();
    // The models to compare are read first, so that a wrong path fails before the training.
    let others: Vec<_> = args.compare.iter().map(|path| (path, read_model(path))).collect();
    let start = args.start.as_deref().map(read_model).unwrap_or_default();
    let without = groups_named(&args.without);
    let mut factor_groups = if args.factor_group.iter().any(|name| name == "all") {
        move_model::GROUPS.to_vec()
    } else {
        groups_named(&args.factor_group)
    };
    if factor_groups.is_empty() {
        use move_model::Group::{Diamond, LargeShape};
        factor_groups =
            move_model::GROUPS.into_iter().filter(|g| ![Diamond, LargeShape].contains(g)).collect();
    }
    let mut texts = read_games(&args.records);
    if let Some(first) = args.first {
        texts.truncate(first);
    }
    let records: Vec<(usize, sgf::SgfRecord)> = texts
        .par_iter()
        .enumerate()
        .filter_map(|(index, text)| match sgf::parse(text) {
            Ok(record) => Some((index, record)),
            Err(_) => {
                eprintln!("skipping game {}: not SGF", index + 1);
                None
            }
        })
        .collect();
    drop(texts);
    if args.evaluate {
        evaluate(&args, &records);
        return;
    }
    let holdout = args.holdout as usize;
    let (held_out_games, training_games): (Vec<_>, Vec<_>) =
        records.iter().partition(|(index, _)| index % holdout == holdout - 1);
    let model = if args.large_shapes > 0 {
        let shapes = harvest_large_shapes(&args, &training_games);
        eprintln!("{} large shapes played at least {} times", shapes.len(), args.large_shapes);
        start.with_large_shapes(&shapes)
    } else {
        start
    };
    let first_slice = Sample { every: args.sample, slice: 0 };
    let (training, trained_on) = training_set(&args, &training_games, &model, first_slice);
    let (held_out, measured_on) = training_set(&args, &held_out_games, &model, first_slice);
    eprintln!(
        "{} positions of {trained_on} games to train on, {} of {measured_on} held out",
        training.len(),
        held_out.len()
    );
    let mut model = train::train_from(model, &training, args.iterations, &without);
    let training_positions = training.len();
    let mut kept = Some(training);
    let out = args.out.as_ref().expect("clap requires --out without --evaluate");
    let fit = train::FactorFit {
        dimension: args.factors as usize,
        groups: factor_groups.clone(),
        epochs: args.factor_epochs,
        learning_rate: args.factor_rate,
        regularisation: args.factor_regularisation,
        seed: 1,
        gammas: args.factor_gammas,
    };
    let header = format!(
        "# tengen move model: gammas of the move features (src/search/move_model.rs), from\n\
         # {} positions of {trained_on} games ({}'s moves), trained by\n\
         # examples/train_move_model.rs with {} MM rounds{}{}. Values not listed have gamma 1.\n",
        training_positions,
        if args.player.is_empty() { "every player" } else { &args.player },
        args.iterations,
        match &args.start {
            Some(start) => format!(" from the gammas of {}", start.display()),
            None => String::new(),
        },
        if args.factors > 0 {
            let names: Vec<_> = factor_groups.iter().map(|g| g.name()).collect();
            format!(
                ",\n# then latent factors of {} dimensions for\n# {} ({} passes{}{}, rate {}, L2 {}{})",
                args.factors,
                names.join(", "),
                args.factor_epochs,
                if fit.goes_on_from(&model) { ", going on from the start model's factors" } else { "" },
                if args.factor_slices { ", each on a fresh slice of as many positions" } else { "" },
                args.factor_rate,
                args.factor_regularisation,
                if args.factor_gammas { ", the gammas moving too" } else { "" }
            )
        } else {
            String::new()
        }
    );
    if args.factors > 0 {
        report("held out before the factors", &held_out, &model);
        // Each pass's model is written as it comes, so that a long run stopped early keeps
        // the last one.
        let after_pass = |epoch: usize, model: &MoveModel| {
            report(&format!("held out after factor pass {}", epoch + 1), &held_out, model);
            write_model(out, &header, model);
        };
        if args.factor_slices {
            // The first slice goes into the first pass and is gone after it: one slice in
            // memory at a time (20.6 GB at most at `--sample 6` while both stayed).
            let mut first = kept.take();
            let gammas = model.clone();
            let set_for_pass = |pass: usize| {
                if let Some(set) = first.take() {
                    return Cow::Owned(set);
                }
                let slice = Sample { every: args.sample, slice: pass as u64 };
                let (set, _) = training_set(&args, &training_games, &gammas, slice);
                eprintln!(
                    "factor pass {}: {} positions of slice {}",
                    pass + 1,
                    set.len(),
                    slice.slice % slice.every
                );
                Cow::Owned(set)
            };
            model = train::fit_factors_over(model, &fit, set_for_pass, after_pass);
        } else if let Some(training) = &kept {
            model = train::fit_factors(model, training, &fit, after_pass);
        }
    }
    match &kept {
        Some(training) => report("training", training, &model),
        None => eprintln!("training: the slices went pass by pass, not measured at the end"),
    }
    report("held out", &held_out, &model);
    for (path, other) in &others {
        let (held_out, _) = training_set(&args, &held_out_games, other, first_slice);
        report(&format!("{} on the held out", path.display()), &held_out, other);
    }
    write_model(out, &header, &model);
}

/// Writes `model`'s text form after `header` to `out`; a failure ends the program.
fn write_model(out: &Path, header: &str, model: &MoveModel) {
    if let Err(error) = std::fs::write(out, format!("{header}{}", model.to_text())) {
        eprintln!("train_move_model: writing {}: {error}", out.display());
        std::process::exit(1);
    }
}

/// Prints how often `model`'s first choice is the move played in `set`, and the mean
/// log-likelihood of the moves played.
fn report(name: &str, set: &TrainingSet, model: &MoveModel) {
    let (accuracy, log_likelihood) = set.evaluate(model);
    eprintln!(
        "{name}: first choice is the move played in {:.1} % of {} positions (mean \
         log-likelihood {:.3})",
        100.0 * accuracy,
        set.len(),
        log_likelihood
    );
}

/// `--evaluate`: every position of the records, measured with `--model` or the shipped model.
fn evaluate(args: &Args, records: &[(usize, sgf::SgfRecord)]) {
    let size = args.size.or_else(|| records.first().map(|(_, r)| r.size)).unwrap_or(19);
    let shipped;
    let model = match &args.model {
        Some(path) => {
            shipped = read_model(path);
            &shipped
        }
        None => MoveModel::builtin(usize::from(size)),
    };
    let games: Vec<_> = records.iter().filter(|(_, r)| r.size == size).collect();
    let (set, games) = training_set(args, &games, model, Sample { every: args.sample, slice: 0 });
    let name = match &args.model {
        Some(path) => path.display().to_string(),
        None => format!("the shipped {size}x{size} model"),
    };
    report(&format!("{name} on {games} games"), &set, model);
    for group in &args.without {
        let group = move_model::Group::from_name(group).expect("checked in main");
        report(&format!("  without {}", group.name()), &set, &model.without(group));
    }
}

/// The large shapes around the moves played in the training games (every position, not
/// only the sampled ones: hashing the move played is cheap), each hash that was played at
/// least `--large-shapes` times, the most frequent first. Every size of a played move's
/// shape is counted, so each smaller part of a shape is counted at least as often as the
/// shape and is in the dictionary too: what `large_shapes::largest_known` relies on.
fn harvest_large_shapes(args: &Args, games: &[&(usize, sgf::SgfRecord)]) -> Vec<u64> {
    let per_game: Vec<Vec<u64>> = games
        .par_iter()
        .map(|(index, record)| {
            let mut hashes = Vec::new();
            let _ =
                for_each_position(record, *index, args, Sample::ALL, |game, color, _, chosen| {
                    for &(p, _) in chosen {
                        hashes.extend(large_shapes::hashes(game.board(), p, color));
                    }
                });
            hashes
        })
        .collect();
    let mut counts: HashMap<u64, u32> = HashMap::new();
    for hash in per_game.into_iter().flatten() {
        *counts.entry(hash).or_default() += 1;
    }
    let mut frequent: Vec<(u32, u64)> = counts
        .into_iter()
        .filter(|&(_, n)| n >= args.large_shapes)
        .map(|(hash, n)| (n, hash))
        .collect();
    frequent.sort_unstable_by(|a, b| b.cmp(a));
    frequent.into_iter().map(|(_, hash)| hash).collect()
}

/// The sampled positions of `games` with the features `model` gives, in the games' order,
/// and how many games they came from.
fn training_set(
    args: &Args,
    games: &[&(usize, sgf::SgfRecord)],
    model: &MoveModel,
    sample: Sample,
) -> (TrainingSet, usize) {
    let sets: Vec<(TrainingSet, bool)> = games
        .par_iter()
        .map(|(index, record)| {
            let mut set = TrainingSet::default();
            let used =
                for_each_position(record, *index, args, sample, |game, color, recent, chosen| {
                    let board = game.board();
                    let moves: Vec<_> = game
                        .legal_points(color)
                        .into_iter()
                        .filter(|&q| !board.is_true_eye(q, color))
                        .collect();
                    // Chosen points that are not candidates (an eye filled, say) are left out.
                    let weights: Vec<(usize, f64)> = chosen
                        .iter()
                        .filter_map(|&(p, weight)| {
                            Some((moves.iter().position(|&q| q == p)?, weight))
                        })
                        .collect();
                    if !weights.is_empty() {
                        let candidates: Vec<_> = moves
                            .iter()
                            .map(|&q| model.features(board, color, q, recent))
                            .collect();
                        set.add_shares(&candidates, &weights);
                    }
                });
            match used {
                Ok(used) => (set, used),
                Err(()) => {
                    eprintln!("skipping the rest of game {}: an illegal move", index + 1);
                    (set, true)
                }
            }
        })
        .collect();
    let count = sets.iter().filter(|(_, used)| *used).count();
    (TrainingSet::concat(sets.into_iter().map(|(set, _)| set).collect()), count)
}

/// Calls `learn` with the positions of `record` that `sample` keeps (the game before the
/// move, the colour to move, the last two stones, the chosen points with their weights),
/// under the record's rules (`RU`, else Chinese). `Ok(false)`: a record the model is not for
/// (a size the board does not support or other than `--size`, handicap or setup stones).
/// `Err`: an illegal move, where it stopped.
fn for_each_position(
    record: &sgf::SgfRecord,
    index: usize,
    args: &Args,
    sample: Sample,
    mut learn: impl FnMut(&Game, Color, Recent, &[(Point, f64)]),
) -> Result<bool, ()> {
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
        let number = game.moves().len();
        if !chosen.is_empty() && number >= args.skip && sample.keeps(index, number) {
            game.set_to_move(color);
            let recent = Recent::of(&game);
            learn(&game, color, recent, &chosen);
        }
        game.play(color, mv).map_err(|_| ())?;
    }
    Ok(true)
}

/// Which positions to learn from: those whose hash (of the game and move number, the same in
/// every run) leaves `slice` modulo `every`, one in `every`.
#[derive(Clone, Copy)]
struct Sample {
    every: u64,
    slice: u64,
}

impl Sample {
    const ALL: Sample = Sample { every: 1, slice: 0 };

    /// Whether the position before move `number` of game `index` is one to learn from.
    fn keeps(self, index: usize, number: usize) -> bool {
        if self.every <= 1 {
            return true;
        }
        let key = (index as u64) << 32 | number as u64;
        let mixed = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed >> 32) % self.every == self.slice % self.every
    }
}
