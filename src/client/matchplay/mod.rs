//! `tengen match`: games between two GTP engines, as gogui-twogtp plays them, with a
//! referee, openings, clocks, parallel games, a results file a stopped match resumes from,
//! and the statistics that say whether one engine is stronger. `game` plays one game,
//! `report` turns games into records and tables, `stats` holds the formulas.

pub mod game;
pub mod report;
pub mod stats;

use crate::client::process::GtpProcess;
use crate::game::record::{self, RecordInfo};
use crate::game::rules::Rules;
use crate::game::sgf;
use game::{play_game, Cleanup, GameSetup, Opening, TimeSettings};
use report::{GameReport, Summary};
use stats::{Sprt, SprtDecision};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// A match, as the command line describes it.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The two engine commands: the first (`--black`, black in even games) and the second.
    pub engines: [String; 2],
    pub referee: Option<String>,
    pub games: usize,
    pub size: usize,
    /// The arbiter's rules; komi is sent to every program.
    pub rules: Rules,
    /// Swap colours every other game.
    pub alternate: bool,
    pub time: Option<TimeSettings>,
    pub lag: f64,
    pub timeout: Duration,
    pub max_moves: usize,
    pub openings: Vec<Opening>,
    /// Fixed handicap stones for black in every game (0: none).
    pub handicap: usize,
    /// When a game that ended in two passes goes on in a cleanup phase.
    pub cleanup: Cleanup,
    /// The most moves of a cleanup phase (passes included).
    pub cleanup_moves: usize,
    pub sgf_dir: Option<PathBuf>,
    pub results: Option<PathBuf>,
    pub parallel: usize,
    pub sprt: Option<Sprt>,
    /// Play only this shard's games (see [`Shard`]); `None`: every game.
    pub shard: Option<Shard>,
}

/// One of `count` interleaved parts of a match, for spreading a match over machines: part
/// `index` (counting from 0) plays the games numbered `index + 1`, `index + 1 + count`, …,
/// with the colours, openings and `{game}` seeds they have in the whole match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Reads `K/N` (`0 <= K < N`), as job arrays number their tasks from 0.
    ///
    /// # Errors
    /// Anything else, with what was expected.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {text:?}: expected K/N with 0 <= K < N, such as 0/8");
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = index.trim().parse().map_err(|_| bad())?;
        let count: usize = count.trim().parse().map_err(|_| bad())?;
        if index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether game `index` (counting from 0) belongs to this shard.
    pub fn includes(&self, game_index: usize) -> bool {
        game_index % self.count == self.index
    }
}

impl MatchSettings {
    /// Whether the first engine plays black in game `index` (counting from 0).
    pub fn first_is_black(&self, index: usize) -> bool {
        !(self.alternate && index % 2 == 1)
    }

    /// The opening of game `index`: with alternating colours each opening is played twice in
    /// a row, once with each colour.
    pub fn opening(&self, index: usize) -> Option<&Opening> {
        if self.openings.is_empty() {
            return None;
        }
        let round = if self.alternate { index / 2 } else { index };
        Some(&self.openings[round % self.openings.len()])
    }
}

/// Reads openings from an SGF file or from every `*.sgf` file of a folder (in name order):
/// the main line's moves, which must be legal under `rules` on a `size` board. Setup stones
/// are refused, since GTP can only send them as handicap.
///
/// # Errors
/// A file that cannot be read, parsed or replayed, a different board size, setup stones, or
/// a folder without SGF files.
pub fn load_openings(path: &Path, size: usize, rules: &Rules) -> Result<Vec<Opening>, String> {
    let files = if path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")))
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(format!("{}: no .sgf files", path.display()));
        }
        files
    } else {
        vec![path.to_path_buf()]
    };
    files.iter().map(|file| load_opening(file, size, rules)).collect()
}

fn load_opening(file: &Path, size: usize, rules: &Rules) -> Result<Opening, String> {
    let context = |e: String| format!("{}: {e}", file.display());
    let text = std::fs::read_to_string(file).map_err(|e| context(e.to_string()))?;
    let parsed = sgf::parse(&text).map_err(|e| context(e.to_string()))?;
    if usize::from(parsed.size) != size {
        return Err(context(format!("board size {}, the match plays {size}", parsed.size)));
    }
    if parsed.nodes.iter().any(|n| !n.add_black.is_empty() || !n.add_white.is_empty()) {
        return Err(context("setup stones (AB/AW); write the opening as moves".into()));
    }
    let replayed = record::replay(&parsed, rules, None).map_err(|e| context(e.to_string()))?;
    let name = file.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    Ok(Opening { name, moves: replayed.moves().to_vec() })
}

/// `name` and `version` of an engine, as one display name ("GNU Go 3.8").
///
/// # Errors
/// The engine cannot be started or does not answer `name`.
pub fn engine_name(command: &str, dir: &Path, timeout: Duration) -> Result<String, String> {
    let mut process = GtpProcess::spawn(command, dir, timeout)
        .map_err(|e| format!("cannot start `{command}`: {e}"))?;
    let name = process
        .command("name")
        .ok()
        .filter(|r| r.ok)
        .ok_or_else(|| format!("`{command}` does not answer `name`"))?
        .text;
    let version = process.command("version").ok().filter(|r| r.ok && !r.text.is_empty());
    Ok(match version {
        Some(v) => format!("{name} {}", v.text),
        None => name,
    })
}

/// Results of an earlier run of the same match, read from its results file (missing: none).
///
/// # Errors
/// An unreadable file, a malformed line, or a line written for other engines or settings.
pub fn load_results(settings: &MatchSettings) -> Result<Vec<GameReport>, String> {
    let Some(path) = &settings.results else { return Ok(Vec::new()) };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut reports: Vec<GameReport> = Vec::new();
    let torn = torn_tail(&text);
    let whole = &text[..text.len() - torn.len()];
    if !torn.is_empty() {
        log::warn!(
            "{}: ignoring an unfinished last line (a run killed while writing it)",
            path.display()
        );
    }
    for (number, line) in whole.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let context = |e: String| format!("{}:{}: {e}", path.display(), number + 1);
        let report = GameReport::from_json(line).map_err(context)?;
        let same_games = report.engines == settings.engines
            && report.size == settings.size
            && report.handicap == settings.handicap;
        if !same_games {
            return Err(context(
                "written for other engines, another board size or another handicap; choose \
                 another --results file"
                    .into(),
            ));
        }
        if report.index < settings.games {
            reports.retain(|r| r.index != report.index);
            reports.push(report);
        }
    }
    Ok(reports)
}

/// The end of a results file that a run killed while writing left unfinished: a last line
/// without its newline that is not a whole report (empty when there is none).
fn torn_tail(text: &str) -> &str {
    let tail = &text[text.rfind('\n').map_or(0, |i| i + 1)..];
    if GameReport::from_json(tail).is_ok() {
        ""
    } else {
        tail
    }
}

/// Opens the results file for appending, first cutting off an unfinished last line (see
/// [`torn_tail`]) and ending a whole last line that lacks its newline, so that the next
/// report starts a line of its own.
fn open_results(path: &std::path::Path) -> Result<std::fs::File, String> {
    let failed = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .map_err(failed)?;
    let text = std::fs::read_to_string(path).map_err(failed)?;
    let torn = torn_tail(&text).len();
    if torn > 0 {
        file.set_len((text.len() - torn) as u64).map_err(failed)?;
    } else if !text.is_empty() && !text.ends_with('\n') {
        file.write_all(b"\n").map_err(failed)?;
    }
    Ok(file)
}

/// Plays the match: the games not already in the results file, `parallel` at a time, each
/// recorded as it ends (results line, SGF file, a line on `out`) and the summary at the end.
/// Stops scheduling games once the SPRT, if any, has decided.
///
/// # Errors
/// An engine that cannot be started, an unusable results file or SGF folder.
pub fn run_match(
    settings: &MatchSettings,
    out: &mut (dyn Write + Send),
) -> Result<Summary, String> {
    let dir = std::env::current_dir().map_err(|e| e.to_string())?;
    let names = [0, 1]
        .map(|i| engine_name(&settings.engines[i].replace("{game}", "1"), &dir, settings.timeout));
    let [first, second] = names;
    let names = [first?, second?];
    if let Some(referee) = &settings.referee {
        let referee = referee.replace("{game}", "1");
        engine_name(&referee, &dir, settings.timeout).map_err(|e| format!("referee: {e}"))?;
    }
    if let Some(sgf_dir) = &settings.sgf_dir {
        std::fs::create_dir_all(sgf_dir).map_err(|e| format!("{}: {e}", sgf_dir.display()))?;
    }
    let mut summary = Summary::new(names.clone(), settings.sprt);
    for report in load_results(settings)? {
        summary.add(&report);
    }
    let results_file = settings.results.as_deref().map(open_results).transpose()?;
    let _ = writeln!(out, "{}", summary.header());
    if summary.played() > 0 {
        let _ = writeln!(out, "resuming after {} recorded games", summary.played());
    }
    let in_shard = |i: &usize| settings.shard.is_none_or(|shard| shard.includes(*i));
    if let Some(shard) = settings.shard {
        let games = (0..settings.games).filter(in_shard).count();
        let _ = writeln!(
            out,
            "shard {}/{}: {games} of {} games",
            shard.index, shard.count, settings.games
        );
    }
    let pending: Vec<usize> =
        (0..settings.games).filter(in_shard).filter(|i| !summary.has_game(*i)).collect();
    let stop = AtomicBool::new(summary.sprt_decision() != SprtDecision::Continue);
    let next = AtomicUsize::new(0);
    // Each worker books its game before taking the next one, so that a decided SPRT stops
    // new games at once; only games already under way when it decides are played out.
    let books = Mutex::new(Books { summary, results: results_file, out, failure: None });
    std::thread::scope(|scope| {
        for _ in 0..settings.parallel.clamp(1, pending.len().max(1)) {
            let (pending, next, stop, names, dir, books) =
                (&pending, &next, &stop, &names, &dir, &books);
            scope.spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let Some(&index) = pending.get(next.fetch_add(1, Ordering::SeqCst)) else {
                        break;
                    };
                    let report = play_indexed_game(settings, index, names, dir);
                    let mut books = books.lock().unwrap_or_else(|p| p.into_inner());
                    if !books.book(settings, &report, names) {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            });
        }
    });
    let books = books.into_inner().unwrap_or_else(|p| p.into_inner());
    match books.failure {
        Some(e) => Err(e),
        None => Ok(books.summary),
    }
}

/// What the workers of a match share: the totals, the results file and the terminal.
struct Books<'a> {
    summary: Summary,
    results: Option<std::fs::File>,
    out: &'a mut (dyn Write + Send),
    failure: Option<String>,
}

impl Books<'_> {
    /// Records a finished game everywhere; false when the match should schedule no more
    /// games (the SPRT decided, or a record could not be written).
    fn book(&mut self, settings: &MatchSettings, report: &GameReport, names: &[String; 2]) -> bool {
        self.summary.add(report);
        let _ = writeln!(self.out, "{}", report.progress_line(names));
        let _ = self.out.flush();
        if let Err(e) = record_game(settings, report, self.results.as_mut()) {
            self.failure = Some(e);
            return false;
        }
        self.summary.sprt_decision() == SprtDecision::Continue
    }
}

fn play_indexed_game(
    settings: &MatchSettings,
    index: usize,
    names: &[String; 2],
    dir: &Path,
) -> GameReport {
    let first_is_black = settings.first_is_black(index);
    fn by_color(first_is_black: bool, pair: [&str; 2]) -> [&str; 2] {
        if first_is_black {
            pair
        } else {
            [pair[1], pair[0]]
        }
    }
    let opening = settings.opening(index);
    // `{game}` in a command becomes the game number, so that engines (the referee too) can
    // be seeded per game and a game replays the same.
    let number = (index + 1).to_string();
    let commands = settings.engines.clone().map(|c| c.replace("{game}", &number));
    let referee = settings.referee.as_ref().map(|c| c.replace("{game}", &number));
    let setup = GameSetup {
        players: by_color(first_is_black, [&commands[0], &commands[1]]),
        names: by_color(first_is_black, [&names[0], &names[1]]),
        referee: referee.as_deref(),
        size: settings.size,
        rules: &settings.rules,
        time: settings.time,
        lag: settings.lag,
        timeout: settings.timeout,
        max_moves: settings.max_moves,
        handicap: settings.handicap,
        cleanup: settings.cleanup,
        cleanup_moves: settings.cleanup_moves,
        opening,
        dir,
    };
    let played = play_game(&setup);
    let mut report = GameReport::new(settings, names, index, first_is_black, opening, &played);
    if settings.sgf_dir.is_some() {
        let info = RecordInfo {
            black_name: Some(setup.names[0].to_string()),
            white_name: Some(setup.names[1].to_string()),
            result: Some(played.result.clone()),
            date: Some(record::today()),
        };
        let mut sgf_record = record::to_record(&played.game, &info);
        sgf_record.nodes[0].comment = Some(format!(
            "Game {} of a tengen match.\nBlack: {}\nWhite: {}\n{}",
            index + 1,
            setup.players[0],
            setup.players[1],
            played.reason
        ));
        if let Some(phase) = &played.cleanup {
            // One node per move after the root: the first cleanup move is node start + 1.
            if let Some(node) = sgf_record.nodes.get_mut(phase.start + 1) {
                node.comment = Some(format!(
                    "The cleanup phase begins: {}. The players remove dead stones until two \
                     passes, then the board is counted with every stone alive.",
                    phase.why
                ));
            }
        }
        report.sgf = Some(sgf::write(&sgf_record));
    }
    report
}

/// The file name of game `index`'s record.
pub fn sgf_name(index: usize) -> String {
    format!("game-{:04}.sgf", index + 1)
}

fn record_game(
    settings: &MatchSettings,
    report: &GameReport,
    results: Option<&mut std::fs::File>,
) -> Result<(), String> {
    if let (Some(dir), Some(text)) = (&settings.sgf_dir, &report.sgf) {
        let path = dir.join(sgf_name(report.index));
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(file) = results {
        // One write of the whole line: a run killed now leaves the line whole or absent.
        file.write_all(format!("{}\n", report.to_json()).as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| format!("results file: {e}"))?;
    }
    Ok(())
}

/// What several results files of one match (its shards, or runs resumed elsewhere) add up
/// to: the summary one run would print, and what does not fit.
pub struct Merged {
    pub summary: Summary,
    /// Game numbers (from 1) found more than once, with the files they came from; the first
    /// line read counts.
    pub duplicates: Vec<(usize, Vec<String>)>,
    /// Game numbers (from 1) up to the match's last game that no file holds.
    pub missing: Vec<usize>,
}

impl Merged {
    /// The summary table, then the duplicate and missing games, if any.
    pub fn text(&self) -> String {
        let mut text = self.summary.table();
        if !self.duplicates.is_empty() {
            text.push_str(&format!("duplicate games: {}\n", self.duplicates.len()));
            for (game, files) in &self.duplicates {
                text.push_str(&format!("  game {game}: {}\n", files.join(", ")));
            }
        }
        if !self.missing.is_empty() {
            let numbers: Vec<String> = self.missing.iter().map(usize::to_string).collect();
            text.push_str(&format!(
                "missing games: {} ({})\n",
                self.missing.len(),
                numbers.join(" ")
            ));
        }
        text
    }
}

/// Merges results files of one match into one summary, the games in the order of their
/// numbers (so an SPRT reads them as one run with one game at a time would have played
/// them). `games`: the match's number of games (default: the highest game number found),
/// for naming the missing ones.
///
/// # Errors
/// An unreadable file, a malformed line (with its file and line number), a line of another
/// match (other engines, board size or handicap), or no games at all.
pub fn merge_results(
    files: &[PathBuf],
    games: Option<usize>,
    sprt: Option<Sprt>,
) -> Result<Merged, String> {
    let mut found: Vec<(GameReport, String)> = Vec::new();
    let mut duplicates: Vec<(usize, Vec<String>)> = Vec::new();
    for path in files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
        for (number, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let context = |e: String| format!("{name}:{}: {e}", number + 1);
            let report = GameReport::from_json(line).map_err(context)?;
            if let Some((first, _)) = found.first() {
                if !first.same_match(&report) {
                    return Err(context(
                        "a game of another match (other engines, board size or handicap)".into(),
                    ));
                }
            }
            let game = report.index + 1;
            match found.iter().find(|(r, _)| r.index == report.index) {
                Some((_, first_file)) => match duplicates.iter_mut().find(|(g, _)| *g == game) {
                    Some((_, names)) => names.push(name.clone()),
                    None => duplicates.push((game, vec![first_file.clone(), name.clone()])),
                },
                None => found.push((report, name.clone())),
            }
        }
    }
    let Some((first, _)) = found.first() else {
        return Err("no games in the results files".into());
    };
    let mut summary = Summary::new(first.names.clone(), sprt);
    found.sort_by_key(|(report, _)| report.index);
    for (report, _) in &found {
        summary.add(report);
    }
    let last = games.unwrap_or_else(|| found.last().map_or(0, |(r, _)| r.index + 1));
    let missing = (1..=last).filter(|game| !summary.has_game(game - 1)).collect();
    duplicates.sort();
    Ok(Merged { summary, duplicates, missing })
}
