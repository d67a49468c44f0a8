//! Lizzie's side of a session, played as Lizzie plays it (featurecat/lizzie,
//! `analysis/Leelaz.java` and `analysis/MoveData.java`): the release binary started with its
//! stderr merged into stdout (`redirectErrorStream`), commands numbered from 1 and written
//! without waiting for answers, except that `lz-analyze`/`kata-analyze` waits until every
//! earlier command is answered and a queued one is dropped when another command follows it;
//! and every line read as Lizzie reads it, byte by byte up to `\n`: `=`/`?` lines as responses
//! whose id goes through `Integer.parseInt`, `info` lines as analysis (segments split on
//! ` info `, key/value pairs until `pv`, numbers through `Integer.parseInt` or
//! `Double.parseDouble`), a line containing ` -> ` as a Leela summary that must match its
//! pattern, a line starting with `play` as the end of `lz-genmove_analyze`.
//!
//! Whatever Lizzie would throw on, warn about in a dialog, or misread fails the test with the
//! last lines of the conversation; so does any line the engine writes that is no part of an
//! answer (at the default log level tengen writes nothing else).

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The longest any step waits for the engine: a hang fails the test instead of stalling it.
const PATIENCE: Duration = Duration::from_secs(30);
/// Lizzie's `analyze-update-interval-centisec` (its default).
const INTERVAL_CS: u32 = 10;
/// Lizzie's `max-game-thinking-time-seconds`, sent as `time_settings 0 S 1`.
const THINKING_SECONDS: u32 = 1;
/// Lizzie's board: 19×19 unless the user picks another size.
const SIZE: usize = 19;
/// The engine command a Lizzie user gives, as the README has it (one thread, so that tests
/// running side by side share the machine).
const ENGINE: &[&str] = &["gtp", "--override-version", "0.17", "--threads", "1"];

/// One candidate as Lizzie's `MoveData` holds it.
#[derive(Clone, Debug, Default)]
struct MoveData {
    coordinate: Option<String>,
    playouts: i32,
    /// Percent.
    winrate: f64,
    variation: Vec<String>,
    /// KataGo's score, when the line has one.
    score_mean: Option<f64>,
}

/// Lizzie's engine object (`Leelaz`): the state its reading and writing depend on, and what
/// it has taken from the engine's answers.
struct Lizzie {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    // What `Leelaz` keeps.
    cmd_number: i32,
    current_cmd_num: i32,
    queue: VecDeque<String>,
    is_kata_go: bool,
    /// `showKataGoEstimate`: ask for and draw KataGo's ownership.
    show_kata_go_estimate: bool,
    is_checking_name: bool,
    is_checking_version: bool,
    is_pondering: bool,
    is_thinking: bool,
    is_setting_handicap: bool,
    /// `Lizzie.frame.isPlayingAgainstLeelaz`.
    playing_against_engine: bool,
    // What Lizzie took from the answers.
    /// `Lizzie.initializeAfterVersionCheck` ran (it starts the analysis).
    initialized: bool,
    best_moves: Vec<MoveData>,
    /// Analysis lines Lizzie took as current (`isAnalysisUpToDate`).
    analysis_lines: usize,
    /// Every candidate move of those lines since the caller last cleared it.
    candidates_seen: Vec<String>,
    /// The last ownership map drawn.
    ownership: Option<Vec<f64>>,
    /// Moves placed on the board from `genmove` answers and `play` lines.
    placed: Vec<String>,
    /// Stones placed from the last `fixed_handicap` answer.
    handicap_stones: Vec<String>,
    /// Every response: id, success, the words after the id.
    responses: Vec<(i32, bool, Vec<String>)>,
    /// Lines that are no part of an answer (Lizzie ignores or misreads them).
    stray: Vec<String>,
    /// The last lines each way, for failure messages.
    transcript: VecDeque<String>,
}

impl Lizzie {
    /// Starts the engine with `args` as Lizzie's `startEngine` does: stderr into the same
    /// pipe as stdout, then `name`, `version`, `boardsize` and `komi` written at once. Lizzie
    /// releases that find `override-version` in the engine command take the engine for
    /// KataGo (`isKataGo` set in `Leelaz`'s constructor); `kata_go_by_command` is that.
    fn start(args: &[&str], kata_go_by_command: bool) -> Lizzie {
        let (reader, writer) = std::io::pipe().unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_tengen"));
        command
            .args(args)
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(writer.try_clone().unwrap())
            .stderr(writer);
        let mut child = command.spawn().unwrap();
        // The command holds copies of the pipe's write end: the reader sees the end of the
        // output only once they are gone too.
        drop(command);
        let stdin = child.stdin.take().unwrap();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(reader);
            loop {
                let mut raw = Vec::new();
                match reader.read_until(b'\n', &mut raw) {
                    // Lizzie parses a line only once its `\n` has come.
                    Ok(_) if raw.last() == Some(&b'\n') => {
                        // `(char) c` for each byte, as Lizzie builds its lines.
                        let line: String = raw.iter().map(|&b| char::from(b)).collect();
                        if sender.send(line).is_err() {
                            break;
                        }
                    }
                    _ => break,
                }
            }
        });
        let mut lizzie = Lizzie {
            child,
            stdin,
            lines,
            cmd_number: 1,
            current_cmd_num: 0,
            queue: VecDeque::new(),
            is_kata_go: kata_go_by_command,
            show_kata_go_estimate: true,
            is_checking_name: false,
            is_checking_version: false,
            is_pondering: false,
            is_thinking: false,
            is_setting_handicap: false,
            playing_against_engine: false,
            initialized: false,
            best_moves: Vec::new(),
            analysis_lines: 0,
            candidates_seen: Vec::new(),
            ownership: None,
            placed: Vec::new(),
            handicap_stones: Vec::new(),
            responses: Vec::new(),
            stray: Vec::new(),
            transcript: VecDeque::new(),
        };
        lizzie.is_checking_name = true;
        lizzie.send_command("name");
        lizzie.is_checking_version = true;
        lizzie.send_command("version");
        lizzie.send_command(&format!("boardsize {SIZE}"));
        lizzie.komi(7.5);
        lizzie
    }

    // ---- Lizzie writing (`Leelaz.sendCommand` and the actions that call it) ----

    /// Queues a command; a queued analysis command is dropped when another follows it.
    fn send_command(&mut self, command: &str) {
        if self.queue.back().is_some_and(|c| is_analysis(c)) {
            self.queue.pop_back();
        }
        self.queue.push_back(command.to_string());
        self.try_send_command_from_queue();
    }

    /// Writes the next queued command, unless it is an analysis command and an earlier one
    /// is still unanswered.
    fn try_send_command_from_queue(&mut self) {
        let Some(front) = self.queue.front() else { return };
        if is_analysis(front) && !self.is_response_up_to_date() {
            return;
        }
        let command = self.queue.pop_front().expect("not empty");
        if command.starts_with("fixed_handicap") {
            self.is_setting_handicap = true;
        }
        let line = format!("{} {command}", self.cmd_number);
        self.cmd_number += 1;
        self.note(format!("> {line}"));
        let written = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        if let Err(e) = written {
            self.fail(&format!("cannot write {line:?}: {e}"));
        }
    }

    fn is_response_up_to_date(&self) -> bool {
        self.current_cmd_num >= self.cmd_number - 1
    }

    /// The id of the command written last.
    fn last_id(&self) -> i32 {
        self.cmd_number - 1
    }

    fn toggle_ponder(&mut self) {
        self.is_pondering = !self.is_pondering;
        if self.is_pondering {
            self.ponder();
        } else {
            // Lizzie's way of ending an analysis.
            self.send_command("name");
        }
    }

    fn ponder(&mut self) {
        self.is_pondering = true;
        let command = if self.is_kata_go {
            let ownership = if self.show_kata_go_estimate { " ownership true" } else { "" };
            format!("kata-analyze {INTERVAL_CS}{ownership}")
        } else {
            format!("lz-analyze {INTERVAL_CS}")
        };
        self.send_command(&command);
    }

    fn analyze_avoid(&mut self, parameters: &str) {
        self.best_moves.clear();
        self.is_pondering = true;
        self.send_command(&format!("lz-analyze {INTERVAL_CS} {parameters}"));
    }

    fn play_move(&mut self, color: &str, vertex: &str) {
        self.send_command(&format!("play {color} {vertex}"));
        self.best_moves.clear();
        if self.is_pondering && !self.playing_against_engine {
            self.ponder();
        }
    }

    fn genmove(&mut self, color: &str) {
        self.send_command(&format!("genmove {color}"));
        self.is_thinking = true;
        self.is_pondering = false;
    }

    fn genmove_analyze(&mut self, color: &str) {
        self.send_command(&format!("lz-genmove_analyze {color} {INTERVAL_CS}"));
        self.is_thinking = true;
        self.is_pondering = false;
    }

    fn time_settings(&mut self) {
        self.send_command(&format!("time_settings 0 {THINKING_SECONDS} 1"));
    }

    fn clear(&mut self) {
        self.send_restarting_analysis("clear_board");
    }

    /// `komi K`, written as Java writes a double, and `0` for none.
    fn komi(&mut self, komi: f64) {
        let text = if komi == 0.0 { "0".to_string() } else { format!("{komi:?}") };
        self.send_restarting_analysis(&format!("komi {text}"));
    }

    fn handicap(&mut self, stones: usize) {
        self.send_command(&format!("fixed_handicap {stones}"));
    }

    fn undo(&mut self) {
        self.send_restarting_analysis("undo");
    }

    /// A command that changes the position, as Lizzie sends it: the old candidates go, and
    /// analysis that was running starts again on the new position.
    fn send_restarting_analysis(&mut self, command: &str) {
        self.send_command(command);
        self.best_moves.clear();
        if self.is_pondering {
            self.ponder();
        }
    }

    // ---- Lizzie reading (`Leelaz.parseLine`) ----

    /// Reads lines until `done` holds; fails on a line Lizzie cannot read, on the end of the
    /// output, and after `PATIENCE`.
    fn read_until(&mut self, what: &str, done: impl Fn(&Lizzie) -> bool) {
        let deadline = Instant::now() + PATIENCE;
        while !done(self) {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait) {
                Ok(line) => self.read_line(&line),
                Err(RecvTimeoutError::Timeout) => {
                    self.fail(&format!("waited {PATIENCE:?} for {what}"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.fail(&format!("the engine's output ended before {what}"))
                }
            }
        }
    }

    fn read_line(&mut self, line: &str) {
        self.note(format!("< {}", line.trim_end_matches('\n')));
        if let Err(problem) = self.parse_line(line) {
            self.fail(&format!("Lizzie cannot read {line:?}: {problem}"));
        }
    }

    /// `Leelaz.parseLine`: the same tests in the same order. `Err` is what Lizzie would throw,
    /// show in a dialog, or take wrongly.
    fn parse_line(&mut self, line: &str) -> Result<(), String> {
        if line.starts_with("komi=") || line.starts_with("opp_komi=") || line.starts_with("Tuning")
        {
            // Dynamic-komi and tuning reports of Leela Zero and KataGo: tengen has none.
            self.stray.push(line.to_string());
        } else if line == "\n" {
            // The end of a response.
        } else if line.starts_with("info") {
            self.read_analysis(line)?;
        } else if line.contains(" -> ") {
            read_summary(line)?;
            self.stray.push(line.to_string());
        } else if line.starts_with("play") {
            // The end of lz-genmove_analyze.
            if self.playing_against_engine {
                let vertex = java_trim(line.get(5..).unwrap_or(""));
                check_move_answer(vertex)?;
                self.placed.push(vertex.to_string());
            }
            self.is_thinking = false;
        } else if line.starts_with('=') || line.starts_with('?') {
            self.read_response(line)?;
        } else {
            self.stray.push(line.to_string());
        }
        Ok(())
    }

    fn read_analysis(&mut self, line: &str) -> Result<(), String> {
        // Lizzie reads only the lines of the analysis it asked for last; a stale one is
        // checked all the same, as the same code writes both.
        let current = self.is_response_up_to_date();
        let moves = parse_info(line.get(5..).unwrap_or(""), self.is_kata_go)?;
        let mut ownership = None;
        if self.is_kata_go && self.show_kata_go_estimate && line.contains("ownership") {
            ownership = Some(parse_ownership(line)?);
        }
        if current {
            self.analysis_lines += 1;
            self.candidates_seen.extend(moves.iter().filter_map(|m| m.coordinate.clone()));
            self.best_moves = moves;
            if ownership.is_some() {
                self.ownership = ownership;
            }
        }
        Ok(())
    }

    fn read_response(&mut self, line: &str) -> Result<(), String> {
        let params = java_split(java_trim(line), " ");
        let id_text = java_trim(params[0].get(1..).unwrap_or(""));
        self.current_cmd_num = java_int(id_text)?;
        let ok = line.starts_with('=');
        let words: Vec<String> = params[1..].iter().map(ToString::to_string).collect();
        self.responses.push((self.current_cmd_num, ok, words));
        self.try_send_command_from_queue();
        if !ok || params.len() == 1 {
            return Ok(());
        }
        if self.is_setting_handicap {
            self.best_moves.clear();
            for vertex in &params[1..] {
                // `asCoordinates` leaves out what it cannot read: a stone lost.
                coordinates(vertex).ok_or_else(|| format!("handicap stone {vertex:?}"))?;
                self.handicap_stones.push(vertex.to_string());
            }
            self.is_setting_handicap = false;
        } else if self.is_thinking && !self.is_pondering {
            if self.playing_against_engine {
                check_move_answer(params[1])?;
                self.placed.push(params[1].to_string());
                self.is_thinking = false;
            }
        } else if self.is_checking_name {
            if params[1].starts_with("KataGo") {
                self.is_kata_go = true;
                self.initialize_after_version_check();
            }
            self.is_checking_name = false;
        } else if self.is_checking_version && !self.is_kata_go {
            let version = params[1];
            // Lizzie's `split("\\.")`: on every dot.
            let parts = java_split(version, ".");
            let minor = parts
                .get(1)
                .ok_or_else(|| format!("ArrayIndexOutOfBoundsException: version {version:?}"))?;
            if java_int(minor)? < 15 {
                return Err(format!(
                    "dialog: Lizzie requires version 0.15 or later of Leela Zero for analysis \
                     (found {version})"
                ));
            }
            self.is_checking_version = false;
            self.initialize_after_version_check();
        }
        Ok(())
    }

    /// `Lizzie.initializeAfterVersionCheck`: the analysis starts.
    fn initialize_after_version_check(&mut self) {
        self.initialized = true;
        self.toggle_ponder();
    }

    // ---- The test's own bookkeeping ----

    fn note(&mut self, line: String) {
        const KEPT: usize = 40;
        const WIDTH: usize = 240;
        let short = if line.chars().count() > WIDTH {
            let head: String = line.chars().take(WIDTH).collect();
            format!("{head}… ({} characters)", line.chars().count())
        } else {
            line
        };
        self.transcript.push_back(short);
        if self.transcript.len() > KEPT {
            self.transcript.pop_front();
        }
    }

    fn fail(&mut self, message: &str) -> ! {
        let _ = self.child.kill();
        let transcript: Vec<&str> = self.transcript.iter().map(String::as_str).collect();
        panic!("{message}\nlast lines (> to the engine, < from it):\n{}", transcript.join("\n"));
    }

    /// The response to command `id`: success and the words after the id.
    fn response(&self, id: i32) -> (bool, Vec<String>) {
        let found = self.responses.iter().rfind(|(i, _, _)| *i == id);
        let (_, ok, words) = found.unwrap_or_else(|| panic!("no response {id}"));
        (*ok, words.clone())
    }

    /// Waits for the answer to the command written last.
    fn read_answer(&mut self, what: &str) -> (bool, Vec<String>) {
        let id = self.last_id();
        self.read_until(what, |l| l.current_cmd_num >= id);
        self.response(id)
    }

    /// Reads until `lines` more analysis lines of the analysis asked for last have come.
    fn read_analysis_lines(&mut self, what: &str, lines: usize) {
        let target = self.analysis_lines + lines;
        self.candidates_seen.clear();
        self.read_until(what, |l| l.analysis_lines >= target && !l.best_moves.is_empty());
    }

    /// Lizzie's `normalQuit`: `quit`, then the engine must end its output and exit cleanly.
    /// Returns the lines that were no part of an answer.
    fn quit(mut self) -> Vec<String> {
        self.send_command("quit");
        let id = self.last_id();
        self.read_until("the answer to quit", |l| l.current_cmd_num >= id);
        let deadline = Instant::now() + PATIENCE;
        loop {
            match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(line) => self.read_line(&line),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => self.fail("the output did not end after quit"),
            }
        }
        let status = wait_patiently(&mut self.child);
        if !status.success() {
            self.fail(&format!("the engine exited with {status}"));
        }
        std::mem::take(&mut self.stray)
    }
}

fn is_analysis(command: &str) -> bool {
    command.starts_with("lz-analyze") || command.starts_with("kata-analyze")
}

// ---- Java's string and number rules, as Lizzie's code meets them ----

/// `String.trim`: every character up to U+0020 goes from both ends.
fn java_trim(text: &str) -> &str {
    text.trim_matches(|c: char| c <= ' ')
}

/// `String.split` on a separator without special characters: trailing empty strings are
/// removed, and an empty text gives one empty string.
fn java_split<'a>(text: &'a str, separator: &str) -> Vec<&'a str> {
    if text.is_empty() {
        return vec![""];
    }
    let mut parts: Vec<&str> = text.split(separator).collect();
    while parts.last() == Some(&"") {
        parts.pop();
    }
    parts
}

/// `Integer.parseInt`: an optional sign and decimal digits that fit 32 bits.
fn java_int(text: &str) -> Result<i32, String> {
    text.parse().map_err(|_| format!("NumberFormatException: For input string: {text:?}"))
}

/// `Double.parseDouble`, and a finite value (Lizzie draws what it reads).
fn java_double(text: &str) -> Result<f64, String> {
    let error = || format!("NumberFormatException: For input string: {text:?}");
    // Rust reads `inf` and `nan`, Java only `Infinity` and `NaN`; neither is a number to draw.
    if text.chars().any(|c| c.is_ascii_alphabetic() && c != 'e' && c != 'E') {
        return Err(error());
    }
    let value: f64 = java_trim(text).parse().map_err(|_| error())?;
    if value.is_finite() {
        Ok(value)
    } else {
        Err(error())
    }
}

/// `Board.asCoordinates`: a letter A–T without I and a row number on the board; `None`
/// for a pass and for what it cannot read.
fn coordinates(vertex: &str) -> Option<(usize, usize)> {
    let mut chars = vertex.chars();
    let column = "ABCDEFGHJKLMNOPQRSTUVWXYZ".find(chars.next()?)?;
    let digits = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row: usize = digits.parse().ok()?;
    (column < SIZE && (1..=SIZE).contains(&row)).then_some((column, SIZE - row))
}

/// A move Lizzie places (`Board.place`): a vertex or a pass.
fn check_move_answer(vertex: &str) -> Result<(), String> {
    if vertex == "pass" || coordinates(vertex).is_some() {
        Ok(())
    } else {
        Err(format!("cannot place the move {vertex:?}"))
    }
}

/// `Leelaz.parseInfo` / `parseInfoKatago`: the segments of an `info` line (without its
/// `info `), each read by `MoveData.fromInfo` / `fromInfoKatago`.
fn parse_info(text: &str, kata_go: bool) -> Result<Vec<MoveData>, String> {
    java_split(text, " info ")
        .into_iter()
        .filter(|segment| !java_trim(segment).is_empty())
        .map(|segment| {
            let data = from_info(segment, kata_go)?;
            check_candidate(&data).map_err(|problem| format!("{problem} in {segment:?}"))?;
            Ok(data)
        })
        .collect()
}

/// `MoveData.fromInfo` and `fromInfoKatago`: key/value pairs until `pv`, whose moves run to
/// the end of the segment (in KataGo's lines, to its `ownership`). Every number Lizzie's
/// versions read is read here, with the parser they read it with.
fn from_info(segment: &str, kata_go: bool) -> Result<MoveData, String> {
    const BOUNDARIES: &[&str] = &["info", "rootInfo", "ownership", "ownershipStdev"];
    let data = java_split(java_trim(segment), " ");
    let mut result = MoveData::default();
    let mut i = 0;
    while i < data.len() {
        let key = data[i];
        if key == "pv" {
            let rest = data[i + 1..].iter().take_while(|t| !kata_go || !BOUNDARIES.contains(t));
            result.variation = rest.map(ToString::to_string).collect();
            break;
        }
        i += 1;
        let value = *data
            .get(i)
            .ok_or_else(|| format!("ArrayIndexOutOfBoundsException: {key} without a value"))?;
        match key {
            "move" => result.coordinate = Some(value.to_string()),
            "visits" => result.playouts = java_int(value)?,
            "order" => {
                java_int(value)?;
            }
            "winrate" if kata_go => result.winrate = java_double(value)? * 100.0,
            "winrate" => result.winrate = f64::from(java_int(value)?) / 100.0,
            // Lizzie's LCB display and policy, and its forks' readings of them.
            "lcb" | "prior" if kata_go => {
                java_double(value)?;
            }
            "lcb" | "prior" => {
                java_int(value)?;
            }
            "scoreMean" | "scoreLead" if kata_go => result.score_mean = Some(java_double(value)?),
            "scoreStdev" if kata_go => {
                java_double(value)?;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(result)
}

/// What Lizzie would draw wrongly: a candidate without a vertex on the board, visits or a
/// win rate out of range, a variation that does not start with the move.
fn check_candidate(data: &MoveData) -> Result<(), String> {
    let vertex = data.coordinate.as_deref().ok_or("no move")?;
    check_move_answer(vertex)?;
    if data.playouts < 0 || !(0.0..=100.0).contains(&data.winrate) {
        return Err(format!("visits {} or win rate {} out of range", data.playouts, data.winrate));
    }
    if data.variation.first().map(String::as_str) != Some(vertex) {
        return Err(format!("variation {:?} does not start with {vertex}", data.variation));
    }
    if let Some(bad) = data.variation.iter().find(|v| check_move_answer(v).is_err()) {
        return Err(format!("variation move {bad:?}"));
    }
    Ok(())
}

/// Lizzie's ownership map: the line split on `ownership`, the rest on spaces, each value
/// through `Double.parseDouble`; one value per point, in [-1, 1].
fn parse_ownership(line: &str) -> Result<Vec<f64>, String> {
    let parts: Vec<&str> = java_trim(line).split("ownership").collect();
    let values = parts.get(1).ok_or("ArrayIndexOutOfBoundsException: no ownership values")?;
    let values: Vec<f64> = java_split(java_trim(values), " ")
        .into_iter()
        .map(java_double)
        .collect::<Result<_, _>>()?;
    if values.len() != SIZE * SIZE {
        return Err(format!("{} ownership values for {} points", values.len(), SIZE * SIZE));
    }
    if let Some(v) = values.iter().find(|v| !(-1.0..=1.0).contains(*v)) {
        return Err(format!("ownership {v} outside [-1, 1]"));
    }
    Ok(values)
}

/// `MoveData.fromSummary`: a line with ` -> ` must match one of Leela's summary patterns, or
/// Lizzie throws.
fn read_summary(line: &str) -> Result<(), String> {
    let patterns = [
        r"^ *(\w\d*) -> *(\d+) \(V: ([^%)]+)%\) \(LCB: ([^%)]+)%\) \([^\)]+\) PV: (.+).*$",
        r"^ *(\w\d*) -> *(\d+) \(V: ([^%)]+)%\) \([^\)]+\) PV: (.+).*$",
    ];
    let summary = java_trim(line);
    for pattern in patterns {
        let regex = fancy_regex::Regex::new(pattern).expect("Lizzie's pattern");
        if let Ok(Some(found)) = regex.captures(summary) {
            java_int(&found[2])?;
            java_double(&found[3])?;
            return Ok(());
        }
    }
    Err(format!("IllegalArgumentException: Unexpected summary format: {summary}"))
}

/// Waits for the child to exit; kills it and fails after `PATIENCE`.
fn wait_patiently(child: &mut Child) -> ExitStatus {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the engine did not exit within {PATIENCE:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Runs the binary with `args` on `input`: how it ended, its stdout and its stderr, each
/// read on a thread of its own so that a hang fails after `PATIENCE`.
fn run_with_input(args: &[&str], input: &str) -> (ExitStatus, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.as_bytes().to_vec();
    // A start that fails closes the pipe before reading it: the write may fail then.
    std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let read_all = |mut stream: Box<dyn Read + Send>| {
        let (sender, text) = mpsc::channel();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = stream.read_to_end(&mut bytes);
            let _ = sender.send(String::from_utf8_lossy(&bytes).into_owned());
        });
        text
    };
    let stdout = read_all(Box::new(child.stdout.take().unwrap()));
    let stderr = read_all(Box::new(child.stderr.take().unwrap()));
    let status = wait_patiently(&mut child);
    let take = |text: Receiver<String>| text.recv_timeout(PATIENCE).expect("the stream ends");
    (status, take(stdout), take(stderr))
}

// `--override-version` makes `version` answer what Lizzie's version check wants, both at the
// top level and after `gtp`; without it `version` is tengen's own; a blank version or one
// that would break the response's framing stops the start with status 2 and no output.
#[test]
fn override_version_option() {
    let session = "1 name\n2 version\nquit\n";
    for prefix in [&[][..], &["gtp"][..]] {
        let args = [prefix, &["--override-version", "0.17"]].concat();
        let (status, stdout, _) = run_with_input(&args, session);
        assert!(status.success(), "{args:?}");
        assert_eq!(stdout, "=1 tengen\n\n=2 0.17\n\n=\n\n", "{args:?}");
    }
    let (_, stdout, _) = run_with_input(&["gtp"], session);
    assert_eq!(stdout, format!("=1 tengen\n\n=2 {}\n\n=\n\n", env!("CARGO_PKG_VERSION")));
    for bad in ["", " ", "0.17\n=3 x"] {
        let (status, stdout, stderr) = run_with_input(&["--override-version", bad], session);
        assert_eq!(status.code(), Some(2), "{bad:?}");
        assert!(stdout.is_empty() && stderr.contains("--override-version"), "{bad:?}: {stderr}");
    }
}

// Lizzie's Leela Zero mode through a whole session: the start-up checks pass without the
// version dialog; analysis starts after them and restarts after every move, the queued
// analysis dropped for a move that follows at once; avoid lists keep their moves out of the
// candidates; `name` stops the analysis; genmove and lz-genmove_analyze play on Lizzie's
// clock; undo, a new game with handicap stones Lizzie places, and komi 0; and the engine
// writes nothing but answers, a warning of the GTP console's command aside.
#[test]
fn leela_zero_mode_session() {
    let mut lizzie = Lizzie::start(ENGINE, false);
    lizzie.read_until("the start-up answers", |l| l.current_cmd_num >= 4);
    assert_eq!(lizzie.response(1), (true, vec!["tengen".to_string()]));
    assert!(lizzie.initialized && !lizzie.is_kata_go, "the version check passed");
    assert!(lizzie.response(3).0 && lizzie.response(4).0, "boardsize and komi");
    lizzie.read_analysis_lines("the first analysis", 2);
    assert_eq!(lizzie.response(5), (true, vec![]), "lz-analyze answers at once");

    // The user plays two stones quickly while the analysis runs.
    lizzie.play_move("B", "Q16");
    lizzie.play_move("W", "D4");
    lizzie.read_analysis_lines("the analysis after two moves", 2);
    let written: Vec<(i32, bool, Vec<String>)> = lizzie.responses[5..].to_vec();
    assert_eq!(written.iter().map(|r| r.0).collect::<Vec<_>>(), [6, 7, 8], "{written:?}");
    assert!(written.iter().all(|r| r.1), "{written:?}");
    assert!(lizzie.candidates_seen.iter().all(|m| m != "Q16" && m != "D4"), "occupied");

    // Avoid lists, as Lizzie's "avoid" dialog sends them for both colours.
    lizzie.analyze_avoid("avoid b Q4,D16 5 avoid w Q4,D16 5");
    lizzie.read_analysis_lines("the analysis with avoid lists", 3);
    let seen = lizzie.candidates_seen.clone();
    assert!(seen.iter().all(|m| m != "Q4" && m != "D16"), "avoided moves shown: {seen:?}");

    // Lizzie stops the analysis by sending `name`; nothing more comes until it asks again.
    lizzie.toggle_ponder();
    assert_eq!(
        lizzie.read_answer("the answer that stops the analysis"),
        (true, vec!["tengen".into()])
    );
    let lines = lizzie.analysis_lines;

    // A game against the engine on Lizzie's clock: genmove, then lz-genmove_analyze.
    lizzie.playing_against_engine = true;
    lizzie.time_settings();
    assert!(lizzie.read_answer("time_settings").0);
    lizzie.genmove("B");
    lizzie.read_until("genmove's move", |l| !l.is_thinking);
    assert_eq!(lizzie.analysis_lines, lines, "no analysis while stopped");
    lizzie.genmove_analyze("W");
    lizzie.read_until("lz-genmove_analyze's play line", |l| !l.is_thinking);
    assert!(lizzie.analysis_lines > lines, "analysis lines while it thinks");
    assert_eq!(lizzie.placed.len(), 2, "{:?}", lizzie.placed);
    assert!(lizzie.placed.iter().all(|m| !["Q16", "D4"].contains(&m.as_str())));
    lizzie.playing_against_engine = false;
    lizzie.undo();
    assert!(lizzie.read_answer("undo").0);

    // Commands the user types in Lizzie's GTP console: their warnings on stderr must be
    // lines Lizzie ignores.
    lizzie.send_command("loadsgf /nonexistent/lizzie.sgf");
    assert_eq!(
        lizzie.read_answer("loadsgf"),
        (false, vec!["cannot".into(), "load".into(), "file".into()])
    );

    // A new game with four handicap stones and no komi, analysed for white.
    lizzie.clear();
    lizzie.handicap(4);
    lizzie.komi(0.0);
    assert!(lizzie.read_answer("komi 0").0, "komi 0 is a komi");
    let mut stones = lizzie.handicap_stones.clone();
    stones.sort();
    assert_eq!(stones, ["D16", "D4", "Q16", "Q4"], "the four star points");
    lizzie.toggle_ponder();
    lizzie.read_analysis_lines("the analysis of the handicap game", 2);
    assert!(lizzie.candidates_seen.iter().all(|m| !stones.contains(m)), "on a stone");
    lizzie.toggle_ponder();
    lizzie.read_answer("the answer that stops the analysis");

    let stray = lizzie.quit();
    assert_eq!(stray.len(), 1, "one warning, for loadsgf: {stray:?}");
    assert!(stray[0].contains("WARN") && stray[0].contains("loadsgf"), "{stray:?}");
}

// Lizzie's KataGo mode, which Lizzie releases that find `override-version` in the engine
// command enter (and any Lizzie with an engine named KataGo): no version check, kata-analyze
// with the ownership map as the last field, one value per point; the map and the score come
// from the side to move's view, so black's D4 stone is white's loss; `name` stops it.
#[test]
fn katago_mode_session() {
    let mut lizzie = Lizzie::start(ENGINE, true);
    lizzie.read_until("the start-up answers", |l| l.current_cmd_num >= 4);
    assert!(!lizzie.initialized, "no version check in KataGo mode");
    lizzie.toggle_ponder();
    lizzie.read_analysis_lines("kata-analyze", 2);
    assert!(lizzie.best_moves.iter().all(|m| m.score_mean.is_some()), "{:?}", lizzie.best_moves);
    assert!(lizzie.ownership.is_some(), "the ownership map");

    lizzie.play_move("B", "D4");
    lizzie.read_analysis_lines("kata-analyze after a move", 3);
    assert!(lizzie.candidates_seen.iter().all(|m| m != "D4"));
    let (column, row) = coordinates("D4").unwrap();
    let ownership = lizzie.ownership.clone().expect("the ownership map");
    assert!(
        ownership[row * SIZE + column] < 0.0,
        "D4 is black's: {}",
        ownership[row * SIZE + column]
    );

    lizzie.toggle_ponder();
    assert_eq!(
        lizzie.read_answer("the answer that stops the analysis"),
        (true, vec!["tengen".into()])
    );
    let stray = lizzie.quit();
    assert!(stray.is_empty(), "lines that are no part of an answer: {stray:?}");
}
