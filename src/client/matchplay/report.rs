//! What a match records: one line of JSON per game (enough to resume a stopped match and to
//! recompute every figure), and the summary table with win rates, Elo, SPRT, time per move,
//! forfeits and unknown results.

use super::game::Opening;
use super::game::{parse_score, winner_of, MoveTimes, PlayedGame};
use super::stats::{elo_interval, wilson, Interval, Sprt, SprtDecision};
use super::MatchSettings;
use crate::board::color::Color;
use crate::gtp::json::{parse_flat_object, write_flat_object, Value};
use std::fmt::Write as _;

/// One finished game, as the results file keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReport {
    /// Counting from 0 (written counting from 1).
    pub index: usize,
    /// The two engine commands of the match, first engine first.
    pub engines: [String; 2],
    /// The engines' display names (`name` and `version`), first engine first.
    pub names: [String; 2],
    pub size: usize,
    /// Fixed handicap stones for black (0: none).
    pub handicap: usize,
    pub first_is_black: bool,
    pub opening: Option<String>,
    /// `RE` form: `B+3.5`, `W+R`, `B+T`, `W+F`, `0`, `?`.
    pub result: String,
    pub reason: String,
    /// Every move of the game, the cleanup phase's included.
    pub moves: usize,
    /// The moves of the cleanup phase, passes included (0: the game had none).
    pub cleanup_moves: usize,
    pub referee_score: Option<String>,
    /// `final_score` of the players by colour, black first.
    pub player_scores: [Option<String>; 2],
    /// By colour, black first.
    pub times: [MoveTimes; 2],
    /// The game record, when SGF files are written (not part of the results line).
    pub sgf: Option<String>,
}

/// How a game went for the first engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
    Unknown,
}

impl GameReport {
    pub fn new(
        settings: &MatchSettings,
        names: &[String; 2],
        index: usize,
        first_is_black: bool,
        opening: Option<&Opening>,
        played: &PlayedGame,
    ) -> GameReport {
        GameReport {
            index,
            engines: settings.engines.clone(),
            names: names.clone(),
            size: settings.size,
            handicap: settings.handicap,
            first_is_black,
            opening: opening.map(|o| o.name.clone()),
            result: played.result.clone(),
            reason: played.reason.clone(),
            moves: played.game.moves().len(),
            cleanup_moves: played.cleanup_moves(),
            referee_score: played.scores.referee.clone(),
            player_scores: played.scores.players.clone(),
            times: played.times,
            sgf: None,
        }
    }

    /// Whether `other` is a game of the same match: the same engine commands, board size and
    /// handicap (other settings are not recorded).
    pub fn same_match(&self, other: &GameReport) -> bool {
        self.engines == other.engines && self.size == other.size && self.handicap == other.handicap
    }

    /// The colour engine `engine` (0: first, 1: second) played.
    pub fn color_of(&self, engine: usize) -> Color {
        if (engine == 0) == self.first_is_black {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The result from the first engine's side.
    pub fn outcome(&self) -> Outcome {
        match winner_of(&self.result) {
            Some(color) if color == self.color_of(0) => Outcome::Win,
            Some(_) => Outcome::Loss,
            None if self.result == "0" => Outcome::Draw,
            None => Outcome::Unknown,
        }
    }

    /// The colour that forfeited (an illegal move, a wrong answer, a crash, a timeout, time).
    pub fn forfeited(&self) -> Option<Color> {
        let lost = self.result.ends_with("+F") || self.result.ends_with("+T");
        winner_of(&self.result).filter(|_| lost).map(Color::opponent)
    }

    /// Whether the player of `color` scored the game as the referee did; `None` when either
    /// gave no score.
    pub fn agrees_with_referee(&self, color: Color) -> Option<bool> {
        let referee = parse_score(self.referee_score.as_deref()?)?;
        let own = self.player_scores[color.index()].as_deref().and_then(parse_score);
        Some(own == Some(referee))
    }

    /// One line for the terminal as the game ends.
    pub fn progress_line(&self, names: &[String; 2]) -> String {
        let black = &names[usize::from(!self.first_is_black)];
        let white = &names[usize::from(self.first_is_black)];
        let opening = self.opening.as_deref().map(|o| format!(" [{o}]")).unwrap_or_default();
        format!(
            "game {}: {black} (B) - {white} (W){opening}: {} after {} moves; {}",
            self.index + 1,
            self.result,
            self.moves,
            self.reason
        )
    }

    pub fn to_json(&self) -> String {
        let text = |s: &Option<String>| s.clone().map_or(Value::Null, Value::Str);
        let mut fields = vec![
            ("game", Value::Num((self.index + 1) as f64)),
            ("first_engine", Value::Str(self.engines[0].clone())),
            ("second_engine", Value::Str(self.engines[1].clone())),
            ("first_name", Value::Str(self.names[0].clone())),
            ("second_name", Value::Str(self.names[1].clone())),
            ("size", Value::Num(self.size as f64)),
            ("handicap", Value::Num(self.handicap as f64)),
            ("first_engine_color", Value::Str(self.color_of(0).letter().to_string())),
            ("opening", text(&self.opening)),
            ("result", Value::Str(self.result.clone())),
            ("reason", Value::Str(self.reason.clone())),
            ("moves", Value::Num(self.moves as f64)),
            ("cleanup_moves", Value::Num(self.cleanup_moves as f64)),
            ("referee_score", text(&self.referee_score)),
            ("black_score", text(&self.player_scores[0])),
            ("white_score", text(&self.player_scores[1])),
        ];
        // Derived, for readers of the file: whether each player's score matched the referee's.
        let agrees = |color| self.agrees_with_referee(color).map_or(Value::Null, Value::Bool);
        fields.extend([
            ("black_agrees", agrees(Color::Black)),
            ("white_agrees", agrees(Color::White)),
        ]);
        let [black, white] = &self.times;
        fields.extend([
            ("black_moves", Value::Num(black.moves as f64)),
            ("black_seconds", Value::Num(round_ms(black.total))),
            ("black_max_seconds", Value::Num(round_ms(black.max))),
            ("white_moves", Value::Num(white.moves as f64)),
            ("white_seconds", Value::Num(round_ms(white.total))),
            ("white_max_seconds", Value::Num(round_ms(white.max))),
        ]);
        write_flat_object(&fields)
    }

    /// Reads a line written by [`GameReport::to_json`].
    ///
    /// # Errors
    /// Broken JSON, or a field missing or of the wrong type.
    pub fn from_json(line: &str) -> Result<GameReport, String> {
        let fields = parse_flat_object(line)?;
        let get = |key: &str| fields.iter().find(|(k, _)| k == key).map(|(_, v)| v);
        let text = |key: &str| match get(key) {
            Some(Value::Str(s)) => Ok(Some(s.clone())),
            Some(Value::Null) | None => Ok(None),
            Some(_) => Err(format!("{key}: expected a string")),
        };
        let required = |key: &str| text(key)?.ok_or_else(|| format!("{key}: missing"));
        let number = |key: &str| match get(key) {
            Some(Value::Num(n)) if *n >= 0.0 => Ok(*n),
            _ => Err(format!("{key}: expected a number")),
        };
        let count = |key: &str| number(key).map(|n| n as usize);
        let times = |color: &str| -> Result<MoveTimes, String> {
            Ok(MoveTimes {
                moves: count(&format!("{color}_moves"))?,
                total: number(&format!("{color}_seconds"))?,
                max: number(&format!("{color}_max_seconds"))?,
            })
        };
        let game = count("game")?;
        if game == 0 {
            return Err("game: counts from 1".into());
        }
        let engines = [required("first_engine")?, required("second_engine")?];
        // Files written before the names were recorded: the commands stand in for them.
        let names = [
            text("first_name")?.unwrap_or_else(|| engines[0].clone()),
            text("second_name")?.unwrap_or_else(|| engines[1].clone()),
        ];
        Ok(GameReport {
            index: game - 1,
            engines,
            names,
            size: count("size")?,
            // Files written before the field existed were of even games.
            handicap: if get("handicap").is_some() { count("handicap")? } else { 0 },
            first_is_black: required("first_engine_color")? == "B",
            opening: text("opening")?,
            result: required("result")?,
            reason: required("reason")?,
            moves: count("moves")?,
            // Files written before the cleanup phase existed had none.
            cleanup_moves: if get("cleanup_moves").is_some() { count("cleanup_moves")? } else { 0 },
            referee_score: text("referee_score")?,
            player_scores: [text("black_score")?, text("white_score")?],
            times: [times("black")?, times("white")?],
            sgf: None,
        })
    }
}

fn round_ms(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}

/// The running totals of a match.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Display names of the first and second engine.
    pub names: [String; 2],
    pub sprt: Option<Sprt>,
    pub reports: Vec<GameReport>,
    /// The SPRT's decision, the games it took and the LLR then, from the first game that
    /// crossed a bound. It stands: games already under way finish and count in the totals,
    /// and may move the LLR back inside the bounds.
    decided: Option<(SprtDecision, usize, f64)>,
}

impl Summary {
    pub fn new(names: [String; 2], sprt: Option<Sprt>) -> Summary {
        Summary { names, sprt, reports: Vec::new(), decided: None }
    }

    pub fn add(&mut self, report: &GameReport) {
        let mut report = report.clone();
        report.sgf = None;
        self.reports.push(report);
        if let (None, Some(sprt)) = (self.decided, self.sprt) {
            let (wins, losses, draws) = self.first_engine_record();
            let (wins, losses, draws) = (wins as f64, losses as f64, draws as f64);
            let decision = sprt.decide(wins, losses, draws);
            if decision != SprtDecision::Continue {
                self.decided = Some((decision, self.played(), sprt.llr(wins, losses, draws)));
            }
        }
    }

    pub fn played(&self) -> usize {
        self.reports.len()
    }

    pub fn has_game(&self, index: usize) -> bool {
        self.reports.iter().any(|r| r.index == index)
    }

    fn count(&self, outcome: Outcome) -> usize {
        self.reports.iter().filter(|r| r.outcome() == outcome).count()
    }

    /// Wins, losses and draws of the first engine, unknown results left out.
    pub fn first_engine_record(&self) -> (usize, usize, usize) {
        (self.count(Outcome::Win), self.count(Outcome::Loss), self.count(Outcome::Draw))
    }

    /// The first engine's score share with its 95 % interval, over decided games.
    pub fn win_rate(&self) -> Option<Interval> {
        let (wins, losses, draws) = self.first_engine_record();
        wilson(wins as f64 + draws as f64 / 2.0, wins + losses + draws)
    }

    /// The SPRT's decision once a game has crossed a bound, `Continue` until then.
    pub fn sprt_decision(&self) -> SprtDecision {
        self.decided.map_or(SprtDecision::Continue, |(decision, _, _)| decision)
    }

    pub fn header(&self) -> String {
        format!("match: A = {} against B = {}", self.names[0], self.names[1])
    }

    /// Wins of engine `engine` (0: first) playing `color`.
    fn wins(&self, engine: usize, color: Color) -> usize {
        self.reports
            .iter()
            .filter(|r| r.color_of(engine) == color && winner_of(&r.result) == Some(color))
            .count()
    }

    /// The table printed at the end of a match.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let labels = ["A", "B"];
        let _ = writeln!(out, "{}", self.header());
        let (wins, losses, draws) = self.first_engine_record();
        let unknown = self.count(Outcome::Unknown);
        let _ = writeln!(
            out,
            "games: {} ({} decided, {draws} drawn, {unknown} unknown)",
            self.played(),
            wins + losses + draws
        );
        let _ = writeln!(out, "{:<8}{:>10}{:>10}{:>8}", "", "as black", "as white", "total");
        for (engine, label) in labels.iter().enumerate() {
            let black = self.wins(engine, Color::Black);
            let white = self.wins(engine, Color::White);
            let _ = writeln!(
                out,
                "{:<8}{black:>10}{white:>10}{:>8}",
                format!("{label} wins"),
                black + white
            );
        }
        if let Some(rate) = self.win_rate() {
            let _ = writeln!(
                out,
                "A win rate: {:.1} % (95 % interval {:.1} % to {:.1} %)",
                100.0 * rate.estimate,
                100.0 * rate.low,
                100.0 * rate.high
            );
        }
        if let Some(elo) = elo_interval(wins as f64 + draws as f64 / 2.0, wins + losses + draws) {
            let _ = writeln!(
                out,
                "Elo A - B: {} (95 % interval {} to {})",
                signed(elo.estimate),
                signed(elo.low),
                signed(elo.high)
            );
        }
        if let Some(sprt) = self.sprt {
            let (lower, upper) = sprt.bounds();
            let llr = sprt.llr(wins as f64, losses as f64, draws as f64);
            let verdict = match self.decided {
                Some((SprtDecision::Stronger, games, llr)) => format!(
                    "H1 accepted after {games} games (LLR {llr:.2}): A is about {} Elo stronger",
                    sprt.elo1
                ),
                Some((SprtDecision::NotStronger, games, llr)) => format!(
                    "H0 accepted after {games} games (LLR {llr:.2}): A is not more than {} Elo \
                     stronger",
                    sprt.elo0
                ),
                _ => "undecided".to_string(),
            };
            let _ = writeln!(
                out,
                "SPRT({}, {}): LLR {llr:.2} (bounds {lower:.2}, {upper:.2}): {verdict}",
                sprt.elo0, sprt.elo1
            );
        }
        for (engine, label) in labels.iter().enumerate() {
            let mut times = MoveTimes::default();
            for report in &self.reports {
                times.merge(&report.times[report.color_of(engine).index()]);
            }
            let mean = if times.moves > 0 { times.total / times.moves as f64 } else { 0.0 };
            let _ = writeln!(
                out,
                "{label} seconds per move: mean {mean:.3}, max {:.3} ({} moves)",
                times.max, times.moves
            );
        }
        for (engine, label) in labels.iter().enumerate() {
            let forfeits: Vec<&GameReport> =
                self.reports.iter().filter(|r| r.forfeited() == Some(r.color_of(engine))).collect();
            let _ = writeln!(out, "{label} forfeits: {}", forfeits.len());
            for r in forfeits {
                let _ = writeln!(out, "  game {}: {}", r.index + 1, r.reason);
            }
        }
        let _ = writeln!(out, "unknown results: {unknown}");
        for r in self.reports.iter().filter(|r| r.outcome() == Outcome::Unknown) {
            let _ = writeln!(out, "  game {}: {}", r.index + 1, r.reason);
        }
        let cleaned = self.reports.iter().filter(|r| r.cleanup_moves > 0).count();
        if cleaned > 0 {
            let _ = writeln!(out, "games with a cleanup phase: {cleaned}");
        }
        for (engine, label) in labels.iter().enumerate() {
            let checks: Vec<bool> = self
                .reports
                .iter()
                .filter_map(|r| r.agrees_with_referee(r.color_of(engine)))
                .collect();
            if !checks.is_empty() {
                let agreed = checks.iter().filter(|&&a| a).count();
                let _ = writeln!(
                    out,
                    "{label}'s own final_score agreed with the referee in {agreed} of {} games",
                    checks.len()
                );
            }
        }
        out
    }
}

fn signed(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // Anything that rounds to zero reads +0, never -0.
        format!("{:+.0}", if elo.abs() < 0.5 { 0.0 } else { elo })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(index: usize, first_is_black: bool, result: &str) -> GameReport {
        GameReport {
            index,
            engines: ["a --x".into(), "b \"q\"".into()],
            names: ["A 1".into(), "B 2".into()],
            size: 9,
            handicap: 2,
            first_is_black,
            opening: Some("o1".into()),
            result: result.into(),
            reason: "two passes\nscored".into(),
            moves: 57,
            cleanup_moves: 6,
            referee_score: Some("B+2.5".into()),
            player_scores: [Some("B+2.5".into()), None],
            times: [
                MoveTimes { moves: 29, total: 3.25, max: 0.5 },
                MoveTimes { moves: 28, total: 1.0, max: 0.125 },
            ],
            sgf: None,
        }
    }

    // A results line reads back to the same report.
    #[test]
    fn results_lines_round_trip() {
        let original = report(4, false, "W+F");
        let line = original.to_json();
        assert!(!line.contains('\n'));
        assert!(line.contains("\"black_agrees\":true,\"white_agrees\":false"), "{line}");
        assert_eq!(GameReport::from_json(&line).unwrap(), original);
        // Lines written before the handicap was recorded read as even games.
        let older = line.replace("\"handicap\":2,", "");
        assert_ne!(older, line);
        assert_eq!(GameReport::from_json(&older).unwrap().handicap, 0);
        // Lines written before the cleanup phase read as games without one.
        let older = line.replace("\"cleanup_moves\":6,", "");
        assert_ne!(older, line);
        assert_eq!(GameReport::from_json(&older).unwrap().cleanup_moves, 0);
        // Lines written before the names were recorded name the engines by their commands.
        let older = line.replace("\"first_name\":\"A 1\",\"second_name\":\"B 2\",", "");
        assert_ne!(older, line);
        assert_eq!(GameReport::from_json(&older).unwrap().names, original.engines);
        assert!(GameReport::from_json("{\"game\":1}").is_err());
        assert!(GameReport::from_json("not json").is_err());
    }

    // Outcomes, forfeits and agreement are seen from the right side.
    #[test]
    fn outcomes_from_the_first_engine() {
        assert_eq!(report(0, true, "B+2.5").outcome(), Outcome::Win);
        assert_eq!(report(1, false, "B+2.5").outcome(), Outcome::Loss);
        assert_eq!(report(2, false, "0").outcome(), Outcome::Draw);
        assert_eq!(report(3, false, "?").outcome(), Outcome::Unknown);
        let forfeit = report(4, false, "W+F");
        assert_eq!(forfeit.forfeited(), Some(Color::Black), "the second engine, as black");
        assert_eq!(report(5, true, "W+R").forfeited(), None);
        let r = report(6, true, "B+2.5");
        assert_eq!(r.agrees_with_referee(Color::Black), Some(true));
        assert_eq!(r.agrees_with_referee(Color::White), Some(false), "no score is no agreement");
    }

    // The SPRT's decision stands once a game crosses a bound, though games that were
    // already under way then take the LLR back inside; the table says when it decided.
    #[test]
    fn sprt_decision_stands() {
        let mut summary = Summary::new(["A".into(), "B".into()], Some(Sprt::new(0.0, 100.0)));
        let mut games = 0;
        while summary.sprt_decision() == SprtDecision::Continue {
            summary.add(&report(games, true, "B+1"));
            games += 1;
            assert!(games < 50, "a dozen straight wins decide SPRT(0, 100)");
        }
        assert_eq!(summary.sprt_decision(), SprtDecision::Stronger);
        summary.add(&report(games, true, "W+1"));
        let sprt = summary.sprt.unwrap();
        let (wins, losses, draws) = summary.first_engine_record();
        let llr = sprt.llr(wins as f64, losses as f64, draws as f64);
        assert_eq!(sprt.decide(wins as f64, losses as f64, draws as f64), SprtDecision::Continue);
        assert!(llr < sprt.bounds().1);
        assert_eq!(summary.sprt_decision(), SprtDecision::Stronger, "still decided");
        let table = summary.table();
        assert!(table.contains(&format!("H1 accepted after {games} games")), "{table}");
    }

    // The table counts wins by engine and colour and shows the rate, Elo, SPRT and cleanups.
    #[test]
    fn summary_table() {
        let mut summary =
            Summary::new(["A-engine".into(), "B-engine".into()], Some(Sprt::new(0.0, 100.0)));
        for (i, result) in ["B+1", "B+R", "W+3", "W+T", "?"].iter().enumerate() {
            summary.add(&report(i, i % 2 == 0, result));
        }
        // A: black wins game 0; game 1 A is white, B black wins; game 2 A black loses;
        // game 3 A white wins on time; game 4 unknown.
        assert_eq!(summary.first_engine_record(), (2, 2, 0));
        let table = summary.table();
        assert!(table.contains("games: 5 (4 decided, 0 drawn, 1 unknown)"), "{table}");
        assert!(table.contains("A wins           1         1       2"), "{table}");
        assert!(table.contains("A win rate: 50.0 %"), "{table}");
        assert!(table.contains("Elo A - B: +0"), "{table}");
        assert!(table.contains("SPRT(0, 100)"), "{table}");
        assert!(table.contains("B forfeits: 1"), "{table}");
        assert!(table.contains("unknown results: 1"), "{table}");
        assert!(table.contains("games with a cleanup phase: 5"), "{table}");
    }
}
