//! Prior knowledge for new tree nodes: virtual simulations given to a move when its node is
//! created, from cheap heuristics — the playout policy's answer to the last move, captures,
//! ataris (most of all into a ladder), atari escapes (unless into a ladder), stones a ladder
//! would capture, self-atari, closeness to the last move, the lines of the board in the
//! opening and, on big boards, the empty corners; and the chance of each move under the
//! learnt move model (`move_model.rs`), as virtual wins. They go into the node's RAVE statistics,
//! so they steer the first visits and fade as real results arrive, at the rate the RAVE
//! weight fades (for pass, which gets no RAVE results, they count as virtual visits
//! instead; see `search::Shared::value`).

use super::move_model::{group_index, Features, Group, MoveModel, Recent, BIG_BOARD};
use crate::board::color::Color;
use crate::board::{Board, Move, Point};
use crate::search::policy;

/// Virtual simulations and wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prior {
    pub visits: u32,
    pub wins: u32,
}

impl Prior {
    const fn new(visits: u32, wins: u32) -> Prior {
        Prior { visits, wins }
    }

    pub(super) fn add(&mut self, other: Prior) {
        self.visits += other.visits;
        self.wins += other.wins;
    }

    /// The same rate with `weight` times the simulations.
    fn times(self, weight: u32) -> Prior {
        Prior::new(self.visits * weight, self.wins * weight)
    }
}

/// Every move starts even, so that unvisited children are ordered by what the heuristics add.
const EVEN: Prior = Prior::new(10, 5);
const CAPTURE: Prior = Prior::new(20, 18);
const ESCAPE: Prior = Prior::new(20, 16);
const LADDER_ESCAPE: Prior = Prior::new(20, 2);
// An atari the chain cannot escape, since running leads into a ladder, is nearly as good
// as a capture: 56.9 % of 357 self-play games against no such prior. Other ataris get a
// smaller share (56.6 % of 378 with `ATARI` against without); more for them, (10, 9), made
// no clear difference (54.0 % of 500, SPRT undecided). See docs/strength.md.
const LADDER_ATARI: Prior = Prior::new(20, 17);
const ATARI: Prior = Prior::new(10, 7);
/// A move that leaves its chain two liberties, so that the opponent can atari it into a
/// ladder: 55.0 % of 500 self-play games against no such prior (50.6–59.3 %).
const LADDER_CAPTURABLE: Prior = Prior::new(20, 4);
const POLICY_ANSWER: Prior = Prior::new(20, 17);
const BIG_SELF_ATARI: Prior = Prior::new(20, 1);
const LONE_SELF_ATARI: Prior = Prior::new(10, 3);
const NEAR_LAST_MOVE: Prior = Prior::new(10, 7);
const OPENING_EDGE: Prior = Prior::new(20, 3);
const OPENING_SECOND_LINE: Prior = Prior::new(10, 3);
const OPENING_GOOD_LINE: Prior = Prior::new(10, 7);
const OPENING_EMPTY_CORNER: Prior = Prior::new(10, 9);
const EARLY_PASS: Prior = Prior::new(30, 1);
/// The priors of all `moves` for `color` on `board`, the last two stones at `recent`, into
/// `out`, the move model's share weighing `model_weight`: what they share is worked out
/// once, and each move's features once.
pub fn priors(
    board: &Board,
    color: Color,
    recent: Recent,
    model_weight: f64,
    moves: &[Move],
    out: &mut Vec<Prior>,
) {
    let answers = policy_answers(board, color, recent.last);
    let model = MoveModel::builtin(board.size());
    let first = out.len();
    let mut strengths = Vec::with_capacity(moves.len());
    for &mv in moves {
        let (prior, strength) = match mv {
            Move::Play(p) => {
                let features = model.features(board, color, p, recent);
                (prior_with(board, p, &features, &answers), model.strength(&features))
            }
            Move::Pass => (pass_prior(board), 0.0),
        };
        out.push(prior);
        strengths.push(strength);
    }
    let total: f64 = strengths.iter().sum();
    if model_weight > 0.0 && total > 0.0 {
        for (prior, strength) in out[first..].iter_mut().zip(strengths) {
            let wins = (model_weight * (strength / total).sqrt()).round() as u32;
            prior.add(Prior::new(wins, wins));
        }
    }
}

/// The prior of `mv` for `color` on `board`, the opponent's last stone at `last`, without
/// the move model: one move of [`priors`], for the tests.
#[cfg(test)]
fn prior(board: &Board, color: Color, mv: Move, last: Option<Point>) -> Prior {
    let answers = policy_answers(board, color, last);
    match mv {
        Move::Play(p) => {
            let recent = Recent { last, previous: None };
            prior_with(board, p, &super::move_model::features(board, color, p, recent), &answers)
        }
        Move::Pass => pass_prior(board),
    }
}

/// The moves the playout policy would answer `last` with: its atari and two-liberty answers.
fn policy_answers(board: &Board, color: Color, last: Option<Point>) -> [Option<Point>; 2] {
    match last {
        Some(last) => {
            [policy::answer_to(board, color, last), policy::two_liberty_answer(board, color, last)]
        }
        None => [None, None],
    }
}

/// Passing early gives the board away; late, the search decides unaided.
fn pass_prior(board: &Board) -> Prior {
    let points = board.size() * board.size();
    let mut prior = EVEN;
    if board.empty_points().len() * 2 > points {
        prior.add(EARLY_PASS);
    }
    prior
}

/// The hand-made prior of the move `p` with `features` (see `move_model::features`).
fn prior_with(board: &Board, p: Point, features: &Features, answers: &[Option<Point>; 2]) -> Prior {
    let feature = |group| features[group_index(group)];
    let mut prior = EVEN;
    let size = board.size();
    let points = size * size;
    let empty = board.empty_points().len();
    if feature(Group::Capture) > 0 {
        prior.add(CAPTURE);
    }
    if answers.contains(&Some(p)) {
        prior.add(POLICY_ANSWER);
    }
    match feature(Group::SelfAtari) {
        2 => prior.add(BIG_SELF_ATARI),
        1 => prior.add(LONE_SELF_ATARI),
        _ => {
            // An extension out of atari counts only where it gains liberties, and running
            // into a ladder only loses more stones.
            match feature(Group::Escape) {
                0 => {}
                4 => prior.add(LADDER_ESCAPE),
                _ => prior.add(ESCAPE),
            }
            if feature(Group::LadderCapturable) == 1 {
                prior.add(LADDER_CAPTURABLE);
            }
            match feature(Group::Atari) {
                2 => prior.add(LADDER_ATARI),
                1 => prior.add(ATARI),
                _ => {}
            }
        }
    }
    // Within two steps of the last stone, diagonals included.
    if (2..=4).contains(&feature(Group::LastDistance)) {
        prior.add(NEAR_LAST_MOVE);
    }
    // The opening: the first and second lines are slow, the third and fourth are where
    // games start (on boards large enough to have them). On big boards only in open space,
    // as Pachi's 19×19 prior does: next to stones the fight decides, and the weighty line
    // bonus drew moves away from it (19×19 self-play, 1,000 playouts: 65 of 100 games
    // against the bonus on every point; on 9×9 the same rule lost 47.6 % of 380).
    let opening = size >= 9 && empty * 5 > points * 4;
    if opening && (size < BIG_BOARD || !has_stone_within_two(board, p)) {
        let (x, y) = board.coordinates(p);
        let line_prior = match board.line(p) {
            0 => OPENING_EDGE,
            1 => OPENING_SECOND_LINE,
            2 | 3 => OPENING_GOOD_LINE,
            _ => Prior::default(),
        };
        // On big boards a few thousand simulations cannot tell opening moves apart (every
        // one scores about the same), so the lines must carry more weight there: with 9×9's
        // weight, 8,000 simulations on 19×19 chose second-line moves such as G18 after
        // three corner moves.
        let weight = 1 + (points - points.min(81)) as u32 / 31;
        prior.add(line_prior.times(weight));
        if size >= BIG_BOARD && is_empty_corner_point(board, x, y) {
            prior.add(OPENING_EMPTY_CORNER.times(weight));
        }
    }
    prior
}

/// A move that touches one of the mover's own chains that the search's first simulations
/// lose, and captures nothing: it tries to save a dead group, which wastes a move (in three
/// lost 19×19 games against GNU Go, 20 of tengen's 150 middle-game moves did). Used only with
/// `SearchParams::dead_chain_prior`; 19×19 self-play at 1,000 playouts had it at 52.4 % of
/// 689 games (48.7–56.1 %), no proven gain (docs/strength.md).
pub(super) const DEAD_CHAIN: Prior = Prior::new(20, 2);
/// Mean ownership from the chain's own side below whose negation a chain counts as dead.
const DEAD_OWNERSHIP: f32 = 0.85;

/// The chains of `color` on `board` that `ownership` (per point index, black's side, in
/// [-1, 1]) calls dead, by chain id: the mean over their stones is below -`DEAD_OWNERSHIP`
/// from their own side.
pub(super) fn dead_chains(board: &Board, color: Color, ownership: &[f32]) -> Vec<Point> {
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let mut sums = [0f32; crate::board::SLOTS];
    let mut heads = Vec::new();
    for p in board.points() {
        if board.stone(p) == Some(color) {
            let head = board.chain_id(p);
            if head == p {
                heads.push(head);
            }
            sums[head.index()] += sign * ownership[p.index()];
        }
    }
    heads.retain(|&h| sums[h.index()] / (board.chain_len(h) as f32) < -DEAD_OWNERSHIP);
    heads
}

/// Whether `color` at `p` touches one of its chains in `dead` (see [`dead_chains`]) without
/// capturing anything.
pub(super) fn touches_dead_chain(board: &Board, color: Color, p: Point, dead: &[Point]) -> bool {
    let mut touches = false;
    for n in board.neighbors(p) {
        match board.stone(n) {
            Some(c) if c == color => touches |= dead.contains(&board.chain_id(n)),
            Some(_) if board.chain_liberties(n) == 1 => return false,
            _ => {}
        }
    }
    touches
}

/// Whether a stone stands on any point of columns `xs` and rows `ys`.
fn has_stone_in(
    board: &Board,
    xs: impl Iterator<Item = usize> + Clone,
    mut ys: impl Iterator<Item = usize>,
) -> bool {
    ys.any(|y| xs.clone().any(|x| board.stone(board.point(x, y)).is_some()))
}

/// Whether a stone stands within two lines of `p`, in the 5×5 square around it.
fn has_stone_within_two(board: &Board, p: Point) -> bool {
    let (x, y) = board.coordinates(p);
    let near = |c: usize| c.saturating_sub(2)..=(c + 2).min(board.size() - 1);
    has_stone_in(board, near(x), near(y))
}

/// Whether `(x, y)` is a 3-3, 3-4 or 4-4 point of a corner that holds no stone yet (its
/// 7×7 corner square): on big boards the corners come first.
fn is_empty_corner_point(board: &Board, x: usize, y: usize) -> bool {
    let size = board.size();
    let corner_range = |c: usize| match c {
        2 | 3 => Some(0..7),
        c if c + 3 == size || c + 4 == size => Some(size - 7..size),
        _ => None,
    };
    let (Some(xs), Some(ys)) = (corner_range(x), corner_range(y)) else { return false };
    !has_stone_in(board, xs, ys)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rate(prior: Prior) -> f64 {
        f64::from(prior.wins) / f64::from(prior.visits)
    }

    // Captures and escapes look good, self-atari bad, all relative to an ordinary move.
    #[test]
    fn tactical_priors() {
        let board = Board::from_diagram(
            ". . . . . . .
             . . . . . . .
             . X X X . . .
             X O O O . . .
             . X X X . . .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        let at = |x, y| Move::Play(board.point(x, y));
        let ordinary = prior(&board, Color::Black, at(6, 0), None);
        let capture = prior(&board, Color::Black, at(4, 3), None);
        let escape = prior(&board, Color::White, at(4, 3), None);
        assert!(rate(capture) > rate(ordinary) + 0.15, "{capture:?} {ordinary:?}");
        assert!(rate(escape) > rate(ordinary) + 0.15, "{escape:?}");
        let big_self_atari = Board::from_diagram(
            ". . . . .
             . . . . .
             X X X . .
             O O X . .
             . . X . .",
        )
        .unwrap();
        let filling =
            prior(&big_self_atari, Color::White, Move::Play(big_self_atari.point(0, 4)), None);
        assert!(rate(filling) < 0.3, "{filling:?}");
    }

    // Running from atari into a ladder is poor; with a ladder breaker it is good. The
    // playout policy's answer to the last move is good.
    #[test]
    fn ladder_escapes_and_policy_answers() {
        let mut board = Board::from_diagram(policy::LADDER).unwrap();
        let run = Move::Play(board.point(5, 4));
        let last = Some(board.point(4, 5));
        let ordinary = prior(&board, Color::White, Move::Play(board.point(2, 2)), last);
        let into_ladder = prior(&board, Color::White, run, last);
        assert!(rate(into_ladder) < rate(ordinary) - 0.15, "{into_ladder:?} {ordinary:?}");
        board.set_stone(board.point(7, 7), Color::White).unwrap();
        let out = prior(&board, Color::White, run, last);
        assert!(rate(out) > rate(ordinary), "{out:?} {ordinary:?}");
        assert!(rate(out) > rate(into_ladder) + 0.2, "{out:?} {into_ladder:?}");
        let two_liberties = Board::from_diagram(policy::TWO_LIBERTIES).unwrap();
        let last = two_liberties.point(3, 3);
        let answer = policy::two_liberty_answer(&two_liberties, Color::Black, last).unwrap();
        let extend = prior(&two_liberties, Color::Black, Move::Play(answer), Some(last));
        let near = Move::Play(two_liberties.point(4, 2));
        let near = prior(&two_liberties, Color::Black, near, Some(last));
        assert!(rate(extend) > rate(near) + 0.1, "{extend:?} {near:?}");
    }

    // An atari that drives the chain into a ladder is the best of ataris, and any atari
    // beats a quiet move; a ladder breaker makes the ladder atari an ordinary one.
    #[test]
    fn ataris_into_ladders_first() {
        let mut board = Board::from_diagram(policy::LADDER).unwrap();
        board.clear_point(board.point(4, 5));
        let rate_at = |board: &Board, x, y| {
            rate(prior(board, Color::Black, Move::Play(board.point(x, y)), None))
        };
        let into_ladder = rate_at(&board, 4, 5);
        let escapable = rate_at(&board, 5, 4);
        let quiet = rate_at(&board, 2, 2);
        assert!(into_ladder > escapable + 0.05, "{into_ladder} {escapable}");
        assert!(escapable > quiet, "{escapable} {quiet}");
        board.set_stone(board.point(7, 7), Color::White).unwrap();
        assert_eq!(rate_at(&board, 4, 5), escapable);
    }

    // A stone the opponent can atari into a ladder is poor; with a ladder breaker it is not.
    #[test]
    fn stones_that_a_ladder_captures() {
        let mut board = Board::from_diagram(policy::LADDER).unwrap();
        board.clear_point(board.point(4, 4));
        board.clear_point(board.point(4, 5));
        let stone = Move::Play(board.point(4, 4));
        let caught = rate(prior(&board, Color::White, stone, None));
        board.set_stone(board.point(7, 7), Color::White).unwrap();
        let free = rate(prior(&board, Color::White, stone, None));
        assert!(caught < free - 0.1, "{caught} {free}");
    }

    // The move model adds to every move in proportion to the root of its chance: on an
    // empty board the third line gains more than the first, and weight 0 leaves it out.
    #[test]
    fn the_move_model_adds_wins_by_chance() {
        let board = Board::new(9);
        let moves: Vec<Move> = board.points().map(Move::Play).chain([Move::Pass]).collect();
        let with = |weight| {
            let mut out = Vec::new();
            priors(&board, Color::Black, Recent::default(), weight, &moves, &mut out);
            out
        };
        let (plain, modelled) = (with(0.0), with(40.0));
        let gain = |x, y| {
            let i = moves.iter().position(|&m| m == Move::Play(board.point(x, y))).unwrap();
            assert_eq!(modelled[i].visits - plain[i].visits, modelled[i].wins - plain[i].wins);
            modelled[i].wins - plain[i].wins
        };
        assert!(gain(2, 2) > gain(0, 4), "{} {}", gain(2, 2), gain(0, 4));
        assert_eq!(modelled.last(), plain.last(), "pass has no model strength");
        let total: u32 = (0..moves.len()).map(|i| modelled[i].wins - plain[i].wins).sum();
        // Each move gets 40 × √share, so 81 equal shares would give 40 × 9 in all.
        assert!(total > 40 && total <= 360, "{total}");
    }

    // On 19×19 the lines weigh ten times what they do on 9×9 (where they were tuned).
    #[test]
    fn opening_lines_weigh_more_on_big_boards() {
        let small = Board::new(9);
        let big = Board::new(19);
        let third = |board: &Board| prior(board, Color::Black, Move::Play(board.point(2, 4)), None);
        assert_eq!(third(&small).visits, EVEN.visits + OPENING_GOOD_LINE.visits);
        assert_eq!(third(&big).visits, EVEN.visits + 10 * OPENING_GOOD_LINE.visits);
        assert!(rate(third(&big)) > rate(third(&small)));
    }

    // On big boards an empty corner's 3-3, 3-4 and 4-4 points come before the sides; a
    // corner with a stone in it is no longer empty.
    #[test]
    fn empty_corners_first_on_big_boards() {
        let mut board = Board::new(19);
        let at =
            |board: &Board, x, y| prior(board, Color::Black, Move::Play(board.point(x, y)), None);
        let star = at(&board, 15, 3);
        let three_four = at(&board, 2, 15);
        let side = at(&board, 9, 3);
        assert!(rate(star) > rate(side) && rate(three_four) > rate(side), "{star:?} {side:?}");
        board.set_stone(board.point(12, 6), Color::White).unwrap();
        assert_eq!(at(&board, 15, 3), side, "the corner holds a stone");
        let small = Board::new(9);
        assert_eq!(at(&small, 2, 2), at(&small, 4, 2), "no corners on 9×9");
    }

    // On big boards the lines count only in open space: within two points of a stone the
    // fight decides. On 9×9 they count everywhere.
    #[test]
    fn line_priors_only_in_open_space() {
        let mut board = Board::new(19);
        board.set_stone(board.point(9, 3), Color::White).unwrap();
        let at = |x, y| prior(&board, Color::Black, Move::Play(board.point(x, y)), None);
        let weight = 10;
        assert_eq!(at(11, 2), EVEN, "third line, diagonally two points from the stone");
        assert_eq!(at(11, 1), EVEN, "second line, diagonally two points away");
        let mut third = EVEN;
        third.add(OPENING_GOOD_LINE.times(weight));
        assert_eq!(at(12, 2), third, "third line, three points away");
        let mut second = EVEN;
        second.add(OPENING_SECOND_LINE.times(weight));
        assert_eq!(at(9, 1), EVEN, "second line, two points below the stone");
        assert_eq!(at(6, 1), second, "second line, three points away");
        let mut small = Board::new(9);
        small.set_stone(small.point(4, 4), Color::White).unwrap();
        let mut third = EVEN;
        third.add(OPENING_GOOD_LINE);
        assert_eq!(prior(&small, Color::Black, Move::Play(small.point(4, 2)), None), third);
    }

    // In the opening the edge is poor and the third line good; passing early is poor.
    #[test]
    fn opening_priors() {
        let board = Board::new(19);
        let at = |x, y| Move::Play(board.point(x, y));
        let edge = prior(&board, Color::Black, at(0, 5), None);
        let third = prior(&board, Color::Black, at(2, 5), None);
        let centre = prior(&board, Color::Black, at(9, 9), None);
        assert!(rate(edge) < rate(centre) && rate(centre) < rate(third));
        assert!(rate(prior(&board, Color::Black, Move::Pass, None)) < 0.2);
        let near = prior(&board, Color::Black, at(10, 10), Some(board.point(9, 9)));
        assert!(rate(near) > rate(centre));
    }

    // A chain whose stones its owner loses in most simulations is dead; a move touching it
    // tries to save it, unless it captures a neighbour, which may.
    #[test]
    fn moves_that_touch_dead_chains() {
        let board = Board::from_diagram(
            ". . . . . . .
             . X X . . . .
             . . . . O O .
             . . . O X . O
             . . . . O O .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        let mut ownership = vec![0f32; crate::board::SLOTS];
        for p in board.points() {
            let (x, y) = board.coordinates(p);
            // White owns the right-hand side, black the top left.
            ownership[p.index()] = if x >= 3 && y >= 2 { -0.9 } else { 0.8 };
        }
        let dead = dead_chains(&board, Color::Black, &ownership);
        assert_eq!(dead, vec![board.chain_id(board.point(4, 3))]);
        assert!(dead_chains(&board, Color::White, &ownership).is_empty());
        let touches = |x, y| touches_dead_chain(&board, Color::Black, board.point(x, y), &dead);
        assert!(touches(5, 3), "extends the dead stone");
        assert!(!touches(1, 2), "touches the living chain only");
        assert!(!touches(2, 5), "touches nothing");
        // With white's right-hand stone in atari, the same extension captures it.
        let mut board = board;
        board.set_stone(board.point(6, 2), Color::Black).unwrap();
        board.set_stone(board.point(6, 4), Color::Black).unwrap();
        let dead = dead_chains(&board, Color::Black, &ownership);
        assert!(dead.contains(&board.chain_id(board.point(4, 3))));
        assert!(!touches_dead_chain(&board, Color::Black, board.point(5, 3), &dead));
    }
}
