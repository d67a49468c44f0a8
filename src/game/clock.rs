//! Time control: the clock systems a controller can set over GTP and the time each player has
//! left. This module only keeps the clock; deciding how long to think is the search's job.

use crate::board::color::Color;
use std::fmt;

/// How the clock runs, in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSystem {
    /// No time limit.
    None,
    /// Main time only; the game is lost when it runs out.
    Absolute { main: f64 },
    /// Main time, then `periods` periods of `period` seconds each (Japanese byo-yomi).
    ByoYomi { main: f64, period: f64, periods: u32 },
    /// Main time, then `stones` moves to play in every `period` seconds (Canadian overtime).
    Canadian { main: f64, period: f64, stones: u32 },
    /// Main time plus `increment` seconds added after every move.
    Fischer { main: f64, increment: f64 },
}

impl fmt::Display for TimeSystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeSystem::None => write!(f, "none"),
            TimeSystem::Absolute { main } => write!(f, "absolute {main}"),
            TimeSystem::ByoYomi { main, period, periods } => {
                write!(f, "byoyomi {main} {period} {periods}")
            }
            TimeSystem::Canadian { main, period, stones } => {
                write!(f, "canadian {main} {period} {stones}")
            }
            TimeSystem::Fischer { main, increment } => write!(f, "fischer {main} {increment}"),
        }
    }
}

/// No single move thinks longer than a day, whatever the clock says: absurd settings
/// (`time_settings 1e30 0 0`) must not overflow durations.
pub const MAX_THINK_SECONDS: f64 = 86_400.0;

/// What one player has left, as the controller last reported it (or as the settings began).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeLeft {
    /// Seconds left in the current phase: main time, or the current overtime period.
    pub seconds: f64,
    /// In overtime: byo-yomi periods left, or Canadian stones to play in this period. Zero
    /// while in main time.
    pub count: u32,
}

/// The clock of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    pub system: TimeSystem,
    left: [TimeLeft; 2],
}

impl Default for Clock {
    fn default() -> Clock {
        Clock::new(TimeSystem::None)
    }
}

impl Clock {
    /// A fresh clock: both players at the start of main time (or of overtime when there is no
    /// main time).
    pub fn new(system: TimeSystem) -> Clock {
        let start = match system {
            TimeSystem::None => TimeLeft { seconds: f64::INFINITY, count: 0 },
            TimeSystem::Absolute { main } | TimeSystem::Fischer { main, .. } => {
                TimeLeft { seconds: main, count: 0 }
            }
            TimeSystem::ByoYomi { main, period, periods: count }
            | TimeSystem::Canadian { main, period, stones: count } => {
                if main > 0.0 {
                    TimeLeft { seconds: main, count: 0 }
                } else {
                    TimeLeft { seconds: period, count }
                }
            }
        };
        Clock { system, left: [start; 2] }
    }

    /// GTP's `time_settings main byo_time byo_stones`: no overtime when `byo_time` is 0,
    /// no limit at all when `byo_time` > 0 and `byo_stones` is 0, Canadian otherwise.
    pub fn from_gtp(main: f64, period: f64, stones: u32) -> Clock {
        let system = if period > 0.0 && stones == 0 {
            TimeSystem::None
        } else if period <= 0.0 {
            TimeSystem::Absolute { main }
        } else {
            TimeSystem::Canadian { main, period, stones }
        };
        Clock::new(system)
    }

    /// Records what the controller says `color` has left (GTP `time_left`).
    pub fn set_left(&mut self, color: Color, seconds: f64, count: u32) {
        self.left[color.index()] = TimeLeft { seconds, count };
    }

    pub fn left(&self, color: Color) -> TimeLeft {
        self.left[color.index()]
    }

    /// How long `color` may think about this move, or `None` without a time limit, on a
    /// board of `points` with `empty_points` empty. The share of main time assumes
    /// `empty_points / 3` own moves remain (at least 10) and is weighted towards the middle
    /// game (see [`phase_weight`]); overtime uses most of one period (byo-yomi) or a share of
    /// the period per stone left (Canadian). `lag` seconds are kept back for the network and
    /// the GUI, but never more than a quarter of the move's time: under a blitz clock a fixed
    /// lag would leave every move only the 10 ms minimum and bank the clock unused.
    pub fn budget(
        &self,
        color: Color,
        empty_points: usize,
        points: usize,
        lag: f64,
    ) -> Option<f64> {
        let left = self.left(color);
        let moves_left = (empty_points / 3).max(10) as f64;
        let main_share = left.seconds / moves_left * phase_weight(empty_points, points);
        let think = match self.system {
            TimeSystem::None => return None,
            TimeSystem::Absolute { .. } => main_share,
            TimeSystem::Fischer { increment, .. } => {
                (main_share + 0.8 * increment).min(left.seconds / 2.0)
            }
            TimeSystem::ByoYomi { period, .. } => {
                if left.count == 0 {
                    main_share.max(0.8 * period).min(left.seconds + 0.8 * period)
                } else {
                    0.8 * left.seconds.min(period)
                }
            }
            TimeSystem::Canadian { period, .. } => {
                if left.count == 0 {
                    main_share.max(0.8 * period / 25.0).min(left.seconds + 0.8 * period / 25.0)
                } else {
                    0.8 * left.seconds / left.count as f64
                }
            }
        };
        let keep_back = lag.min(think / 4.0);
        Some((think - keep_back).clamp(0.01, MAX_THINK_SECONDS))
    }

    /// Whether time `color` leaves unused on this move is still there for later moves: main
    /// time, a Fischer increment and a Canadian period with stones still to play keep it; a
    /// byo-yomi period, the last stone of a Canadian period, and no clock at all do not.
    pub fn keeps_unused_time(&self, color: Color) -> bool {
        let left = self.left(color);
        match self.system {
            TimeSystem::None => false,
            TimeSystem::Absolute { .. } | TimeSystem::Fischer { .. } => true,
            TimeSystem::ByoYomi { .. } => left.count == 0,
            TimeSystem::Canadian { .. } => left.count != 1,
        }
    }

    /// Charges `seconds` of thinking to `color` (for controllers that never send
    /// `time_left`, and for the match runner's own clock): main time first, then the overtime
    /// rules of the system. Returns false when the move ran out of time: main time gone with
    /// no overtime, the last byo-yomi period used up, or a Canadian period over before its
    /// stones were played. The clock then shows what the system would show after the flag
    /// fell (nothing left, or a fresh period), so a GUI-style controller can carry on.
    pub fn spend(&mut self, color: Color, seconds: f64) -> bool {
        let system = self.system;
        let left = &mut self.left[color.index()];
        match system {
            TimeSystem::None => true,
            TimeSystem::Absolute { .. } => {
                let within = seconds <= left.seconds;
                left.seconds = (left.seconds - seconds).max(0.0);
                within
            }
            TimeSystem::Fischer { increment, .. } => {
                let within = seconds <= left.seconds;
                left.seconds = ((left.seconds - seconds).max(0.0) + increment).min(f64::MAX);
                within
            }
            TimeSystem::ByoYomi { period, periods, .. } => {
                let start = TimeLeft { seconds: period, count: periods };
                let Some(over) = charge_main_time(left, seconds, start) else { return true };
                // Each whole period used up is lost; the period then starts afresh.
                let lost = (over / period.max(f64::MIN_POSITIVE)).floor() as u32;
                let within = lost < left.count;
                left.count = left.count.saturating_sub(lost);
                left.seconds = period;
                within
            }
            TimeSystem::Canadian { period, stones, .. } => {
                let start = TimeLeft { seconds: period, count: stones };
                let Some(over) = charge_main_time(left, seconds, start) else { return true };
                let within = over <= left.seconds;
                left.seconds = (left.seconds - over).max(0.0);
                left.count = left.count.saturating_sub(1);
                if left.count == 0 {
                    *left = start;
                }
                within
            }
        }
    }

    /// The longest `color` can think about this move without running out of time, or `None`
    /// without a limit: what a controller waits for before calling the player hung.
    pub fn longest_move(&self, color: Color) -> Option<f64> {
        let left = self.left(color);
        let longest = match self.system {
            TimeSystem::None => return None,
            TimeSystem::Absolute { .. } | TimeSystem::Fischer { .. } => left.seconds,
            TimeSystem::ByoYomi { period, periods, .. } => {
                if left.count == 0 {
                    left.seconds + period * f64::from(periods)
                } else {
                    left.seconds + period * f64::from(left.count - 1)
                }
            }
            TimeSystem::Canadian { period, .. } => {
                if left.count == 0 {
                    left.seconds + period
                } else {
                    left.seconds
                }
            }
        };
        Some(longest.clamp(0.0, MAX_THINK_SECONDS))
    }
}

/// How much more than an even share of main time a move gets at this stage: 1 in the opening
/// and once the board is three quarters full, rising to 1.5 halfway between, where the
/// fights are. The share is of what is left, so spending more now never overdraws later.
pub fn phase_weight(empty_points: usize, points: usize) -> f64 {
    if points == 0 {
        return 1.0;
    }
    let filled = 1.0 - empty_points.min(points) as f64 / points as f64;
    let stage = (filled / 0.75).min(1.0);
    1.0 + 2.0 * stage * (1.0 - stage)
}

/// Charges `seconds` to main time while there is some (`count == 0`). Returns the time
/// that falls into overtime, after starting overtime at `start`; `None` if main time covered
/// it all.
fn charge_main_time(left: &mut TimeLeft, seconds: f64, start: TimeLeft) -> Option<f64> {
    if left.count > 0 {
        return Some(seconds);
    }
    if seconds <= left.seconds {
        left.seconds -= seconds;
        return None;
    }
    let over = seconds - left.seconds;
    *left = start;
    Some(over)
}

#[cfg(test)]
mod tests {
    use super::*;

    // GTP's time_settings encodes three systems in its three numbers, as the spec says.
    #[test]
    fn gtp_time_settings() {
        assert_eq!(Clock::from_gtp(600.0, 0.0, 0).system, TimeSystem::Absolute { main: 600.0 });
        assert_eq!(Clock::from_gtp(0.0, 1.0, 0).system, TimeSystem::None);
        let canadian = Clock::from_gtp(300.0, 60.0, 25);
        assert_eq!(canadian.system, TimeSystem::Canadian { main: 300.0, period: 60.0, stones: 25 });
        assert_eq!(canadian.left(Color::White), TimeLeft { seconds: 300.0, count: 0 });
    }

    // A clock without main time starts in overtime; time_left overrides one player's clock.
    #[test]
    fn overtime_start_and_time_left() {
        let mut clock = Clock::new(TimeSystem::ByoYomi { main: 0.0, period: 30.0, periods: 5 });
        assert_eq!(clock.left(Color::Black), TimeLeft { seconds: 30.0, count: 5 });
        clock.set_left(Color::Black, 12.5, 3);
        assert_eq!(clock.left(Color::Black), TimeLeft { seconds: 12.5, count: 3 });
        assert_eq!(clock.left(Color::White), TimeLeft { seconds: 30.0, count: 5 });
    }

    // Time a move leaves unused is kept in main time, with an increment and inside a
    // Canadian period with stones to come; a byo-yomi period or a period's last stone loses it.
    #[test]
    fn which_clocks_keep_unused_time() {
        assert!(!Clock::default().keeps_unused_time(Color::Black));
        assert!(Clock::new(TimeSystem::Absolute { main: 60.0 }).keeps_unused_time(Color::Black));
        let fischer = Clock::new(TimeSystem::Fischer { main: 0.0, increment: 5.0 });
        assert!(fischer.keeps_unused_time(Color::White));
        let mut byo = Clock::new(TimeSystem::ByoYomi { main: 60.0, period: 10.0, periods: 3 });
        assert!(byo.keeps_unused_time(Color::Black), "main time");
        byo.set_left(Color::Black, 10.0, 3);
        assert!(!byo.keeps_unused_time(Color::Black), "a byo-yomi period");
        assert!(byo.keeps_unused_time(Color::White), "white still in main time");
        let mut canadian = Clock::new(TimeSystem::Canadian { main: 0.0, period: 60.0, stones: 5 });
        assert!(canadian.keeps_unused_time(Color::Black), "four more stones in the period");
        canadian.set_left(Color::Black, 12.0, 1);
        assert!(!canadian.keeps_unused_time(Color::Black), "the period's last stone");
        // GTP's `time_settings 0 1 1`: one stone a second, a fixed time per move.
        assert!(!Clock::from_gtp(0.0, 1.0, 1).keeps_unused_time(Color::Black));
    }

    // Budgets stay inside what the clock allows, lag kept back, in every system.
    #[test]
    fn budgets_fit_the_clock() {
        assert_eq!(Clock::default().budget(Color::Black, 361, 361, 0.5), None);
        let absolute = Clock::new(TimeSystem::Absolute { main: 60.0 });
        // 0.6 s a move: a quarter kept back, not the whole half-second lag.
        assert_eq!(absolute.budget(Color::Black, 300, 300, 0.5), Some(0.6 - 0.6 / 4.0));
        let long = Clock::new(TimeSystem::Absolute { main: 600.0 });
        assert_eq!(long.budget(Color::Black, 300, 300, 0.5), Some(6.0 - 0.5), "the whole lag");
        let mut byo = Clock::new(TimeSystem::ByoYomi { main: 0.0, period: 10.0, periods: 3 });
        assert_eq!(byo.budget(Color::White, 300, 300, 1.0), Some(7.0));
        byo.set_left(Color::White, 4.0, 1);
        assert_eq!(byo.budget(Color::White, 300, 300, 1.0), Some(3.2 - 0.8));
        let canadian = Clock::new(TimeSystem::Canadian { main: 0.0, period: 100.0, stones: 20 });
        assert_eq!(canadian.budget(Color::Black, 300, 300, 0.0), Some(4.0));
        let tiny = Clock::new(TimeSystem::Absolute { main: 0.2 });
        assert_eq!(tiny.budget(Color::Black, 81, 81, 0.5), Some(0.01), "never below 10 ms");
        let fischer = Clock::new(TimeSystem::Fischer { main: 4.0, increment: 5.0 });
        assert_eq!(
            fischer.budget(Color::Black, 300, 300, 0.0),
            Some(2.0),
            "at most half of what is left"
        );
    }

    // Main time goes preferably to the middle game: more than in the opening or the endgame
    // for the same time left and moves to come.
    #[test]
    fn middle_game_gets_more() {
        assert_eq!(phase_weight(361, 361), 1.0);
        assert!((phase_weight(361 - 135, 361) - 1.5).abs() < 0.01, "three eighths full");
        assert!(phase_weight(90, 361) < 1.01, "three quarters full");
        let clock = Clock::new(TimeSystem::Absolute { main: 600.0 });
        let at = |empty| clock.budget(Color::Black, empty, 361, 0.0).unwrap() * (empty / 3) as f64;
        assert!(at(226) > at(361) * 1.4 && at(226) > at(90) * 1.4);
    }

    // Spending time moves through main time into overtime as the systems prescribe.
    #[test]
    fn spending_time() {
        let mut byo = Clock::new(TimeSystem::ByoYomi { main: 5.0, period: 10.0, periods: 3 });
        assert!(byo.spend(Color::Black, 4.0));
        assert_eq!(byo.left(Color::Black), TimeLeft { seconds: 1.0, count: 0 });
        assert!(byo.spend(Color::Black, 12.0));
        assert_eq!(byo.left(Color::Black), TimeLeft { seconds: 10.0, count: 2 }, "one period lost");
        let mut canadian = Clock::new(TimeSystem::Canadian { main: 0.0, period: 30.0, stones: 2 });
        assert!(canadian.spend(Color::White, 10.0));
        assert_eq!(canadian.left(Color::White), TimeLeft { seconds: 20.0, count: 1 });
        assert!(canadian.spend(Color::White, 10.0));
        assert_eq!(canadian.left(Color::White), TimeLeft { seconds: 30.0, count: 2 }, "new period");
        let mut fischer = Clock::new(TimeSystem::Fischer { main: 10.0, increment: 2.0 });
        assert!(fischer.spend(Color::Black, 3.0));
        assert_eq!(fischer.left(Color::Black).seconds, 9.0);
    }

    // The flag falls exactly when the system says the player is out of time.
    #[test]
    fn running_out_of_time() {
        let mut absolute = Clock::new(TimeSystem::Absolute { main: 10.0 });
        assert_eq!(absolute.longest_move(Color::Black), Some(10.0));
        assert!(absolute.spend(Color::Black, 6.0));
        assert!(!absolute.spend(Color::Black, 4.5), "4 seconds were left");
        let mut byo = Clock::new(TimeSystem::ByoYomi { main: 5.0, period: 10.0, periods: 2 });
        assert_eq!(byo.longest_move(Color::White), Some(25.0));
        assert!(byo.spend(Color::White, 24.0), "main time and one period lost, one left");
        assert_eq!(byo.longest_move(Color::White), Some(10.0));
        assert!(!byo.spend(Color::White, 10.5), "the last period used up");
        let mut canadian = Clock::new(TimeSystem::Canadian { main: 5.0, period: 20.0, stones: 2 });
        assert_eq!(canadian.longest_move(Color::Black), Some(25.0));
        assert!(canadian.spend(Color::Black, 15.0), "10 s into the first overtime period");
        assert_eq!(canadian.longest_move(Color::Black), Some(10.0));
        assert!(!canadian.spend(Color::Black, 11.0), "the period ended before its second stone");
        let mut fischer = Clock::new(TimeSystem::Fischer { main: 3.0, increment: 2.0 });
        assert!(fischer.spend(Color::Black, 3.0));
        assert!(!fischer.spend(Color::Black, 2.5), "the increment alone was left");
        assert_eq!(Clock::default().longest_move(Color::Black), None);
        assert!(Clock::default().spend(Color::Black, 1e9));
    }
}
