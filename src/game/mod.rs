//! The game layer, on the board: here [`Game`]; `rules` (the rule sets and their one table of
//! names), `score` (counting), `handicap`, `clock`, `sgf` (the format), `record` (SGF records
//! to games and back), `display` (the board as text).
//!
//! A game in progress: the board plus everything the rules need that a position alone does
//! not hold — side to move, consecutive passes, the handicap, the setup stones, the moves,
//! the positions seen so far (for superko) and the undo stack.
//!
//! Start at [`Game::play`]. Each move pushes a snapshot of the state before it, so `undo`
//! restores that state exactly, captures and ko included, to any depth. Setup (handicap, SGF
//! `AB`/`AW`/`AE`) is not a move: it starts the position history afresh and cannot be undone.

pub mod clock;
pub mod display;
pub mod handicap;
pub mod record;
pub mod rules;
pub mod score;
pub mod sgf;

use crate::board::color::Color;
use crate::board::{Board, IllegalMove, Move, Point};

use crate::game::rules::{KoRule, Rules};
use score::Score;
use std::fmt;

/// Why handicap stones cannot be placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandicapError {
    /// Stones or moves are already on the board.
    BoardNotEmpty,
    /// The count is outside what this board size accepts.
    InvalidNumberOfStones,
    /// A listed point is repeated, off the board, or a pass.
    BadVertexList,
}

impl fmt::Display for HandicapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HandicapError::BoardNotEmpty => "board not empty",
            HandicapError::InvalidNumberOfStones => "invalid number of stones",
            HandicapError::BadVertexList => "bad vertex list",
        })
    }
}

impl std::error::Error for HandicapError {}

/// `undo` found no move to take back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CannotUndo;

impl fmt::Display for CannotUndo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("cannot undo")
    }
}

impl std::error::Error for CannotUndo {}

/// The state a move changes, saved before it so `undo` can put it back.
#[derive(Clone, Debug)]
struct Snapshot {
    board: Board,
    to_move: Color,
    consecutive_passes: u32,
}

#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    rules: Rules,
    to_move: Color,
    consecutive_passes: u32,
    /// Handicap stones given, for the compensation at the count.
    handicap: u32,
    /// The stones on the board at the last setup, so that setup plus `moves` reproduces the
    /// position (game records are written from these two).
    setup: Vec<(Color, Point)>,
    /// Every move played since the last setup, in order.
    moves: Vec<(Color, Move)>,
    /// One snapshot per entry of `moves`: the state just before it.
    undo_stack: Vec<Snapshot>,
    /// Every whole-board position since the last setup, with the player whose move created it
    /// (for the starting position, the player who did not move first). Passes add nothing:
    /// they repeat the position and are always legal.
    positions: Vec<(u64, Color)>,
}

impl Game {
    /// A new game on an empty board of side `size` (with the corner stones if the rules have
    /// them), the rules' first player to move.
    ///
    /// # Panics
    /// If `size` is unsupported; see [`Board::is_valid_size`].
    pub fn new(size: usize, rules: Rules) -> Game {
        let mut game = Game {
            board: Board::new(size),
            to_move: rules.first_player,
            rules,
            consecutive_passes: 0,
            handicap: 0,
            setup: Vec::new(),
            moves: Vec::new(),
            undo_stack: Vec::new(),
            positions: Vec::new(),
        };
        game.restart_history();
        if game.rules.corner_stones {
            game.place_corner_stones();
        }
        game
    }

    /// 座子: black on the upper-right and lower-left star points, white on the upper-left and
    /// lower-right, as in the old Chinese game records. Boards under 7×7, whose corner star
    /// points would touch or coincide, get none.
    fn place_corner_stones(&mut self) {
        let size = self.board.size();
        if size < 7 {
            return;
        }
        let line = if size <= 11 { 2 } else { 3 };
        let (low, high) = (line, size - 1 - line);
        let stones = [
            (Color::Black, high, low),
            (Color::Black, low, high),
            (Color::White, low, low),
            (Color::White, high, high),
        ];
        for (color, x, y) in stones {
            let p = self.board.point(x, y);
            self.add_setup_stone(color, p).expect("corner star points are distinct and free");
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Replaces the rules. The position stays; a changed ko rule applies from the next move.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    pub fn set_komi(&mut self, komi: f64) {
        self.rules.komi = komi;
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Sets the side to move (SGF `PL`, or a GUI that plays one colour several times).
    pub fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
    }

    pub fn handicap(&self) -> u32 {
        self.handicap
    }

    pub fn consecutive_passes(&self) -> u32 {
        self.consecutive_passes
    }

    /// Two passes in a row end the game.
    pub fn is_over(&self) -> bool {
        self.consecutive_passes >= 2
    }

    /// Moves since the last setup, in order.
    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }

    /// The stones on the board at the last setup, row by row from the top left.
    pub fn setup_stones(&self) -> &[(Color, Point)] {
        &self.setup
    }

    /// The hashes of every whole-board position since the last setup, for superko checks in
    /// the search tree.
    pub fn position_hashes(&self) -> impl Iterator<Item = u64> + '_ {
        self.positions.iter().map(|&(hash, _)| hash)
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<(Color, Move)> {
        self.moves.last().copied()
    }

    /// Whether the board holds nothing but what the rules put there before the game.
    fn is_pristine(&self) -> bool {
        self.moves.is_empty()
            && self.setup.is_empty()
            && self.board.empty_points().len() == self.board.size() * self.board.size()
    }

    /// Checks whether `color` may play `mv` now, under the full rules (ko rule, suicide).
    /// Cheap: it predicts the new position's hash instead of playing the move.
    ///
    /// # Errors
    /// The reason the move is illegal.
    pub fn check(&self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        let p = match mv {
            Move::Pass => return Ok(()),
            Move::Play(p) => p,
        };
        // Under superko the history alone decides repetitions: the board's simple-ko ban is
        // implied by positional superko but can be stricter than situational superko (when
        // the retaken position was made by the opponent, after a pass or a repeated colour).
        let retakes_ko = self.board.ko() == Some((p, color));
        if retakes_ko && self.rules.ko == KoRule::Simple {
            return Err(IllegalMove::Ko);
        }
        let hash = match self.board.check_placement(p, color) {
            Ok(()) => self.board.hash_after(p, color),
            Err(IllegalMove::Suicide) if self.rules.suicide_allowed => {
                let mut board = self.board.clone();
                board.clear_ko();
                board.try_play_allowing_suicide(p, color)?;
                board.hash()
            }
            Err(e) => return Err(e),
        };
        let repeated = match self.rules.ko {
            KoRule::Simple => false,
            KoRule::Positional => self.positions.iter().any(|&(h, _)| h == hash),
            KoRule::Situational => self.positions.iter().any(|&(h, c)| h == hash && c == color),
        };
        match (repeated, retakes_ko, self.rules.ko) {
            (false, _, _) => Ok(()),
            (true, true, _) => Err(IllegalMove::Ko),
            (true, false, KoRule::Situational) => Err(IllegalMove::SituationalSuperko),
            (true, false, _) => Err(IllegalMove::PositionalSuperko),
        }
    }

    /// Plays `mv` for `color` (who need not be the side to move: GTP lets a controller play
    /// one colour several times in a row), then gives the move to the other player.
    ///
    /// # Errors
    /// The reason the move is illegal; the game is unchanged then. A pass is always legal.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        self.check(color, mv)?;
        self.undo_stack.push(Snapshot {
            board: self.board.clone(),
            to_move: self.to_move,
            consecutive_passes: self.consecutive_passes,
        });
        self.moves.push((color, mv));
        self.board.clear_ko();
        match mv {
            Move::Pass => self.consecutive_passes += 1,
            Move::Play(p) => {
                if self.rules.suicide_allowed {
                    self.board.try_play_allowing_suicide(p, color).expect("checked just above");
                } else {
                    self.board.play_unchecked(p, color);
                }
                self.consecutive_passes = 0;
                self.positions.push((self.board.hash(), color));
            }
        }
        self.to_move = color.opponent();
        Ok(())
    }

    /// Takes back the last move, restoring the exact state before it.
    ///
    /// # Errors
    /// `CannotUndo` when no move was played since the start or the last setup.
    pub fn undo(&mut self) -> Result<(), CannotUndo> {
        let snapshot = self.undo_stack.pop().ok_or(CannotUndo)?;
        let (_, mv) = self.moves.pop().expect("one move per snapshot");
        if let Move::Play(_) = mv {
            self.positions.pop();
        }
        self.board = snapshot.board;
        self.to_move = snapshot.to_move;
        self.consecutive_passes = snapshot.consecutive_passes;
        Ok(())
    }

    /// Every point where `color` may legally play now under the full rules.
    pub fn legal_points(&self, color: Color) -> Vec<Point> {
        self.board.points().filter(|&p| self.check(color, Move::Play(p)).is_ok()).collect()
    }

    /// Puts a stone on the board as setup. The position history restarts from here and the
    /// moves so far can no longer be undone.
    ///
    /// # Errors
    /// If the point is occupied or off the board, or the stone would have no liberty.
    pub fn add_setup_stone(&mut self, color: Color, p: Point) -> Result<(), IllegalMove> {
        self.board.set_stone(p, color)?;
        self.restart_history();
        Ok(())
    }

    /// Empties a point as setup (SGF `AE`); the position history restarts from here.
    pub fn clear_setup_point(&mut self, p: Point) {
        self.board.clear_point(p);
        self.restart_history();
    }

    fn restart_history(&mut self) {
        let board = &self.board;
        self.setup = board.points().filter_map(|p| board.stone(p).map(|c| (c, p))).collect();
        self.moves.clear();
        self.undo_stack.clear();
        self.consecutive_passes = 0;
        self.positions.clear();
        self.positions.push((self.board.hash(), self.to_move.opponent()));
    }

    /// Places `stones` handicap stones on the fixed points of the GTP table and gives white
    /// the move.
    ///
    /// # Errors
    /// `BoardNotEmpty` after moves or setup, `InvalidNumberOfStones` outside the table.
    pub fn place_fixed_handicap(&mut self, stones: usize) -> Result<Vec<Point>, HandicapError> {
        self.place_chosen_handicap(handicap::fixed_points(&self.board, stones))
    }

    /// Places `stones` handicap stones where the engine chooses (see `handicap::free_points`)
    /// and gives white the move.
    ///
    /// # Errors
    /// `BoardNotEmpty` after moves or setup, `InvalidNumberOfStones` below 2 or above the
    /// board's points minus one.
    pub fn place_free_handicap(&mut self, stones: usize) -> Result<Vec<Point>, HandicapError> {
        self.place_chosen_handicap(handicap::free_points(&self.board, stones))
    }

    fn place_chosen_handicap(
        &mut self,
        points: Option<Vec<Point>>,
    ) -> Result<Vec<Point>, HandicapError> {
        if !self.is_pristine() {
            return Err(HandicapError::BoardNotEmpty);
        }
        let points = points.ok_or(HandicapError::InvalidNumberOfStones)?;
        self.place_handicap(&points)?;
        Ok(points)
    }

    /// Places handicap stones on the listed points (GTP `set_free_handicap`).
    ///
    /// # Errors
    /// `BoardNotEmpty` after moves or setup, `InvalidNumberOfStones` below 2 or above the
    /// board's points minus one, `BadVertexList` for a repeated or off-board point.
    pub fn set_free_handicap(&mut self, points: &[Point]) -> Result<(), HandicapError> {
        if !self.is_pristine() {
            return Err(HandicapError::BoardNotEmpty);
        }
        if points.len() < 2 || points.len() > handicap::max_free_handicap(self.board.size()) {
            return Err(HandicapError::InvalidNumberOfStones);
        }
        for (i, p) in points.iter().enumerate() {
            if !self.board.is_on_board(*p) || points[..i].contains(p) {
                return Err(HandicapError::BadVertexList);
            }
        }
        self.place_handicap(points)
    }

    fn place_handicap(&mut self, points: &[Point]) -> Result<(), HandicapError> {
        let before = self.clone();
        for &p in points {
            if self.add_setup_stone(Color::Black, p).is_err() {
                *self = before;
                return Err(HandicapError::BadVertexList);
            }
        }
        self.handicap = points.len() as u32;
        self.to_move = Color::White;
        self.restart_history();
        Ok(())
    }

    /// Records a handicap count without placing stones, for game records whose setup stones
    /// are given separately (SGF `HA` with `AB`).
    pub fn set_handicap_count(&mut self, stones: u32) {
        self.handicap = stones;
    }

    /// Counts the position under the game's rules, with the chains through `dead` removed
    /// and the chains through `seki` treated as living in seki.
    pub fn score(&self, dead: &[Point], seki: &[Point]) -> Score {
        score::count(&self.board, &self.rules, self.handicap, dead, seki)
    }
}

#[cfg(test)]
mod tests;
