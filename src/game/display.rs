//! Positions drawn for people: GTP's `showboard` and the terminal game. Coordinates on all
//! four sides, the last move in parentheses, star points marked; ASCII (`X O . +`) for any
//! terminal or Unicode stones (`● ○ · +`).

use crate::board::color::Color;
use crate::board::vertex::column_letter;
use crate::game::handicap;
use crate::game::Game;
use crate::Move;
use std::fmt::Write as _;

/// How stones are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Ascii,
    Unicode,
}

impl Style {
    fn symbol(self, stone: Option<Color>, star: bool) -> char {
        match (self, stone) {
            (Style::Ascii, Some(Color::Black)) => 'X',
            (Style::Ascii, Some(Color::White)) => 'O',
            (Style::Unicode, Some(Color::Black)) => '●',
            (Style::Unicode, Some(Color::White)) => '○',
            (_, None) if star => '+',
            (Style::Ascii, None) => '.',
            (Style::Unicode, None) => '·',
        }
    }

    /// The symbol of a colour, for legends.
    pub fn stone(self, color: Color) -> char {
        self.symbol(Some(color), false)
    }
}

/// The board with coordinates, the last move in parentheses, and one line under it: the
/// prisoners, komi and the side to move.
pub fn draw(game: &Game, style: Style) -> String {
    let board = game.board();
    let size = board.size();
    let letters: String = (0..size).map(|x| format!(" {}", column_letter(x))).collect();
    let last = match game.last_move() {
        Some((_, Move::Play(p))) => Some(p),
        _ => None,
    };
    // The stars are where the largest fixed handicap goes; small boards have none.
    let stars =
        handicap::fixed_points(board, handicap::max_fixed_handicap(size)).unwrap_or_default();
    let mut out = String::new();
    let _ = writeln!(out, "   {letters}");
    for y in 0..size {
        let row = size - y;
        let _ = write!(out, "{row:>2} ");
        for x in 0..size {
            let p = board.point(x, y);
            let before = if last == Some(p) {
                '('
            } else if x > 0 && last == Some(board.point(x - 1, y)) {
                ')'
            } else {
                ' '
            };
            out.push(before);
            out.push(style.symbol(board.stone(p), stars.contains(&p)));
        }
        let after = if last == Some(board.point(size - 1, y)) { ')' } else { ' ' };
        let _ = writeln!(out, "{after}{row}");
    }
    let _ = writeln!(out, "   {letters}");
    let _ = write!(
        out,
        "Black ({}) captured {}, White ({}) captured {}; komi {}; {} to move",
        style.stone(Color::Black),
        board.prisoners(Color::Black),
        style.stone(Color::White),
        board.prisoners(Color::White),
        game.rules().komi,
        game.to_move()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    // The last move is bracketed, stars shown on empty points only, coordinates skip I.
    #[test]
    fn draws_a_position() {
        let mut game = Game::new(9, Rules::chinese());
        let board = game.board();
        let (c3, j9) = (board.point(2, 6), board.point(8, 0));
        game.play(Color::Black, Move::Play(c3)).unwrap();
        game.play(Color::White, Move::Play(j9)).unwrap();
        let ascii = draw(&game, Style::Ascii);
        let lines: Vec<&str> = ascii.lines().collect();
        assert_eq!(lines[0], "    A B C D E F G H J");
        assert_eq!(lines[1], " 9  . . . . . . . .(O)9");
        assert_eq!(lines[7], " 3  . . X . + . + . . 3", "C3 is a star point under a stone");
        assert_eq!(lines[5], " 5  . . + . + . + . . 5");
        assert!(lines[11].starts_with("Black (X) captured 0, White (O) captured 0; komi 7.5"));
        let unicode = draw(&game, Style::Unicode);
        assert!(unicode.contains(" 3  · · ● · + · + · · 3"), "{unicode}");
        assert!(unicode.contains("(○)9"), "{unicode}");
    }
}
