//! `examples/label_positions.rs` end to end against the scripted fake engine
//! (`examples/fake_gtp_engine.rs`), whose `genmove first-legal` answer is known from the
//! position alone: every label must be that answer in the position before the move, which
//! holds only while the engine's board follows the record.

mod common;

use common::Scratch;
use std::process::Command;
use tengen::board::vertex::parse_move;
use tengen::game::record::{self, RecordInfo};
use tengen::game::sgf;
use tengen::{train, Game, Rules};

/// A 9×9 game whose moves are never the first legal point, so that a label cannot match by
/// chance.
const GAME: [&str; 8] = ["E5", "C3", "G7", "C7", "G3", "E3", "E7", "D5"];

/// [`GAME`] as a one-line record, and what `fake_gtp_engine --genmove first-legal` answers
/// before each of its moves, as the labels' comments.
fn game_and_first_legal_answers() -> (String, Vec<String>) {
    let mut game = Game::new(9, Rules::chinese());
    let mut answers = Vec::new();
    for vertex in GAME {
        let (color, board) = (game.to_move(), game.board().clone());
        let first =
            (game.legal_points(color).into_iter()).find(|&p| !board.is_true_eye(p, color)).unwrap();
        answers.push(train::label_comment("Fake", record::sgf_point_of(&board, first)));
        game.play(color, parse_move(&board, vertex).unwrap()).unwrap();
    }
    let record = sgf::write(&record::to_record(&game, &RecordInfo::default()));
    (record.replace('\n', " "), answers)
}

/// Labels [`GAME`] with the fake engine answering `genmove` as `behaviour`, its commands
/// logged to `commands.log` in `scratch`.
fn label(scratch: &Scratch, behaviour: &str, extra: &[&str]) -> String {
    let records = scratch.join("game.sgfs");
    std::fs::write(&records, game_and_first_legal_answers().0 + "\n").unwrap();
    let out = scratch.join("labelled.sgfs");
    let engine = format!(
        "{} --genmove {behaviour} --log {}",
        common::example("fake_gtp_engine").display(),
        scratch.join("commands.log").display()
    );
    let status = Command::new(common::example("label_positions"))
        .args(["--engine", &engine, "--player", "Fake", "--jobs", "1", "--out"])
        .arg(&out)
        .args(extra)
        .arg(&records)
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::read_to_string(out).unwrap()
}

/// The labels' comments in a labelled record.
fn labels(text: &str) -> Vec<String> {
    text.split("C[").skip(1).map(|rest| rest[..rest.find(']').unwrap()].to_string()).collect()
}

#[test]
fn genmove_and_undo_label_every_move_in_the_records_position() {
    let scratch = Scratch::new("label-genmove-undo");
    let text = label(&scratch, "first-legal", &["--genmove-undo"]);
    assert_eq!(labels(&text), game_and_first_legal_answers().1, "{text}");
    // The record's own moves are kept.
    assert_eq!(text.matches(";B[").count() + text.matches(";W[").count(), GAME.len());
}

#[test]
fn an_engine_without_reg_genmove_labels_nothing_unless_asked_with_genmove() {
    let scratch = Scratch::new("label-reg-genmove");
    let text = label(&scratch, "first-legal", &[]);
    assert_eq!(labels(&text), Vec::<String>::new(), "{text}");
    assert_eq!(text.matches(";B[").count() + text.matches(";W[").count(), GAME.len());
}

#[test]
fn a_pass_is_taken_back_too_and_labels_nothing() {
    let scratch = Scratch::new("label-pass");
    let text = label(&scratch, "pass", &["--genmove-undo"]);
    assert_eq!(labels(&text), Vec::<String>::new(), "{text}");
    // GTP's genmove plays the pass it answers: each one must be undone before the record's
    // move, or the engine's game would hold passes the record does not.
    let log = std::fs::read_to_string(scratch.join("commands.log")).unwrap();
    let commands: Vec<&str> = log.lines().filter(|l| !l.trim().is_empty()).collect();
    let genmoves = commands.iter().filter(|l| l.starts_with("genmove")).count();
    assert_eq!(genmoves, GAME.len(), "{log}");
    for (i, line) in commands.iter().enumerate() {
        if line.starts_with("genmove") {
            assert_eq!(commands.get(i + 1), Some(&"undo"), "{log}");
        }
    }
}
