//! Game records: replaying an [`SgfRecord`] into a [`Game`] (to any move number, as GTP's
//! `loadsgf` asks) and writing a [`Game`] back out as a record. `sgf` knows the file format,
//! `game` the rules; this module is the translation between the two.

use crate::board::color::Color;
use crate::board::{Board, Move, Point};
use crate::game::rules::Rules;
use crate::game::sgf::{SgfNode, SgfPoint, SgfRecord};
use crate::game::Game;
use std::fmt;

/// Why a record cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The board size is outside what the engine plays.
    UnsupportedSize(u8),
    /// A setup stone could not be placed (it would have no liberty).
    BadSetup { node: usize },
    /// A move of the main line is illegal under the rules the record was loaded with.
    IllegalMove { move_number: usize, reason: String },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::UnsupportedSize(size) => write!(f, "board size {size} unsupported"),
            ReplayError::BadSetup { node } => {
                write!(f, "setup stone without liberty in node {node}")
            }
            ReplayError::IllegalMove { move_number, reason } => {
                write!(f, "move {move_number} is illegal ({reason})")
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// The `RU` value written for `rules`: the rule set's own (`Chinese`, `Japanese`, ...), or
/// `custom`.
fn sgf_rules_name(rules: &Rules) -> String {
    rules.rule_set().map_or("custom", |set| set.sgf_name).to_string()
}

/// The board point of an SGF point (which the SGF reader has checked to be on the board).
pub fn point_of(board: &Board, (x, y): SgfPoint) -> Point {
    board.point(x as usize, y as usize)
}

/// The SGF point of a board point.
pub fn sgf_point_of(board: &Board, p: Point) -> SgfPoint {
    let (x, y) = board.coordinates(p);
    (x as u8, y as u8)
}

/// The move of an SGF `B`/`W` value: a point, or a pass where it has none.
pub fn move_of(board: &Board, point: Option<SgfPoint>) -> Move {
    point.map_or(Move::Pass, |p| Move::Play(point_of(board, p)))
}

/// The rules `record` is played under: its `RU` (else `default_rules`) with its komi.
/// Setup stones come from the record, never from the rules, so the rules place none.
pub fn rules_of(record: &SgfRecord, default_rules: &Rules) -> Rules {
    let mut rules =
        record.rules.as_deref().and_then(Rules::named).unwrap_or_else(|| default_rules.clone());
    rules.corner_stones = false;
    if let Some(komi) = record.komi {
        rules.komi = komi;
    }
    rules
}

/// Replays `record` into a new game: size, rules (`RU`, else `default_rules`), komi, handicap,
/// setup stones and moves. With `until_move = Some(n)` the game stops before move `n`
/// (counting from 1), as GTP's `loadsgf FILE n` does; `None` replays every move.
///
/// # Errors
/// An unsupported size, a setup stone without liberty, or an illegal move.
pub fn replay(
    record: &SgfRecord,
    default_rules: &Rules,
    until_move: Option<usize>,
) -> Result<Game, ReplayError> {
    let size = record.size as usize;
    if !Board::is_valid_size(size) {
        return Err(ReplayError::UnsupportedSize(record.size));
    }
    let rules = rules_of(record, default_rules);
    let first_player = rules.first_player;
    let mut game = Game::new(size, rules);
    let handicap = record.handicap.unwrap_or(0);
    let mut played = 0;
    let mut stopped_before_move = false;
    for (index, node) in record.nodes.iter().enumerate() {
        let has_move = node.mv.is_some();
        if has_move && until_move.is_some_and(|n| played + 1 >= n) {
            // The position before this move: its player is the one to move.
            if let Some((color, _)) = node.mv {
                apply_setup(&mut game, node).map_err(|()| ReplayError::BadSetup { node: index })?;
                game.set_to_move(node.to_play.unwrap_or(color));
                stopped_before_move = true;
            }
            break;
        }
        apply_setup(&mut game, node).map_err(|()| ReplayError::BadSetup { node: index })?;
        if let Some((color, point)) = node.mv {
            game.play(color, move_of(game.board(), point)).map_err(|e| {
                ReplayError::IllegalMove { move_number: played + 1, reason: e.to_string() }
            })?;
            played += 1;
        }
        if let Some(color) = node.to_play {
            game.set_to_move(color);
        }
    }
    game.set_handicap_count(handicap);
    let told_to_play = record.nodes.iter().any(|n| n.to_play.is_some());
    if played == 0 && !told_to_play && !stopped_before_move {
        let handicap_game = handicap >= 2
            || (game.board().empty_points().len() < size * size
                && game.setup_stones().iter().all(|&(c, _)| c == Color::Black));
        game.set_to_move(if handicap_game { Color::White } else { first_player });
    }
    Ok(game)
}

fn apply_setup(game: &mut Game, node: &SgfNode) -> Result<(), ()> {
    for &p in &node.add_empty {
        let point = point_of(game.board(), p);
        game.clear_setup_point(point);
    }
    for (color, points) in [(Color::Black, &node.add_black), (Color::White, &node.add_white)] {
        for &p in points {
            let point = point_of(game.board(), p);
            if game.board().stone(point).is_some() {
                game.clear_setup_point(point);
            }
            game.add_setup_stone(color, point).map_err(|_| ())?;
        }
    }
    Ok(())
}

/// Player names and result for a written record; all optional.
#[derive(Clone, Debug, Default)]
pub struct RecordInfo {
    pub black_name: Option<String>,
    pub white_name: Option<String>,
    pub result: Option<String>,
    pub date: Option<String>,
}

/// The game as a record: size, komi, handicap, rules, setup stones in the root, then one node
/// per move since the last setup.
pub fn to_record(game: &Game, info: &RecordInfo) -> SgfRecord {
    let board = game.board();
    let mut record = SgfRecord::new(board.size() as u8);
    record.komi = Some(game.rules().komi);
    record.handicap = (game.handicap() > 0).then_some(game.handicap());
    record.rules = Some(sgf_rules_name(game.rules()));
    record.black_name = info.black_name.clone();
    record.white_name = info.white_name.clone();
    record.result = info.result.clone();
    record.date = info.date.clone();
    let sgf_point = |p: Point| sgf_point_of(board, p);
    let mut root = SgfNode::default();
    for &(color, p) in game.setup_stones() {
        match color {
            Color::Black => root.add_black.push(sgf_point(p)),
            Color::White => root.add_white.push(sgf_point(p)),
        }
    }
    let first_mover = game.moves().first().map(|&(c, _)| c);
    let to_move_at_start = first_mover.unwrap_or(game.to_move());
    if !root.add_black.is_empty() || !root.add_white.is_empty() || to_move_at_start == Color::White
    {
        root.to_play = Some(to_move_at_start);
    }
    record.nodes = vec![root];
    for &(color, mv) in game.moves() {
        let point = match mv {
            Move::Play(p) => Some(sgf_point(p)),
            Move::Pass => None,
        };
        record.nodes.push(SgfNode { mv: Some((color, point)), ..SgfNode::default() });
    }
    record
}

/// Today's date in UTC as SGF's `DT` writes it (`2026-11-29`).
pub fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    date_of_day((seconds / 86_400) as i64)
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
/// days-to-civil algorithm).
fn date_of_day(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 { shifted_month + 3 } else { shifted_month - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::sgf;

    const GAME: &str = "(;FF[4]GM[1]SZ[9]KM[6.5]RU[Japanese]PB[Alice]PW[Bob]
        ;B[ee];W[ec];B[cc];W[gc];B[cg];W[];B[ge])";

    // Replaying to a move number gives the position before that move, as loadsgf requires.
    #[test]
    fn replay_to_a_move_number() {
        let record = sgf::parse(GAME).unwrap();
        let full = replay(&record, &Rules::chinese(), None).unwrap();
        assert_eq!(full.moves().len(), 7);
        assert_eq!(full.rules().komi, 6.5);
        assert_eq!(full.rules().preset_name(), Some("japanese"));
        let before_third = replay(&record, &Rules::chinese(), Some(3)).unwrap();
        assert_eq!(before_third.moves().len(), 2);
        assert_eq!(before_third.to_move(), Color::Black);
        let odd = sgf::parse("(;SZ[9];B[cc];B[gg];W[ee])").unwrap();
        let before_white = replay(&odd, &Rules::chinese(), Some(3)).unwrap();
        assert_eq!(before_white.to_move(), Color::White, "the next move's colour");
        let white_first = sgf::parse("(;SZ[9];W[ee])").unwrap();
        assert_eq!(
            replay(&white_first, &Rules::chinese(), Some(1)).unwrap().to_move(),
            Color::White
        );
        let start = replay(&record, &Rules::chinese(), Some(1)).unwrap();
        assert_eq!(start.board().empty_points().len(), 81);
        let beyond = replay(&record, &Rules::chinese(), Some(100)).unwrap();
        assert_eq!(beyond.moves().len(), 7);
    }

    // Handicap records: HA and AB give the stones and the count, white moves first.
    #[test]
    fn replay_handicap_setup() {
        let record = sgf::parse("(;SZ[19]HA[2]AB[dp][pd]KM[0.5])").unwrap();
        let game = replay(&record, &Rules::chinese(), None).unwrap();
        assert_eq!((game.handicap(), game.to_move()), (2, Color::White));
        assert_eq!(game.score(&[], &[]).compensation, 2.5);
    }

    // AE empties points in the replay, before the moves and between them; PL sets who moves.
    #[test]
    fn replay_add_empty_and_player_to_move() {
        let text = "(;SZ[9]AB[aa][bb]AW[cc];AE[bb]PL[W];W[dd];B[ee];AE[dd][aa]PL[B])";
        let game = replay(&sgf::parse(text).unwrap(), &Rules::chinese(), None).unwrap();
        let at = |x, y| game.board().point(x, y);
        assert_eq!(game.board().stone(at(0, 0)), None, "AE in the last node");
        assert_eq!(game.board().stone(at(1, 1)), None, "AE before the moves");
        assert_eq!(game.board().stone(at(3, 3)), None, "a played stone removed by AE");
        assert_eq!(game.board().stone(at(2, 2)), Some(Color::White));
        assert_eq!(game.board().stone(at(4, 4)), Some(Color::Black));
        assert_eq!(game.to_move(), Color::Black, "PL[B] after black's move");
        game.board().check_invariants().unwrap();
        // Black stones alone would make it a handicap game, white to move, but for PL[B].
        let root_only = sgf::parse("(;SZ[9]AB[aa][bb];AE[bb]PL[B])").unwrap();
        let start = replay(&root_only, &Rules::chinese(), None).unwrap();
        assert_eq!(start.board().empty_points().len(), 80);
        assert_eq!(start.to_move(), Color::Black, "PL[B]");
    }

    // Day numbers map to the calendar, leap days and century rules included.
    #[test]
    fn dates() {
        assert_eq!(date_of_day(0), "1970-01-01");
        assert_eq!(date_of_day(11_016), "2000-02-29");
        assert_eq!(date_of_day(20_786), "2026-11-29");
        assert_eq!(date_of_day(-1), "1969-12-31");
        assert_eq!(today().len(), 10);
    }

    // Bad records fail with a reason, never a panic.
    #[test]
    fn replay_errors() {
        let tiny = sgf::parse("(;SZ[1])").unwrap();
        assert_eq!(
            replay(&tiny, &Rules::chinese(), None).unwrap_err(),
            ReplayError::UnsupportedSize(1)
        );
        let occupied = sgf::parse("(;SZ[9];B[ee];W[ee])").unwrap();
        assert!(matches!(
            replay(&occupied, &Rules::chinese(), None),
            Err(ReplayError::IllegalMove { move_number: 2, .. })
        ));
        let no_liberty = sgf::parse("(;SZ[2]AB[aa][bb]AW[ab][ba])").unwrap();
        assert!(matches!(
            replay(&no_liberty, &Rules::chinese(), None),
            Err(ReplayError::BadSetup { .. })
        ));
    }

    // Writing a game and reading it back gives the same position, moves and settings.
    #[test]
    fn write_and_replay_round_trip() {
        let record = sgf::parse(GAME).unwrap();
        let mut game = replay(&record, &Rules::chinese(), None).unwrap();
        game.play(Color::White, Move::Pass).unwrap();
        let info = RecordInfo { black_name: Some("tengen".into()), ..RecordInfo::default() };
        let text = sgf::write(&to_record(&game, &info));
        let again = replay(&sgf::parse(&text).unwrap(), &Rules::chinese(), None).unwrap();
        assert_eq!(again.board(), game.board());
        assert_eq!(again.moves(), game.moves());
        assert_eq!(again.rules(), game.rules());
        assert!(text.contains("PB[tengen]"));

        let mut handicap = Game::new(13, Rules::chinese());
        handicap.place_fixed_handicap(3).unwrap();
        handicap.play(Color::White, Move::Play(handicap.board().point(6, 6))).unwrap();
        let back = replay(&to_record(&handicap, &RecordInfo::default()), &Rules::chinese(), None);
        let back = back.unwrap();
        assert_eq!(back.board(), handicap.board());
        assert_eq!((back.handicap(), back.to_move()), (3, Color::Black));
    }
}
