//! Whole games under a clock through the real binary, as a controller plays them: the
//! controller keeps both clocks itself (its own bookkeeping here, not tengen's), measures
//! each move from sending `genmove` to reading the answer, and sends `time_left` before every
//! `genmove`. No move may take a player past its clock, under absolute, byo-yomi, Canadian
//! and Fischer time.

mod pipes;

use pipes::GtpProcess;
use std::time::Instant;

/// Overtime as the controller runs it, in seconds.
#[derive(Clone, Copy, Debug)]
enum Overtime {
    None,
    /// Japanese byo-yomi: `periods` periods of `period`; a move that ends inside a period
    /// keeps it, every period used up in full is gone.
    ByoYomi {
        period: f64,
        periods: u32,
    },
    /// `stones` moves in every `period`.
    Canadian {
        period: f64,
        stones: u32,
    },
    /// `increment` added after every move.
    Fischer {
        increment: f64,
    },
}

/// One player's clock as the controller keeps it.
#[derive(Clone, Copy, Debug)]
struct PlayerClock {
    overtime: Overtime,
    main: f64,
    /// In overtime: the seconds left in the current period.
    period_left: f64,
    /// In overtime: byo-yomi periods left, or Canadian stones to play in this period.
    count: u32,
    in_overtime: bool,
    longest_move: f64,
    used: f64,
}

impl PlayerClock {
    fn new(main: f64, overtime: Overtime) -> PlayerClock {
        let mut clock = PlayerClock {
            overtime,
            main,
            period_left: 0.0,
            count: 0,
            in_overtime: false,
            longest_move: 0.0,
            used: 0.0,
        };
        if main <= 0.0 {
            clock.enter_overtime();
        }
        clock
    }

    fn enter_overtime(&mut self) {
        self.in_overtime = true;
        match self.overtime {
            Overtime::ByoYomi { period, periods } => {
                (self.period_left, self.count) = (period, periods)
            }
            Overtime::Canadian { period, stones } => {
                (self.period_left, self.count) = (period, stones)
            }
            Overtime::None | Overtime::Fischer { .. } => {}
        }
    }

    /// What `time_left` reports: the seconds of the current phase and the overtime count.
    fn time_left(&self) -> (f64, u32) {
        if self.in_overtime {
            (self.period_left, self.count)
        } else {
            (self.main, 0)
        }
    }

    /// Takes one move's `seconds` off the clock; false when the player lost on time.
    fn spend(&mut self, mut seconds: f64) -> bool {
        self.used += seconds;
        self.longest_move = self.longest_move.max(seconds);
        if !self.in_overtime {
            if let Overtime::Fischer { increment } = self.overtime {
                self.main -= seconds;
                self.main += increment;
                return self.main - increment >= 0.0;
            }
            if seconds <= self.main {
                self.main -= seconds;
                return true;
            }
            seconds -= self.main;
            self.main = 0.0;
            if matches!(self.overtime, Overtime::None) {
                return false;
            }
            self.enter_overtime();
        }
        match self.overtime {
            Overtime::ByoYomi { period, .. } => {
                while seconds >= self.period_left {
                    seconds -= self.period_left;
                    self.count -= 1;
                    if self.count == 0 {
                        return false;
                    }
                    self.period_left = period;
                }
                self.period_left = period;
                true
            }
            Overtime::Canadian { period, stones } => {
                self.period_left -= seconds;
                if self.period_left < 0.0 {
                    return false;
                }
                self.count -= 1;
                if self.count == 0 {
                    (self.period_left, self.count) = (period, stones);
                }
                true
            }
            Overtime::None | Overtime::Fischer { .. } => unreachable!("no overtime phase"),
        }
    }
}

/// Plays one 9×9 game of tengen against itself under `setting` (the GTP command that sets
/// the clock), the controller's clocks starting as `clock`; fails on a loss on time, and
/// returns both players' clocks at the end.
fn play_timed_game(setting: &str, clock: PlayerClock) -> [PlayerClock; 2] {
    let mut engine = GtpProcess::start(&["--threads", "1", "--size", "9"]);
    engine.ask("boardsize 9");
    engine.ask("clear_board");
    engine.ask("komi 7.5");
    engine.ask(setting);
    let mut clocks = [clock, clock];
    let mut passes = 0;
    let mut moves = 0;
    let colors = ["b", "w"];
    while passes < 2 && moves < 200 {
        let side = moves % 2;
        let (seconds, count) = clocks[side].time_left();
        engine.ask(&format!("time_left {} {seconds:.3} {count}", colors[side]));
        let started = Instant::now();
        let answer = engine.ask(&format!("genmove {}", colors[side]));
        let elapsed = started.elapsed().as_secs_f64();
        assert!(
            clocks[side].spend(elapsed),
            "{setting}: {} lost on time at move {}: {elapsed:.3} s with {seconds:.3} s, \
             count {count} left",
            colors[side],
            moves + 1
        );
        moves += 1;
        match answer.to_lowercase().as_str() {
            "resign" => break,
            "pass" => passes += 1,
            _ => passes = 0,
        }
    }
    assert!(moves < 200, "{setting}: the game did not end in 200 moves");
    assert!(moves >= 20, "{setting}: only {moves} moves");
    clocks
}

// Absolute time: 5 seconds for the whole game each. The game ends inside them, and the
// engine uses a good part of them (a clock it ignored would show as a fast game).
#[test]
fn absolute_time() {
    let clocks = play_timed_game("time_settings 5 0 0", PlayerClock::new(5.0, Overtime::None));
    for clock in clocks {
        assert!(clock.used > 1.5, "{clock:?}");
    }
}

// Japanese byo-yomi: one second of main time, then three periods of one second; no period
// may be used up (the engine would lose one, and the game after three).
#[test]
fn byo_yomi() {
    let overtime = Overtime::ByoYomi { period: 1.0, periods: 3 };
    let clocks =
        play_timed_game("kgs-time_settings byoyomi 1 1 3", PlayerClock::new(1.0, overtime));
    for clock in clocks {
        assert!(clock.in_overtime, "{clock:?}");
        assert_eq!(clock.count, 3, "a period was used up: {clock:?}");
        assert!(clock.longest_move > 0.3, "{clock:?}");
    }
}

// Canadian overtime through GTP's own time_settings: half a second of main time, then 10
// stones in every 4 seconds. Both players reach overtime (with a fixed lag kept back from
// every move they played each move in 10 ms and banked the main time).
#[test]
fn canadian_overtime() {
    let overtime = Overtime::Canadian { period: 4.0, stones: 10 };
    let clocks = play_timed_game("time_settings 0.5 4 10", PlayerClock::new(0.5, overtime));
    for clock in clocks {
        assert!(clock.in_overtime, "main time never used up: {clock:?}");
    }
}

// Fischer: two seconds, plus a quarter of a second after every move.
#[test]
fn fischer_time() {
    let overtime = Overtime::Fischer { increment: 0.25 };
    let clocks =
        play_timed_game("kata-time_settings fischer 2 0.25", PlayerClock::new(2.0, overtime));
    for clock in clocks {
        assert!(clock.used > 2.0, "{clock:?}");
    }
}

// The controller's bookkeeping itself, on moves chosen by hand.
#[test]
fn controller_clock_bookkeeping() {
    let mut byo = PlayerClock::new(1.0, Overtime::ByoYomi { period: 1.0, periods: 2 });
    assert!(byo.spend(0.5) && byo.time_left() == (0.5, 0));
    // 0.5 s of main time, then 0.7 s into the first period: it is kept.
    assert!(byo.spend(1.2) && byo.time_left() == (1.0, 2), "{byo:?}");
    assert!(byo.spend(0.9) && byo.time_left() == (1.0, 2), "{byo:?}");
    // A period used up in full is gone; using up the last one loses.
    assert!(byo.spend(1.0) && byo.time_left() == (1.0, 1), "{byo:?}");
    assert!(!byo.spend(1.5));
    let mut canadian = PlayerClock::new(0.0, Overtime::Canadian { period: 2.0, stones: 2 });
    assert!(canadian.spend(0.5) && canadian.time_left() == (1.5, 1));
    assert!(canadian.spend(1.5) && canadian.time_left() == (2.0, 2));
    assert!(!canadian.spend(2.5));
    let mut fischer = PlayerClock::new(1.0, Overtime::Fischer { increment: 0.5 });
    assert!(fischer.spend(1.0) && fischer.time_left() == (0.5, 0));
    assert!(!fischer.spend(0.6));
    let mut absolute = PlayerClock::new(1.0, Overtime::None);
    assert!(absolute.spend(0.75) && !absolute.spend(0.5));
}
