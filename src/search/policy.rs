//! Playout policies: how a simulation chooses its moves once it leaves the tree.
//!
//! `Light` is the uniform policy of [`Board::playout`]: any legal move that fills none of the
//! mover's true eyes. `Tactical` first answers the previous move the way classic MCTS
//! engines do — capture the chain of the stone just played if it is in atari; save an own
//! chain that stone put in atari by capturing next to it or by extending where that gains
//! liberties and runs into no ladder; capture a chain the opponent left in atari next to it;
//! then, in half the moves, the two-liberty fights: extend an own chain left with two
//! liberties, atari the last chain where it cannot get out — and otherwise plays like
//! `Light` except that it puts a chain of two or more stones in atari only to give up two
//! or three for a shortage of liberties, or four to six where their capture leaves a dead
//! shape (see [`is_random_move_ok`]). `Patterns`
//! (the default) adds the 3×3 shapes next to the last move, then (below 13×13) next to the
//! mover's own previous stone, before the random move, and on big boards first looks for a
//! point in open space (MoGo's "fill the board"). Each answer was kept only after it won a
//! self-play match against the policy without it (docs/strength.md). `Settling`, for
//! counting finished games, always answers two-liberty fights, adds the nakade vital
//! points, and gives up no stones where the opponent's chain left in atari keeps an eye.

use crate::board::color::Color;
use crate::board::{points_in, Board, Cell, Point};
use crate::search::patterns;

/// The stones a move answers: the opponent's last one and the mover's own previous one.
/// Playouts look for the 3×3 shapes next to both (next to the previous one only below
/// 13×13), and the move model rates moves by their distance to them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recent {
    pub last: Option<Point>,
    pub previous: Option<Point>,
}

impl Recent {
    /// The stones of `game`'s last two moves, for the player to move: the last move if the
    /// opponent made it, and the mover's own among the last two. A pass, a setup or moves
    /// of one colour in a row (GTP allows them) leave `None`.
    pub fn of(game: &crate::game::Game) -> Recent {
        let mover = game.to_move();
        let moves = game.moves();
        let last = moves.last().filter(|(c, _)| *c != mover).and_then(|(_, mv)| mv.point());
        let previous =
            moves.iter().rev().take(2).find(|(c, _)| *c == mover).and_then(|(_, mv)| mv.point());
        Recent { last, previous }
    }
}

/// Which playout policy simulations use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutPolicy {
    Light,
    Tactical,
    /// `Tactical`, then the 3×3 shapes of [`crate::search::patterns`] next to the last move, then
    /// on boards below 13×13 next to the mover's previous stone, then on big boards a point
    /// in open space.
    Patterns,
    /// `Tactical`, plus the nakade vital points, and the two-liberty answers in every move:
    /// what counting a finished game needs. In the search it lost (41.7 % of 156 self-play
    /// games, when it alone also gave up stones for a shortage of liberties). For dead-stone
    /// estimation.
    Settling,
}

impl PlayoutPolicy {
    /// The policies a user may choose for the search, by the names of the command line and
    /// the `policy` parameter. `Settling` is for counting only.
    pub fn from_name(name: &str) -> Option<PlayoutPolicy> {
        match name {
            "light" => Some(PlayoutPolicy::Light),
            "tactical" => Some(PlayoutPolicy::Tactical),
            "patterns" => Some(PlayoutPolicy::Patterns),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            PlayoutPolicy::Light => "light",
            PlayoutPolicy::Tactical => "tactical",
            PlayoutPolicy::Patterns => "patterns",
            PlayoutPolicy::Settling => "settling",
        }
    }
}

/// The tactical answer to the opponent's stone on `last`, if there is one worth playing:
/// capture its chain when in atari; else save an own chain it put in atari, by capturing an
/// opponent chain in atari that touches it or by extending where the chain then has two
/// liberties or more; else capture another opponent chain in atari next to `last` (a
/// stone the opponent left hanging).
pub fn answer_to(board: &Board, color: Color, last: Point) -> Option<Point> {
    let opponent = color.opponent();
    if board.stone(last) != Some(opponent) {
        return None;
    }
    if board.chain_liberties(last) == 1 {
        if let Some(capture) = capture_move(board, color, last) {
            return Some(capture);
        }
    }
    let neighbors = board.neighbors(last);
    for n in points_in(neighbors, board.chains_with_liberties(neighbors, color, 1)) {
        if let Some(capture) = counter_capture(board, color, n) {
            return Some(capture);
        }
        if let Some(escape) = board.some_liberty(n) {
            let liberties = board.liberties_after(escape, color, 3);
            if liberties >= 2
                && board.is_acceptable_playout_move(escape, color)
                && (liberties >= 3 || !is_caught_in_ladder(board, n))
            {
                return Some(escape);
            }
        }
    }
    let around = board.around(last);
    points_in(around, board.chains_with_liberties(around, opponent, 1))
        .find_map(|q| capture_move(board, color, q))
}

/// Where `color` captures the opponent chain through `chain`, in atari, if a playout may
/// play there and the capture is not one the opponent answers by taking more back. Such a
/// capture made settling playouts lose a living group: a corner group with two liberties,
/// the opponent throwing in on one of them, the playout taking the stone with the other
/// instead of capturing the opponent's chains in atari outside; the count then called the
/// group dead (`gtp-tests/sgf/snapback-capture.sgf`).
fn capture_move(board: &Board, color: Color, chain: Point) -> Option<Point> {
    board.some_liberty(chain).filter(|&p| {
        board.is_acceptable_playout_move(p, color) && !is_snapback_capture(board, p, color)
    })
}

/// Whether `color`'s capture on `p` takes a single stone while joining own stones into a
/// chain left with one liberty: the opponent plays back on the captured point and takes the
/// whole chain, so the capture only loses more.
pub(crate) fn is_snapback_capture(board: &Board, p: Point, color: Color) -> bool {
    let mut joins_own = false;
    let mut captured = 0;
    for n in board.neighbors(p) {
        match board.stone(n) {
            Some(c) if c == color => joins_own = true,
            Some(_) if board.chain_liberties(n) == 1 => captured += board.chain_len(n),
            _ => {}
        }
    }
    joins_own && captured == 1 && board.liberties_after(p, color, 2) < 2
}

/// The vital point of a small eye space next to `last`: an empty region of three to six
/// points bordered by stones of one colour only, whose point touching most of the others is
/// unique (e.g. the middle of a three, the centre of a pyramid four, a bulky or flower five,
/// a rabbity six). Whoever plays there first decides whether the group gets two eyes, so
/// both sides play it. Regions with no single vital point (a straight or bent four, a
/// square four) are alive or dead whoever plays first, and give `None`.
pub fn nakade_point(board: &Board, last: Point) -> Option<Point> {
    board
        .neighbors(last)
        .into_iter()
        .filter(|&n| board.cell(n) == Cell::Empty)
        .find_map(|n| vital_point(board, n))
}

fn vital_point(board: &Board, start: Point) -> Option<Point> {
    const MAX: usize = 6;
    let mut region = [start; MAX];
    let mut len = 1;
    let mut border = None;
    let mut i = 0;
    while i < len {
        for n in board.neighbors(region[i]) {
            match board.cell(n) {
                Cell::Empty if !region[..len].contains(&n) => {
                    if len == MAX {
                        return None;
                    }
                    region[len] = n;
                    len += 1;
                }
                Cell::Empty | Cell::OffBoard => {}
                stone if border.is_some_and(|b| b != stone) => return None,
                stone => border = Some(stone),
            }
        }
        i += 1;
    }
    if len < 3 {
        return None;
    }
    unique_vital_point(board, &region[..len])
}

/// The point of `region` that touches more of its other points than any other does, if
/// there is one such point: the vital point of a pyramid four, a bulky or flower five, a
/// rabbity six, the middle of a three.
fn unique_vital_point(board: &Board, region: &[Point]) -> Option<Point> {
    let mut best = None;
    let mut best_degree = 0;
    let mut unique = false;
    for &p in region {
        let degree = inside_degree(board, region, p);
        if degree > best_degree {
            (best, best_degree, unique) = (Some(p), degree, true);
        } else if degree == best_degree {
            unique = false;
        }
    }
    best.filter(|_| unique)
}

/// How many of `p`'s neighbours are in `region`.
fn inside_degree(board: &Board, region: &[Point], p: Point) -> usize {
    board.neighbors(p).into_iter().filter(|n| region.contains(n)).count()
}

/// Whether an eye space of the points of `region` (connected, at most six) makes no two
/// eyes when the side that did not enclose it moves first: the killable shapes of the
/// books, known by how many points of the shape each point touches. Up to three points;
/// a square four (every point touching two) or a pyramid four (one touching three); a
/// bulky five (a square with one point more: 3, 2, 2, 2, 1) or a flower five (one touching
/// all four others); a rabbity six (a flower with a square in it: 4, 2, 2, 2, 1, 1). Every
/// other four, five or six makes two eyes whoever moves first.
fn is_dead_shape(board: &Board, region: &[Point]) -> bool {
    match region.len() {
        0..=3 => return true,
        4..=MOST_STONES_FOR_A_DEAD_SHAPE => {}
        _ => return false,
    }
    let mut degrees = [0usize; MOST_STONES_FOR_A_DEAD_SHAPE];
    let degrees = &mut degrees[..region.len()];
    for (degree, &p) in degrees.iter_mut().zip(region) {
        *degree = inside_degree(board, region, p);
    }
    degrees.sort_unstable_by(|a, b| b.cmp(a));
    match degrees.len() {
        4 => degrees == [2, 2, 2, 2] || degrees[0] == 3,
        5 => degrees == [3, 2, 2, 2, 1] || degrees[0] == 4,
        _ => degrees == [4, 2, 2, 2, 1, 1],
    }
}

/// The most stones a playout gives up in one self-atari to kill by the dead shape they
/// leave (Pachi's limit: no shape of seven points or more is dead).
const MOST_STONES_FOR_A_DEAD_SHAPE: usize = 6;

/// Whether `color`'s self-atari on `p` leaves, once the opponent has captured it, an eye
/// space of a dead shape: the points of the chain `p` would make. After the capture the
/// mover plays first inside, so a shape with a vital point is dead too.
fn leaves_a_dead_shape(board: &Board, p: Point, color: Color) -> bool {
    let mut region = [p; MOST_STONES_FOR_A_DEAD_SHAPE];
    let mut len = 1;
    for n in board.neighbors(p) {
        if board.stone(n) != Some(color) || region[..len].contains(&n) {
            continue;
        }
        for stone in board.chain_stones(n) {
            if len == MOST_STONES_FOR_A_DEAD_SHAPE {
                return false;
            }
            region[len] = stone;
            len += 1;
        }
    }
    is_dead_shape(board, &region[..len])
}

/// The answer to the opponent's stone on `last` when it left a chain with two liberties:
/// an own chain next to it extends where it then has three liberties or more; the
/// opponent's chain through `last` is put in atari where extending from the other liberty
/// leaves it in atari again, so that it is captured next.
pub fn two_liberty_answer(board: &Board, color: Color, last: Point) -> Option<Point> {
    let opponent = color.opponent();
    if board.stone(last) != Some(opponent) {
        return None;
    }
    let neighbors = board.neighbors(last);
    for n in points_in(neighbors, board.chains_with_liberties(neighbors, color, 2)) {
        let (a, b) = two_liberties(board, n);
        for x in [a, b] {
            if board.liberties_after(x, color, 3) >= 3 && board.is_acceptable_playout_move(x, color)
            {
                return Some(x);
            }
        }
    }
    if board.chain_liberties(last) == 2 {
        let (a, b) = two_liberties(board, last);
        for (x, y) in [(a, b), (b, a)] {
            // Extending at `y` counts `x` among the liberties; our stone will be there.
            if board.liberties_after(y, opponent, 3) <= 2
                && board.liberties_after(x, color, 2) >= 2
                && board.is_acceptable_playout_move(x, color)
            {
                return Some(x);
            }
        }
    }
    None
}

/// The two liberties of the chain through `chain`, which has exactly two.
pub(crate) fn two_liberties(board: &Board, chain: Point) -> (Point, Point) {
    let mut found = [chain; 2];
    let mut count = 0;
    'stones: for s in board.chain_stones(chain) {
        for n in board.neighbors(s) {
            if board.cell(n) == Cell::Empty && !found[..count].contains(&n) {
                found[count] = n;
                count += 1;
                if count == 2 {
                    break 'stones;
                }
            }
        }
    }
    (found[0], found[1])
}

/// Whether the chain through `chain`, in atari, is lost even if it extends: its owner
/// plays the last liberty, and as long as the chain then has exactly two liberties the
/// attacker ataris it from the side that leaves the next extension fewer liberties. The
/// chain escapes when it reaches three liberties or can capture an attacking chain in
/// atari. One line of play, read on a scratch copy of the board.
pub fn is_caught_in_ladder(board: &Board, chain: Point) -> bool {
    is_caught_in_ladder_after(board, &[], chain)
}

/// [`is_caught_in_ladder`] after the legal `moves` are played on `board`: one copy of the
/// board for the moves and the reading.
pub(crate) fn is_caught_in_ladder_after(
    board: &Board,
    moves: &[(Point, Color)],
    chain: Point,
) -> bool {
    thread_local! {
        static SCRATCH: std::cell::RefCell<Board> = std::cell::RefCell::new(Board::new(9));
    }
    SCRATCH.with(|scratch| {
        let scratch = &mut *scratch.borrow_mut();
        scratch.copy_from(board);
        for &(p, color) in moves {
            debug_assert!(scratch.is_legal(p, color), "ladder reading after an illegal move");
            scratch.play_unchecked(p, color);
        }
        read_ladder(chain, scratch)
    })
}

/// Reads the ladder of the chain through `chain` on `scratch`, which it plays on.
fn read_ladder(chain: Point, scratch: &mut Board) -> bool {
    let Some(defender) = scratch.stone(chain) else { return false };
    let attacker = defender.opponent();
    // At most one round per point of the board; a ladder still running then is not caught.
    for _ in 0..scratch.size() * scratch.size() {
        if scratch.chain_liberties(chain) != 1
            || counter_capture(scratch, defender, chain).is_some()
        {
            return false;
        }
        let Some(extension) = scratch.some_liberty(chain) else { return true };
        if !scratch.is_legal(extension, defender) {
            return true;
        }
        scratch.play_unchecked(extension, defender);
        match scratch.chain_liberties(chain) {
            0 | 1 => return true,
            2 => {}
            _ => return false,
        }
        let (a, b) = two_liberties(scratch, chain);
        let atari = [(a, b), (b, a)]
            .into_iter()
            .filter(|&(x, _)| is_safe_atari(scratch, x, attacker))
            .min_by_key(|&(_, y)| scratch.liberties_after(y, defender, 4));
        match atari {
            Some((x, _)) => {
                scratch.play_unchecked(x, attacker);
            }
            None => return false,
        }
    }
    false
}

/// Whether `attacker` may play an atari on `x` without its stone being in atari itself
/// there, where the chain it attacks would simply capture it.
pub(crate) fn is_safe_atari(board: &Board, x: Point, attacker: Color) -> bool {
    board.is_legal(x, attacker) && board.liberties_after(x, attacker, 2) >= 2
}

/// A move for `color` that captures an opponent chain in atari touching the own chain
/// through `chain`, which saves `chain` by giving it a liberty.
fn counter_capture(board: &Board, color: Color, chain: Point) -> Option<Point> {
    let opponent = color.opponent();
    board.chain_stones(chain).find_map(|s| {
        let neighbors = board.neighbors(s);
        points_in(neighbors, board.chains_with_liberties(neighbors, opponent, 1))
            .find_map(|n| capture_move(board, color, n))
    })
}

/// Whether `color`'s self-atari on `p` also leaves a touching opponent chain with one
/// liberty: the opponent must capture, and when the stones given up are few it is left
/// with an eye too small to live (a shortage of liberties).
pub fn shortage_of_liberties(board: &Board, p: Point, color: Color) -> bool {
    board.chains_with_liberties(board.neighbors(p), color.opponent(), 2) != 0
}

/// Whether every opponent chain that `color`'s self-atari on `p` leaves in atari keeps an
/// eye of its own as its last liberty (a point whose neighbours are all its stones). It
/// takes the stones given up and then has that eye and their space besides: two eyes, not
/// a dead shape. A seki of one eye each and a shared liberty was broken that way in the
/// count, killing the stones that lived in it (game 15 of the GNU Go 19×19 run at seeds
/// 131–160 with the `nlib` knob; `gtp-tests/sgf/seki-eye-and-shared-liberty-19x19.sgf`).
/// Where the last liberty is outside, the sacrifice may still win the fight: refusing
/// every sacrifice but those whose capture is forced on the mover's last liberty lost
/// 54 of 136 self-play games (docs/strength.md).
fn opponent_keeps_an_eye(board: &Board, p: Point, color: Color) -> bool {
    let opponent = color.opponent();
    let neighbors = board.neighbors(p);
    let in_atari = board.chains_with_liberties(neighbors, opponent, 2);
    in_atari != 0
        && points_in(neighbors, in_atari).all(|n| {
            let (a, b) = two_liberties(board, n);
            let last = if a == p { b } else { a };
            board.is_eyeish(last, opponent)
        })
}

/// Whether a playout's random move may be `p` for `color`, as far as self-atari goes. It may
/// throw in a single stone (nakade, ko), and give up two or three where a touching opponent
/// chain is left in atari too, a shortage of liberties (a kill that looks like seki; in the
/// search: 57.4 % of 326 self-play games against without). Four to six stones likewise,
/// where their capture leaves a dead shape: a square four in the corner, given up, killed
/// a group that tengen, whose playouts never made the sacrifice, counted as in seki (a lost
/// game against Pachi, `gtp-tests/sgf/square-four-sacrifice.sgf`). Two or more stones in
/// atari otherwise never, which keeps playouts from filling the shared liberties of a real
/// seki. `settling` playouts, which count finished games, give up none where the opponent
/// keeps an eye ([`opponent_keeps_an_eye`]): that breaks a seki of one eye each. The
/// search's playouts still do: refusing them there lost in self-play (docs/strength.md).
fn is_random_move_ok(board: &Board, p: Point, color: Color, settling: bool) -> bool {
    let sacrifice_may_kill = || !(settling && opponent_keeps_an_eye(board, p, color));
    match board.self_atari_size(p, color) {
        None | Some(1) => true,
        Some(2 | 3) => shortage_of_liberties(board, p, color) && sacrifice_may_kill(),
        Some(4..=MOST_STONES_FOR_A_DEAD_SHAPE) => {
            shortage_of_liberties(board, p, color)
                && sacrifice_may_kill()
                && leaves_a_dead_shape(board, p, color)
        }
        Some(_) => false,
    }
}

/// A random point among the eight around `last` that has one of the 3×3 shapes and is a
/// move a playout may make for `color` without putting two or more stones in atari.
pub fn shape_move<R: rand::Rng + ?Sized>(
    board: &Board,
    color: Color,
    last: Point,
    rng: &mut R,
) -> Option<Point> {
    let mut candidates = [last; 8];
    let mut count = 0;
    let around = board.around(last);
    // Which points are empty is found without branches (a coin toss to the predictor).
    let empty = around
        .iter()
        .enumerate()
        .fold(0, |mask, (i, &q)| mask | ((board.cell(q) == Cell::Empty) as u32) << i);
    for q in points_in(around, empty) {
        if patterns::matches(board, q)
            && board.is_acceptable_playout_move(q, color)
            && board.self_atari_size(q, color).is_none_or(|stones| stones < 2)
        {
            candidates[count] = q;
            count += 1;
        }
    }
    (count > 0).then(|| candidates[rng.gen_range(0..count)])
}

/// Boards from this size up look for the 3×3 shapes next to the last move only. Below it,
/// next to the mover's own previous stone too, where the last move has none: the opponent
/// often answered that stone from a distance, and the shape there is still the local
/// fight's. On 9×9 that won 53.4 % of 1,425 self-play games against the last move alone;
/// on 19×19 it lost, 42 of 100 (docs/strength.md).
const SHAPES_NEAR_PREVIOUS_BELOW_SIZE: usize = 13;

/// How many random empty points a playout on a big board looks at for one in open space
/// before its random move, and from which board size: MoGo's "fill the board". Random
/// moves on 19×19 otherwise crowd next to stones and leave big areas unclaimed far too long
/// for a playout's count to mean much. With 4 tries, 19×19 self-play at 1,000 playouts won
/// 61 of 100 games against none (docs/strength.md).
const OPEN_SPACE_TRIES: u32 = 4;
const OPEN_SPACE_MIN_SIZE: usize = 13;

/// A random point in open space: one whose eight neighbours are all empty points on the
/// board (so it is neither on the edge nor touching any stone), looked for `tries` times
/// among the empty points.
fn open_space_move<R: rand::Rng + ?Sized>(board: &Board, tries: u32, rng: &mut R) -> Option<Point> {
    let empty = board.empty_points();
    if empty.is_empty() {
        return None;
    }
    for _ in 0..tries {
        let p = Point(empty[rng.gen_range(0..empty.len())]);
        let open = |q: Point| board.cell(q) == Cell::Empty;
        if board.around(p).into_iter().all(open) {
            return Some(p);
        }
    }
    None
}

/// In what share of its moves, in percent, a playout tries the two-liberty answer when
/// there is one. Always answering made the playouts too predictable: half the time won
/// 57.1 % of 357 self-play games against always, and a fifth of the time then lost to half
/// (48.2 % of 425; docs/strength.md). Atari answers stay certain: 70 % lost to always.
/// Settling playouts, which count finished games, always answer.
const TWO_LIBERTY_ANSWER_PERCENT: u32 = 50;

/// True in `percent` of the calls.
fn sometimes<R: rand::Rng + ?Sized>(rng: &mut R, percent: u32) -> bool {
    rng.next_u32() % 100 < percent
}

/// The move a playout under `policy` (not `Light`) makes for `color` after the opponent's
/// stone on `recent.last`, or `None` to pass.
pub fn playout_move<R: rand::Rng + ?Sized>(
    board: &Board,
    policy: PlayoutPolicy,
    color: Color,
    recent: Recent,
    rng: &mut R,
) -> Option<Point> {
    let settling = policy == PlayoutPolicy::Settling;
    let mut choice = recent.last.and_then(|l| {
        answer_to(board, color, l)
            .or_else(|| {
                // Nakade costs a third of the playout speed and showed no gain in the
                // search (52.1 % of 400 games); counting a finished game needs it.
                settling
                    .then(|| nakade_point(board, l))
                    .flatten()
                    .filter(|&p| board.is_acceptable_playout_move(p, color))
            })
            .or_else(|| {
                (settling || sometimes(rng, TWO_LIBERTY_ANSWER_PERCENT))
                    .then(|| two_liberty_answer(board, color, l))
                    .flatten()
            })
    });
    if choice.is_none() && policy == PlayoutPolicy::Patterns {
        choice = recent.last.and_then(|l| shape_move(board, color, l, rng));
        if choice.is_none() && board.size() < SHAPES_NEAR_PREVIOUS_BELOW_SIZE {
            choice = recent.previous.and_then(|p| shape_move(board, color, p, rng));
        }
        if choice.is_none() && board.size() >= OPEN_SPACE_MIN_SIZE {
            choice = open_space_move(board, OPEN_SPACE_TRIES, rng);
        }
    }
    choice.or_else(|| {
        board.random_move_where(color, rng, |b, p| is_random_move_ok(b, p, color, settling))
    })
}

/// Plays a simulation to the end under `policy`, as [`Board::playout_recording`] does, with
/// `recent` the stones before it (for the tactical answers and the shapes).
pub fn playout<R: rand::Rng + ?Sized>(
    board: &mut Board,
    policy: PlayoutPolicy,
    to_move: Color,
    mut recent: Recent,
    max_moves: usize,
    rng: &mut R,
    on_move: impl FnMut(Point, Color),
) -> usize {
    if policy == PlayoutPolicy::Light {
        return board.playout_recording(to_move, max_moves, rng, on_move);
    }
    let choose = |board: &Board, color: Color| {
        let choice = playout_move(board, policy, color, recent, rng);
        recent = Recent { last: choice, previous: recent.last };
        choice
    };
    board.playout_with(to_move, max_moves, choose, on_move)
}

/// For the tests here and of the priors: white's E5 in atari after black's E4; running to
/// F5 only leads into a ladder towards the lower right corner.
#[cfg(test)]
pub(crate) const LADDER: &str = ". . . . . . . . .
     . . . . . . . . .
     . . . . . . . . .
     . . . . X X . . .
     . . . X O . . . .
     . . . . X . . . .
     . . . . . . . . .
     . . . . . . . . .
     . . . . . . . . .";

/// For the tests here and of the priors: black's C3 left with two liberties by white's D3.
#[cfg(test)]
pub(crate) const TWO_LIBERTIES: &str = ". . . . . .
     . . . . . .
     . . O . . .
     . . X O . .
     . . . . . .
     . . . . . .";

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn at(board: &Board, x: usize, y: usize) -> Point {
        board.point(x, y)
    }

    /// Whether both policies' random moves may be `p`: they differ only where the opponent
    /// keeps an eye, which these positions do not have.
    fn random_move_ok(board: &Board, p: Point, color: Color) -> bool {
        let search = is_random_move_ok(board, p, color, false);
        assert_eq!(search, is_random_move_ok(board, p, color, true), "the same for counting");
        search
    }

    // The chain of the stone just played is captured when it is in atari.
    #[test]
    fn captures_the_last_move_in_atari() {
        let board = Board::from_diagram(
            ". . . . .
             . X O X .
             . . X . .
             . . . . .
             . . . . .",
        )
        .unwrap();
        assert_eq!(answer_to(&board, Color::Black, at(&board, 2, 1)), Some(at(&board, 2, 0)));
    }

    // Policy names read back to the same policy; settling is not the user's to choose.
    #[test]
    fn policy_names() {
        for policy in [PlayoutPolicy::Light, PlayoutPolicy::Tactical, PlayoutPolicy::Patterns] {
            assert_eq!(PlayoutPolicy::from_name(policy.name()), Some(policy));
        }
        assert_eq!(PlayoutPolicy::from_name("settling"), None);
        assert_eq!(PlayoutPolicy::from_name("heavy"), None);
    }

    // Taking a stone thrown in where the capturing chain keeps one liberty loses the chain
    // to the retake: the answer is to capture the chain in atari outside. A lone stone's
    // capture (a ko) is no such thing.
    #[test]
    fn no_capture_that_the_opponent_takes_back_bigger() {
        let board = Board::from_diagram(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . O O O
             . . . . . O X X X
             . . . . . . O X .
             . . . . X O O X O",
        )
        .unwrap();
        let throw_in = at(&board, 8, 8);
        assert!(is_snapback_capture(&board, at(&board, 8, 7), Color::Black));
        assert_eq!(answer_to(&board, Color::Black, throw_in), Some(at(&board, 5, 7)));
        let ko = Board::from_diagram(
            ". X O . .
             X O . O .
             . X O . .
             . . . . .
             . . . . .",
        )
        .unwrap();
        assert!(!is_snapback_capture(&ko, at(&ko, 2, 1), Color::Black));
        assert_eq!(answer_to(&ko, Color::Black, at(&ko, 1, 1)), Some(at(&ko, 2, 1)));
    }

    // An own chain put in atari by the last move extends where that gains liberties, and not
    // where it would stay in atari.
    #[test]
    fn escapes_from_atari_with_room() {
        let open = Board::from_diagram(
            ". . . . .
             . . . . .
             . O X O .
             . . O . .
             . . . . .",
        )
        .unwrap();
        assert_eq!(answer_to(&open, Color::Black, at(&open, 2, 3)), Some(at(&open, 2, 1)));
        let closed = Board::from_diagram(
            ". . . . .
             . O . O .
             . O X O .
             . . O . .
             . . . . .",
        )
        .unwrap();
        assert_eq!(answer_to(&closed, Color::Black, at(&closed, 2, 3)), None);
        assert_eq!(answer_to(&open, Color::White, at(&open, 2, 3)), None, "not after own move");
        // On the edge, two liberties are a ladder the chain cannot run from.
        let edge = Board::from_diagram(
            ". . . . .
             . O X O .
             . . O . .
             . . . . .
             . . . . .",
        )
        .unwrap();
        assert_eq!(answer_to(&edge, Color::Black, at(&edge, 2, 2)), None);
    }

    // An own chain in atari is saved first by capturing a chain in atari that touches it,
    // though extending would also gain liberties.
    #[test]
    fn saves_by_capturing() {
        let board = Board::from_diagram(
            ". . . . .
             . . X . .
             O X O X .
             . O . . .
             . . . . .",
        )
        .unwrap();
        assert_eq!(answer_to(&board, Color::Black, at(&board, 1, 3)), Some(at(&board, 2, 3)));
    }

    // A chain the opponent left in atari next to its last move is captured.
    #[test]
    fn captures_a_hanging_chain_near_the_last_move() {
        let board = Board::from_diagram(
            ". . . . .
             . X O X .
             . . X O .
             . . . . .
             . . . . .",
        )
        .unwrap();
        assert_eq!(answer_to(&board, Color::Black, at(&board, 3, 2)), Some(at(&board, 2, 0)));
        assert_eq!(answer_to(&board, Color::Black, at(&board, 0, 4)), None, "not a stone");
    }

    // An own chain the last move left with two liberties extends to three or more.
    #[test]
    fn extends_a_chain_with_two_liberties() {
        let board = Board::from_diagram(TWO_LIBERTIES).unwrap();
        let answer = two_liberty_answer(&board, Color::Black, at(&board, 3, 3));
        assert!(answer == Some(at(&board, 1, 3)) || answer == Some(at(&board, 2, 4)));
        assert_eq!(two_liberty_answer(&board, Color::White, at(&board, 3, 3)), None);
    }

    // The search's playouts try the two-liberty answer in half their moves, settling
    // playouts in all of them.
    #[test]
    fn two_liberty_answers_in_half_the_moves() {
        let board = Board::from_diagram(TWO_LIBERTIES).unwrap();
        let last = Recent { last: Some(at(&board, 3, 3)), previous: None };
        let answers = [Some(at(&board, 1, 3)), Some(at(&board, 2, 4))];
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let mut share = |policy| {
            let answered = (0..2000)
                .filter(|_| {
                    answers.contains(&playout_move(&board, policy, Color::Black, last, &mut rng))
                })
                .count();
            answered as f64 / 2000.0
        };
        assert_eq!(share(PlayoutPolicy::Settling), 1.0);
        let tactical = share(PlayoutPolicy::Tactical);
        // Half by the rule, and the random moves hit one of the two points now and then.
        assert!((0.45..0.65).contains(&tactical), "{tactical}");
    }

    // The last move's chain with two liberties is put in atari from the side that leaves
    // its extension in atari; a chain that could run away is left alone.
    #[test]
    fn ataris_a_chain_that_cannot_escape() {
        let caught = Board::from_diagram(
            ". . . . . . .
             . . . X . . .
             . . X O . X .
             . . . . X . .
             . . . . . . .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        let last = at(&caught, 3, 2);
        assert_eq!(two_liberty_answer(&caught, Color::Black, last), Some(at(&caught, 3, 3)));
        let mut open = caught.clone();
        open.clear_point(at(&open, 5, 2));
        assert_eq!(two_liberty_answer(&open, Color::Black, last), None);
    }

    // A chain in atari that would only run into a ladder stays; a ladder breaker lets it
    // run, and a chain with two liberties is not in a ladder at all.
    #[test]
    fn ladders() {
        let mut caught = Board::from_diagram(LADDER).unwrap();
        let stone = at(&caught, 4, 4);
        let atari = at(&caught, 4, 5);
        assert!(is_caught_in_ladder(&caught, stone));
        assert_eq!(answer_to(&caught, Color::White, atari), None, "running is futile");
        let mut broken = caught.clone();
        broken.set_stone(at(&broken, 7, 7), Color::White).unwrap();
        assert!(!is_caught_in_ladder(&broken, stone));
        assert_eq!(answer_to(&broken, Color::White, atari), Some(at(&broken, 5, 4)));
        caught.clear_point(atari);
        assert!(!is_caught_in_ladder(&caught, stone));
    }

    // The vital point of three-, four- and five-point eye spaces; none where the shape has
    // no single vital point, the region is too big or both colours border it.
    #[test]
    fn nakade_vital_points() {
        let vital = |diagram: &str, last: (usize, usize)| {
            let board = Board::from_diagram(diagram).unwrap();
            nakade_point(&board, board.point(last.0, last.1)).map(|p| board.coordinates(p))
        };
        let straight_three = ". . . . . . .
             X X X X X . .
             X . . . X . .
             X X X X X . .
             . . . . . . .
             . . . . . . .
             . . . . . . .";
        assert_eq!(vital(straight_three, (2, 1)), Some((2, 2)));
        let bent_three_in_the_corner = ". . O . . . .
             . O O . . . .
             O O . . . . .
             . . . . . . .
             . . . . . . .
             . . . . . . .
             . . . . . . .";
        assert_eq!(vital(bent_three_in_the_corner, (1, 1)), Some((0, 0)));
        let pyramid_four = ". . . . . . .
             . X X X . . .
             X . . . X . .
             X X . X X . .
             . X X X . . .
             . . . . . . .
             . . . . . . .";
        assert_eq!(vital(pyramid_four, (1, 1)), Some((2, 2)));
        let bulky_five = ". . . . . . .
             . X X X . . .
             X . . . X . .
             X . . X X . .
             X X X X . . .
             . . . . . . .
             . . . . . . .";
        assert_eq!(vital(bulky_five, (2, 1)), Some((2, 2)));
        let square_four = ". . . . . . .
             . X X . . . .
             X . . X . . .
             X . . X . . .
             . X X . . . .
             . . . . . . .
             . . . . . . .";
        assert_eq!(vital(square_four, (1, 1)), None);
        let straight_four = ". . . . . . .
             X X X X X X .
             X . . . . X .
             X X X X X X .
             . . . . . . .
             . . . . . . .
             . . . . . . .";
        assert_eq!(vital(straight_four, (2, 1)), None);
        let mixed_border = ". . . . . . .
             X X O X X . .
             X . . . X . .
             X X X X X . .
             . . . . . . .
             . . . . . . .
             . . . . . . .";
        assert_eq!(vital(mixed_border, (2, 1)), None);
        assert_eq!(vital(straight_three, (0, 0)), None, "open board next to the stone");
    }

    // Two stones may be sacrificed where the opponent's chain is short of liberties too
    // (its capture leaves it a two-point eye), not where the opponent has room; playouts'
    // random moves do so.
    #[test]
    fn sacrifices_for_a_shortage_of_liberties() {
        let board = Board::from_diagram(
            ". X . O O X .
             O O O O X . .
             X O X X X . .
             . X . . . . .
             . . . . . . .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        assert_eq!(board.self_atari_size(at(&board, 0, 0), Color::Black), Some(2));
        assert!(shortage_of_liberties(&board, at(&board, 0, 0), Color::Black));
        assert!(shortage_of_liberties(&board, at(&board, 2, 0), Color::Black));
        assert!(random_move_ok(&board, at(&board, 0, 0), Color::Black), "two for a kill");
        let roomy = Board::from_diagram(
            ". X . . . . .
             O O O . . . .
             . . . . . . .
             . . . . . . .
             . . . . . . .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        assert_eq!(roomy.self_atari_size(at(&roomy, 0, 0), Color::Black), Some(2));
        assert!(!shortage_of_liberties(&roomy, at(&roomy, 0, 0), Color::Black));
        assert!(!random_move_ok(&roomy, at(&roomy, 0, 0), Color::Black), "two for nothing");
    }

    // Random moves put four to six stones in atari only for a shortage of liberties whose
    // capture leaves a dead shape (two and three: the tests around; a lone stone may always
    // be thrown in). A straight four lives: giving it up only hands the opponent two eyes.
    #[test]
    fn random_moves_give_up_four_stones_only_for_a_dead_shape() {
        let four = Board::from_diagram(
            "X X X . O X
             . O O O O X
             X X X X X X
             . . . . . .
             . . . . . .
             . . . . . .",
        )
        .unwrap();
        assert_eq!(four.self_atari_size(at(&four, 3, 0), Color::Black), Some(4));
        assert!(shortage_of_liberties(&four, at(&four, 3, 0), Color::Black));
        assert!(!leaves_a_dead_shape(&four, at(&four, 3, 0), Color::Black));
        assert!(!random_move_ok(&four, at(&four, 3, 0), Color::Black), "a straight four");
        // Game 40 of a 0.5 s match against Pachi (seeds 201–240), after both passed:
        // white's fourteen stones top left and black's A8–B8–A7 share A9 and B7. Black B7
        // gives up four stones in a square, and white, which must take them, is left with a
        // square four: dead (black A9 leaves a pyramid four, as dead). tengen (white)
        // counted a seki and W+4.5; the game was B+25.5.
        let corner = Board::from_diagram(
            ". O O O O X . . X
             X X O X X X X . .
             X . O X O X . X .
             O O O O O X X X X
             X X O O X O X X X
             X . X X X O X O O
             X X X O O O O O O
             . X O O . O X X .
             X X O . X O O . O",
        )
        .unwrap();
        let b7 = at(&corner, 1, 2);
        assert_eq!(corner.self_atari_size(b7, Color::Black), Some(4));
        assert!(random_move_ok(&corner, b7, Color::Black), "a square four kills");
        let a9 = at(&corner, 0, 0);
        assert_eq!(corner.self_atari_size(a9, Color::Black), Some(4));
        assert!(random_move_ok(&corner, a9, Color::Black), "so does a pyramid four");
        // Five stones: a bulky five (a square and one more) is dead; four in a line with
        // one beside the second lives, though that stone touches three.
        let bulky = Board::from_diagram(
            "X X . O X . .
             X X O O X . .
             . O O X X . .
             O O X . . . .
             X X X . . . .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        for (x, y) in [(2, 0), (0, 2)] {
            let p = at(&bulky, x, y);
            assert_eq!(bulky.self_atari_size(p, Color::Black), Some(5));
            assert!(random_move_ok(&bulky, p, Color::Black), "a bulky five at {x},{y}");
        }
        let long = Board::from_diagram(
            "X X X . O X .
             . X O O O X .
             O O O O O X .
             X X X X X X .
             . . . . . . .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        let d7 = at(&long, 3, 0);
        assert_eq!(long.self_atari_size(d7, Color::Black), Some(5));
        assert!(shortage_of_liberties(&long, d7, Color::Black));
        assert!(!random_move_ok(&long, d7, Color::Black), "a living five");
    }

    // A seki of one eye each and a shared liberty (game 15 of a 19×19 GNU Go run, mirrored
    // to the top left): white's A2–B2–B1 (eye A1) and black's chain (eye C4) share C2.
    // White at C2 gives up four stones and leaves black in atari, but black's last liberty
    // is its own eye: the capture gives black two eyes, so counting must not play it, dead
    // shape or not.
    #[test]
    fn counting_gives_up_no_stones_where_the_opponent_keeps_an_eye() {
        let board = Board::from_diagram(
            ". O X X O . .
             O O . X O . .
             X X X X O O .
             O X . X X X O
             O O X X O O O
             O . O X O . .
             . O O X O . .",
        )
        .unwrap();
        let c2 = at(&board, 2, 1);
        assert_eq!(board.self_atari_size(c2, Color::White), Some(4));
        assert!(shortage_of_liberties(&board, c2, Color::White));
        assert!(leaves_a_dead_shape(&board, c2, Color::White), "a bent four in the corner");
        assert!(opponent_keeps_an_eye(&board, c2, Color::White));
        assert!(!is_random_move_ok(&board, c2, Color::White, true), "counting keeps the seki");
        // The search's playouts still make it: refusing it there lost in self-play.
        assert!(is_random_move_ok(&board, c2, Color::White, false));
        // Where black's last liberty is not an eye (the square four of
        // `random_moves_give_up_four_stones_only_for_a_dead_shape`), the shape decides.
    }

    // The killable shapes, whatever their orientation, and living ones of the same sizes.
    #[test]
    fn dead_shapes() {
        let board = Board::new(9);
        let shape = |points: &[(usize, usize)]| -> Vec<Point> {
            points.iter().map(|&(x, y)| at(&board, x + 3, y + 3)).collect()
        };
        let dead: [&[(usize, usize)]; 7] = [
            &[(0, 0), (1, 0), (2, 0)],
            &[(0, 0), (1, 0), (0, 1), (1, 1)],
            &[(0, 0), (1, 0), (2, 0), (1, 1)],
            &[(0, 0), (1, 0), (0, 1), (1, 1), (2, 1)],
            &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)],
            &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 2)],
            &[(0, 1), (1, 1), (1, 0), (2, 0), (2, 1), (1, 2)],
        ];
        for points in dead {
            assert!(is_dead_shape(&board, &shape(points)), "{points:?} is dead");
        }
        let alive: [&[(usize, usize)]; 7] = [
            &[(0, 0), (1, 0), (2, 0), (3, 0)],
            &[(0, 0), (1, 0), (2, 0), (2, 1)],
            &[(0, 0), (1, 0), (1, 1), (2, 1)],
            &[(0, 0), (1, 0), (2, 0), (3, 0), (1, 1)],
            &[(0, 0), (1, 0), (2, 0), (1, 1), (1, 2)],
            &[(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)],
            &[(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)],
        ];
        for points in alive {
            assert!(!is_dead_shape(&board, &shape(points)), "{points:?} lives");
        }
    }

    // Self-atari is recognised with captures counted: joining chains into atari, a lone
    // stone with one liberty, and a move that escapes by capturing.
    #[test]
    fn self_atari_sizes() {
        let board = Board::from_diagram(
            ". O X . .
             O . X . .
             X X . . .
             . . . . .
             . . . . .",
        )
        .unwrap();
        assert_eq!(board.self_atari_size(at(&board, 0, 0), Color::White), Some(3));
        assert!(!random_move_ok(&board, at(&board, 0, 0), Color::White), "three for nothing");
        assert_eq!(board.self_atari_size(at(&board, 1, 1), Color::White), Some(3));
        assert_eq!(board.self_atari_size(at(&board, 1, 1), Color::Black), None, "joins C4");
        assert_eq!(board.self_atari_size(at(&board, 3, 0), Color::White), None, "two empties");
        let lone = Board::from_diagram(". O . .\n. . . .\n. . . .\n. . . .").unwrap();
        assert_eq!(lone.self_atari_size(at(&lone, 0, 0), Color::Black), Some(1));
        assert!(random_move_ok(&lone, at(&lone, 0, 0), Color::Black), "a throw-in");
        let capture = Board::from_diagram(". O X .\nO X . .\nX . . .\n. . . .").unwrap();
        assert_eq!(capture.self_atari_size(at(&capture, 0, 0), Color::Black), None, "takes two");
    }

    // Open space: all eight neighbours empty points of the board.
    #[test]
    fn open_space_moves() {
        let board = Board::from_diagram(
            ". . . . . . .
             . . . . . . .
             . . . . . . .
             . . . X . . .
             . . . . . . .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            // Off the edge lines and two points or more from the stone.
            let p = open_space_move(&board, 50, &mut rng).unwrap();
            let (x, y) = board.coordinates(p);
            assert!((1..=5).contains(&x) && (1..=5).contains(&y), "{x} {y}");
            assert!(x.abs_diff(3).max(y.abs_diff(3)) >= 2, "{x} {y}");
            seen.insert(p);
        }
        assert_eq!(seen.len(), 16);
        assert_eq!(open_space_move(&board, 0, &mut rng), None);
        let crowded =
            Board::from_diagram(". . . . .\n. . . . .\n. . X . .\n. . . . .\n. . . . .").unwrap();
        assert_eq!(open_space_move(&crowded, 1000, &mut rng), None);
    }

    // On 19×19 the random move looks for open space first, so it almost never lands on the
    // edge of an empty board (a fifth of its points); on 9×9 it stays uniform.
    #[test]
    fn big_board_playouts_fill_open_space_first() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        let mut edge_moves = |size: usize| {
            let board = Board::new(size);
            (0..1000)
                .filter(|_| {
                    let p = playout_move(
                        &board,
                        PlayoutPolicy::Patterns,
                        Color::Black,
                        Recent::default(),
                        &mut rng,
                    );
                    board.line(p.unwrap()) == 0
                })
                .count()
        };
        assert!(edge_moves(19) < 20);
        assert!(edge_moves(9) > 300);
    }

    // Next to the last move, only points with a shape are chosen; with none, nothing is.
    #[test]
    fn shape_moves_near_the_last_move() {
        let board = Board::from_diagram(
            ". . . . . . .
             . . . . . . .
             . . X O X . .
             . . . . . . .
             . . . . . . .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
        for _ in 0..20 {
            let p = shape_move(&board, Color::White, at(&board, 4, 2), &mut rng).unwrap();
            assert!(patterns::matches(&board, p));
            let (x, y) = board.coordinates(p);
            assert!(x.abs_diff(4) <= 1 && y.abs_diff(2) <= 1);
        }
        let lone =
            Board::from_diagram(". . . . .\n. . . . .\n. . X . .\n. . . . .\n. . . . .").unwrap();
        assert_eq!(shape_move(&lone, Color::White, at(&lone, 2, 2), &mut rng), None);
    }

    // With no shape next to the last stone (a lone one far away), the playout looks next to
    // its own previous stone; without that stone it plays anywhere. Boards from 13×13 up
    // look next to the last stone only.
    #[test]
    fn shape_moves_near_the_previous_stone() {
        let board = Board::from_diagram(
            ". . . . . . . . .
             . . . . . . . . .
             . . X O X . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . X . .
             . . . . . . . . .
             . . . . . . . . .",
        )
        .unwrap();
        let (lone, previous) = (at(&board, 6, 6), at(&board, 3, 2));
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        assert_eq!(shape_move(&board, Color::White, lone, &mut rng), None);
        let mut play = |previous| {
            let recent = Recent { last: Some(lone), previous };
            playout_move(&board, PlayoutPolicy::Patterns, Color::White, recent, &mut rng).unwrap()
        };
        for _ in 0..20 {
            let p = play(Some(previous));
            assert!(patterns::matches(&board, p));
            let (x, y) = board.coordinates(p);
            assert!(x.abs_diff(3) <= 1 && y.abs_diff(2) <= 1);
        }
        let far = (0..50)
            .filter(|_| {
                let (x, y) = board.coordinates(play(None));
                x.abs_diff(3) > 1 || y.abs_diff(2) > 1
            })
            .count();
        assert!(far > 25);

        let mut big = Board::new(13);
        for (x, y, color) in [(2, 2, Color::Black), (3, 2, Color::White), (4, 2, Color::Black)] {
            big.set_stone(at(&big, x, y), color).unwrap();
        }
        big.set_stone(at(&big, 10, 10), Color::Black).unwrap();
        let recent = Recent { last: Some(at(&big, 10, 10)), previous: Some(at(&big, 3, 2)) };
        let near = (0..50)
            .filter(|_| {
                let p = playout_move(&big, PlayoutPolicy::Patterns, Color::White, recent, &mut rng);
                let (x, y) = big.coordinates(p.unwrap());
                x.abs_diff(3) <= 1 && y.abs_diff(2) <= 1
            })
            .count();
        assert!(near < 10);
    }

    // Tactical playouts end, leave a consistent board, and are reproducible.
    #[test]
    fn tactical_playouts_end() {
        for (size, policy) in [
            (5, PlayoutPolicy::Tactical),
            (9, PlayoutPolicy::Patterns),
            (9, PlayoutPolicy::Settling),
            (19, PlayoutPolicy::Patterns),
        ] {
            let mut a = Board::new(size);
            let mut b = Board::new(size);
            let mut rng_a = rand::rngs::SmallRng::seed_from_u64(3);
            let mut rng_b = rand::rngs::SmallRng::seed_from_u64(3);
            let max = 3 * size * size;
            let moves = playout(
                &mut a,
                policy,
                Color::Black,
                Recent::default(),
                max,
                &mut rng_a,
                |_, _| {},
            );
            playout(&mut b, policy, Color::Black, Recent::default(), max, &mut rng_b, |_, _| {});
            assert!(moves > 0 && moves < max);
            a.check_invariants().unwrap();
            assert_eq!(a, b);
        }
    }
}
