//! Where handicap stones go.
//!
//! Fixed placement follows the GTP specification's table: 2 to 9 stones on boards of side 7
//! and up; at most 4 on 7×7 and on even sides, at most 9 on odd sides from 9; on the third
//! line up to side 11 and the fourth line from 12; the centre point is added for 5, 7 and 9
//! stones. Free placement, where the engine chooses, uses the fixed points first and then
//! spreads further stones as far from each other and from the edge as it can.

use crate::board::{Board, Point};

/// Most stones `fixed_handicap` accepts on a board of side `size` (0 where it accepts none).
pub fn max_fixed_handicap(size: usize) -> usize {
    match size {
        0..=6 => 0,
        7 => 4,
        s if s % 2 == 0 => 4,
        _ => 9,
    }
}

/// Most stones free placement accepts: every point but one.
pub fn max_free_handicap(size: usize) -> usize {
    size * size - 1
}

/// The fixed handicap points for `stones` stones, in the GTP specification's order, or `None`
/// where the table has no layout for that count and size.
pub fn fixed_points(board: &Board, stones: usize) -> Option<Vec<Point>> {
    let size = board.size();
    if stones < 2 || stones > max_fixed_handicap(size) {
        return None;
    }
    let line = if size <= 11 { 2 } else { 3 };
    let (low, mid, high) = (line, size / 2, size - 1 - line);
    // (column, row from the bottom) in the specification's order: the corners lower left,
    // upper right, upper left, lower right; then the left and right sides, the lower and upper
    // sides; the centre goes last, for odd counts from 5.
    let corners = [(low, low), (high, high), (low, high), (high, low)];
    let mut layout: Vec<(usize, usize)> = corners[..stones.min(4)].to_vec();
    if stones >= 6 {
        layout.extend([(low, mid), (high, mid)]);
    }
    if stones >= 8 {
        layout.extend([(mid, low), (mid, high)]);
    }
    if stones >= 5 && stones % 2 == 1 {
        layout.push((mid, mid));
    }
    Some(layout.iter().map(|&(x, row)| board.point(x, size - 1 - row)).collect())
}

/// Points for `stones` freely placed handicap stones on an empty board: the fixed layout
/// where there is one, otherwise the largest fixed layout and then, one at a time, the point
/// farthest (by Chebyshev distance) from the stones already chosen and from the edge.
///
/// Returns `None` if `stones` is below 2 or above [`max_free_handicap`].
pub fn free_points(board: &Board, stones: usize) -> Option<Vec<Point>> {
    let size = board.size();
    if stones < 2 || stones > max_free_handicap(size) {
        return None;
    }
    if let Some(points) = fixed_points(board, stones) {
        return Some(points);
    }
    let mut chosen = fixed_points(board, max_fixed_handicap(size)).unwrap_or_default();
    while chosen.len() < stones {
        let mut best: Option<(usize, Point)> = None;
        for p in board.points() {
            if chosen.contains(&p) {
                continue;
            }
            let (x, y) = board.coordinates(p);
            let edge = board.line(p) + 1;
            let spacing = chosen
                .iter()
                .map(|&q| {
                    let (qx, qy) = board.coordinates(q);
                    x.abs_diff(qx).max(y.abs_diff(qy))
                })
                .min()
                .unwrap_or(usize::MAX);
            let merit = spacing.min(edge * 2);
            if best.is_none_or(|(m, _)| merit > m) {
                best = Some((merit, p));
            }
        }
        chosen.push(best?.1);
    }
    Some(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::vertex::format_vertex;

    fn names(size: usize, stones: usize) -> Option<String> {
        let board = Board::new(size);
        fixed_points(&board, stones).map(|points| {
            points.iter().map(|&p| format_vertex(&board, p)).collect::<Vec<_>>().join(" ")
        })
    }

    // The GTP specification's 19×19 table, 2 to 9 stones, in its order.
    #[test]
    fn fixed_19x19_matches_the_specification() {
        assert_eq!(names(19, 2).unwrap(), "D4 Q16");
        assert_eq!(names(19, 3).unwrap(), "D4 Q16 D16");
        assert_eq!(names(19, 4).unwrap(), "D4 Q16 D16 Q4");
        assert_eq!(names(19, 5).unwrap(), "D4 Q16 D16 Q4 K10");
        assert_eq!(names(19, 6).unwrap(), "D4 Q16 D16 Q4 D10 Q10");
        assert_eq!(names(19, 7).unwrap(), "D4 Q16 D16 Q4 D10 Q10 K10");
        assert_eq!(names(19, 8).unwrap(), "D4 Q16 D16 Q4 D10 Q10 K4 K16");
        assert_eq!(names(19, 9).unwrap(), "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10");
    }

    // Each size class: third line up to 11, fourth from 12, 4 stones on even and 7×7 boards.
    #[test]
    fn fixed_by_size_class() {
        assert_eq!(names(6, 2), None);
        assert_eq!(names(7, 4).unwrap(), "C3 E5 C5 E3");
        assert_eq!(names(7, 5), None);
        assert_eq!(names(8, 4).unwrap(), "C3 F6 C6 F3");
        assert_eq!(names(8, 5), None);
        assert_eq!(names(9, 9).unwrap(), "C3 G7 C7 G3 C5 G5 E3 E7 E5");
        assert_eq!(names(11, 2).unwrap(), "C3 J9");
        assert_eq!(names(12, 2).unwrap(), "D4 J9");
        assert_eq!(names(12, 5), None);
        assert_eq!(names(13, 5).unwrap(), "D4 K10 D10 K4 G7");
        assert_eq!(names(25, 9).unwrap(), "D4 W22 D22 W4 D13 W13 N4 N22 N13");
        assert_eq!(names(19, 1), None);
        assert_eq!(names(19, 10), None);
    }

    // Free placement gives exactly the number asked, all distinct, also beyond the table.
    #[test]
    fn free_placement_counts() {
        for (size, stones) in [(9, 2), (9, 12), (5, 3), (19, 20), (2, 3)] {
            let board = Board::new(size);
            let points = free_points(&board, stones).unwrap();
            assert_eq!(points.len(), stones);
            let mut unique = points.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), stones, "duplicates on {size}x{size}");
        }
        assert!(free_points(&Board::new(2), 4).is_none());
        assert!(free_points(&Board::new(9), 1).is_none());
    }
}
