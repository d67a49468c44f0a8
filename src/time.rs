//! Time control: the clock systems a controller can set over GTP and the time each player has
//! left. This module only keeps the clock; deciding how long to think is the search's job.

use crate::color::Color;
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
}
