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

/// Reads a vertex or `pass` in any case. `None` for anything that is not a point of this
/// board: a bad letter, `I`, a row out of range, a number too large, trailing text.
pub fn parse_move(board: &Board, text: &str) -> Option<Move> {
    if text.eq_ignore_ascii_case("pass") {
        return Some(Move::Pass);
    }
    let bytes = text.as_bytes();
    let letter = bytes.first()?.to_ascii_uppercase();
    let x = COLUMNS.iter().position(|&c| c == letter)?;
    let digits = &text[1..];
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row: usize = digits.parse().ok()?;
    if row == 0 || row > board.size() {
        return None;
    }
    board.checked_point(x, board.size() - row).map(Move::Play)
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
            assert_eq!(
                parse_move(&board, &text.to_lowercase()),
                Some(Move::Play(p))
            );
        }
        assert_eq!(format_vertex(&board, board.point(0, 24)), "A1");
        assert_eq!(format_vertex(&board, board.point(24, 0)), "Z25");
    }

    // Anything that is not a point of this board is refused, never mapped somewhere else.
    #[test]
    fn rejects_bad_vertices() {
        let board = Board::new(9);
        for bad in [
            "", "I5", "J10", "A0", "K1", "A", "5", "A1.5", "A01x", "A+1", "é1", "A99999",
        ] {
            assert_eq!(parse_move(&board, bad), None, "{bad:?}");
        }
        assert_eq!(parse_move(&board, "PaSs"), Some(Move::Pass));
        assert_eq!(
            parse_move(&board, "j9"),
            Some(Move::Play(board.point(8, 0)))
        );
    }
}
