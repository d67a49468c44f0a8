//! One game of a match: two GTP players, and a referee when one is given, driven move by
//! move. The runner's own [`Game`] is the arbiter of legality and its own [`Clock`] the
//! arbiter of time, so no player's word is taken for either.
//!
//! After two passes the programs' `final_score`s decide when they all agree. When they do
//! not (or always, by [`Cleanup`]), the game goes on in a cleanup phase as on KGS: the players
//! capture what they think dead (`kgs-genmove_cleanup`) until two passes again, and the
//! runner counts the position with every stone alive, which needs nobody's judgement.

use crate::board::color::Color;
use crate::board::vertex::{format_move, parse_move};
use crate::client::process::{ClientError, GtpProcess, Response};
use crate::game::clock::Clock;
use crate::game::rules::Rules;
use crate::game::Game;
use crate::{Move, Point};
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

/// GTP's `time_settings MAIN BYO STONES`: absolute time when `period` is 0, Canadian
/// overtime otherwise (a fixed time per move is `0 S 1`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeSettings {
    pub main: f64,
    pub period: f64,
    pub stones: u32,
}

impl TimeSettings {
    pub fn clock(&self) -> Clock {
        Clock::from_gtp(self.main, self.period, self.stones)
    }
}

/// Moves to play before the engines take over, so that a match is not one game repeated.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// Where it came from (the file name), for the record.
    pub name: String,
    pub moves: Vec<(Color, Move)>,
}

/// When a game that ended in two passes goes on in a cleanup phase, to be counted with every
/// stone on the board alive instead of by the programs' `final_score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cleanup {
    /// When the `final_score` answers (players and referee) do not all agree.
    Disagree,
    /// After every game that ends in two passes.
    Always,
    /// Never: the referee decides, or without one the players when they agree.
    Never,
}

impl Cleanup {
    /// The names the command line takes.
    pub const NAMES: [&'static str; 3] = ["disagree", "always", "never"];

    pub fn from_name(name: &str) -> Option<Cleanup> {
        match name.to_ascii_lowercase().as_str() {
            "disagree" => Some(Cleanup::Disagree),
            "always" => Some(Cleanup::Always),
            "never" => Some(Cleanup::Never),
            _ => None,
        }
    }
}

/// Everything one game needs.
#[derive(Clone, Debug)]
pub struct GameSetup<'a> {
    /// Engine commands by colour: black first.
    pub players: [&'a str; 2],
    /// Display names by colour (for the record's PB and PW).
    pub names: [&'a str; 2],
    pub referee: Option<&'a str>,
    pub size: usize,
    pub rules: &'a Rules,
    pub time: Option<TimeSettings>,
    /// Seconds of thinking per move that are not charged to the clock: the cost of starting
    /// the command and reading the answer.
    pub lag: f64,
    /// How long to wait for an answer when no clock says otherwise.
    pub timeout: Duration,
    /// The game stops unscored after this many moves (the opening's included).
    pub max_moves: usize,
    /// Fixed handicap stones for black (0: none).
    pub handicap: usize,
    /// When a game that ended in two passes goes on in a cleanup phase.
    pub cleanup: Cleanup,
    /// The cleanup phase stops unscored after this many moves (passes included).
    pub cleanup_moves: usize,
    pub opening: Option<&'a Opening>,
    /// Where the engines run.
    pub dir: &'a Path,
}

/// Thinking time of one player over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveTimes {
    pub moves: usize,
    pub total: f64,
    pub max: f64,
}

impl MoveTimes {
    fn add(&mut self, seconds: f64) {
        self.moves += 1;
        self.total += seconds;
        self.max = self.max.max(seconds);
    }

    pub fn merge(&mut self, other: &MoveTimes) {
        self.moves += other.moves;
        self.total += other.total;
        self.max = self.max.max(other.max);
    }
}

/// The `final_score` answers collected after two passes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scores {
    pub referee: Option<String>,
    /// By colour: black first.
    pub players: [Option<String>; 2],
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    pub game: Game,
    /// The result as SGF's `RE` writes it: `B+3.5`, `W+R`, `B+T`, `W+F`, `0`, or `?` when
    /// unknown.
    pub result: String,
    /// How the game ended, in words.
    pub reason: String,
    pub scores: Scores,
    /// By colour: black first.
    pub times: [MoveTimes; 2],
    /// The cleanup phase, if the game had one.
    pub cleanup: Option<CleanupPhase>,
}

/// A cleanup phase: where it began and why.
#[derive(Clone, Debug, PartialEq)]
pub struct CleanupPhase {
    /// The index in the game's moves of the first cleanup move; the moves from there on
    /// (passes included) are the cleanup's.
    pub start: usize,
    /// Why it was needed, in words: the scores that differ, or the option that asks for it.
    pub why: String,
}

impl PlayedGame {
    /// The moves of the cleanup phase, passes included (0 without one).
    pub fn cleanup_moves(&self) -> usize {
        self.cleanup.as_ref().map_or(0, |c| self.game.moves().len().saturating_sub(c.start))
    }
}

/// A score as a margin for black (negative: white ahead), from `B+3.5`, `W+0.5`, `0`
/// (also `Jigo`, `Draw`). `None` for anything else, resignations included.
pub fn parse_score(text: &str) -> Option<f64> {
    let text = text.trim();
    if text == "0" || text.eq_ignore_ascii_case("jigo") || text.eq_ignore_ascii_case("draw") {
        return Some(0.0);
    }
    let (sign, margin) = match text.get(..2)?.to_ascii_uppercase().as_str() {
        "B+" => (1.0, &text[2..]),
        "W+" => (-1.0, &text[2..]),
        _ => return None,
    };
    let margin: f64 = margin.parse().ok().filter(|m: &f64| m.is_finite() && *m >= 0.0)?;
    Some(sign * margin)
}

/// A margin for black written as a result: `B+3.5`, `W+7`, `0`.
pub fn format_score(margin: f64) -> String {
    if margin > 0.0 {
        format!("B+{margin}")
    } else if margin < 0.0 {
        format!("W+{}", -margin)
    } else {
        "0".to_string()
    }
}

/// The winner a result names, if any: `None` for a draw or an unknown result.
pub fn winner_of(result: &str) -> Option<Color> {
    match result.as_bytes().first() {
        Some(b'B') if result.len() > 1 => Some(Color::Black),
        Some(b'W') if result.len() > 1 => Some(Color::White),
        _ => None,
    }
}

/// Why a game stopped before the players passed twice.
enum Stop {
    Resigned(Color),
    Forfeit(Color, String),
    OutOfTime(Color, f64),
    MoveLimit,
    /// The cleanup phase went on past its move limit.
    CleanupLimit,
    /// Nobody can be blamed, and nothing can be scored: a referee that failed.
    Unknown(String),
}

fn name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Why a player failed to answer, in words.
fn describe(error: &ClientError, command: &str) -> String {
    match error {
        ClientError::Timeout => format!("no answer to `{command}` in time"),
        ClientError::Exited => format!("exited (crashed?) during `{command}`"),
        ClientError::Io(e) => format!("could not be reached during `{command}`: {e}"),
    }
}

struct Table {
    players: [GtpProcess; 2],
    referee: Option<GtpProcess>,
    timeout: Duration,
}

impl Table {
    /// Sends `command` to `color`'s player; any failure forfeits the game for that player.
    fn require(&mut self, color: Color, command: &str) -> Result<Response, Stop> {
        let timeout = self.timeout;
        match self.players[color.index()].command_within(command, timeout) {
            Ok(response) if response.ok => Ok(response),
            Ok(response) => Err(Stop::Forfeit(
                color,
                format!("answered `{command}` with the error `{}`", response.text),
            )),
            Err(e) => Err(Stop::Forfeit(color, describe(&e, command))),
        }
    }

    /// Sends `command` to the referee; a failure leaves the result unknown.
    fn tell_referee(&mut self, command: &str) -> Result<(), Stop> {
        let Some(referee) = self.referee.as_mut() else { return Ok(()) };
        match referee.command_within(command, self.timeout) {
            Ok(response) if response.ok => Ok(()),
            Ok(response) => Err(Stop::Unknown(format!(
                "the referee answered `{command}` with the error `{}`",
                response.text
            ))),
            Err(e) => Err(Stop::Unknown(format!("the referee {}", describe(&e, command)))),
        }
    }

    /// A setup command for everyone at the table.
    fn tell_all(&mut self, command: &str) -> Result<(), Stop> {
        for color in [Color::Black, Color::White] {
            self.require(color, command)?;
        }
        self.tell_referee(command)
    }

    /// An optional command (one a player may not know, such as `time_left`): an error answer
    /// is fine, silence or a crash is not.
    fn offer(&mut self, color: Color, command: &str) -> Result<(), Stop> {
        let timeout = self.timeout;
        match self.players[color.index()].command_within(command, timeout) {
            Ok(_) => Ok(()),
            Err(e) => Err(Stop::Forfeit(color, describe(&e, command))),
        }
    }

    /// `final_score` from one program; `None` if it gives none.
    fn final_score(program: &mut GtpProcess, timeout: Duration) -> Option<String> {
        program
            .command_within("final_score", timeout)
            .ok()
            .filter(|r| r.ok)
            .map(|r| r.text.trim().to_string())
    }
}

/// Plays one game to its end. Never fails: every way a game can go wrong is a result, with
/// the reason in words.
pub fn play_game(setup: &GameSetup) -> PlayedGame {
    let mut game = Game::new(setup.size, setup.rules.clone());
    let mut times = [MoveTimes::default(); 2];
    let mut scores = Scores::default();
    let mut cleanup = None;
    // One clock for the whole game, the cleanup phase included, as KGS keeps it running.
    let mut clock = setup.time.map(|t| t.clock());
    let stop = match start_table(setup) {
        Ok(mut table) => {
            let mut stop = play_moves(setup, &mut table, &mut game, clock.as_mut(), &mut times);
            if stop.is_none() {
                scores.players = [Color::Black, Color::White]
                    .map(|c| Table::final_score(&mut table.players[c.index()], setup.timeout));
                scores.referee = table
                    .referee
                    .as_mut()
                    .map(|r| Table::final_score(r, setup.timeout).unwrap_or_default());
                if let Some(why) = cleanup_reason(setup.cleanup, &scores) {
                    cleanup = Some(CleanupPhase { start: game.moves().len(), why });
                    stop = play_cleanup(setup, &mut table, &mut game, clock.as_mut(), &mut times);
                }
            }
            for (player, color) in table.players.iter().zip(["black", "white"]) {
                for line in &player.stray_output {
                    log::warn!("{color} printed outside a response: {line:?}");
                }
            }
            stop
        }
        Err(stop) => Some(stop),
    };
    let cleaned = |text: &str| match &cleanup {
        Some(phase) => {
            let moves = game.moves().len() - phase.start;
            format!("two passes; {}; after {moves} cleanup moves {text}", phase.why)
        }
        None => text.to_string(),
    };
    let (result, reason) = match stop {
        None if cleanup.is_some() => {
            // Every stone on the board is alive: under area scoring the Tromp-Taylor count,
            // seki stones kept and points both colours border counted for nobody.
            let result = game.score(&[], &[]).result().to_string();
            (result, cleaned("counted with every stone alive"))
        }
        None => score_result(&scores),
        Some(Stop::Resigned(color)) => (
            format!("{}+R", color.opponent().letter()),
            cleaned(&format!("{} resigned", name(color))),
        ),
        Some(Stop::Forfeit(color, why)) => (
            format!("{}+F", color.opponent().letter()),
            cleaned(&format!("{} forfeits: {why}", name(color))),
        ),
        Some(Stop::OutOfTime(color, seconds)) => (
            format!("{}+T", color.opponent().letter()),
            cleaned(&format!("{} lost on time (its move took {seconds:.2} s)", name(color))),
        ),
        Some(Stop::MoveLimit) => {
            ("?".to_string(), format!("stopped unscored at the move limit ({})", setup.max_moves))
        }
        Some(Stop::CleanupLimit) => {
            let why = cleanup.as_ref().map_or("", |phase| phase.why.as_str());
            let limit = setup.cleanup_moves;
            let reason = format!(
                "two passes; {why}; the cleanup did not end within {limit} moves; stopped unscored"
            );
            ("?".to_string(), reason)
        }
        Some(Stop::Unknown(why)) => ("?".to_string(), cleaned(&why)),
    };
    PlayedGame { game, result, reason, scores, times, cleanup }
}

fn start_table(setup: &GameSetup) -> Result<Table, Stop> {
    let spawn = |command: &str| GtpProcess::spawn(command, setup.dir, setup.timeout);
    let black = spawn(setup.players[0])
        .map_err(|e| Stop::Forfeit(Color::Black, format!("could not start: {e}")))?;
    let white = spawn(setup.players[1])
        .map_err(|e| Stop::Forfeit(Color::White, format!("could not start: {e}")))?;
    let referee = match setup.referee {
        Some(command) => Some(
            spawn(command)
                .map_err(|e| Stop::Unknown(format!("the referee could not start: {e}")))?,
        ),
        None => None,
    };
    let mut table = Table { players: [black, white], referee, timeout: setup.timeout };
    table.tell_all(&format!("boardsize {}", setup.size))?;
    table.tell_all("clear_board")?;
    table.tell_all(&format!("komi {}", setup.rules.komi))?;
    if let Some(time) = setup.time {
        let command = format!("time_settings {} {} {}", time.main, time.period, time.stones);
        for color in [Color::Black, Color::White] {
            table.require(color, &command)?;
        }
    }
    Ok(table)
}

/// Places `stones` fixed handicap stones in the runner's game and has every program at the
/// table do the same. A player whose stones are not where the GTP specification puts them
/// would play on another board, so it forfeits.
fn place_handicap(stones: usize, table: &mut Table, game: &mut Game) -> Result<(), Stop> {
    let points = game
        .place_fixed_handicap(stones)
        .map_err(|e| Stop::Unknown(format!("no handicap of {stones}: {e}")))?;
    let board = game.board();
    let mut expected: Vec<Point> = points;
    expected.sort();
    let command = format!("fixed_handicap {stones}");
    for color in [Color::Black, Color::White] {
        let answer = table.require(color, &command)?;
        let mut placed: Vec<Point> = answer
            .text
            .split_whitespace()
            .filter_map(|v| match parse_move(board, v) {
                Some(Move::Play(p)) => Some(p),
                _ => None,
            })
            .collect();
        placed.sort();
        if placed != expected {
            let text = answer.text.trim();
            return Err(Stop::Forfeit(color, format!("placed the handicap on `{text}`")));
        }
    }
    table.tell_referee(&command)
}

/// Plays the opening, then asks for moves until two passes (`None`) or another ending.
fn play_moves(
    setup: &GameSetup,
    table: &mut Table,
    game: &mut Game,
    mut clock: Option<&mut Clock>,
    times: &mut [MoveTimes; 2],
) -> Option<Stop> {
    if setup.handicap > 0 {
        if let Err(stop) = place_handicap(setup.handicap, table, game) {
            return Some(stop);
        }
    }
    for &(color, mv) in setup.opening.map(|o| o.moves.as_slice()).unwrap_or_default() {
        if game.play(color, mv).is_err() {
            return Some(Stop::Unknown("the opening has an illegal move".into()));
        }
        let command = format!("play {} {}", name(color), format_move(game.board(), mv));
        if let Err(stop) = table.tell_all(&command) {
            return Some(stop);
        }
    }
    while !game.is_over() {
        if game.moves().len() >= setup.max_moves {
            return Some(Stop::MoveLimit);
        }
        if let Err(stop) =
            play_one_move(setup, table, game, clock.as_deref_mut(), times, ["genmove"; 2])
        {
            return Some(stop);
        }
    }
    None
}

/// Why a game that ended in two passes goes on in a cleanup phase, or `None` when the scores
/// decide it. They decide when `score_result` has a result and every answer given (a
/// player's error is no answer) is that same margin.
fn cleanup_reason(cleanup: Cleanup, scores: &Scores) -> Option<String> {
    let [black, white] = &scores.players;
    let shown = |s: Option<&str>| s.filter(|s| !s.is_empty()).unwrap_or("none").to_string();
    let mut list = format!("{} / {}", shown(black.as_deref()), shown(white.as_deref()));
    if let Some(referee) = &scores.referee {
        let _ = write!(list, " / referee {}", shown(Some(referee)));
    }
    match cleanup {
        Cleanup::Never => None,
        Cleanup::Always => Some(format!("cleanup after every game (scores {list})")),
        Cleanup::Disagree => {
            let decided = parse_score(&score_result(scores).0);
            let agree = decided.is_some()
                && [black, white]
                    .into_iter()
                    .flatten()
                    .chain(&scores.referee)
                    .all(|answer| parse_score(answer) == decided);
            (!agree).then(|| format!("the scores differ ({list})"))
        }
    }
}

/// The cleanup phase: the side to move and then each player in turn is asked for a move that
/// removes dead stones (`kgs-genmove_cleanup`, or `genmove` from a player that does not know
/// it), checked and passed on as in the game, until two passes in a row (`None`) or another
/// ending. The clock and the timeouts are those of the game.
fn play_cleanup(
    setup: &GameSetup,
    table: &mut Table,
    game: &mut Game,
    mut clock: Option<&mut Clock>,
    times: &mut [MoveTimes; 2],
) -> Option<Stop> {
    let mut verbs = ["genmove"; 2];
    for color in [Color::Black, Color::White] {
        let knows = table.players[color.index()]
            .command_within("known_command kgs-genmove_cleanup", setup.timeout)
            .is_ok_and(|r| r.ok && r.text.trim().eq_ignore_ascii_case("true"));
        if knows {
            verbs[color.index()] = "kgs-genmove_cleanup";
        } else {
            log::info!(
                "{} does not know kgs-genmove_cleanup; cleaning up with genmove",
                name(color)
            );
        }
    }
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 {
        if moves >= setup.cleanup_moves {
            return Some(Stop::CleanupLimit);
        }
        if let Err(stop) = play_one_move(setup, table, game, clock.as_deref_mut(), times, verbs) {
            return Some(stop);
        }
        moves += 1;
        passes = match game.last_move() {
            Some((_, Move::Pass)) => passes + 1,
            _ => 0,
        };
    }
    None
}

/// Asks the side to move for a move with its verb of `verbs` (by colour: `genmove`, or
/// `kgs-genmove_cleanup` in the cleanup), checks it, passes it on, and charges its time to
/// that side's clock and `times`.
fn play_one_move(
    setup: &GameSetup,
    table: &mut Table,
    game: &mut Game,
    clock: Option<&mut Clock>,
    times: &mut [MoveTimes; 2],
    verbs: [&str; 2],
) -> Result<(), Stop> {
    let color = game.to_move();
    let command = format!("{} {}", verbs[color.index()], name(color));
    let command = command.as_str();
    let mut wait = setup.timeout;
    if let Some(clock) = clock.as_deref() {
        let left = clock.left(color);
        table
            .offer(color, &format!("time_left {} {} {}", name(color), left.seconds, left.count))?;
        if let Some(longest) = clock.longest_move(color) {
            // The flag falls at `longest` plus the lag allowance; wait a little beyond it so
            // a late answer is judged on the clock rather than as silence.
            wait = Duration::from_secs_f64(longest + setup.lag + 1.0);
        }
    }
    let started = Instant::now();
    let answer = table.players[color.index()].command_within(command, wait);
    let seconds = started.elapsed().as_secs_f64();
    let answer = match answer {
        Ok(response) if response.ok => response.text,
        Ok(response) => {
            return Err(Stop::Forfeit(
                color,
                format!("answered `{command}` with the error `{}`", response.text),
            ))
        }
        Err(ClientError::Timeout) if clock.is_some() => {
            return Err(Stop::OutOfTime(color, seconds))
        }
        Err(e) => return Err(Stop::Forfeit(color, describe(&e, command))),
    };
    times[color.index()].add(seconds);
    if let Some(clock) = clock {
        if !clock.spend(color, (seconds - setup.lag).max(0.0)) {
            return Err(Stop::OutOfTime(color, seconds));
        }
    }
    let answer = answer.trim();
    if answer.eq_ignore_ascii_case("resign") {
        return Err(Stop::Resigned(color));
    }
    let Some(mv) = parse_move(game.board(), answer) else {
        return Err(Stop::Forfeit(
            color,
            format!("answered `{command}` with `{answer}`, not a move"),
        ));
    };
    if let Err(why) = game.play(color, mv) {
        return Err(Stop::Forfeit(color, format!("played the illegal move {answer} ({why})")));
    }
    let play = format!("play {} {}", name(color), format_move(game.board(), mv));
    let opponent = color.opponent();
    table.require(opponent, &play).map_err(|stop| match stop {
        Stop::Forfeit(_, why) if why.starts_with("answered") => {
            Stop::Forfeit(opponent, format!("refused the legal move: {why}"))
        }
        other => other,
    })?;
    table.tell_referee(&play)
}

/// The result after two passes: the referee's score when there is a referee, else the
/// players' when they agree, else unknown. Never a guess.
fn score_result(scores: &Scores) -> (String, String) {
    let [black, white] = &scores.players;
    let parsed = |s: &Option<String>| s.as_deref().and_then(parse_score);
    if let Some(referee) = &scores.referee {
        return match parse_score(referee) {
            Some(margin) => (format_score(margin), "two passes; scored by the referee".into()),
            None => ("?".into(), format!("two passes; the referee gave no score ({referee:?})")),
        };
    }
    match (parsed(black), parsed(white)) {
        (Some(b), Some(w)) if b == w => {
            (format_score(b), "two passes; scored by both players, who agree".into())
        }
        _ => (
            "?".into(),
            format!(
                "two passes; no referee, and the players' scores differ ({} / {})",
                black.as_deref().unwrap_or("none"),
                white.as_deref().unwrap_or("none")
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Scores in the forms engines write them read back as margins, and are written in GTP form.
    #[test]
    fn reads_and_writes_scores() {
        assert_eq!(parse_score("B+3.5"), Some(3.5));
        assert_eq!(parse_score(" w+0.5 "), Some(-0.5));
        assert_eq!(parse_score("0"), Some(0.0));
        assert_eq!(parse_score("Jigo"), Some(0.0));
        for bad in ["B+R", "W+", "B+-3", "X+3", "", "W+inf", "B+T"] {
            assert_eq!(parse_score(bad), None, "{bad}");
        }
        assert_eq!(format_score(3.5), "B+3.5");
        assert_eq!(format_score(-7.0), "W+7");
        assert_eq!(format_score(0.0), "0");
        assert_eq!(winner_of("W+R"), Some(Color::White));
        assert_eq!(winner_of("B+F"), Some(Color::Black));
        assert_eq!(winner_of("0"), None);
        assert_eq!(winner_of("?"), None);
    }

    // The referee decides when there is one; without one the players must agree.
    #[test]
    fn scoring_decisions() {
        let scores = |referee: Option<&str>, black: Option<&str>, white: Option<&str>| Scores {
            referee: referee.map(String::from),
            players: [black.map(String::from), white.map(String::from)],
        };
        assert_eq!(score_result(&scores(Some("W+2.5"), Some("B+1"), None)).0, "W+2.5");
        assert_eq!(score_result(&scores(Some(""), Some("B+1"), Some("B+1"))).0, "?");
        assert_eq!(score_result(&scores(None, Some("B+1.0"), Some("b+1"))).0, "B+1");
        assert_eq!(score_result(&scores(None, Some("B+1"), Some("W+1"))).0, "?");
        assert_eq!(score_result(&scores(None, Some("B+1"), None)).0, "?");
    }

    // Two passes go on in a cleanup phase unless every answer given is the decided score;
    // `always` and `never` override, and a player without an answer does not block the
    // referee.
    #[test]
    fn cleanup_decisions() {
        let scores = |referee: Option<&str>, black: Option<&str>, white: Option<&str>| Scores {
            referee: referee.map(String::from),
            players: [black.map(String::from), white.map(String::from)],
        };
        let agreed = scores(Some("W+2.5"), Some("W+2.5"), None);
        assert_eq!(cleanup_reason(Cleanup::Disagree, &agreed), None);
        assert_eq!(
            cleanup_reason(Cleanup::Disagree, &scores(None, Some("B+1"), Some("b+1.0"))),
            None
        );
        let differ = scores(Some("B+19.5"), Some("B+19.5"), Some("W+0.5"));
        assert_eq!(
            cleanup_reason(Cleanup::Disagree, &differ).as_deref(),
            Some("the scores differ (B+19.5 / W+0.5 / referee B+19.5)")
        );
        assert_eq!(cleanup_reason(Cleanup::Never, &differ), None);
        assert_eq!(
            cleanup_reason(Cleanup::Always, &agreed).as_deref(),
            Some("cleanup after every game (scores W+2.5 / none / referee W+2.5)")
        );
        // No score to go by: a silent referee, one player without a referee, garbage.
        for unscored in [
            scores(Some(""), Some("B+1"), Some("B+1")),
            scores(None, Some("B+1"), None),
            scores(None, None, None),
            scores(Some("B+1"), Some("B+1"), Some("black wins")),
        ] {
            assert!(cleanup_reason(Cleanup::Disagree, &unscored).is_some(), "{unscored:?}");
        }
        assert_eq!(Cleanup::from_name("Always"), Some(Cleanup::Always));
        assert_eq!(Cleanup::from_name("sometimes"), None);
    }
}
