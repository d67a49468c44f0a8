//! GTP commands as typed values, and the one table of command names that drives dispatch,
//! `list_commands` and `known_command`. Parsing only checks the shape of the arguments
//! (counts, numbers, colours, vertex syntax); whether a value is acceptable for the game — a
//! board size, a vertex on this board — is the engine's business.

use crate::board::color::Color;
use crate::board::vertex::Vertex;
use crate::game::clock::TimeSystem;
use std::fmt;

/// Every command tengen answers, in the order `list_commands` prints them.
pub const COMMAND_NAMES: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "loadsgf",
    "printsgf",
    "showboard",
    "final_score",
    "final_status_list",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "kgs-genmove_cleanup",
    "kgs-rules",
    "kgs-game_over",
    "kata-time_settings",
    "kata-list_time_settings",
    "kata-get-rules",
    "kata-set-rules",
    "set_random_seed",
    "cputime",
    "gogui-analyze_commands",
    "tengen-count",
    "query_boardsize",
    "get_komi",
    "color",
    "is_legal",
    "lz-analyze",
    "analyze",
    "kata-analyze",
    "gogui-interrupt",
    "kata-get-params",
    "kata-set-param",
    "tengen-param",
    "tengen-ownership",
    "tengen-best_moves",
    "tengen-pv",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "genmove_analyze",
];

/// Which chains `final_status_list` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusKind {
    Alive,
    Dead,
    Seki,
}

/// A parsed command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    /// The requested size; `i64` so that any integer, however silly, reaches the engine's
    /// "unacceptable size" rather than a syntax error.
    BoardSize(i64),
    ClearBoard,
    Komi(f64),
    Play(Color, Vertex),
    GenMove(Color),
    RegGenMove(Color),
    Undo,
    FixedHandicap(i64),
    PlaceFreeHandicap(i64),
    SetFreeHandicap(Vec<Vertex>),
    LoadSgf {
        path: String,
        move_number: Option<i64>,
    },
    PrintSgf(Option<String>),
    ShowBoard,
    FinalScore,
    FinalStatusList(StatusKind),
    TimeSettings {
        main: f64,
        period: f64,
        stones: u32,
    },
    TimeLeft {
        color: Color,
        seconds: f64,
        count: u32,
    },
    SetTimeSystem(TimeSystem),
    GenMoveCleanup(Color),
    KgsRules(String),
    KgsGameOver,
    KataListTimeSettings,
    KataGetRules,
    KataSetRules(String),
    SetRandomSeed(u64),
    CpuTime,
    GoguiAnalyzeCommands,
    ChineseCount,
    /// GNU Go's query commands, which regression scripts use to look at the position.
    QueryBoardSize,
    GetKomi,
    PointColor(Vertex),
    IsLegal(Color, Vertex),
    /// Live analysis: `lz-analyze` and Sabaki's `analyze`; answered by the I/O loop, which
    /// streams lines until the next input arrives.
    Analyze(AnalysisRequest),
    /// GoGui's marker that `# interrupt` lines are understood.
    GoguiInterrupt,
    /// The search parameter table as KataGo's JSON.
    KataGetParams,
    /// One parameter of the table, KataGo's way.
    KataSetParam(String, String),
    /// GoGui's parameter command: the table as `[type] key value` lines without
    /// arguments, one setting with `key value`.
    TengenParam(Option<(String, String)>),
    /// GoGui graphics: the ownership map, the best moves with their win rates, the
    /// principal variation.
    TengenOwnership,
    TengenBestMoves,
    TengenPv,
    /// `genmove` streaming analysis while it thinks; the I/O loop answers it too.
    GenMoveAnalyze(Color, AnalysisRequest),
}

/// Which analysis dialect, as the GUIs parse it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisDialect {
    /// Leela Zero's `lz-analyze`: win rates and priors as integers ×10000.
    LeelaZero,
    /// Sabaki's `analyze`: the same lines.
    Sabaki,
    /// KataGo's `kata-analyze`: win rates as floats, score lead and spread, ownership.
    KataGo,
}

/// An analysis command's settings: `[colour] [interval] [interval N] [minmoves N]
/// [maxmoves N] [avoid COLOUR VERTICES UNTIL] [allow COLOUR VERTICES UNTIL]`.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisRequest {
    pub dialect: AnalysisDialect,
    /// The side to analyse for; the side to move when absent.
    pub color: Option<Color>,
    /// Centiseconds between lines (0: as often as possible).
    pub interval_cs: u32,
    /// Report at least this many moves (unvisited ones included).
    pub min_moves: usize,
    /// Report at most this many moves (0: all).
    pub max_moves: usize,
    /// Root moves to leave out, for the given colour (`avoid`); the vertex list is
    /// comma-separated, the last number is how many moves ahead it applies (at least the
    /// root).
    pub avoid: Vec<(Color, Vec<Vertex>)>,
    /// Root moves to restrict the search to (`allow`).
    pub allow: Vec<(Color, Vec<Vertex>)>,
    /// KataGo's `ownership true`: each point's expected owner, after the moves.
    pub ownership: bool,
    /// `ownershipStdev true`: and its standard deviation.
    pub ownership_stdev: bool,
    /// `rootInfo true`: a `rootInfo` segment for the position itself.
    pub root_info: bool,
    /// `pvVisits true`: the visits of each move of every principal variation.
    pub pv_visits: bool,
    /// `maxvisits N`: stop (and end the response) once the position has this many visits.
    pub max_visits: Option<u32>,
    /// `maxtime S`: stop after this many seconds of analysis.
    pub max_time: Option<f64>,
}

impl AnalysisRequest {
    /// Reads the arguments as Leela Zero and KataGo accept them.
    ///
    /// # Errors
    /// `syntax error` for a malformed argument list.
    pub fn parse(dialect: AnalysisDialect, args: &[&str]) -> Result<AnalysisRequest, GtpError> {
        let mut request = AnalysisRequest {
            dialect,
            color: None,
            interval_cs: 100,
            min_moves: 0,
            max_moves: 0,
            avoid: Vec::new(),
            allow: Vec::new(),
            ownership: false,
            ownership_stdev: false,
            root_info: false,
            pv_visits: false,
            max_visits: None,
            max_time: None,
        };
        let mut rest = args;
        if let Some(c) = rest.first().and_then(|a| Color::parse(a)) {
            request.color = Some(c);
            rest = &rest[1..];
        }
        if let Some(n) = rest.first().and_then(|a| a.parse::<u32>().ok()) {
            request.interval_cs = n;
            rest = &rest[1..];
        }
        let number = |text: Option<&&str>| {
            text.and_then(|t| t.parse::<u32>().ok()).ok_or_else(GtpError::syntax)
        };
        while let Some(&key) = rest.first() {
            match key {
                "interval" => {
                    request.interval_cs = number(rest.get(1))?;
                    rest = &rest[2..];
                }
                "minmoves" => {
                    request.min_moves = number(rest.get(1))? as usize;
                    rest = &rest[2..];
                }
                "maxmoves" => {
                    request.max_moves = number(rest.get(1))? as usize;
                    rest = &rest[2..];
                }
                "avoid" | "allow" => {
                    let (Some(c), Some(list), Some(_until)) =
                        (rest.get(1).and_then(|c| Color::parse(c)), rest.get(2), rest.get(3))
                    else {
                        return Err(GtpError::syntax());
                    };
                    number(rest.get(3))?;
                    let vertices = list
                        .split(',')
                        .filter(|v| !v.is_empty())
                        .map(vertex)
                        .collect::<Result<Vec<_>, _>>()?;
                    if key == "avoid" {
                        request.avoid.push((c, vertices));
                    } else {
                        request.allow.push((c, vertices));
                    }
                    rest = &rest[4..];
                }
                "maxvisits" => {
                    request.max_visits = Some(number(rest.get(1))?);
                    rest = &rest[2..];
                }
                "maxtime" => {
                    let seconds = rest.get(1).and_then(|t| float(t).ok()).filter(|t| *t >= 0.0);
                    request.max_time = Some(seconds.ok_or_else(GtpError::syntax)?);
                    rest = &rest[2..];
                }
                "ownership" | "ownershipStdev" | "rootInfo" | "pvVisits" => {
                    let on = match rest.get(1) {
                        Some(&"true") => true,
                        Some(&"false") => false,
                        _ => return Err(GtpError::syntax()),
                    };
                    match key {
                        "ownership" => request.ownership = on,
                        "ownershipStdev" => request.ownership_stdev = on,
                        "rootInfo" => request.root_info = on,
                        _ => request.pv_visits = on,
                    }
                    rest = &rest[2..];
                }
                _ => return Err(GtpError::syntax()),
            }
        }
        Ok(request)
    }
}

/// A failed command: the text after `?`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GtpError(pub String);

impl GtpError {
    pub fn new(message: impl Into<String>) -> GtpError {
        GtpError(message.into())
    }

    pub fn syntax() -> GtpError {
        GtpError::new("syntax error")
    }
}

impl fmt::Display for GtpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GtpError {}

/// Parses a command name and its arguments.
///
/// # Errors
/// `unknown command` for a name not in [`COMMAND_NAMES`], `syntax error` for arguments of the
/// wrong number or shape.
pub fn parse(name: &str, args: &[&str]) -> Result<Command, GtpError> {
    let arity = |n: usize| {
        if args.len() == n {
            Ok(())
        } else {
            Err(GtpError::syntax())
        }
    };
    let command = match name {
        "protocol_version" => arity(0).map(|_| Command::ProtocolVersion)?,
        "name" => arity(0).map(|_| Command::Name)?,
        "version" => arity(0).map(|_| Command::Version)?,
        "known_command" => {
            arity(1)?;
            Command::KnownCommand(args[0].to_string())
        }
        "list_commands" => arity(0).map(|_| Command::ListCommands)?,
        "quit" => arity(0).map(|_| Command::Quit)?,
        "boardsize" => {
            arity(1)?;
            Command::BoardSize(integer(args[0])?)
        }
        "clear_board" => arity(0).map(|_| Command::ClearBoard)?,
        "komi" => {
            arity(1)?;
            Command::Komi(float(args[0])?)
        }
        "play" => {
            arity(2)?;
            Command::Play(color(args[0])?, vertex(args[1])?)
        }
        "genmove" => Command::GenMove(single_color(args)?),
        "reg_genmove" => Command::RegGenMove(single_color(args)?),
        "kgs-genmove_cleanup" => Command::GenMoveCleanup(single_color(args)?),
        "undo" => arity(0).map(|_| Command::Undo)?,
        "fixed_handicap" => {
            arity(1)?;
            Command::FixedHandicap(integer(args[0])?)
        }
        "place_free_handicap" => {
            arity(1)?;
            Command::PlaceFreeHandicap(integer(args[0])?)
        }
        "set_free_handicap" => {
            let vertices = args.iter().map(|a| vertex(a)).collect::<Result<Vec<_>, _>>()?;
            Command::SetFreeHandicap(vertices)
        }
        "loadsgf" => match args {
            [path] => Command::LoadSgf { path: path.to_string(), move_number: None },
            [path, n] => {
                Command::LoadSgf { path: path.to_string(), move_number: Some(integer(n)?) }
            }
            _ => return Err(GtpError::syntax()),
        },
        "printsgf" => match args {
            [] => Command::PrintSgf(None),
            [path] => Command::PrintSgf(Some(path.to_string())),
            _ => return Err(GtpError::syntax()),
        },
        "showboard" => arity(0).map(|_| Command::ShowBoard)?,
        "final_score" => arity(0).map(|_| Command::FinalScore)?,
        "final_status_list" => {
            arity(1)?;
            Command::FinalStatusList(match args[0].to_ascii_lowercase().as_str() {
                "alive" => StatusKind::Alive,
                "dead" => StatusKind::Dead,
                "seki" => StatusKind::Seki,
                _ => return Err(GtpError::syntax()),
            })
        }
        "time_settings" => {
            arity(3)?;
            Command::TimeSettings {
                main: seconds(args[0])?,
                period: seconds(args[1])?,
                stones: count(args[2])?,
            }
        }
        "time_left" => {
            arity(3)?;
            Command::TimeLeft {
                color: color(args[0])?,
                seconds: seconds(args[1])?,
                count: count(args[2])?,
            }
        }
        "kgs-time_settings" | "kata-time_settings" => Command::SetTimeSystem(time_system(args)?),
        "kgs-rules" => {
            arity(1)?;
            Command::KgsRules(args[0].to_ascii_lowercase())
        }
        "kgs-game_over" => arity(0).map(|_| Command::KgsGameOver)?,
        "kata-list_time_settings" => arity(0).map(|_| Command::KataListTimeSettings)?,
        "kata-get-rules" => arity(0).map(|_| Command::KataGetRules)?,
        "kata-set-rules" => {
            if args.is_empty() {
                return Err(GtpError::syntax());
            }
            Command::KataSetRules(args.join(" "))
        }
        "set_random_seed" => {
            arity(1)?;
            Command::SetRandomSeed(args[0].parse().map_err(|_| GtpError::syntax())?)
        }
        "cputime" => arity(0).map(|_| Command::CpuTime)?,
        "gogui-analyze_commands" => arity(0).map(|_| Command::GoguiAnalyzeCommands)?,
        "kata-get-params" => arity(0).map(|_| Command::KataGetParams)?,
        // Listed so that GoGui knows to send `# interrupt`; as a command it does nothing.
        "gogui-interrupt" => arity(0).map(|_| Command::GoguiInterrupt)?,
        "kata-set-param" => {
            arity(2)?;
            Command::KataSetParam(args[0].to_string(), args[1].to_string())
        }
        "tengen-param" => match args {
            [] => Command::TengenParam(None),
            [key, value] => Command::TengenParam(Some((key.to_string(), value.to_string()))),
            _ => return Err(GtpError::syntax()),
        },
        "tengen-ownership" => arity(0).map(|_| Command::TengenOwnership)?,
        "tengen-best_moves" => arity(0).map(|_| Command::TengenBestMoves)?,
        "tengen-pv" => arity(0).map(|_| Command::TengenPv)?,
        "tengen-count" => arity(0).map(|_| Command::ChineseCount)?,
        "query_boardsize" => arity(0).map(|_| Command::QueryBoardSize)?,
        "get_komi" => arity(0).map(|_| Command::GetKomi)?,
        "color" => {
            arity(1)?;
            Command::PointColor(vertex(args[0])?)
        }
        "is_legal" => {
            arity(2)?;
            Command::IsLegal(color(args[0])?, vertex(args[1])?)
        }
        "lz-analyze" => Command::Analyze(AnalysisRequest::parse(AnalysisDialect::LeelaZero, args)?),
        "analyze" => Command::Analyze(AnalysisRequest::parse(AnalysisDialect::Sabaki, args)?),
        "kata-analyze" => Command::Analyze(AnalysisRequest::parse(AnalysisDialect::KataGo, args)?),
        "lz-genmove_analyze" | "kata-genmove_analyze" | "genmove_analyze" => {
            let dialect = match name {
                "lz-genmove_analyze" => AnalysisDialect::LeelaZero,
                "kata-genmove_analyze" => AnalysisDialect::KataGo,
                _ => AnalysisDialect::Sabaki,
            };
            let request = AnalysisRequest::parse(dialect, args)?;
            // The colour is required here, as for genmove.
            let color = request.color.ok_or_else(GtpError::syntax)?;
            Command::GenMoveAnalyze(color, request)
        }
        _ => return Err(GtpError::new("unknown command")),
    };
    debug_assert!(COMMAND_NAMES.contains(&name), "{name} parsed but not listed");
    Ok(command)
}

fn single_color(args: &[&str]) -> Result<Color, GtpError> {
    match args {
        [c] => color(c),
        _ => Err(GtpError::syntax()),
    }
}

fn color(text: &str) -> Result<Color, GtpError> {
    Color::parse(text).ok_or_else(GtpError::syntax)
}

fn vertex(text: &str) -> Result<Vertex, GtpError> {
    Vertex::parse(text).ok_or_else(GtpError::syntax)
}

/// GTP's largest int: "an unsigned integer in the interval 0 <= x <= 2^31-1".
const GTP_INT_MAX: i64 = (1 << 31) - 1;

/// A GTP int: digits only, at most [`GTP_INT_MAX`]. A sign, or a larger number, is a syntax
/// error (the specification's int has neither).
fn integer(text: &str) -> Result<i64, GtpError> {
    if text.is_empty() || text.len() > 10 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(GtpError::syntax());
    }
    match text.parse::<i64>() {
        Ok(n) if n <= GTP_INT_MAX => Ok(n),
        _ => Err(GtpError::syntax()),
    }
}

/// A finite decimal number; `inf`, `nan` and trailing text are syntax errors.
fn float(text: &str) -> Result<f64, GtpError> {
    let plain = text.bytes().all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b));
    match text.parse::<f64>() {
        Ok(value) if plain && value.is_finite() => Ok(value),
        _ => Err(GtpError::syntax()),
    }
}

/// Seconds where GTP has an int (`time_settings`, `time_left`): digits with a decimal point
/// are accepted, as controllers send them for short moves (`time_settings 0 0.5 1`), but no
/// sign or exponent, and the value must lie in the int's range.
fn seconds(text: &str) -> Result<f64, GtpError> {
    if !text.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(GtpError::syntax());
    }
    match float(text)? {
        s if s <= GTP_INT_MAX as f64 => Ok(s),
        _ => Err(GtpError::syntax()),
    }
}

fn count(text: &str) -> Result<u32, GtpError> {
    integer(text).map(|n| n as u32)
}

/// `none`, `absolute MAIN`, `byoyomi MAIN PERIOD PERIODS`, `canadian MAIN PERIOD STONES`,
/// `fischer MAIN INCREMENT` (the KGS and KataGo forms).
fn time_system(args: &[&str]) -> Result<TimeSystem, GtpError> {
    let (kind, rest) = args.split_first().ok_or_else(GtpError::syntax)?;
    Ok(match (kind.to_ascii_lowercase().as_str(), rest) {
        ("none", []) => TimeSystem::None,
        ("absolute", [main]) => TimeSystem::Absolute { main: seconds(main)? },
        ("byoyomi", [main, period, periods]) => TimeSystem::ByoYomi {
            main: seconds(main)?,
            period: seconds(period)?,
            periods: count(periods)?,
        },
        ("canadian", [main, period, stones]) => TimeSystem::Canadian {
            main: seconds(main)?,
            period: seconds(period)?,
            stones: count(stones)?,
        },
        ("fischer", [main, increment]) => {
            TimeSystem::Fischer { main: seconds(main)?, increment: seconds(increment)? }
        }
        _ => return Err(GtpError::syntax()),
    })
}

#[cfg(test)]
mod analysis_tests {
    use super::*;

    // The argument forms Sabaki and Lizzie send, and broken ones.
    #[test]
    fn analysis_arguments() {
        let lz = |args: &[&str]| AnalysisRequest::parse(AnalysisDialect::LeelaZero, args);
        let plain = lz(&["B", "50"]).unwrap();
        assert_eq!((plain.color, plain.interval_cs), (Some(Color::Black), 50));
        assert_eq!(lz(&["25"]).unwrap().interval_cs, 25);
        assert_eq!(lz(&[]).unwrap().interval_cs, 100);
        let keyed = lz(&["w", "interval", "10", "maxmoves", "5", "minmoves", "2"]).unwrap();
        assert_eq!((keyed.interval_cs, keyed.max_moves, keyed.min_moves), (10, 5, 2));
        let avoid = lz(&["b", "10", "avoid", "b", "D4,Q16", "1", "allow", "w", "C3", "2"]).unwrap();
        assert_eq!(
            avoid.avoid,
            vec![(Color::Black, vec![vertex("D4").unwrap(), vertex("Q16").unwrap()])]
        );
        assert_eq!(avoid.allow.len(), 1);
        for bad in [
            &["b", "x"][..],
            &["interval"],
            &["avoid", "b", "D4"],
            &["avoid", "b", "Z99x", "1"],
            &["maxmoves", "-1"],
        ] {
            assert!(lz(bad).is_err(), "{bad:?}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Every listed name parses with some arguments, so the table and dispatch agree.
    #[test]
    fn every_listed_command_parses() {
        let sample = |name: &str| -> Vec<&'static str> {
            match name {
                "known_command" => vec!["play"],
                "boardsize" | "fixed_handicap" | "place_free_handicap" | "set_random_seed" => {
                    vec!["9"]
                }
                "komi" => vec!["6.5"],
                "play" | "is_legal" => vec!["b", "D4"],
                "color" => vec!["D4"],
                "genmove" | "reg_genmove" | "kgs-genmove_cleanup" => vec!["w"],
                "lz-genmove_analyze" | "kata-genmove_analyze" | "genmove_analyze" => {
                    vec!["w", "50"]
                }
                "set_free_handicap" => vec!["D4", "Q16"],
                "loadsgf" => vec!["x.sgf"],
                "final_status_list" => vec!["dead"],
                "time_settings" => vec!["300", "30", "5"],
                "time_left" => vec!["b", "30", "0"],
                "kgs-time_settings" | "kata-time_settings" => vec!["none"],
                "kgs-rules" | "kata-set-rules" => vec!["chinese"],
                "kata-set-param" => vec!["playouts", "500"],
                _ => vec![],
            }
        };
        for name in COMMAND_NAMES {
            assert!(parse(name, &sample(name)).is_ok(), "{name}");
        }
        assert_eq!(parse("frobnicate", &[]), Err(GtpError::new("unknown command")));
    }

    // Malformed arguments are syntax errors, and so is an int outside GTP's 0..=2^31-1
    // wherever GTP takes one; ints inside it reach the engine, which judges them.
    #[test]
    fn argument_shapes() {
        assert_eq!(parse("komi", &["7.5x"]), Err(GtpError::syntax()));
        assert_eq!(parse("komi", &["nan"]), Err(GtpError::syntax()));
        assert_eq!(parse("komi", &["-3"]), Ok(Command::Komi(-3.0)));
        assert_eq!(parse("boardsize", &["2147483647"]), Ok(Command::BoardSize(2147483647)));
        assert_eq!(parse("fixed_handicap", &["0"]), Ok(Command::FixedHandicap(0)));
        let huge = ["2147483648", "4294967305", "99999999999999999999999", "-3", "+9"];
        for int in huge {
            assert_eq!(parse("boardsize", &[int]), Err(GtpError::syntax()), "{int}");
            assert_eq!(parse("fixed_handicap", &[int]), Err(GtpError::syntax()), "{int}");
            assert_eq!(parse("place_free_handicap", &[int]), Err(GtpError::syntax()), "{int}");
            assert_eq!(parse("loadsgf", &["f.sgf", int]), Err(GtpError::syntax()), "{int}");
            for i in 0..3 {
                let mut args = ["1", "1", "1"];
                args[i] = int;
                assert_eq!(parse("time_settings", &args), Err(GtpError::syntax()), "{args:?}");
            }
            assert_eq!(parse("time_left", &["b", int, "1"]), Err(GtpError::syntax()), "{int}");
            assert_eq!(parse("time_left", &["b", "1", int]), Err(GtpError::syntax()), "{int}");
        }
        assert_eq!(
            parse("time_settings", &["0", "0.5", "1"]),
            Ok(Command::TimeSettings { main: 0.0, period: 0.5, stones: 1 })
        );
        assert_eq!(parse("boardsize", &["nine"]), Err(GtpError::syntax()));
        assert_eq!(parse("play", &["b", "A1.5"]), Err(GtpError::syntax()));
        assert_eq!(parse("play", &["b"]), Err(GtpError::syntax()));
        assert_eq!(parse("play", &["x", "A1"]), Err(GtpError::syntax()));
        assert_eq!(parse("genmove", &["b", "extra"]), Err(GtpError::syntax()));
        assert_eq!(
            parse("play", &["WHITE", "pass"]),
            Ok(Command::Play(Color::White, Vertex::Pass))
        );
        assert_eq!(
            parse("kgs-time_settings", &["byoyomi", "60", "10", "3"]),
            Ok(Command::SetTimeSystem(TimeSystem::ByoYomi {
                main: 60.0,
                period: 10.0,
                periods: 3
            }))
        );
        assert_eq!(parse("kgs-time_settings", &["byoyomi", "60"]), Err(GtpError::syntax()));
        assert_eq!(parse("time_left", &["b", "-1", "0"]), Err(GtpError::syntax()));
    }
}
