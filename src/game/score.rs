//! Counting a finished position: area (数子法) or territory, dead stones, seki, the group tax
//! of the ancient rules, and the result in GTP form (`B+3.5`, `W+0.5`, `0`) and in the
//! Chinese convention of stones against half the board ("黑 185 子，胜 1/2 子").
//!
//! Start at [`count`]: it removes the dead chains, floods the empty regions once, and returns a
//! [`Score`] holding every ingredient, from which the margin and the texts are derived.

use crate::board::color::Color;
use crate::board::{Board, Cell, Point};
use crate::game::rules::{Rules, Scoring};
use std::fmt;

/// Everything that goes into the count, per colour (index `Color::index()`).
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    pub scoring: Scoring,
    /// Stones left on the board after dead chains are removed.
    pub stones: [u32; 2],
    /// Empty points (including those of removed dead stones) surrounded by one colour only.
    /// Under territory scoring, eyes of chains in seki are not included.
    pub territory: [u32; 2],
    /// Empty points touching both colours, or neither: dame and shared liberties of seki.
    pub neutral: u32,
    /// Prisoners held: stones captured during the game plus the opponent's dead stones.
    pub prisoners: [u32; 2],
    /// Separate living groups, for 还棋头 (zero unless the rules tax groups).
    pub groups: [u32; 2],
    /// Komi plus the handicap bonus: what white receives.
    pub compensation: f64,
    /// Points on the board.
    pub board_points: u32,
}

/// Who won and by how much.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GameResult {
    Win { winner: Color, margin: f64 },
    Draw,
}

impl fmt::Display for GameResult {
    /// GTP's `final_score` form: `B+3.5`, `W+0.5`, or `0` for a draw.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Win { winner, margin } => write!(f, "{}+{}", winner.letter(), margin),
            GameResult::Draw => f.write_str("0"),
        }
    }
}

impl Score {
    /// Black's points under the rule's counting.
    pub fn black_points(&self) -> f64 {
        self.points_of(Color::Black)
    }

    /// White's points under the rule's counting, compensation included.
    pub fn white_points(&self) -> f64 {
        self.points_of(Color::White) + self.compensation
    }

    /// A side's points before compensation. Under 还棋头 each side hands one stone per
    /// separate living group to the other, so a group costs its owner one point and gives the
    /// opponent one (two points of margin, as KataGo's `tax: ALL` counts it).
    fn points_of(&self, color: Color) -> f64 {
        let c = color.index();
        let base = match self.scoring {
            Scoring::Area => self.stones[c] + self.territory[c],
            Scoring::Territory => self.territory[c] + self.prisoners[c],
        };
        base as f64 - self.groups[c] as f64 + self.groups[1 - c] as f64
    }

    /// Black's points minus white's: positive when black wins.
    pub fn margin(&self) -> f64 {
        self.black_points() - self.white_points()
    }

    pub fn result(&self) -> GameResult {
        let margin = self.margin();
        if margin > 0.0 {
            GameResult::Win { winner: Color::Black, margin }
        } else if margin < 0.0 {
            GameResult::Win { winner: Color::White, margin: -margin }
        } else {
            GameResult::Draw
        }
    }

    /// Black's count in stones as a Chinese referee announces it: black's area with half of
    /// the shared points (each shared point counts half to each side).
    pub fn black_stones_count(&self) -> f64 {
        let black = Color::Black.index();
        (self.stones[black] + self.territory[black]) as f64 + self.neutral as f64 / 2.0
            - self.groups[black] as f64
            + self.groups[Color::White.index()] as f64
    }

    /// The result in the Chinese convention, in Chinese and in English: black's count against
    /// half the board plus half the compensation, the margin in stones (half the margin in
    /// points), with a fraction of ¼ or ¾ called ½ as the rules texts say.
    pub fn chinese_count(&self) -> (String, String) {
        let count = self.black_stones_count();
        // Half the board (180.5 on 19×19) plus half the compensation; the group tax moves
        // stones between the sides, never changing the total.
        let pivot = self.board_points as f64 / 2.0 + self.compensation / 2.0;
        let margin = count - pivot;
        let count_zh = stones_text(count, "又");
        let count_en = stones_text(count, "");
        if margin == 0.0 {
            return (format!("黑 {count_zh} 子，和棋"), format!("Black {count_en} stones, draw"));
        }
        let (verb_zh, verb_en) = if margin > 0.0 { ("胜", "wins") } else { ("负", "loses") };
        let by = called_margin(margin.abs());
        let unit = if by > 1.0 { "stones" } else { "stone" };
        (
            format!("黑 {count_zh} 子，{verb_zh} {} 子", stones_text(by, "又")),
            format!("Black {count_en} stones, {verb_en} by {} {unit}", stones_text(by, "")),
        )
    }
}

/// A margin in stones as announced: whole stones, plus ½ for any fraction.
fn called_margin(margin: f64) -> f64 {
    let whole = margin.floor();
    if margin > whole {
        whole + 0.5
    } else {
        whole
    }
}

/// `185`, `1/2`, `184 1/2` (or `184 又 1/2` with the Chinese joiner).
fn stones_text(stones: f64, joiner: &str) -> String {
    let whole = stones.floor();
    let half = stones > whole;
    match (whole as i64, half) {
        (w, false) => w.to_string(),
        (0, true) => "1/2".to_string(),
        (w, true) if joiner.is_empty() => format!("{w} 1/2"),
        (w, true) => format!("{w} {joiner} 1/2"),
    }
}

/// Counts `board` under `rules` with `handicap` stones given, after removing the chains
/// through the points in `dead`. Under area scoring, the points of a dead chain and its
/// liberties that lie in a region no single colour borders after the removal count for the
/// side that takes it. Chains through the points in `seki` matter only to
/// territory scoring, where the empty points they surround count for nobody.
pub fn count(board: &Board, rules: &Rules, handicap: u32, dead: &[Point], seki: &[Point]) -> Score {
    let mut board = board.clone();
    let mut prisoners = [board.prisoners(Color::Black), board.prisoners(Color::White)];
    // Per point, which colours take a dead chain there: its stones and its liberties, read
    // before any chain is removed, so that the order of `dead` does not matter.
    let mut taken_by = vec![0u8; crate::board::SLOTS];
    for &p in dead {
        if let Some(color) = board.stone(p) {
            let mark = 1 << color.opponent().index();
            for s in board.chain_stones(p) {
                taken_by[s.index()] |= mark;
                for n in board.neighbors(s) {
                    if board.cell(n) == Cell::Empty {
                        taken_by[n.index()] |= mark;
                    }
                }
            }
        }
    }
    for &p in dead {
        if let Some(color) = board.stone(p) {
            let chain: Vec<Point> = board.chain_stones(p).collect();
            prisoners[color.opponent().index()] += chain.len() as u32;
            for s in chain {
                board.clear_point(s);
            }
        }
    }
    let in_seki: Vec<Point> = seki
        .iter()
        .filter(|&&p| board.stone(p).is_some())
        .flat_map(|&p| board.chain_stones(p).collect::<Vec<_>>())
        .collect();

    let mut score = Score {
        scoring: rules.scoring,
        stones: [0; 2],
        territory: [0; 2],
        neutral: 0,
        prisoners,
        groups: [0; 2],
        compensation: rules.compensation(handicap),
        board_points: (board.size() * board.size()) as u32,
    };
    let regions = Regions::of(&board);
    for p in board.points() {
        match board.stone(p) {
            Some(color) => score.stones[color.index()] += 1,
            None => {
                let region = &regions.list[regions.of_point[p.index()]];
                let owner = region.owner();
                let seki_eye = rules.scoring == Scoring::Territory
                    && region.border.iter().any(|b| in_seki.contains(b));
                // A dead chain's stones and liberties in a region no single colour borders
                // go to the side taking it under area scoring: it plays on the liberties
                // to capture, as GNU Go counts it (a dead stone in atari next to the
                // owner's wall: its point and its liberty are the taker's).
                let taker = match taken_by[p.index()] {
                    1 => Some(Color::Black),
                    2 => Some(Color::White),
                    _ => None,
                };
                match (owner, taker) {
                    (Some(color), _) if !seki_eye => score.territory[color.index()] += 1,
                    (None, Some(color)) if rules.scoring == Scoring::Area => {
                        score.territory[color.index()] += 1
                    }
                    _ => score.neutral += 1,
                }
            }
        }
    }
    if rules.group_tax {
        score.groups = count_living_groups(&board, &regions);
    }
    score
}

/// Black's area minus white's (stones plus empty regions bordered by one colour only), no
/// dead stones removed: the exact count of a position both players passed in.
pub fn area_difference(board: &Board) -> i32 {
    let regions = Regions::of(board);
    board
        .points()
        .map(|p| match board.stone(p) {
            Some(Color::Black) => 1,
            Some(Color::White) => -1,
            None => match regions.list[regions.of_point[p.index()]].owner() {
                Some(Color::Black) => 1,
                Some(Color::White) => -1,
                None => 0,
            },
        })
        .sum()
}

/// The empty regions of a board: maximal 4-connected sets of empty points, with the stones
/// along their border.
struct Regions {
    list: Vec<Region>,
    /// Region index of each empty point (meaningless for stones).
    of_point: Vec<usize>,
}

struct Region {
    points: Vec<Point>,
    border: Vec<Point>,
    touches: [bool; 2],
}

impl Region {
    /// The colour that alone borders this region, if exactly one does.
    fn owner(&self) -> Option<Color> {
        match self.touches {
            [true, false] => Some(Color::Black),
            [false, true] => Some(Color::White),
            _ => None,
        }
    }
}

impl Regions {
    fn of(board: &Board) -> Regions {
        let mut of_point = vec![usize::MAX; crate::board::SLOTS];
        let mut list = Vec::new();
        for start in board.points() {
            if board.cell(start) != Cell::Empty || of_point[start.index()] != usize::MAX {
                continue;
            }
            let id = list.len();
            let mut region =
                Region { points: vec![start], border: Vec::new(), touches: [false; 2] };
            of_point[start.index()] = id;
            let mut next = 0;
            while next < region.points.len() {
                let p = region.points[next];
                next += 1;
                for n in board.neighbors(p) {
                    match board.cell(n) {
                        Cell::Empty if of_point[n.index()] == usize::MAX => {
                            of_point[n.index()] = id;
                            region.points.push(n);
                        }
                        Cell::Black | Cell::White => {
                            region.touches[board.stone(n).unwrap().index()] = true;
                            if !region.border.contains(&n) {
                                region.border.push(n);
                            }
                        }
                        _ => {}
                    }
                }
            }
            list.push(region);
        }
        Regions { list, of_point }
    }
}

/// Separate living groups per colour for 还棋头: the connected components of a colour's
/// stones together with the empty regions only it borders, so chains sharing eye space form
/// one group and a group split in two by the opponent counts twice.
fn count_living_groups(board: &Board, regions: &Regions) -> [u32; 2] {
    let mut groups = [0u32; 2];
    let mut visited = vec![false; crate::board::SLOTS];
    for color in Color::BOTH {
        let belongs = |p: Point| match board.stone(p) {
            Some(c) => c == color,
            None => {
                board.cell(p) == Cell::Empty
                    && regions.list[regions.of_point[p.index()]].owner() == Some(color)
            }
        };
        for start in board.points() {
            if board.stone(start) != Some(color) || visited[start.index()] {
                continue;
            }
            groups[color.index()] += 1;
            let mut stack = vec![start];
            visited[start.index()] = true;
            while let Some(p) = stack.pop() {
                for n in board.neighbors(p) {
                    if board.is_on_board(n) && !visited[n.index()] && belongs(n) {
                        visited[n.index()] = true;
                        stack.push(n);
                    }
                }
            }
        }
    }
    groups
}

#[cfg(test)]
mod tests;
