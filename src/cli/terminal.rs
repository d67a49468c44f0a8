//! `tengen play`: a game against the engine in a terminal, for people without a GUI. It
//! drives the same [`Engine`] a GUI drives over GTP, through typed commands, so the engine
//! passes, resigns and counts exactly as it does in Sabaki or GoGui.

use crate::board::color::Color;
use crate::board::vertex::Vertex;
use crate::game::display::{self, Style};
use crate::gtp::command::{Command, StatusKind};
use crate::gtp::Engine;
use crate::IllegalMove;
use std::io::{self, BufRead, Write};

/// The player's side and how the board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TerminalOptions {
    pub human: Color,
    pub style: Style,
}

const HELP: &str = "Type a move (D4), pass, undo (takes back your last move and the engine's \
reply), resign, board, help or quit.";

/// How the game ended, for the caller's exit status and for tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Both passed; the result as GTP writes it (`B+3.5`).
    Counted(String),
    HumanResigned,
    EngineResigned,
    /// The player quit or the input ended.
    Abandoned,
}

/// Plays until the game ends, reading the player's lines from `input` and writing the board,
/// the engine's moves and the final count to `out`. The engine is set up (size, komi,
/// handicap) by the caller.
///
/// # Errors
/// Only when `out` cannot be written.
pub fn play(
    engine: &mut Engine,
    options: TerminalOptions,
    input: impl BufRead,
    out: &mut impl Write,
) -> io::Result<Ending> {
    let mut lines = input.lines();
    let human = options.human;
    writeln!(
        out,
        "You play {} ({}), tengen plays {} ({}). {HELP}",
        human,
        options.style.stone(human),
        human.opponent(),
        options.style.stone(human.opponent())
    )?;
    writeln!(out, "{}", display::draw(engine.game(), options.style))?;
    loop {
        if engine.game().is_over() {
            return final_count(engine, out);
        }
        let to_move = engine.game().to_move();
        if to_move != human {
            writeln!(out, "tengen is thinking...")?;
            out.flush()?;
            let answer = engine.execute(Command::GenMove(to_move)).unwrap_or_else(|e| e.0);
            if answer == "resign" {
                writeln!(out, "tengen resigns. You win ({}+R).", human.letter())?;
                return Ok(Ending::EngineResigned);
            }
            let estimate = match engine.last_estimate() {
                Some((win_rate, playouts)) => {
                    format!(" (its win rate {:.0} % after {playouts} playouts)", 100.0 * win_rate)
                }
                None => String::new(),
            };
            writeln!(out, "{}", display::draw(engine.game(), options.style))?;
            writeln!(out, "tengen plays {answer}{estimate}.")?;
            continue;
        }
        write!(out, "{human} to play> ")?;
        out.flush()?;
        // The engine thinks on the player's time (when pondering is on) until the line comes.
        engine.start_pondering();
        let line = lines.next();
        engine.stop_pondering();
        let Some(Ok(line)) = line else {
            writeln!(out)?;
            return Ok(Ending::Abandoned);
        };
        let word = line.trim().to_ascii_lowercase();
        match word.as_str() {
            "" => {}
            "help" | "?" => writeln!(out, "{HELP}")?,
            "quit" | "exit" => return Ok(Ending::Abandoned),
            "board" => writeln!(out, "{}", display::draw(engine.game(), options.style))?,
            "resign" => {
                writeln!(out, "You resign. tengen wins ({}+R).", human.opponent().letter())?;
                return Ok(Ending::HumanResigned);
            }
            "undo" => undo(engine, human, options.style, out)?,
            text => human_move(engine, human, text, options.style, out)?,
        }
    }
}

fn human_move(
    engine: &mut Engine,
    human: Color,
    text: &str,
    style: Style,
    out: &mut impl Write,
) -> io::Result<()> {
    let board = engine.game().board();
    let size = board.size();
    let Some(vertex) = Vertex::parse(text) else {
        return writeln!(out, "'{text}' is not a move. {HELP}");
    };
    let Some(mv) = vertex.on(board) else {
        let last = crate::board::vertex::column_letter(size - 1);
        return writeln!(
            out,
            "{} is off the board: columns A to {last} (no I), rows 1 to {size}.",
            text.to_uppercase()
        );
    };
    if let Err(why) = engine.game().check(human, mv) {
        return writeln!(out, "{} is illegal: {}.", text.to_uppercase(), explain(why));
    }
    match engine.execute(Command::Play(human, vertex)) {
        Ok(_) => writeln!(out, "{}", display::draw(engine.game(), style)),
        Err(e) => writeln!(out, "{} was refused: {e}.", text.to_uppercase()),
    }
}

/// Why a move is illegal, in words a player understands.
fn explain(why: IllegalMove) -> &'static str {
    match why {
        IllegalMove::OffBoard => "the point is off the board",
        IllegalMove::Occupied => "the point is occupied",
        IllegalMove::Suicide => "it would leave your own stones without liberties (suicide)",
        IllegalMove::Ko => "it retakes a ko at once; play elsewhere first",
        IllegalMove::PositionalSuperko | IllegalMove::SituationalSuperko => {
            "it would repeat an earlier whole-board position (superko)"
        }
    }
}

/// Takes back the engine's last move and the player's before it, so the player is to move
/// again.
fn undo(engine: &mut Engine, human: Color, style: Style, out: &mut impl Write) -> io::Result<()> {
    let moves = engine.game().moves();
    let Some(last_human) = moves.iter().rposition(|&(color, _)| color == human) else {
        return writeln!(out, "Nothing of yours to take back.");
    };
    for _ in last_human..moves.len() {
        if engine.execute(Command::Undo).is_err() {
            break;
        }
    }
    writeln!(out, "{}", display::draw(engine.game(), style))
}

fn final_count(engine: &mut Engine, out: &mut impl Write) -> io::Result<Ending> {
    let dead = engine.execute(Command::FinalStatusList(StatusKind::Dead)).unwrap_or_default();
    let result = engine.execute(Command::FinalScore).unwrap_or_else(|e| e.0);
    let count = engine.execute(Command::ChineseCount).unwrap_or_default();
    writeln!(out, "Both passed: the game is over.")?;
    if !dead.trim().is_empty() {
        writeln!(
            out,
            "Dead stones removed: {}",
            dead.split_whitespace().collect::<Vec<_>>().join(" ")
        )?;
    }
    writeln!(out, "Result: {result}")?;
    for line in count.lines() {
        writeln!(out, "{line}")?;
    }
    Ok(Ending::Counted(result))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Rules;
    use crate::search::SearchParams;
    use crate::Move;

    fn engine(size: usize) -> Engine {
        let mut engine = Engine::new(size, Rules::chinese(), 7);
        engine.set_search_params(SearchParams {
            playouts: 200,
            threads: 1,
            ..SearchParams::default()
        });
        engine
    }

    fn session(engine: &mut Engine, human: Color, input: &str) -> (Ending, String) {
        let mut out = Vec::new();
        let options = TerminalOptions { human, style: Style::Ascii };
        let ending = play(engine, options, input.as_bytes(), &mut out).unwrap();
        (ending, String::from_utf8(out).unwrap())
    }

    // Illegal and malformed input is explained and the player is asked again.
    #[test]
    fn explains_bad_moves() {
        let mut e = engine(5);
        let (ending, text) = session(&mut e, Color::Black, "C3\nC3\nZ9\nfoo\nquit\n");
        assert_eq!(ending, Ending::Abandoned);
        assert!(text.contains("tengen plays "), "{text}");
        let reply = e.game().moves()[1];
        let occupied =
            if reply.1 == Move::Pass { "" } else { "C3 is illegal: the point is occupied." };
        assert!(text.contains(occupied), "{text}");
        assert!(
            text.contains("Z9 is off the board: columns A to E (no I), rows 1 to 5."),
            "{text}"
        );
        assert!(text.contains("'foo' is not a move."), "{text}");
        assert_eq!(e.game().moves().len(), 2, "nothing else was played");
    }

    // Suicide and ko are named as such.
    #[test]
    fn names_suicide_and_ko() {
        assert_eq!(
            explain(IllegalMove::Suicide),
            "it would leave your own stones without liberties (suicide)"
        );
        assert!(explain(IllegalMove::Ko).contains("ko"));
        assert!(explain(IllegalMove::PositionalSuperko).contains("superko"));
    }

    // Undo takes back the engine's reply and the player's move; resigning ends the game.
    #[test]
    fn undo_and_resign() {
        let mut e = engine(5);
        let (ending, text) = session(&mut e, Color::Black, "undo\nC3\nundo\nresign\n");
        assert_eq!(ending, Ending::HumanResigned);
        assert!(text.contains("Nothing of yours to take back."), "{text}");
        assert!(text.contains("You resign. tengen wins (W+R)."), "{text}");
        assert_eq!(e.game().moves().len(), 0, "both moves taken back");
    }

    // The engine moves first when the player takes white; two passes lead to the count.
    #[test]
    fn plays_to_the_count() {
        let mut e = engine(2);
        e.set_resign_threshold(0.0);
        e.execute(Command::Komi(0.5)).unwrap();
        let (ending, text) = session(&mut e, Color::White, &"pass\n".repeat(10));
        assert!(matches!(ending, Ending::Counted(_)), "{text}");
        assert!(text.contains("Both passed: the game is over."), "{text}");
        assert!(text.contains("Result: "), "{text}");
        assert!(text.contains("Black ") && text.contains(" stones"), "{text}");
    }
}
