//! The `tengen` command line: argument parsing and dispatch only.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::time::Duration;
use tengen::cli::bench::Position;
use tengen::cli::terminal::{self, TerminalOptions};
use tengen::client::matchplay::game::{Cleanup, TimeSettings};
use tengen::client::matchplay::stats::Sprt;
use tengen::client::matchplay::{MatchSettings, Shard};
use tengen::client::regress;
use tengen::game::display::Style;
use tengen::game::rules::{preset_names, Rules};
use tengen::gtp::{params, server, Engine};
use tengen::search::policy::PlayoutPolicy;
use tengen::Color;

#[derive(Parser)]
#[command(
    name = "tengen",
    version,
    about = "A Go engine: GTP v2, Monte Carlo tree search, Chinese rules",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    /// Log level on stderr (error, warn, info, debug, trace); RUST_LOG also works.
    #[arg(long, global = true, default_value = "warn")]
    log_level: String,
    /// Shorthand for --log-level info (-vv: debug).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
    /// The engine's options, for `tengen` without a subcommand (as `tengen gtp`).
    #[command(flatten)]
    gtp: GtpArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak GTP on stdin/stdout (the default).
    Gtp(GtpArgs),
    /// Replay GTP regression scripts (*.tst) against an engine (this tengen by default).
    Regress {
        /// Engine command: program and arguments, separated by spaces.
        #[arg(long)]
        engine: Option<String>,
        /// Seconds to wait for each response before reporting the engine as hung.
        #[arg(long, default_value_t = 60.0)]
        timeout: f64,
        /// Also write the results as JUnit XML to this file.
        #[arg(long)]
        junit: Option<PathBuf>,
        /// Script files, or folders whose *.tst files are replayed.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Play a game against tengen in the terminal.
    Play(PlayArgs),
    /// Play games between two GTP engines (a gogui-twogtp replacement).
    Match(Box<MatchArgs>),
    /// Merge results files of one match (its shards) into the summary one run would print,
    /// naming duplicate and missing games.
    MatchReport {
        /// The match's number of games, for naming the missing ones (default: the highest
        /// game number found).
        #[arg(long)]
        games: Option<usize>,
        /// The sequential test to judge the merged games by: "ELO0,ELO1".
        #[arg(long)]
        sprt: Option<String>,
        /// Results files written by `tengen match --results`.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Measure light playouts, play+undo and full-search speed (single thread).
    Bench {
        /// Seconds to spend on each figure.
        #[arg(long, default_value_t = 2.0)]
        seconds: f64,
        /// Seed of the random generator.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// How the GTP engine plays and presents itself.
#[derive(clap::Args)]
struct GtpArgs {
    #[command(flatten)]
    engine: EngineArgs,
    /// Answer `version` with VERSION (KataGo's option): Lizzie warns about any engine whose
    /// version is below Leela Zero's 0.15, so give it e.g. 0.17.
    #[arg(long, value_name = "VERSION")]
    override_version: Option<String>,
}

#[derive(clap::Args)]
struct PlayArgs {
    #[command(flatten)]
    engine: EngineArgs,
    /// Your colour: black or white.
    #[arg(long, default_value = "black", value_parser = ["black", "white", "b", "w"])]
    color: String,
    /// Handicap stones for black, on the fixed points (2 to 9).
    #[arg(long, default_value_t = 0)]
    handicap: usize,
    /// Draw the board with X and O instead of Unicode stones.
    #[arg(long)]
    ascii: bool,
}

/// How the engine plays: shared by `gtp` and `play`.
#[derive(clap::Args)]
struct EngineArgs {
    /// Rules preset for new games: chinese (default), tromp-taylor, japanese, ancient.
    #[arg(long, default_value = "chinese")]
    rules: String,
    /// Komi; the preset's own when not given.
    #[arg(long, allow_negative_numbers = true)]
    komi: Option<f64>,
    /// Board size at start.
    #[arg(long, default_value_t = 19)]
    size: usize,
    /// Seed for every random choice.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Every parameter of the one table (`gtp/params.rs`) as `--KEY VALUE`.
    #[command(flatten)]
    table: ParamArgs,
    /// Set a parameter of the table `kata-get-params` lists by its key, e.g. `--param
    /// exploration=0.1` (repeatable; the same as `--exploration 0.1`).
    #[arg(long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// Capture every dead opponent stone before passing (for servers such as CGOS that
    /// count every stone on the board as alive).
    #[arg(long)]
    capture_all_dead: bool,
    /// Think on the opponent's time after each genmove, for at most SECONDS (default 300).
    #[arg(long, num_args = 0..=1, default_missing_value = "300", value_name = "SECONDS")]
    ponder: Option<f64>,
}

/// The parameters given on the command line, in the order of the table: one flag each,
/// made from the table, so that clap's help, its checks and GTP's `kata-set-param` read the
/// same keys, ranges and help texts.
struct ParamArgs(Vec<(&'static str, String)>);

impl clap::FromArgMatches for ParamArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let given = params::PARAMS.iter().filter_map(|param| {
            matches.get_one::<String>(param.key).map(|value| (param.key, value.clone()))
        });
        Ok(ParamArgs(given.collect()))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = ParamArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for ParamArgs {
    fn augment_args(command: clap::Command) -> clap::Command {
        command.args(params::PARAMS.iter().map(|param| {
            let flag: &'static str = Box::leak(param.flag().into_boxed_str());
            clap::Arg::new(param.key)
                .long(flag)
                .value_name("VALUE")
                .allow_negative_numbers(true)
                .help(param.help)
                .value_parser(move |text: &str| param.parse(text).map(|_| text.to_string()))
        }))
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

impl ParamArgs {
    fn given(&self, key: &str) -> bool {
        self.0.iter().any(|(k, _)| *k == key)
    }
}

#[derive(clap::Args)]
struct MatchArgs {
    /// Command of the first engine (black in the first game), e.g. "tengen gtp --playouts 1000
    /// --seed {game}": `{game}` in any command becomes the game number.
    #[arg(long)]
    black: String,
    /// Command of the second engine.
    #[arg(long)]
    white: String,
    /// Number of games.
    #[arg(long, default_value_t = 1)]
    games: usize,
    #[arg(long, default_value_t = 19)]
    size: usize,
    /// Komi; the rules preset's own when not given.
    #[arg(long, allow_negative_numbers = true)]
    komi: Option<f64>,
    /// The arbiter's rules (legality of moves): chinese, tromp-taylor, japanese.
    #[arg(long, default_value = "chinese")]
    rules: String,
    /// Swap colours every other game.
    #[arg(long)]
    alternate: bool,
    /// GTP time settings for both engines: "MAIN BYO STONES" in seconds (Canadian overtime).
    #[arg(long, conflicts_with = "time_per_move")]
    time_settings: Option<String>,
    /// Seconds per move (sent as time_settings 0 S 1).
    #[arg(long)]
    time_per_move: Option<f64>,
    /// Seconds a move may take beyond the clock before the player loses on time.
    #[arg(long, default_value_t = 1.0)]
    lag: f64,
    /// Seconds to wait for an answer when no clock is running before calling an engine hung.
    #[arg(long, default_value_t = 600.0)]
    timeout: f64,
    /// Command of a referee engine that scores finished games (e.g. GNU Go); `{game}` too.
    #[arg(long)]
    referee: Option<String>,
    /// Write one SGF file per game into this folder.
    #[arg(long)]
    sgf_dir: Option<PathBuf>,
    /// Start games from the moves of these SGF files (a file or a folder of them).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Fixed handicap stones for black in every game (GTP fixed_handicap, 2 to 9); white
    /// then moves first. Not with --openings.
    #[arg(long, default_value_t = 0, conflicts_with = "openings")]
    handicap: usize,
    /// Stop a game unscored after this many moves (default: 3 per point of the board).
    #[arg(long)]
    max_moves: Option<usize>,
    /// When a game that ended in two passes goes on in a cleanup phase (kgs-genmove_cleanup
    /// until two passes, then counted with every stone alive): disagree (when the players'
    /// and the referee's final_score differ), always, never (the referee decides).
    #[arg(long, default_value = "disagree")]
    cleanup: String,
    /// Stop a cleanup phase unscored after this many moves, passes included (default: one
    /// per point of the board).
    #[arg(long)]
    cleanup_moves: Option<usize>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    parallel: usize,
    /// One JSON line per game; a match started again with the same file resumes.
    #[arg(long)]
    results: Option<PathBuf>,
    /// Stop when a sequential test between two Elo differences decides: "ELO0,ELO1".
    #[arg(long)]
    sprt: Option<String>,
    /// Play only shard K of N (from 0): the games numbered K+1, K+1+N, …, exactly as in the
    /// whole match; merge the shards' results files with `tengen match-report`.
    #[arg(long, value_name = "K/N", conflicts_with = "sprt")]
    shard: Option<String>,
}

fn main() {
    let cli = Cli::parse();
    let level = match cli.verbose {
        0 => cli.log_level.as_str(),
        1 => "info",
        _ => "debug",
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level))
        .target(env_logger::Target::Stderr)
        .init();
    match cli.command {
        // No subcommand: GTP with the options given at the top level.
        None => run_gtp(cli.gtp),
        Some(Command::Gtp(args)) => run_gtp(args),
        Some(Command::Bench { seconds, seed }) => run_bench(seconds, seed),
        Some(Command::Match(args)) => std::process::exit(run_match(*args)),
        Some(Command::MatchReport { games, sprt, files }) => {
            std::process::exit(run_match_report(games, sprt.as_deref(), &files))
        }
        Some(Command::Play(args)) => std::process::exit(run_play(args)),
        Some(Command::Regress { engine, timeout, junit, paths }) => {
            std::process::exit(run_regress(engine, timeout, junit, &paths))
        }
    }
}

fn run_gtp(args: GtpArgs) {
    let mut engine = build_engine(&args.engine)
        .and_then(|mut engine| {
            if let Some(version) = &args.override_version {
                engine
                    .set_version(version)
                    .map_err(|e| format!("--override-version {version:?}: {e}"))?;
            }
            Ok(engine)
        })
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2);
        });
    let stdin = std::io::BufReader::new(std::io::stdin());
    let stdout = std::io::stdout().lock();
    if let Err(e) = server::run(&mut engine, stdin, stdout) {
        log::error!("GTP stream failed: {e}");
        std::process::exit(1);
    }
}

fn build_engine(args: &EngineArgs) -> Result<Engine, String> {
    let mut rules = Rules::named(&args.rules).ok_or_else(|| {
        format!("unknown rules '{}'; choose one of {}", args.rules, preset_names().join(", "))
    })?;
    if let Some(komi) = args.komi.filter(|k| k.is_finite()) {
        rules.komi = komi;
    }
    if !tengen::Board::is_valid_size(args.size) {
        return Err(format!("board size {} unsupported; 2 to 25", args.size));
    }
    let mut engine = Engine::new(args.size, rules, args.seed);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = tengen::search::clamp_threads(cores).to_string();
    engine.set_param("threads", &threads).map_err(|e| e.to_string())?;
    let table = args.table.0.iter().map(|(key, value)| (*key, value.as_str(), "--"));
    let keyed = args.params.iter().map(|setting| match setting.split_once('=') {
        Some((key, value)) => Ok((key, value, "--param ")),
        None => Err(format!("--param {setting}: expected KEY=VALUE")),
    });
    for setting in table.map(Ok).chain(keyed) {
        let (key, value, how) = setting?;
        engine.set_param(key, value).map_err(|e| format!("{how}{key} {value}: {e}"))?;
    }
    // A time per move without a playout budget thinks for the whole time.
    if args.table.given("time")
        && !args.table.given("playouts")
        && engine.param("time").as_deref() != Some("0")
    {
        engine.set_param("playouts", "1000000000000").map_err(|e| e.to_string())?;
    }
    engine.set_capture_all_dead(args.capture_all_dead);
    let ponder = args.ponder.filter(|s| s.is_finite() && *s > 0.0);
    engine.set_ponder(
        ponder.map(|s| Duration::from_secs_f64(s.min(tengen::game::clock::MAX_THINK_SECONDS))),
    );
    Ok(engine)
}

fn run_play(args: PlayArgs) -> i32 {
    let mut engine = match build_engine(&args.engine) {
        Ok(engine) => engine,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    if args.handicap > 0 {
        let stones = i64::try_from(args.handicap).unwrap_or(i64::MAX);
        if let Err(e) = engine.execute(tengen::gtp::command::Command::FixedHandicap(stones)) {
            eprintln!("handicap {}: {e}", args.handicap);
            return 2;
        }
    }
    let human = if args.color.starts_with('w') { Color::White } else { Color::Black };
    let style = if args.ascii { Style::Ascii } else { Style::Unicode };
    let options = TerminalOptions { human, style };
    let stdin = std::io::stdin().lock();
    match terminal::play(&mut engine, options, stdin, &mut std::io::stdout()) {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

fn run_regress(
    engine: Option<String>,
    timeout: f64,
    junit: Option<PathBuf>,
    paths: &[PathBuf],
) -> i32 {
    let engine = engine.unwrap_or_else(|| match std::env::current_exe() {
        Ok(exe) => format!("{} gtp", exe.display()),
        Err(_) => "tengen gtp".to_string(),
    });
    let files = match regress::collect_scripts(paths) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let timeout = Duration::from_secs_f64(timeout.clamp(0.001, 86_400.0));
    let reports: Vec<_> = files.iter().map(|f| regress::run_file(f, &engine, timeout)).collect();
    // A closed stdout still leaves the JUnit file and the exit status to report.
    report(format_args!("{}", regress::format_report(&reports).trim_end()));
    if let Some(path) = junit {
        if let Err(e) = std::fs::write(&path, regress::junit_xml(&reports)) {
            eprintln!("cannot write {}: {e}", path.display());
            return 2;
        }
    }
    if reports.iter().any(|r| r.error.is_some()) {
        2
    } else if regress::all_expected(&reports) {
        0
    } else {
        1
    }
}

fn run_match(args: MatchArgs) -> i32 {
    match match_settings(args) {
        Ok(settings) => {
            let mut out = std::io::stdout();
            match tengen::client::matchplay::run_match(&settings, &mut out) {
                Ok(summary) => {
                    report(format_args!("{}", summary.table().trim_end()));
                    0
                }
                Err(e) => {
                    eprintln!("{e}");
                    2
                }
            }
        }
        Err(e) => {
            eprintln!("{e}");
            2
        }
    }
}

fn match_settings(args: MatchArgs) -> Result<MatchSettings, String> {
    let mut rules = Rules::named(&args.rules).ok_or_else(|| {
        format!("unknown rules '{}'; choose one of {}", args.rules, preset_names().join(", "))
    })?;
    if let Some(komi) = args.komi {
        if !komi.is_finite() {
            return Err("komi must be a number".into());
        }
        rules.komi = komi;
    }
    if !tengen::Board::is_valid_size(args.size) {
        return Err(format!("board size {} unsupported; 2 to 25", args.size));
    }
    let time = match (&args.time_settings, args.time_per_move) {
        (Some(text), _) => Some(parse_time_settings(text)?),
        (None, Some(seconds)) if seconds.is_finite() && seconds > 0.0 => {
            Some(TimeSettings { main: 0.0, period: seconds, stones: 1 })
        }
        (None, Some(_)) => return Err("--time-per-move must be a positive number".into()),
        (None, None) => None,
    };
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    if args.handicap > 0 {
        let mut game = tengen::Game::new(args.size, rules.clone());
        game.place_fixed_handicap(args.handicap)
            .map_err(|e| format!("--handicap {}: {e}", args.handicap))?;
    }
    let cleanup = Cleanup::from_name(&args.cleanup).ok_or_else(|| {
        format!("--cleanup {:?}: choose one of {}", args.cleanup, Cleanup::NAMES.join(", "))
    })?;
    let cleanup_moves = args.cleanup_moves.unwrap_or(args.size * args.size);
    if cleanup_moves < 2 {
        return Err("--cleanup-moves must be at least 2 (the two closing passes)".into());
    }
    let openings = match &args.openings {
        Some(path) => tengen::client::matchplay::load_openings(path, args.size, &rules)?,
        None => Vec::new(),
    };
    let finite_seconds = |value: f64, name: &str| {
        if value.is_finite() && value >= 0.0 {
            Ok(value.min(tengen::game::clock::MAX_THINK_SECONDS))
        } else {
            Err(format!("--{name} must be a number of seconds"))
        }
    };
    Ok(MatchSettings {
        engines: [args.black, args.white],
        referee: args.referee,
        games: args.games,
        size: args.size,
        rules,
        alternate: args.alternate,
        time,
        lag: finite_seconds(args.lag, "lag")?,
        timeout: Duration::from_secs_f64(finite_seconds(args.timeout, "timeout")?.max(0.001)),
        max_moves: args.max_moves.unwrap_or(3 * args.size * args.size),
        openings,
        handicap: args.handicap,
        cleanup,
        cleanup_moves,
        sgf_dir: args.sgf_dir,
        results: args.results,
        parallel: args.parallel.max(1),
        sprt,
        shard,
    })
}

/// "ELO0,ELO1", the two Elo differences of a sequential test.
fn parse_sprt(text: &str) -> Result<Sprt, String> {
    let parts: Vec<f64> = text.split(',').filter_map(|p| p.trim().parse().ok()).collect();
    match parts[..] {
        [elo0, elo1] if elo0.is_finite() && elo1.is_finite() && elo0 != elo1 => {
            Ok(Sprt::new(elo0, elo1))
        }
        _ => Err(format!("--sprt {text:?}: expected two different Elo values, ELO0,ELO1")),
    }
}

fn run_match_report(games: Option<usize>, sprt: Option<&str>, files: &[PathBuf]) -> i32 {
    let merged = sprt
        .map(parse_sprt)
        .transpose()
        .and_then(|sprt| tengen::client::matchplay::merge_results(files, games, sprt));
    match merged {
        Ok(merged) => {
            report(format_args!("{}", merged.text().trim_end()));
            0
        }
        Err(e) => {
            eprintln!("{e}");
            2
        }
    }
}

/// "MAIN BYO STONES", as GTP's time_settings takes them.
fn parse_time_settings(text: &str) -> Result<TimeSettings, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let error =
        || format!("--time-settings {text:?}: expected \"MAIN BYO STONES\", e.g. \"60 10 5\"");
    let [main, period, stones] = words[..] else { return Err(error()) };
    let seconds = |w: &str| w.parse::<f64>().ok().filter(|s| s.is_finite() && *s >= 0.0);
    Ok(TimeSettings {
        main: seconds(main).ok_or_else(error)?,
        period: seconds(period).ok_or_else(error)?,
        stones: stones.parse().map_err(|_| error())?,
    })
}

fn run_bench(seconds: f64, seed: u64) {
    let budget = Duration::from_secs_f64(seconds.clamp(0.01, 3600.0));
    let figures = [
        tengen::cli::bench::light_playouts(9, budget, seed),
        tengen::cli::bench::light_playouts(19, budget, seed),
        tengen::cli::bench::play_undo(19, budget, seed),
    ];
    for figure in figures {
        print_figure(&figure);
    }
    for size in [9, 19] {
        let light = tengen::cli::bench::policy_playouts(size, PlayoutPolicy::Light, budget, seed);
        print_figure(&light);
        for policy in [PlayoutPolicy::Tactical, PlayoutPolicy::Patterns] {
            let heavy = tengen::cli::bench::policy_playouts(size, policy, budget, seed);
            print_figure(&heavy);
            report_or_stop(format_args!(
                "{:<40} {:>10.2}x",
                "  cost against light",
                light.per_second() / heavy.per_second()
            ));
        }
    }
    for (size, playouts) in [(9, 100_000), (19, 30_000)] {
        for position in [Position::Empty, Position::MiddleGame] {
            let speed = |threads, deterministic| {
                tengen::cli::bench::search_speed(
                    size,
                    playouts,
                    seed,
                    threads,
                    position,
                    deterministic,
                )
            };
            let (one, two, waves) = (speed(1, false), speed(2, false), speed(2, true));
            print_figure(&one);
            print_figure(&two);
            report_or_stop(format_args!(
                "{:<40} {:>10.2}x",
                "  2 threads / 1 thread",
                two.per_second() / one.per_second()
            ));
            print_figure(&waves);
            report_or_stop(format_args!(
                "{:<40} {:>10.2}x",
                "  deterministic / free-running",
                waves.per_second() / two.per_second()
            ));
        }
    }
}

fn print_figure(figure: &tengen::cli::bench::Figure) {
    report_or_stop(format_args!(
        "{:<40} {:>10.0} /s   ({} in {:.2} s, checksum {})",
        figure.name,
        figure.per_second(),
        figure.count,
        figure.elapsed.as_secs_f64(),
        figure.checksum
    ));
}

/// Writes one line of a report to stdout; `false` when the reader has gone away (`tengen
/// bench | head -3`), where `println!` would panic.
fn report(line: std::fmt::Arguments) -> bool {
    use std::io::Write;
    writeln!(std::io::stdout().lock(), "{line}").is_ok()
}

/// [`report`] for the bench, which has nothing left to do once nobody reads it: it ends
/// quietly, as Unix tools do.
fn report_or_stop(line: std::fmt::Arguments) {
    if !report(line) {
        std::process::exit(0);
    }
}
