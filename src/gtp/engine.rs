//! Executes typed GTP commands against a game and formats the results as GTP text. Errors are
//! the GTP error texts the specification and the GUIs expect; the detailed reason (why a move
//! is illegal, why a file did not load) goes to the log.

use crate::board::color::Color;
use crate::board::vertex::{format_move, format_vertex, Vertex};
use crate::board::{Move, Point};
use crate::game::clock::Clock;
use crate::game::display;
use crate::game::record::{self, RecordInfo};
use crate::game::rules::{HandicapBonus, KoRule, Rules, Scoring};
use crate::game::sgf;
use crate::game::{Game, HandicapError};
use crate::gtp::analysis::analysis_line;
use crate::gtp::command::{parse, AnalysisRequest, Command, GtpError, StatusKind, COMMAND_NAMES};
use crate::gtp::json::{self, Value};
use crate::gtp::params::{self, Settings, Value as ParamValue, PARAMS};
use crate::search::dynamic_komi::{self, DynamicKomi};
use crate::search::ownership::{chain_statuses, chains_with, Ownership, Status};
use crate::search::{Reporter, SearchParams, Searcher};
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Light playouts behind `final_score` and `final_status_list`.
const OWNERSHIP_PLAYOUTS: usize = 1024;

/// What GoGui lists in its Analyze menu: `type/label/command`.
const GOGUI_ANALYZE_COMMANDS: &[&str] = &[
    "gfx/Ownership/tengen-ownership",
    "gfx/Best moves/tengen-best_moves",
    "gfx/Principal variation/tengen-pv",
    "plist/Dead stones/final_status_list dead",
    "string/Score estimate/final_score",
    "param/Search parameters/tengen-param",
];

/// Simulations a search needs before its win rate may make tengen resign.
const MIN_RESIGN_PLAYOUTS: usize = 1000;

/// Playouts at most behind the GoGui best-move and variation displays, so they answer fast.
const GFX_PLAYOUTS: usize = 5000;

/// Seconds kept back from every move's time for network and GUI lag.
const LAG_SECONDS: f64 = 0.3;
/// The engine state a GTP session works on.
pub struct Engine {
    game: Game,
    /// Rules for the next game: `boardsize` and `clear_board` start over with these.
    rules: Rules,
    clock: Clock,
    seed: u64,
    rng: SmallRng,
    /// What the parameter table sets: the search's parameters and the player's own.
    settings: Settings,
    /// Keeps the tree between moves (tree reuse).
    searcher: Searcher,
    /// The bias of dynamic komi in this handicap game (see `search::dynamic_komi`).
    dynamic_komi: DynamicKomi,
    started: Instant,
    /// Folder that relative `loadsgf`/`printsgf` paths start from (the process's working
    /// directory when `None`): regression scripts name files relative to themselves.
    files_dir: Option<std::path::PathBuf>,
    /// The win rate (for the side that moved) and playouts of the last `genmove` search;
    /// `None` when that move needed no search (a pass that wins the count).
    last_estimate: Option<(f64, usize)>,
    /// The longest a ponder may run; `None`: no pondering.
    ponder_cap: Option<Duration>,
    /// Clean up before passing in every game, as `kgs-genmove_cleanup` does: for servers
    /// such as CGOS that score with every stone on the board as alive.
    capture_all_dead: bool,
    /// Set by a `genmove` that played: the opponent is thinking now, so we may too.
    ponder_due: bool,
    pondering: Option<Pondering>,
    /// Root visits after the last analysis slice.
    analysis_visits: u32,
    /// Set by the I/O loop on GoGui's `# interrupt`: the running genmove answers at once.
    interrupt: Arc<AtomicBool>,
    /// What `version` answers: the crate's version unless overridden (`--override-version`,
    /// for GUIs such as Lizzie that judge an engine by its Leela Zero version number).
    version: String,
}

/// A search of the opponent's position running while the controller is silent. It owns the
/// engine's searcher meanwhile, and hands it back (with the tree it grew) when stopped.
struct Pondering {
    halt: Arc<AtomicBool>,
    handle: std::thread::JoinHandle<(Searcher, usize)>,
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_pondering();
    }
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(19, Rules::default(), 0)
    }
}

impl Engine {
    /// An engine with an empty board of side `size` under `rules`, random choices seeded
    /// with `seed`.
    ///
    /// # Panics
    /// If `size` is unsupported.
    pub fn new(size: usize, rules: Rules, seed: u64) -> Engine {
        Engine {
            game: Game::new(size, rules.clone()),
            rules,
            clock: Clock::default(),
            seed,
            rng: SmallRng::seed_from_u64(seed),
            settings: Settings::default(),
            searcher: Searcher::new(),
            dynamic_komi: DynamicKomi::default(),
            started: Instant::now(),
            files_dir: None,
            last_estimate: None,
            ponder_cap: None,
            capture_all_dead: false,
            ponder_due: false,
            pondering: None,
            analysis_visits: 0,
            interrupt: Arc::new(AtomicBool::new(false)),
            version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }

    /// The flag that interrupts a running `genmove` (GoGui's `# interrupt`).
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.interrupt)
    }

    /// Capture every dead opponent stone before passing, in every `genmove`.
    pub fn set_capture_all_dead(&mut self, on: bool) {
        self.capture_all_dead = on;
    }

    /// Makes `version` answer `version` instead of tengen's own version number.
    ///
    /// # Errors
    /// A version that is blank or holds a control character, which would leave the answer
    /// empty or break the response's framing.
    pub fn set_version(&mut self, version: &str) -> Result<(), String> {
        if version.trim().is_empty() || version.chars().any(char::is_control) {
            return Err("expected a version on one line, such as 0.17".to_string());
        }
        self.version = version.trim().to_string();
        Ok(())
    }

    /// Ponder (search on the opponent's time, keeping the tree for the next move) for at most
    /// `cap` after each `genmove`; `None` turns pondering off.
    pub fn set_ponder(&mut self, cap: Option<Duration>) {
        self.ponder_cap = cap;
    }

    /// Starts pondering if a `genmove` has just played and pondering is on. The I/O loop
    /// calls this after writing a response, when the engine would otherwise sit idle.
    pub fn start_pondering(&mut self) {
        let Some(cap) = self.ponder_cap.filter(|_| self.ponder_due) else { return };
        self.ponder_due = false;
        if self.pondering.is_some() || self.game.is_over() {
            return;
        }
        let mut searcher = std::mem::take(&mut self.searcher);
        let game = self.game.clone();
        let params = SearchParams {
            playouts: usize::MAX,
            time_limit: Some(cap),
            early_stop: false,
            seed: self.rng.next_u64(),
            ..self.settings.search.clone()
        };
        let halt = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&halt);
        let handle = std::thread::spawn(move || {
            let result = searcher.search_until(&game, &params, &flag);
            (searcher, result.playouts)
        });
        self.pondering = Some(Pondering { halt, handle });
    }

    /// Stops pondering, if it runs, and takes the searcher back with its tree. Returns the
    /// simulations the ponder ran. The I/O loop calls this as soon as a line arrives.
    pub fn stop_pondering(&mut self) -> Option<usize> {
        let pondering = self.pondering.take()?;
        pondering.halt.store(true, Ordering::Relaxed);
        match pondering.handle.join() {
            Ok((searcher, playouts)) => {
                self.searcher = searcher;
                log::info!("pondered {playouts} simulations");
                Some(playouts)
            }
            Err(_) => {
                log::error!("the ponder thread panicked; its tree is lost");
                None
            }
        }
    }

    /// Sets the search's parameters (playouts per move and the rest).
    pub fn set_search_params(&mut self, params: SearchParams) {
        self.settings.search = params;
    }

    /// Resign below this win rate; 0 never resigns.
    pub fn set_resign_threshold(&mut self, threshold: f64) {
        self.settings.resign_threshold = threshold;
    }

    /// Makes relative file paths in `loadsgf` and `printsgf` start from `dir`.
    pub fn set_files_dir(&mut self, dir: impl Into<std::path::PathBuf>) {
        self.files_dir = Some(dir.into());
    }

    fn file_path(&self, path: &str) -> std::path::PathBuf {
        match &self.files_dir {
            Some(dir) => dir.join(path),
            None => std::path::PathBuf::from(path),
        }
    }

    /// The win rate for the side that moved and the playouts behind it, from the last
    /// `genmove`'s search (`None` when that move needed no search).
    pub fn last_estimate(&self) -> Option<(f64, usize)> {
        self.last_estimate
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Parses and executes one command line's name and arguments.
    pub fn handle(&mut self, name: &str, args: &[&str]) -> Result<String, GtpError> {
        let command = parse(name, args)?;
        self.execute(command)
    }

    /// Executes one command. On error the game is unchanged.
    pub fn execute(&mut self, command: Command) -> Result<String, GtpError> {
        match command {
            Command::ProtocolVersion => Ok("2".into()),
            Command::Name => Ok("tengen".into()),
            Command::Version => Ok(self.version.clone()),
            Command::KnownCommand(name) => Ok(COMMAND_NAMES.contains(&name.as_str()).to_string()),
            Command::ListCommands => Ok(COMMAND_NAMES.join("\n")),
            Command::Quit | Command::KgsGameOver => Ok(String::new()),
            Command::BoardSize(size) => {
                if !(2..=25).contains(&size) {
                    return Err(GtpError::new("unacceptable size"));
                }
                let komi = self.game.rules().komi;
                self.rules.komi = komi;
                self.game = Game::new(size as usize, self.rules.clone());
                self.clock = Clock::new(self.clock.system);
                Ok(String::new())
            }
            Command::ClearBoard => {
                self.rules.komi = self.game.rules().komi;
                self.game = Game::new(self.game.board().size(), self.rules.clone());
                self.clock = Clock::new(self.clock.system);
                Ok(String::new())
            }
            Command::Komi(komi) => {
                self.game.set_komi(komi);
                self.rules.komi = komi;
                Ok(String::new())
            }
            Command::Play(color, vertex) => self.play(color, vertex),
            Command::GenMove(color) => self.genmove(color, true, self.capture_all_dead),
            Command::RegGenMove(color) => self.genmove(color, false, self.capture_all_dead),
            Command::GenMoveCleanup(color) => self.genmove(color, true, true),
            Command::Undo => {
                self.game.undo().map_err(|e| GtpError::new(e.to_string()))?;
                Ok(String::new())
            }
            Command::FixedHandicap(n) => {
                let stones = usize::try_from(n).unwrap_or(usize::MAX);
                let points = self.game.place_fixed_handicap(stones).map_err(handicap_error)?;
                Ok(self.vertex_list(&points))
            }
            Command::PlaceFreeHandicap(n) => {
                let stones = usize::try_from(n).unwrap_or(usize::MAX);
                let points = self.game.place_free_handicap(stones).map_err(handicap_error)?;
                Ok(self.vertex_list(&points))
            }
            Command::SetFreeHandicap(vertices) => {
                let mut points = Vec::with_capacity(vertices.len());
                for v in vertices {
                    match v.on(self.game.board()) {
                        Some(Move::Play(p)) => points.push(p),
                        _ => return Err(GtpError::new("bad vertex list")),
                    }
                }
                self.game.set_free_handicap(&points).map_err(handicap_error)?;
                Ok(String::new())
            }
            Command::LoadSgf { path, move_number } => self.load_sgf(&path, move_number),
            Command::PrintSgf(path) => self.print_sgf(path.as_deref()),
            Command::ShowBoard => Ok(self.show_board()),
            Command::FinalScore => Ok(self.final_score().result().to_string()),
            Command::ChineseCount => {
                let (chinese, english) = self.final_score().chinese_count();
                Ok(format!("{chinese}\n{english}"))
            }
            Command::FinalStatusList(kind) => Ok(self.final_status_list(kind)),
            Command::TimeSettings { main, period, stones } => {
                self.clock = Clock::from_gtp(main, period, stones);
                Ok(String::new())
            }
            Command::SetTimeSystem(system) => {
                self.clock = Clock::new(system);
                Ok(String::new())
            }
            Command::TimeLeft { color, seconds, count } => {
                self.clock.set_left(color, seconds, count);
                Ok(String::new())
            }
            Command::KataListTimeSettings => {
                Ok("none\nabsolute\nbyoyomi\ncanadian\nfischer".into())
            }
            Command::KgsRules(name) => self.kgs_rules(&name),
            Command::KataGetRules => Ok(rules_json(self.game.rules())),
            Command::KataSetRules(text) => self.kata_set_rules(&text),
            Command::SetRandomSeed(seed) => {
                self.seed = seed;
                self.rng = SmallRng::seed_from_u64(seed);
                Ok(String::new())
            }
            Command::CpuTime => Ok(format!(
                "{:.3}",
                cpu_seconds().unwrap_or_else(|| self.started.elapsed().as_secs_f64())
            )),
            Command::GoguiAnalyzeCommands => Ok(GOGUI_ANALYZE_COMMANDS.join("\n")),
            Command::GoguiInterrupt => Ok(String::new()),
            Command::KataGetParams => {
                let fields: Vec<(&str, Value)> = PARAMS
                    .iter()
                    .map(|param| {
                        let value = match param.get(&self.settings) {
                            ParamValue::Number(n) => Value::Num(n),
                            ParamValue::Bool(b) => Value::Bool(b),
                            other => Value::Str(other.text()),
                        };
                        (param.key, value)
                    })
                    .collect();
                Ok(json::write_flat_object(&fields))
            }
            Command::KataSetParam(key, value) | Command::TengenParam(Some((key, value))) => {
                self.set_param(&key, &value).map(|()| String::new())
            }
            Command::TengenParam(None) => Ok(PARAMS
                .iter()
                .map(|param| {
                    let value = match param.get(&self.settings) {
                        ParamValue::Bool(b) => u8::from(b).to_string(),
                        other => other.text(),
                    };
                    format!("[{}] {} {value}", param.gogui_type(), param.key)
                })
                .collect::<Vec<_>>()
                .join("\n")),
            Command::TengenOwnership => {
                let ownership = self.ownership();
                let board = self.game.board();
                let values: Vec<String> = board
                    .points()
                    .map(|p| format!("{} {:.2}", format_vertex(board, p), ownership.of(p)))
                    .collect();
                Ok(format!("INFLUENCE {}", values.join(" ")))
            }
            Command::TengenBestMoves | Command::TengenPv => {
                let color = self.game.to_move();
                let params = SearchParams {
                    playouts: self.settings.search.playouts.min(GFX_PLAYOUTS),
                    seed: self.rng.next_u64(),
                    ..self.settings.search.clone()
                };
                let result = self.searcher.search(&self.game, &params);
                let board = self.game.board();
                if matches!(command, Command::TengenPv) {
                    let mut mover = color;
                    let moves: Vec<String> = result.pvs.first().map_or(Vec::new(), |pv| {
                        pv.iter()
                            .map(|&(mv, _)| {
                                let text = format!(
                                    "{} {}",
                                    mover.letter().to_ascii_lowercase(),
                                    format_move(board, mv)
                                );
                                mover = mover.opponent();
                                text
                            })
                            .collect()
                    });
                    return Ok(format!("VAR {}", moves.join(" ")));
                }
                let labels: Vec<String> = result
                    .candidates
                    .iter()
                    .filter(|(mv, visits, _)| *visits > 0 && *mv != Move::Pass)
                    .take(5)
                    .map(|&(mv, _, rate)| {
                        format!("{} {:.0}%", format_move(board, mv), 100.0 * rate)
                    })
                    .collect();
                Ok(format!("LABEL {}", labels.join(" ")))
            }
            Command::QueryBoardSize => Ok(self.game.board().size().to_string()),
            Command::GetKomi => Ok(self.game.rules().komi.to_string()),
            Command::GenMoveAnalyze(color, request) => {
                let answer = self.genmove_analyze(color, &request, &mut |_| {});
                Ok(format!("play {answer}"))
            }
            Command::Analyze(request) => {
                let interval = Duration::from_millis(10 * u64::from(request.interval_cs.max(1)));
                Ok(self.analyze(&request, interval.min(Duration::from_secs(1))))
            }
            Command::PointColor(vertex) => match vertex.on(self.game.board()) {
                Some(Move::Play(p)) => Ok(match self.game.board().stone(p) {
                    Some(color) => color.to_string(),
                    None => "empty".to_string(),
                }),
                _ => Err(GtpError::new("invalid coordinate")),
            },
            Command::IsLegal(color, vertex) => match vertex.on(self.game.board()) {
                Some(mv @ Move::Play(_)) => {
                    Ok(if self.game.check(color, mv).is_ok() { "1" } else { "0" }.into())
                }
                Some(Move::Pass) => Ok("1".into()),
                None => Err(GtpError::new("invalid coordinate")),
            },
        }
    }

    fn play(&mut self, color: Color, vertex: Vertex) -> Result<String, GtpError> {
        let Some(mv) = vertex.on(self.game.board()) else {
            log::info!(
                "play {color} {vertex:?}: not on this {0}x{0} board",
                self.game.board().size()
            );
            return Err(GtpError::new("illegal move"));
        };
        self.game.play(color, mv).map_err(|reason| {
            log::info!("play {color} {}: illegal ({reason})", format_move(self.game.board(), mv));
            GtpError::new("illegal move")
        })?;
        Ok(String::new())
    }

    /// Chooses a move for `color` by searching, plays it if `commit`. Passes at once when the
    /// opponent has just passed and the count (dead stones removed) already wins; resigns when
    /// the search sees almost no chance late enough in the game. With `cleanup` it never
    /// passes while it sees dead opponent stones, so they get captured first.
    fn genmove(&mut self, color: Color, commit: bool, cleanup: bool) -> Result<String, GtpError> {
        self.genmove_reporting(color, commit, cleanup, None)
    }

    /// `genmove` that streams analysis while it thinks (`lz-genmove_analyze`,
    /// `kata-genmove_analyze`, `genmove_analyze`): `emit` gets a line every interval; the move
    /// played is returned (`resign` included).
    pub fn genmove_analyze(
        &mut self,
        color: Color,
        request: &AnalysisRequest,
        emit: &mut dyn FnMut(String),
    ) -> String {
        let mut game = self.game.clone();
        game.set_to_move(color);
        let model_prior = self.settings.search.model_prior;
        let mut report = |result: &crate::search::SearchResult| {
            emit(analysis_line(&game, color, request, result, &[], model_prior));
        };
        let every = Duration::from_millis(10 * u64::from(request.interval_cs.max(1)));
        let cleanup = self.capture_all_dead;
        let tracked = self.settings.search.track_ownership;
        self.settings.search.track_ownership = request.ownership || request.ownership_stdev;
        let answer = self.genmove_reporting(color, true, cleanup, Some((every, &mut report)));
        self.settings.search.track_ownership = tracked;
        answer.unwrap_or_else(|e| e.0)
    }

    fn genmove_reporting(
        &mut self,
        color: Color,
        commit: bool,
        cleanup: bool,
        reporter: Option<Reporter>,
    ) -> Result<String, GtpError> {
        let answer = match self.choose_move(color, commit, cleanup, reporter) {
            Some(mv) => {
                if commit {
                    self.game.play(color, mv).expect("the search only proposes legal moves");
                    self.ponder_due = true;
                }
                format_move(self.game.board(), mv)
            }
            None => "resign".to_string(),
        };
        Ok(answer)
    }

    /// The move to play, or `None` to resign.
    fn choose_move(
        &mut self,
        color: Color,
        commit: bool,
        cleanup: bool,
        reporter: Option<Reporter>,
    ) -> Option<Move> {
        // The controller's clock runs from the command: what is spent before the search
        // (estimating chain statuses, carrying over the tree) comes out of the move's time.
        let asked = Instant::now();
        self.last_estimate = None;
        let opponent_passed = self.game.last_move() == Some((color.opponent(), Move::Pass));
        // Chain statuses cost playouts: estimated once, and only where they are needed.
        let statuses = (cleanup || opponent_passed).then(|| self.statuses());
        let dead_opponents = cleanup
            && statuses.iter().flatten().any(|(stones, status)| {
                *status == Status::Dead
                    && self.game.board().stone(stones[0]) == Some(color.opponent())
            });
        if opponent_passed && !dead_opponents {
            let margin = self.score_with(statuses.as_deref().unwrap_or_default()).margin();
            let wins = if color == Color::Black { margin > 0.0 } else { margin < 0.0 };
            if wins {
                return Some(Move::Pass);
            }
        }
        let mut game = self.game.clone();
        game.set_to_move(color);
        let board = game.board();
        let points = board.size() * board.size();
        let clock_budget =
            self.clock.budget(color, board.empty_points().len(), points, LAG_SECONDS);
        let clock_limit = clock_budget.map(Duration::from_secs_f64);
        let time_limit = match (self.settings.search.time_limit, clock_limit) {
            (Some(fixed), Some(clock)) => Some(fixed.min(clock)),
            (fixed, clock) => fixed.or(clock),
        };
        // Stopping once the best move is settled saves time only where a later move can
        // use it. Time that would be lost (a fixed time per move, a byo-yomi period) goes
        // on searching, to grow the tree the next move starts from.
        let time_is_lost = time_limit.is_some_and(|limit| {
            clock_limit != Some(limit) || !self.clock.keeps_unused_time(color)
        });
        let early_stop = self.settings.search.early_stop && !time_is_lost;
        let step = self
            .settings
            .dynamic_komi_step
            .unwrap_or_else(|| dynamic_komi::default_step(board.size()));
        let extra_komi = self.dynamic_komi.extra_komi(&game, color, step);
        let params = SearchParams {
            seed: self.rng.next_u64(),
            allow_root_pass: !dead_opponents,
            time_limit,
            extra_komi,
            early_stop,
            ..self.settings.search.clone()
        };
        // GoGui's live graphics: the best moves so far, on stderr, twice a second.
        let board_for_gfx = game.board().clone();
        let mut gfx = |result: &crate::search::SearchResult| {
            let labels: Vec<String> = result
                .candidates
                .iter()
                .filter(|c| c.1 > 0 && c.0 != Move::Pass)
                .take(5)
                .map(|&(mv, _, rate)| {
                    format!("{} {:.0}%", format_move(&board_for_gfx, mv), 100.0 * rate)
                })
                .collect();
            eprintln!("gogui-gfx:\nLABEL {}\n", labels.join(" "));
        };
        let interrupt = Arc::clone(&self.interrupt);
        let result = match reporter {
            None if self.settings.live_gfx => {
                let every = Duration::from_millis(500);
                self.searcher.search_reporting(
                    &game,
                    &params,
                    &interrupt,
                    Some((every, &mut gfx)),
                    asked,
                )
            }
            reporter => self.searcher.search_reporting(&game, &params, &interrupt, reporter, asked),
        };
        self.last_estimate = Some((result.win_rate, result.playouts));
        if commit {
            // Whether the flag fell is the controller's call, not the player's.
            self.clock.spend(color, asked.elapsed().as_secs_f64());
            self.dynamic_komi.update(&game, color, result.win_rate, step);
        }
        log::info!(
            "genmove {color}: {} win rate {:.3} after {} playouts (extra komi {extra_komi:.1})",
            format_move(game.board(), result.best),
            result.win_rate,
            result.playouts
        );
        // An estimate from a few simulations (an interrupted search) is no reason to resign,
        // nor is one where dynamic komi asked for more than a win.
        let enough = result.playouts >= self.settings.search.playouts.min(MIN_RESIGN_PLAYOUTS);
        let asked_more = match color {
            Color::Black => extra_komi > 0.0,
            Color::White => extra_komi < 0.0,
        };
        if enough && !asked_more && self.should_resign(color, result.win_rate) {
            return None;
        }
        // A pass the opponent has not invited only ends a game tengen is winning; behind, it
        // hands the game over (when it may not resign yet, in the opening), so it plays the
        // most visited real move instead and fights on. A win rate under dynamic komi says
        // nothing of the real count, so then it never passes uninvited.
        let passing_behind = |mv: Move| {
            mv == Move::Pass && !opponent_passed && (result.win_rate < 0.5 || extra_komi != 0.0)
        };
        // The tree checks positional superko; the game may use stricter or looser rules.
        result
            .candidates
            .iter()
            .map(|&(mv, _, _)| mv)
            .find(|&mv| !passing_behind(mv) && self.game.check(color, mv).is_ok())
            .or(Some(Move::Pass))
    }

    /// One slice of live analysis: searches the position, for the request's colour, `slice`
    /// longer (the tree is kept from slice to slice) and returns the line the GUIs parse:
    /// `info move D4 visits 120 winrate 5423 prior 1200 lcb 5011 order 0 pv D4 Q16 ...`,
    /// one `info` per candidate, most visited first.
    pub fn analyze(&mut self, request: &AnalysisRequest, slice: Duration) -> String {
        let color = request.color.unwrap_or(self.game.to_move());
        let mut game = self.game.clone();
        game.set_to_move(color);
        let board = game.board();
        let on_board = |vertices: &[Vertex]| -> Vec<Move> {
            vertices.iter().filter_map(|v| v.on(board)).collect()
        };
        let mut root_avoid: Vec<Move> = request
            .avoid
            .iter()
            .filter(|(c, _)| *c == color)
            .flat_map(|(_, vertices)| on_board(vertices))
            .collect();
        let allowed: Vec<Move> = request
            .allow
            .iter()
            .filter(|(c, _)| *c == color)
            .flat_map(|(_, vertices)| on_board(vertices))
            .collect();
        if !allowed.is_empty() {
            let everything =
                game.legal_points(color).into_iter().map(Move::Play).chain([Move::Pass]);
            root_avoid.extend(everything.filter(|mv| !allowed.contains(mv)));
        }
        let params = SearchParams {
            playouts: usize::MAX,
            time_limit: Some(slice),
            early_stop: false,
            seed: self.rng.next_u64(),
            root_avoid,
            max_root_visits: request.max_visits,
            track_ownership: request.ownership || request.ownership_stdev,
            ..self.settings.search.clone()
        };
        let result = self.searcher.search(&game, &params);
        self.analysis_visits = result.root_visits;
        analysis_line(&game, color, request, &result, &params.root_avoid, params.model_prior)
    }

    /// Simulations through the analysed position so far, kept trees included.
    pub fn analysis_visits(&self) -> u32 {
        self.analysis_visits
    }

    /// One parameter's value as text, by its key in the table [`PARAMS`].
    pub fn param(&self, key: &str) -> Option<String> {
        params::find(key).map(|param| param.get(&self.settings).text())
    }

    /// Sets one parameter of the table [`PARAMS`] from text.
    ///
    /// # Errors
    /// `unknown parameter 'KEY'`, or `bad value for parameter 'KEY'` (nothing changes then).
    pub fn set_param(&mut self, key: &str, value: &str) -> Result<(), GtpError> {
        let param =
            params::find(key).ok_or_else(|| GtpError::new(format!("unknown parameter '{key}'")))?;
        param.set(&mut self.settings, value).map_err(GtpError::new)
    }

    fn should_resign(&self, color: Color, win_rate: f64) -> bool {
        let board = self.game.board();
        let points = board.size() * board.size();
        let stones = points - board.empty_points().len();
        let opening = stones < points / 3;
        let handicap_white =
            self.game.handicap() > 0 && color == Color::White && stones < points / 2;
        self.settings.resign_threshold > 0.0
            && win_rate < self.settings.resign_threshold
            && !opening
            && !handicap_white
    }

    /// The ownership estimate of the position, on the search's threads (`--threads` binds it).
    fn ownership(&mut self) -> Ownership {
        let (game, seed) = (&self.game, self.seed);
        let threads = self.settings.search.threads;
        self.searcher.install(threads, || Ownership::estimate(game, OWNERSHIP_PLAYOUTS, seed))
    }

    /// Every chain with its status, from the one evaluator behind scoring and status lists.
    fn statuses(&mut self) -> Vec<(Vec<Point>, Status)> {
        let ownership = self.ownership();
        chain_statuses(self.game.board(), &ownership)
    }

    fn final_score(&mut self) -> crate::game::score::Score {
        let statuses = self.statuses();
        self.score_with(&statuses)
    }

    /// The count with the dead chains of `statuses` removed and its seki chains marked.
    fn score_with(&self, statuses: &[(Vec<Point>, Status)]) -> crate::game::score::Score {
        let dead = chains_with(statuses, Status::Dead);
        let seki = chains_with(statuses, Status::Seki);
        self.game.score(&dead, &seki)
    }

    fn final_status_list(&mut self, kind: StatusKind) -> String {
        let wanted = match kind {
            StatusKind::Alive => Status::Alive,
            StatusKind::Dead => Status::Dead,
            StatusKind::Seki => Status::Seki,
        };
        self.statuses()
            .into_iter()
            .filter(|(_, status)| *status == wanted)
            .map(|(stones, _)| self.vertex_list(&stones))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn vertex_list(&self, points: &[Point]) -> String {
        let board = self.game.board();
        points.iter().map(|&p| format_vertex(board, p)).collect::<Vec<_>>().join(" ")
    }

    fn load_sgf(&mut self, path: &str, move_number: Option<i64>) -> Result<String, GtpError> {
        let fail = |reason: String| {
            log::warn!("loadsgf {path}: {reason}");
            GtpError::new("cannot load file")
        };
        let bytes = read_record_file(&self.file_path(path)).map_err(|e| fail(e.to_string()))?;
        let text = String::from_utf8_lossy(&bytes);
        let record = sgf::parse(&text).map_err(|e| fail(e.to_string()))?;
        let until = match move_number {
            Some(n) if n >= 1 => Some(usize::try_from(n).unwrap_or(usize::MAX)),
            _ => None,
        };
        let game = record::replay(&record, &self.rules, until).map_err(|e| fail(e.to_string()))?;
        self.rules = game.rules().clone();
        self.game = game;
        Ok(String::new())
    }

    fn print_sgf(&self, path: Option<&str>) -> Result<String, GtpError> {
        let info = RecordInfo::default();
        let text = sgf::write(&record::to_record(&self.game, &info));
        match path {
            None => Ok(text),
            Some(path) => {
                std::fs::write(self.file_path(path), text).map_err(|e| {
                    log::warn!("printsgf {path}: {e}");
                    GtpError::new("cannot save file")
                })?;
                Ok(String::new())
            }
        }
    }

    fn show_board(&self) -> String {
        // GTP answers may not contain an empty line; the drawing starts on its own line.
        format!("\n{}", display::draw(&self.game, display::Style::Ascii))
    }

    /// KGS's rule names (`japanese`, `chinese`, `aga`, `new_zealand`) are names of the one
    /// table; the komi stays as set.
    fn kgs_rules(&mut self, name: &str) -> Result<String, GtpError> {
        let komi = self.game.rules().komi;
        let rules = Rules::named(name).ok_or_else(|| GtpError::new("unknown rules"))?;
        log::info!("kgs-rules {name}: {}", Rules { komi, ..rules.clone() });
        self.set_rules(Rules { komi, ..rules });
        Ok(String::new())
    }

    fn set_rules(&mut self, rules: Rules) {
        self.rules = rules.clone();
        self.game.set_rules(rules);
    }

    fn kata_set_rules(&mut self, text: &str) -> Result<String, GtpError> {
        let text = text.trim();
        if !text.starts_with('{') {
            let rules = Rules::named(text)
                .ok_or_else(|| GtpError::new(format!("unknown rules '{text}'")))?;
            self.set_rules(Rules { komi: self.game.rules().komi, ..rules });
            return Ok(String::new());
        }
        let fields = json::parse_flat_object(text)
            .map_err(|e| GtpError::new(format!("could not parse rules: {e}")))?;
        let mut rules = self.game.rules().clone();
        for (key, value) in fields {
            let bad = || GtpError::new(format!("bad value for rules key '{key}'"));
            match (key.as_str(), &value) {
                ("ko", Value::Str(v)) => {
                    rules.ko = match v.to_ascii_uppercase().as_str() {
                        "SIMPLE" => KoRule::Simple,
                        "POSITIONAL" => KoRule::Positional,
                        "SITUATIONAL" => KoRule::Situational,
                        _ => return Err(bad()),
                    }
                }
                ("scoring", Value::Str(v)) => {
                    rules.scoring = match v.to_ascii_uppercase().as_str() {
                        "AREA" => Scoring::Area,
                        "TERRITORY" => Scoring::Territory,
                        _ => return Err(bad()),
                    }
                }
                ("tax", Value::Str(v)) => {
                    // SEKI (eyes in seki count for nobody) is what territory scoring does
                    // already; ALL is the group tax of the ancient rules.
                    rules.group_tax = match v.to_ascii_uppercase().as_str() {
                        "NONE" | "SEKI" => false,
                        "ALL" => true,
                        _ => return Err(bad()),
                    }
                }
                ("suicide", Value::Bool(b)) => rules.suicide_allowed = *b,
                ("hasButton", Value::Bool(false)) | ("friendlyPassOk", Value::Bool(_)) => {}
                ("whiteHandicapBonus", Value::Str(v)) => {
                    rules.handicap_bonus = match v.as_str() {
                        "0" => HandicapBonus::Zero,
                        "N" => HandicapBonus::N,
                        "N-1" => HandicapBonus::NMinusOne,
                        _ => return Err(bad()),
                    }
                }
                ("komi", Value::Num(k)) => rules.komi = *k,
                (
                    "ko" | "scoring" | "tax" | "suicide" | "hasButton" | "friendlyPassOk"
                    | "whiteHandicapBonus" | "komi",
                    _,
                ) => return Err(bad()),
                _ => return Err(GtpError::new(format!("unknown rules key '{key}'"))),
            }
        }
        self.set_rules(rules);
        Ok(String::new())
    }
}

/// Largest game record `loadsgf` reads.
const MAX_SGF_BYTES: u64 = 16 << 20;

/// Reads a game record: regular files only (never a pipe or device such as the engine's own
/// standard input), at most `MAX_SGF_BYTES`.
fn read_record_file(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    if !std::fs::metadata(path)?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?.take(MAX_SGF_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_SGF_BYTES {
        return Err(std::io::Error::other("file larger than 16 MiB"));
    }
    Ok(bytes)
}

fn handicap_error(e: HandicapError) -> GtpError {
    GtpError::new(e.to_string())
}

/// The rules as KataGo's `kata-get-rules` writes them.
fn rules_json(rules: &Rules) -> String {
    let ko = match rules.ko {
        KoRule::Simple => "SIMPLE",
        KoRule::Positional => "POSITIONAL",
        KoRule::Situational => "SITUATIONAL",
    };
    let scoring = match rules.scoring {
        Scoring::Area => "AREA",
        Scoring::Territory => "TERRITORY",
    };
    let bonus = match rules.handicap_bonus {
        HandicapBonus::Zero => "0",
        HandicapBonus::N => "N",
        HandicapBonus::NMinusOne => "N-1",
    };
    let tax = match (rules.group_tax, rules.scoring) {
        (true, _) => "ALL",
        (false, Scoring::Territory) => "SEKI",
        (false, Scoring::Area) => "NONE",
    };
    json::write_flat_object(&[
        ("ko", Value::Str(ko.into())),
        ("scoring", Value::Str(scoring.into())),
        ("tax", Value::Str(tax.into())),
        ("suicide", Value::Bool(rules.suicide_allowed)),
        ("hasButton", Value::Bool(false)),
        ("whiteHandicapBonus", Value::Str(bonus.into())),
        ("friendlyPassOk", Value::Bool(false)),
        ("komi", Value::Num(rules.komi)),
    ])
}

/// Processor time used by this process, from `/proc/self/stat` (user + system clock ticks at
/// the usual 100 per second); `None` where that file is not available.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let user: f64 = fields.get(11)?.parse().ok()?;
    let system: f64 = fields.get(12)?.parse().ok()?;
    Some((user + system) / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    // `version` answers the crate's version until overridden, then the override; a blank
    // override or one that would break the response's framing is refused and changes nothing.
    #[test]
    fn version_override() {
        let mut engine = Engine::default();
        assert_eq!(engine.handle("version", &[]).unwrap(), env!("CARGO_PKG_VERSION"));
        engine.set_version("0.17").unwrap();
        assert_eq!(engine.handle("version", &[]).unwrap(), "0.17");
        for bad in ["", "  ", "0.17\n= 1", "0.\r17"] {
            assert!(engine.set_version(bad).is_err(), "{bad:?}");
        }
        assert_eq!(engine.handle("version", &[]).unwrap(), "0.17");
    }

    fn pondering_engine(cap: Duration) -> Engine {
        let mut engine = Engine::new(9, Rules::chinese(), 3);
        engine.set_search_params(SearchParams { playouts: 300, ..SearchParams::default() });
        engine.set_ponder(Some(cap));
        engine
    }

    // Pondering starts only after a genmove that played, runs until the next command, stops
    // within milliseconds, and leaves the engine answering as before.
    #[test]
    fn ponders_between_commands() {
        let mut engine = pondering_engine(Duration::from_secs(30));
        engine.start_pondering();
        assert!(engine.pondering.is_none(), "nothing to ponder before a genmove");
        engine.handle("genmove", &["b"]).unwrap();
        engine.start_pondering();
        assert!(engine.pondering.is_some());
        std::thread::sleep(Duration::from_millis(200));
        let asked = Instant::now();
        let pondered = engine.stop_pondering().expect("it was pondering");
        assert!(asked.elapsed() < Duration::from_millis(100), "{:?}", asked.elapsed());
        assert!(pondered > 0);
        engine.handle("play", &["w", "E5"]).unwrap();
        let answer = engine.handle("genmove", &["b"]).unwrap();
        assert_ne!(answer, "E5");
        assert_eq!(engine.game().moves().len(), 3);
    }

    // `kgs-rules` and `kata-set-rules` read the one table of rule names: KGS's japanese is
    // simple ko with territory counting (a retaken ko that superko would refuse is legal), its
    // aga and new_zealand are situational superko; the komi set before stays.
    #[test]
    fn rule_names_from_kgs_and_katago() {
        let mut engine = Engine::new(9, Rules::chinese(), 3);
        engine.handle("komi", &["5.5"]).unwrap();
        engine.handle("kgs-rules", &["japanese"]).unwrap();
        assert_eq!(engine.game().rules(), &Rules { komi: 5.5, ..Rules::japanese() });
        for name in ["aga", "new_zealand"] {
            engine.handle("kgs-rules", &[name]).unwrap();
            assert_eq!(engine.game().rules().ko, KoRule::Situational, "{name}");
            engine.handle("kata-set-rules", &[name]).unwrap();
            assert_eq!(engine.game().rules().ko, KoRule::Situational, "{name}");
        }
        assert_eq!(engine.game().rules(), &Rules { komi: 5.5, ..Rules::new_zealand() });
        assert!(engine.handle("kgs-rules", &["martian"]).is_err());
        assert_eq!(engine.game().rules(), &Rules { komi: 5.5, ..Rules::new_zealand() });
    }

    // Six stones on 9×9: white's search sees a lost game and lowers its own target, black's
    // sees a won one and raises its own; with the step at 0 nothing moves.
    #[test]
    fn dynamic_komi_follows_lopsided_handicap_games() {
        let play = |step: &str| {
            let mut engine = Engine::new(9, Rules::chinese(), 3);
            engine.set_search_params(SearchParams { playouts: 1000, ..SearchParams::default() });
            engine.handle("fixed_handicap", &["6"]).unwrap();
            engine.handle("kata-set-param", &["dynamic_komi", step]).unwrap();
            engine.handle("genmove", &["w"]).unwrap();
            let white = engine.last_estimate().unwrap().0;
            engine.handle("genmove", &["b"]).unwrap();
            let black = engine.last_estimate().unwrap().0;
            assert!(white < dynamic_komi::LOW && black > dynamic_komi::HIGH, "{white} {black}");
            (engine.dynamic_komi.bias(Color::White), engine.dynamic_komi.bias(Color::Black))
        };
        assert_eq!(play("auto"), (-2.0, 2.0));
        assert_eq!(play("3"), (-3.0, 3.0));
        assert_eq!(play("0"), (0.0, 0.0));
        let mut engine = Engine::new(9, Rules::chinese(), 3);
        assert!(engine.handle("kata-set-param", &["dynamic_komi", "-1"]).is_err());
        assert_eq!(engine.param("dynamic_komi").as_deref(), Some("0"), "off by default");
        engine.handle("kata-set-param", &["dynamic_komi", "auto"]).unwrap();
        assert_eq!(engine.param("dynamic_komi").as_deref(), Some("auto"));
    }

    // Through the I/O loop: every command still gets its one answer, and the ponder of the
    // last genmove is stopped when the input ends.
    #[test]
    fn pondering_through_the_loop() {
        let mut engine = pondering_engine(Duration::from_secs(30));
        let out = crate::gtp::server::run_on_text(
            &mut engine,
            b"1 genmove b\n2 play w E5\n3 genmove b\n4 name\n",
        );
        let answers: Vec<&str> = out.split("\n\n").filter(|a| !a.is_empty()).collect();
        assert_eq!(answers.len(), 4, "{out}");
        assert!(answers.iter().all(|a| a.starts_with('=')), "{out}");
        assert!(engine.pondering.is_none(), "stopped at the end of input");
    }

    // With a fixed time per move, time saved is lost: the search runs to the deadline even
    // where early stop would have ended it (on 5×5 the centre is clear long before).
    #[test]
    fn fixed_time_per_move_is_used_in_full() {
        let limit = Duration::from_millis(400);
        let mut engine = Engine::new(5, Rules::chinese(), 3);
        engine.set_search_params(SearchParams {
            playouts: usize::MAX,
            time_limit: Some(limit),
            threads: 1,
            ..SearchParams::default()
        });
        let started = Instant::now();
        engine.handle("genmove", &["b"]).unwrap();
        assert!(started.elapsed() >= limit.mul_f64(0.95), "{:?}", started.elapsed());
    }

    // One thread, a seed and a playout count: the same moves every time, tree reuse included.
    #[test]
    fn genmove_is_reproducible_with_one_thread() {
        let moves = || {
            let mut engine = Engine::new(9, Rules::chinese(), 11);
            engine.set_search_params(SearchParams {
                playouts: 800,
                threads: 1,
                seed: 11,
                ..SearchParams::default()
            });
            let mut answers = Vec::new();
            for color in ["b", "w", "b", "w", "b"] {
                answers.push(engine.handle("genmove", &[color]).unwrap());
            }
            answers
        };
        let first = moves();
        assert_eq!(first, moves());
        assert_eq!(first, moves());
    }

    // A ponder never runs past its cap, even if no command ever comes.
    #[test]
    fn pondering_stops_at_its_cap() {
        let mut engine = pondering_engine(Duration::from_millis(50));
        engine.handle("genmove", &["b"]).unwrap();
        engine.start_pondering();
        let started = Instant::now();
        while !engine.pondering.as_ref().unwrap().handle.is_finished() {
            assert!(started.elapsed() < Duration::from_secs(5), "still pondering");
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(engine.stop_pondering().is_some());
    }
}
