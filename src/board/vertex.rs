//! GTP vertices: the text form of a point, `D4`, with column letters `A`–`Z` skipping `I` and
//! rows numbered from 1 at the bottom.

use crate::board::{Board, Move, Point};

const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The letter of column `x` (0 = left).
pub fn column_letter(x: usize) -> char {
    COLUMNS[x] as char
}

/// The vertex text of an on-board point, upper case, as `genmove` answers it.
pub fn format_vertex(board: &Board, p: Point) -> String {
    let (x, y) = board.coordinates(p);
    format!("{}{}", column_letter(x), board.size() - y)
}

/// The vertex text of a move: a point, or `pass`.
pub fn format_move(board: &Board, mv: Move) -> String {
    match mv {
        Move::Play(p) => format_vertex(board, p),
        Move::Pass => "pass".to_string(),
    }
}

/// A vertex as written, before it is placed on a board of some size: `pass`, or a column
/// (0 = `A`) and a row counted from 1 at the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vertex {
    Pass,
    Point { column: usize, row: usize },
}

impl Vertex {
    /// Reads `pass` or a letter (not `I`) followed by a row number, in any case. `None` for
    /// anything else: no letter, `I`, no digits, a sign, a fraction, trailing text, row 0.
    /// Rows too large for any board read as `usize::MAX`, which no board holds.
    pub fn parse(text: &str) -> Option<Vertex> {
        if text.eq_ignore_ascii_case("pass") {
            return Some(Vertex::Pass);
        }
        let letter = text.as_bytes().first()?.to_ascii_uppercase();
        let column = COLUMNS.iter().position(|&c| c == letter)?;
        let digits = &text[1..];
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row = digits.parse().unwrap_or(usize::MAX);
        (row > 0).then_some(Vertex::Point { column, row })
    }

    /// The move this vertex names on `board`, or `None` if it is off that board.
    pub fn on(self, board: &Board) -> Option<Move> {
        match self {
            Vertex::Pass => Some(Move::Pass),
            Vertex::Point { column, row } => {
                if row > board.size() {
                    return None;
                }
                board.checked_point(column, board.size() - row).map(Move::Play)
            }
        }
    }
}

/// Reads a vertex or `pass` in any case and places it on `board`: `None` for anything that is
/// not a point of this board.
pub fn parse_move(board: &Board, text: &str) -> Option<Move> {
    Vertex::parse(text)?.on(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Vertices round-trip on every point of the largest board, and I is skipped.
    #[test]
    fn round_trip() {
        let board = Board::new(25);
        for p in board.points() {
            let text = format_vertex(&board, p);
            assert!(!text.contains('I'));
            assert_eq!(parse_move(&board, &text), Some(Move::Play(p)));
            assert_eq!(parse_move(&board, &text.to_lowercase()), Some(Move::Play(p)));
        }
        assert_eq!(format_vertex(&board, board.point(0, 24)), "A1");
        assert_eq!(format_vertex(&board, board.point(24, 0)), "Z25");
    }

    // Anything that is not a point of this board is refused, never mapped somewhere else.
    #[test]
    fn rejects_bad_vertices() {
        let board = Board::new(9);
        for bad in ["", "I5", "J10", "A0", "K1", "A", "5", "A1.5", "A01x", "A+1", "é1", "A99999"] {
            assert_eq!(parse_move(&board, bad), None, "{bad:?}");
        }
        assert_eq!(parse_move(&board, "PaSs"), Some(Move::Pass));
        assert_eq!(parse_move(&board, "j9"), Some(Move::Play(board.point(8, 0))));
    }
}
