use super::*;
use crate::board::vertex::parse_move;
use crate::game::rules::HandicapBonus;

fn board(diagram: &str) -> Board {
    Board::from_diagram(diagram).expect("valid diagram")
}

fn points(board: &Board, vertices: &[&str]) -> Vec<Point> {
    vertices
        .iter()
        .map(|v| match parse_move(board, v) {
            Some(crate::board::Move::Play(p)) => p,
            _ => panic!("bad vertex {v}"),
        })
        .collect()
}

fn rules(komi: f64) -> Rules {
    Rules { komi, ..Rules::chinese() }
}

/// Black walls off the left two columns and a half, white the rest.
const SPLIT: &str = "
    . X O . .
    . X O . .
    . X O . .
    . X O . .
    . X O . .";

// Area scoring counts stones plus surrounded points; komi goes to white.
#[test]
fn area_count_of_a_split_board() {
    let b = board(SPLIT);
    let s = count(&b, &rules(0.5), 0, &[], &[]);
    assert_eq!((s.stones, s.territory, s.neutral), ([5, 5], [5, 10], 0));
    assert_eq!(s.black_points(), 10.0);
    assert_eq!(s.white_points(), 15.5);
    assert_eq!(s.result(), GameResult::Win { winner: Color::White, margin: 5.5 });
    assert_eq!(s.result().to_string(), "W+5.5");
}

// A dead stone in atari next to the owner's wall: the taker plays on its liberty to take it,
// so under area scoring that point and the stone's count for the taker though the region
// left touches both colours (GNU Go counts so); under territory scoring they stay dame.
#[test]
fn a_dead_stone_and_its_liberty_go_to_the_taker() {
    let b = board(
        ". X O . .
         . X O . .
         . X O . .
         . X . O .
         . X . X O",
    );
    let dead = points(&b, &["D1"]);
    let s = count(&b, &rules(0.0), 0, &dead, &[]);
    // Black: 5 stones and 5 points; white: 5 stones, 7 points, and D1 and C1; C2 is dame.
    assert_eq!((s.stones, s.territory, s.neutral), ([5, 5], [5, 9], 1), "{s:?}");
    let territory = Rules { scoring: Scoring::Territory, ..rules(0.0) };
    let japanese = count(&b, &territory, 0, &dead, &[]);
    assert_eq!((japanese.territory, japanese.neutral), ([5, 7], 3), "{japanese:?}");
}

// Dead stones are removed first and their points go to the surrounding colour.
#[test]
fn dead_stones_are_removed() {
    let b = board(
        ". X O . .
         . X O . X
         O X O . .
         . X O . .
         . X O . .",
    );
    let alive = count(&b, &rules(0.0), 0, &[], &[]);
    assert_eq!(alive.neutral, 2 + 2 + 9, "every region touches both colours");
    let dead = points(&b, &["A3", "E4"]);
    let s = count(&b, &rules(0.0), 0, &dead, &[]);
    assert_eq!((s.stones, s.territory, s.neutral), ([5, 5], [5, 10], 0));
    assert_eq!(s.prisoners, [1, 1]);
    assert_eq!(s.result().to_string(), "W+5");
}

// Seki: the liberties shared by the chains in seki count for nobody under area scoring, which
// gives the same margin as counting them half to each side; the Chinese count splits them.
#[test]
fn seki_shared_liberties() {
    let b = board(
        ". . . . . . .
         X X X X X X .
         O O O O O X .
         . X . O O X .
         O O O O O X .
         X X X X X X .
         . . . . . . .",
    );
    let s = count(&b, &rules(0.0), 0, &[], &[]);
    assert_eq!((s.stones, s.territory, s.neutral), ([16, 12], [19, 0], 2));
    assert_eq!(s.black_stones_count(), 36.0);
    assert_eq!(s.margin(), 35.0 - 12.0);
}

// Territory scoring: empty points plus prisoners, and the eyes of chains in seki count for
// nobody.
#[test]
fn territory_scoring_with_prisoners_and_seki() {
    let b = board(SPLIT);
    let jp = Rules::japanese();
    let s = count(&b, &jp, 0, &[], &[]);
    assert_eq!(s.black_points(), 5.0);
    assert_eq!(s.white_points(), 10.0 + 6.5);
    let dead_b = board(
        ". X O . .
         . X O X .
         . X O . .
         . X O . .
         . X O . .",
    );
    let s = count(&dead_b, &jp, 0, &points(&dead_b, &["D4"]), &[]);
    assert_eq!(s.prisoners, [0, 1]);
    assert_eq!(s.white_points(), 10.0 + 1.0 + 6.5, "territory, the dead stone and komi");
    let s = count(&b, &jp, 0, &[], &points(&b, &["B1"]));
    assert_eq!(s.territory[0], 0, "black's area is the eye space of a chain in seki");
    let area = count(&b, &Rules::chinese(), 0, &[], &points(&b, &["B1"]));
    assert_eq!(area.territory[0], 5, "seki marks do not change area counting");
}

/// Seki with eyes: black's chain has the eye A4, white's the eye D4, and both share the
/// liberty B1; whoever plays B1 puts its own chain in atari and is captured.
const SEKI_WITH_EYES: &str = "
    X X O O O
    . X O . O
    X X O O O
    X X O O O
    X . O O O";

// In a real seki the eyes count for nobody under territory scoring, for their owner under
// area scoring.
#[test]
fn eyes_in_seki() {
    let b = board(SEKI_WITH_EYES);
    let seki = points(&b, &["A5", "C5"]);
    let jp = count(&b, &Rules::japanese(), 0, &[], &seki);
    assert_eq!((jp.territory, jp.neutral), ([0, 0], 3));
    assert_eq!(jp.result().to_string(), "W+6.5");
    let without_marks = count(&b, &Rules::japanese(), 0, &[], &[]);
    assert_eq!(without_marks.territory, [1, 1], "unmarked, the eyes would be territory");
    let area = count(&b, &rules(0.0), 0, &[], &seki);
    assert_eq!((area.stones, area.territory, area.neutral), ([8, 14], [1, 1], 1));
    assert_eq!(area.result().to_string(), "W+6");
}

// White receives N points in an N-stone handicap game under Chinese rules, none under
// Tromp-Taylor, N−1 under AGA-style compensation.
#[test]
fn handicap_compensation() {
    let b = board(SPLIT);
    assert_eq!(count(&b, &rules(0.5), 4, &[], &[]).white_points(), 15.0 + 0.5 + 4.0);
    let tt = Rules { komi: 0.5, ..Rules::tromp_taylor() };
    assert_eq!(count(&b, &tt, 4, &[], &[]).white_points(), 15.5);
    let aga = Rules { handicap_bonus: HandicapBonus::NMinusOne, ..rules(0.5) };
    assert_eq!(count(&b, &aga, 4, &[], &[]).white_points(), 18.5);
}

// Result texts in GTP form, including a draw with an integer komi.
#[test]
fn result_text() {
    let b = board(SPLIT);
    assert_eq!(count(&b, &rules(-5.0), 0, &[], &[]).result().to_string(), "0");
    assert_eq!(count(&b, &rules(-8.5), 0, &[], &[]).result().to_string(), "B+3.5");
    assert_eq!(count(&b, &rules(-4.5), 0, &[], &[]).result().to_string(), "W+0.5");
}

fn nineteen(black_stones: u32, neutral: u32) -> Score {
    Score {
        scoring: Scoring::Area,
        stones: [black_stones, 361 - neutral - black_stones],
        territory: [0, 0],
        neutral,
        prisoners: [0, 0],
        groups: [0, 0],
        compensation: 7.5,
        board_points: 361,
    }
}

// The Chinese count: 185 stones win by 1/2 (¾ is called ½), 184 lose by 1/2 (¼ likewise),
// in agreement with the point margins B+1.5 and W+0.5.
#[test]
fn chinese_count_against_184_and_a_quarter() {
    let win = nineteen(185, 0);
    assert_eq!(win.result().to_string(), "B+1.5");
    assert_eq!(win.chinese_count().0, "黑 185 子，胜 1/2 子");
    assert_eq!(win.chinese_count().1, "Black 185 stones, wins by 1/2 stone");
    let loss = nineteen(184, 0);
    assert_eq!(loss.result().to_string(), "W+0.5");
    assert_eq!(loss.chinese_count().0, "黑 184 子，负 1/2 子");
    assert_eq!(loss.chinese_count().1, "Black 184 stones, loses by 1/2 stone");
    let big = nineteen(190, 0);
    assert_eq!(big.chinese_count().0, "黑 190 子，胜 5 又 1/2 子");
    assert_eq!(big.chinese_count().1, "Black 190 stones, wins by 5 1/2 stones");
    let half = nineteen(184, 1);
    assert_eq!(half.black_stones_count(), 184.5);
    assert_eq!(half.chinese_count().1, "Black 184 1/2 stones, wins by 1/2 stone");
    let even = Score { compensation: 0.0, ..nineteen(180, 1) };
    assert_eq!(even.chinese_count().1, "Black 180 1/2 stones, draw");
    assert_eq!(even.result(), GameResult::Draw);
}

// 还棋头: each side gives back one point per separate living group.
#[test]
fn group_tax_of_the_ancient_rules() {
    let b = board(
        ". X O . O
         X X O O O
         O O O . .
         X X O O O
         . X O . O",
    );
    let ancient = Rules::ancient();
    let s = count(&b, &ancient, 0, &[], &[]);
    assert_eq!(s.groups, [2, 1], "black is split in two, white is one group");
    let untaxed = count(&b, &Rules { group_tax: false, ..ancient.clone() }, 0, &[], &[]);
    assert_eq!(s.margin(), untaxed.margin() - 2.0, "one stone handed over is two points");
    assert_eq!(s.black_stones_count(), untaxed.black_stones_count() - 1.0);
    assert_eq!(untaxed.groups, [0, 0]);
}

// The exact area difference counts multi-point regions, which the playout count misses.
#[test]
fn area_difference_counts_large_regions() {
    let b = board(SPLIT);
    assert_eq!(area_difference(&b), 10 - 15);
    assert_eq!(
        b.playout_score(),
        5 - 5,
        "only stones: no empty point has all four neighbours of one colour"
    );
}
