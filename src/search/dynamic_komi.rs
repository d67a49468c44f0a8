//! Dynamic komi for handicap games. Monte Carlo search plays to win, not to win by much. When
//! nearly every simulation ends the same way, every move looks alike: the side far ahead
//! plays slack moves that give its lead away, and the side far behind plays at random, or
//! resigns. In a handicap game that is the usual state of affairs once the stones' value
//! shows on the board. Counting as if the leader had to win by more points gives both a game
//! that is close in the search's eyes, where good and bad moves differ in win rate.
//!
//! The bias is adaptive: after each search whose win rate for the engine's side is above
//! [`HIGH`], the engine must win by `step` more points; below [`LOW`], by `step` fewer;
//! between the two it stays. A fixed bias from the handicap (Pachi's linear dynamic komi,
//! 7 points a stone) lost in self-play: tengen's playouts see only part of a handicap's
//! value early on (four stones on 9×9 leave white a 22 % win rate, nine on 19×19 19 %), so
//! the fixed bias turned games the search judged sensibly into ones it misjudged. The bias
//! fades linearly with the moves played, so the real komi decides the end of the game.
//!
//! The bias changes only what the search calls a win; the score, the referee's count and
//! the analysis commands use the real komi. While the bias asks more than a win the engine
//! does not resign, and while there is any bias it does not pass uninvited: its win rate
//! then says nothing of the real count.
//!
//! It is off by default (`dynamic_komi` 0; `auto` takes [`default_step`]). Measured on 9×9
//! with two handicap stones it did not help: in self-play at 1,000 playouts the adaptive
//! bias won 44 % of 209 games against no bias (worse as black and as white), and as white
//! giving GNU Go two stones tengen won 12 of 40 games with it and 11 of 40 without
//! (`docs/strength.md`). Whether it helps with the large handicaps of 19×19, where it was
//! invented, is not measured yet.

use crate::board::color::Color;
use crate::board::{Move, Point};
use crate::game::Game;

/// Win rate above which the engine asks more of itself.
pub const HIGH: f64 = 0.85;
/// Win rate below which it asks less.
pub const LOW: f64 = 0.15;

/// Moves over which the bias fades on 19×19; other boards scale it with their area.
const FADE_MOVES_19X19: usize = 200;

/// The engine's bias in one handicap game, for each colour it plays (an engine may play
/// both sides, in self-play from a GUI).
#[derive(Clone, Debug, Default)]
pub struct DynamicKomi {
    /// Points black and white must win by beyond the real komi (negative: may lose by).
    bias: [f64; 2],
    /// The game the bias belongs to: its setup stones and the moves seen so far.
    setup: Vec<(Color, Point)>,
    moves_seen: Vec<(Color, Move)>,
}

impl DynamicKomi {
    /// The extra komi for white (in points) the search should count with when `color`
    /// moves in `game`: none outside handicap games, or when `step` is zero. A different or
    /// rewound game starts without bias.
    pub fn extra_komi(&mut self, game: &Game, color: Color, step: f64) -> f64 {
        self.follow(game);
        if game.handicap() == 0 || step <= 0.0 {
            return 0.0;
        }
        let own_terms = self.bias[color.index()] * fade(game);
        match color {
            Color::Black => own_terms,
            Color::White => -own_terms,
        }
    }

    /// Adjusts `color`'s bias after a search of `game` that gave it `win_rate` (under the
    /// bias): `step` points more when comfortably ahead, fewer when far behind, never more
    /// than `step` per handicap stone, times ten, either way.
    pub fn update(&mut self, game: &Game, color: Color, win_rate: f64, step: f64) {
        self.follow(game);
        if game.handicap() == 0 || step <= 0.0 {
            return;
        }
        let bias = &mut self.bias[color.index()];
        if win_rate > HIGH {
            *bias += step;
        } else if win_rate < LOW {
            *bias -= step;
        }
        let bound = 10.0 * step * f64::from(game.handicap());
        *bias = bias.clamp(-bound, bound);
    }

    /// Starts over on a different game or a changed past (another setup, or moves that do
    /// not continue the ones last seen, as after an undo).
    fn follow(&mut self, game: &Game) {
        if game.setup_stones() != self.setup.as_slice()
            || !game.moves().starts_with(&self.moves_seen)
        {
            *self = DynamicKomi { setup: game.setup_stones().to_vec(), ..DynamicKomi::default() };
        }
        let seen = self.moves_seen.len();
        self.moves_seen.extend_from_slice(&game.moves()[seen..]);
    }

    /// `color`'s bias now, in points it must win by (before the fade).
    pub fn bias(&self, color: Color) -> f64 {
        self.bias[color.index()]
    }
}

/// The default step: about a point per 40 points of board (2 on 9×9, 9 on 19×19).
pub fn default_step(size: usize) -> f64 {
    ((size * size) as f64 / 40.0).round().max(1.0)
}

/// The share of the bias still in force: all of it at the first move, none after
/// 200 moves on 19×19 (scaled by area on other boards).
fn fade(game: &Game) -> f64 {
    let size = game.board().size();
    let fade_moves = (FADE_MOVES_19X19 * size * size / (19 * 19)).max(1);
    fade_moves.saturating_sub(game.moves().len()) as f64 / fade_moves as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Rules;

    fn pass_until(game: &mut Game, moves: usize) {
        while game.moves().len() < moves {
            game.play(game.to_move(), Move::Pass).expect("passing is always legal");
        }
    }

    fn handicap_game(size: usize, stones: usize) -> Game {
        let mut game = Game::new(size, Rules::chinese());
        game.place_fixed_handicap(stones).unwrap();
        game
    }

    #[test]
    fn nothing_without_handicap_or_step() {
        let game = Game::new(19, Rules::chinese());
        let mut komi = DynamicKomi::default();
        komi.update(&game, Color::White, 0.01, 5.0);
        assert_eq!(komi.bias(Color::White), 0.0);
        assert_eq!(komi.extra_komi(&game, Color::White, 5.0), 0.0);
        let game = handicap_game(19, 4);
        komi.update(&game, Color::White, 0.01, 0.0);
        assert_eq!(komi.bias(Color::White), 0.0);
        assert_eq!(komi.extra_komi(&game, Color::White, 0.0), 0.0);
    }

    // Far behind, white may lose by more and more (extra komi for white grows); far ahead,
    // black must win by more (extra komi for white grows too); in between, nothing moves.
    #[test]
    fn the_bias_follows_saturated_win_rates() {
        let game = handicap_game(19, 4);
        let mut white = DynamicKomi::default();
        assert_eq!(white.extra_komi(&game, Color::White, 5.0), 0.0);
        white.update(&game, Color::White, 0.05, 5.0);
        assert_eq!(white.extra_komi(&game, Color::White, 5.0), 5.0);
        white.update(&game, Color::White, 0.10, 5.0);
        assert_eq!(white.extra_komi(&game, Color::White, 5.0), 10.0);
        white.update(&game, Color::White, 0.5, 5.0);
        assert_eq!(white.extra_komi(&game, Color::White, 5.0), 10.0);
        white.update(&game, Color::White, 0.9, 5.0);
        assert_eq!(white.extra_komi(&game, Color::White, 5.0), 5.0);
        let mut black = DynamicKomi::default();
        black.update(&game, Color::Black, 0.95, 5.0);
        assert_eq!(black.extra_komi(&game, Color::Black, 5.0), 5.0);
        for _ in 0..100 {
            black.update(&game, Color::Black, 0.99, 5.0);
        }
        assert_eq!(black.bias(Color::Black), 200.0, "at most ten steps per stone");
        assert_eq!(black.bias(Color::White), 0.0, "each colour has its own");
        assert_eq!(black.extra_komi(&game, Color::White, 5.0), 0.0);
    }

    #[test]
    fn the_bias_fades_with_the_moves() {
        let mut game = handicap_game(9, 2);
        let mut komi = DynamicKomi::default();
        komi.extra_komi(&game, Color::White, 2.0);
        komi.update(&game, Color::White, 0.0, 2.0);
        komi.update(&game, Color::White, 0.0, 2.0);
        assert_eq!(komi.extra_komi(&game, Color::White, 2.0), 4.0);
        pass_until(&mut game, 22);
        assert_eq!(komi.extra_komi(&game, Color::White, 2.0), 2.0);
        pass_until(&mut game, 44);
        assert_eq!(komi.extra_komi(&game, Color::White, 2.0), 0.0);
        assert_eq!(komi.bias(Color::White), -4.0, "the fade leaves the bias itself alone");
    }

    // A new game, or a game taken back, starts over.
    #[test]
    fn a_new_game_starts_without_bias() {
        let mut game = handicap_game(9, 2);
        let mut komi = DynamicKomi::default();
        pass_until(&mut game, 4);
        komi.extra_komi(&game, Color::White, 2.0);
        komi.update(&game, Color::White, 0.0, 2.0);
        assert_eq!(komi.bias(Color::White), -2.0);
        game.undo().unwrap();
        assert_eq!(komi.extra_komi(&game, Color::White, 2.0), 0.0);
        komi.update(&game, Color::White, 0.0, 2.0);
        assert_eq!(komi.bias(Color::White), -2.0);
        // A move that continues the game keeps the bias; another in its place does not.
        game.play(game.to_move(), Move::Play(game.board().point(4, 4))).unwrap();
        komi.extra_komi(&game, Color::White, 2.0);
        assert_eq!(komi.bias(Color::White), -2.0);
        game.undo().unwrap();
        game.play(game.to_move(), Move::Play(game.board().point(5, 5))).unwrap();
        assert_eq!(komi.extra_komi(&game, Color::White, 2.0), 0.0);
        assert_eq!(komi.bias(Color::White), 0.0);
        komi.update(&game, Color::White, 0.0, 2.0);
        komi.extra_komi(&handicap_game(9, 3), Color::White, 2.0);
        assert_eq!(komi.bias(Color::White), 0.0);
    }

    #[test]
    fn default_steps() {
        assert_eq!(default_step(9), 2.0);
        assert_eq!(default_step(19), 9.0);
        assert_eq!(default_step(2), 1.0);
    }
}
