//! Executes typed GTP commands against a game and formats the results as GTP text. Errors are
//! the GTP error texts the specification and the GUIs expect; the detailed reason (why a move
//! is illegal, why a file did not load) goes to the log.

use crate::board::color::Color;
use crate::board::vertex::{format_move, format_vertex, Vertex};
use crate::board::{Board, Move, Point};
use crate::game::clock::Clock;
use crate::game::display;
use crate::game::record::{self, RecordInfo};
use crate::game::rules::{HandicapBonus, KoRule, Rules, Scoring};
use crate::game::score::Score;
use crate::game::sgf;
use crate::game::{Game, HandicapError};
use crate::gtp::analysis::analysis_line;
use crate::gtp::command::{parse, AnalysisRequest, Command, GtpError, StatusKind, COMMAND_NAMES};
use crate::gtp::json::{self, Value};
use crate::gtp::params::{self, Settings, Value as ParamValue, PARAMS};
use crate::search::ownership::{Ownership, Status};
use crate::search::player::{MoveRequest, Player};
use crate::search::{Reporter, SearchParams, SearchResult};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What GoGui lists in its Analyze menu: `type/label/command`.
const GOGUI_ANALYZE_COMMANDS: &[&str] = &[
    "gfx/Ownership/tengen-ownership",
    "gfx/Best moves/tengen-best_moves",
    "gfx/Principal variation/tengen-pv",
    "plist/Dead stones/final_status_list dead",
    "string/Score estimate/final_score",
    "param/Search parameters/tengen-param",
];

/// Playouts at most behind the GoGui best-move and variation displays, so they answer fast.
const GFX_PLAYOUTS: usize = 5000;

/// The engine state a GTP session works on: the game, its clock, and the player.
pub struct Engine {
    game: Game,
    /// Rules for the next game: `boardsize` and `clear_board` start over with these.
    rules: Rules,
    clock: Clock,
    /// What the parameter table sets: the player's settings and the GTP layer's own.
    settings: Settings,
    /// Chooses the moves, ponders, and owns the searcher with its tree.
    player: Player,
    started: Instant,
    /// Folder that relative `loadsgf`/`printsgf` paths start from (the process's working
    /// directory when `None`): regression scripts name files relative to themselves.
    files_dir: Option<std::path::PathBuf>,
    /// Clean up before passing in every game, as `kgs-genmove_cleanup` does: for servers
    /// such as CGOS that score with every stone on the board as alive.
    capture_all_dead: bool,
    /// Root visits after the last analysis slice.
    analysis_visits: u32,
    /// What `version` answers: the crate's version unless overridden (`--override-version`,
    /// for GUIs such as Lizzie that judge an engine by its Leela Zero version number).
    version: String,
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
            settings: Settings::default(),
            player: Player::new(seed),
            started: Instant::now(),
            files_dir: None,
            capture_all_dead: false,
            analysis_visits: 0,
            version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }

    /// The flag that interrupts a running `genmove` (GoGui's `# interrupt`).
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        self.player.interrupt_flag()
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
        self.player.set_ponder(cap);
    }

    /// Starts pondering if a `genmove` has just played and pondering is on. The I/O loop
    /// calls this after writing a response, when the engine would otherwise sit idle.
    pub fn start_pondering(&mut self) {
        self.player.start_pondering(&self.game, &self.settings.player);
    }

    /// Stops pondering, if it runs, and takes the searcher back with its tree. Returns the
    /// simulations the ponder ran. The I/O loop calls this as soon as a line arrives.
    pub fn stop_pondering(&mut self) -> Option<usize> {
        self.player.stop_pondering()
    }

    /// Sets the search's parameters (playouts per move and the rest); the playout budget
    /// counts as chosen, so it binds under a controller's clock too.
    pub fn set_search_params(&mut self, params: SearchParams) {
        self.settings.player.search = params;
        self.settings.player.playouts_given = true;
    }

    /// Resign below this win rate; 0 never resigns.
    pub fn set_resign_threshold(&mut self, threshold: f64) {
        self.settings.player.resign_threshold = threshold;
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
        self.player.last_estimate()
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Everything a command may change, as text: the game, the next game's rules, the clock,
    /// the settings and the options. A command answered with an error leaves it as it was
    /// (`examples/fuzz_gtp.rs` checks that on millions of lines).
    pub fn state_fingerprint(&self) -> String {
        format!(
            "{:?}",
            (&self.game, &self.rules, &self.clock, &self.settings, self.capture_all_dead)
        )
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
                self.player.prepare_for_size(size as usize);
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
                self.player.set_seed(seed);
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
                let search = &self.settings.player.search;
                let params = SearchParams {
                    playouts: search.playouts.min(GFX_PLAYOUTS),
                    seed: self.player.next_seed(),
                    ..search.clone()
                };
                let result = self.player.search(&self.game, &params);
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
                Ok(format!("LABEL {}", best_move_labels(board, &result)))
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

    /// Asks the player for a move for `color`, played if `commit`, and answers it as GTP
    /// writes it (`resign` included). With `cleanup` the player never passes while it sees
    /// dead opponent stones, so they get captured first.
    fn genmove(&mut self, color: Color, commit: bool, cleanup: bool) -> Result<String, GtpError> {
        // GoGui's live graphics: the best moves so far, on stderr, twice a second.
        let board = self.game.board().clone();
        let mut gfx = |result: &SearchResult| {
            eprintln!("gogui-gfx:\nLABEL {}\n", best_move_labels(&board, result));
        };
        let every = Duration::from_millis(500);
        let reporter: Option<Reporter> = self.settings.live_gfx.then_some((every, &mut gfx));
        let request = MoveRequest { color, commit, cleanup };
        let chosen = self.player.genmove(
            &mut self.game,
            &mut self.clock,
            &self.settings.player,
            request,
            reporter,
        );
        Ok(self.move_text(chosen))
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
        let model_prior = self.settings.player.search.model_prior;
        let mut report = |result: &SearchResult| {
            emit(analysis_line(&game, color, request, result, &[], model_prior));
        };
        let every = Duration::from_millis(10 * u64::from(request.interval_cs.max(1)));
        let mut settings = self.settings.player.clone();
        settings.search.track_ownership = request.ownership || request.ownership_stdev;
        let request = MoveRequest { color, commit: true, cleanup: self.capture_all_dead };
        let reporter: Reporter = (every, &mut report);
        let chosen = self.player.genmove(
            &mut self.game,
            &mut self.clock,
            &settings,
            request,
            Some(reporter),
        );
        self.move_text(chosen)
    }

    /// A chosen move as GTP writes it: `None` is `resign`.
    fn move_text(&self, chosen: Option<Move>) -> String {
        match chosen {
            Some(mv) => format_move(self.game.board(), mv),
            None => "resign".to_string(),
        }
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
        // Deterministic: one seed for the whole analysis, the simulations numbered on
        // across slices, so that where the slices fall does not matter.
        let deterministic = self.settings.player.search.deterministic;
        let params = SearchParams {
            playouts: usize::MAX,
            time_limit: Some(slice),
            early_stop: false,
            seed: if deterministic { self.player.seed() } else { self.player.next_seed() },
            number_from_root_visits: deterministic,
            root_avoid,
            max_root_visits: request.max_visits,
            track_ownership: request.ownership || request.ownership_stdev,
            ..self.settings.player.search.clone()
        };
        let result = self.player.search(&game, &params);
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

    fn ownership(&mut self) -> Ownership {
        self.player.ownership(&self.game, &self.settings.player)
    }

    fn statuses(&mut self) -> Vec<(Vec<Point>, Status)> {
        self.player.statuses(&self.game, &self.settings.player)
    }

    fn final_score(&mut self) -> Score {
        self.player.final_score(&self.game, &self.settings.player)
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
        self.player.prepare_for_size(game.board().size());
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

/// GoGui's labels for the five most visited moves with their win rates (`D4 55% Q16 52%`),
/// behind `tengen-best_moves` and the live graphics.
fn best_move_labels(board: &Board, result: &SearchResult) -> String {
    let labels: Vec<String> = result
        .candidates
        .iter()
        .filter(|(mv, visits, _)| *visits > 0 && *mv != Move::Pass)
        .take(5)
        .map(|&(mv, _, rate)| format!("{} {:.0}%", format_move(board, mv), 100.0 * rate))
        .collect();
    labels.join(" ")
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
        assert!(!engine.player.is_pondering(), "nothing to ponder before a genmove");
        engine.handle("genmove", &["b"]).unwrap();
        engine.start_pondering();
        assert!(engine.player.is_pondering());
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

    // `dynamic_komi` through the parameter table: off by default, `auto` or a step, nothing
    // negative (what the bias does is tested beside the player).
    #[test]
    fn dynamic_komi_is_a_parameter() {
        let mut engine = Engine::new(9, Rules::chinese(), 3);
        assert!(engine.handle("kata-set-param", &["dynamic_komi", "-1"]).is_err());
        assert_eq!(engine.param("dynamic_komi").as_deref(), Some("0"), "off by default");
        engine.handle("kata-set-param", &["dynamic_komi", "auto"]).unwrap();
        assert_eq!(engine.param("dynamic_komi").as_deref(), Some("auto"));
        assert_eq!(engine.settings.player.dynamic_komi_step, None);
        engine.handle("kata-set-param", &["dynamic_komi", "3"]).unwrap();
        assert_eq!(engine.settings.player.dynamic_komi_step, Some(3.0));
    }

    // Through the I/O loop: every command still gets its one answer, and the ponder of the
    // last genmove is stopped when the input ends. (Input comes at once here, so there is
    // no time to ponder: that pondering runs and its tree is kept is checked through the
    // binary, in tests/pondering.rs.)
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
        assert!(!engine.player.is_pondering(), "stopped at the end of input");
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
}
