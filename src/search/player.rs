//! The player: what tengen does with a position when asked for a move, around the search.
//! It takes the move's time from the clock, counts with dynamic komi in handicap games,
//! passes when the count already wins, resigns when the search sees no chance, cleans up
//! dead stones before passing when asked to, and ponders on the opponent's time. It also
//! owns the searcher (and so the tree kept between moves) for everything else that
//! searches a position: analysis, the status estimate behind scoring, GoGui's displays.
//!
//! The GTP layer turns commands into these calls and answers into text; the player never
//! sees text, and what it is set to (the search's parameters, the resign threshold, dynamic
//! komi) comes in as [`PlayerSettings`], which the GTP layer's parameter table writes.

use crate::board::color::Color;
use crate::board::vertex::format_move;
use crate::board::{Move, Point};
use crate::game::clock::Clock;
use crate::game::score::Score;
use crate::game::Game;
use crate::search::dynamic_komi::{self, DynamicKomi};
use crate::search::move_model::MoveModel;
use crate::search::ownership::{chain_statuses, chains_with, Ownership, Status};
use crate::search::{Reporter, SearchParams, SearchResult, Searcher};
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Light playouts behind the status estimate (`final_score`, `final_status_list`).
const OWNERSHIP_PLAYOUTS: usize = 1024;

/// Simulations a search needs before its win rate may make tengen resign.
const MIN_RESIGN_PLAYOUTS: usize = 1000;

/// Seconds kept back from every move's time for network and GUI lag.
const LAG_SECONDS: f64 = 0.3;

/// What the player is set to: the search's parameters and its own choices around them.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSettings {
    pub search: SearchParams,
    /// Resign below this win rate (0 never resigns).
    pub resign_threshold: f64,
    /// The step of dynamic komi in points (0, the default: none, which lost in self-play;
    /// see `docs/strength.md`); `None`: the board's default step (`auto`).
    pub dynamic_komi_step: Option<f64>,
    /// Whether the playout budget was set by the user (an option or a parameter): then it
    /// binds under a controller's clock too. The default budget gives way to a clock, since
    /// whoever sets a clock expects the engine to think for the time it has.
    pub playouts_given: bool,
}

impl Default for PlayerSettings {
    fn default() -> PlayerSettings {
        PlayerSettings {
            search: SearchParams::default(),
            resign_threshold: 0.1,
            dynamic_komi_step: Some(0.0),
            playouts_given: false,
        }
    }
}

/// What a move is asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveRequest {
    pub color: Color,
    /// Play the move in the game (`genmove`), or only name it (`reg_genmove`).
    pub commit: bool,
    /// Never pass while dead opponent stones remain (`kgs-genmove_cleanup`, and every move
    /// for servers that count every stone as alive).
    pub cleanup: bool,
}

/// The player's state across moves: the searcher with its tree, the random choices, the
/// dynamic komi of this game, and the ponder running on the opponent's time.
pub struct Player {
    searcher: Searcher,
    /// Seeds the status estimate, so that scoring a position gives the same answer each time.
    seed: u64,
    rng: SmallRng,
    /// The bias of dynamic komi in this handicap game (see `search::dynamic_komi`).
    dynamic_komi: DynamicKomi,
    /// The win rate (for the side that moved) and playouts of the last move's search.
    last_estimate: Option<(f64, usize)>,
    /// The longest a ponder may run; `None`: no pondering.
    ponder_cap: Option<Duration>,
    /// Set by a move that was played: the opponent is thinking now, so we may too.
    ponder_due: bool,
    pondering: Option<Pondering>,
    /// Set from outside (GoGui's `# interrupt`): the running move search answers at once.
    interrupt: Arc<AtomicBool>,
}

/// A search of the opponent's position running while the controller is silent. It owns the
/// player's searcher meanwhile, and hands it back (with the tree it grew) when stopped.
struct Pondering {
    halt: Arc<AtomicBool>,
    handle: std::thread::JoinHandle<(Searcher, usize)>,
}

impl Drop for Player {
    fn drop(&mut self) {
        self.stop_pondering();
    }
}

impl Player {
    /// A player whose random choices are seeded with `seed`.
    pub fn new(seed: u64) -> Player {
        Player {
            searcher: Searcher::new(),
            seed,
            rng: SmallRng::seed_from_u64(seed),
            dynamic_komi: DynamicKomi::default(),
            last_estimate: None,
            ponder_cap: None,
            ponder_due: false,
            pondering: None,
            interrupt: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Gets ready to play on boards of side `size`: the move model those boards use is read
    /// on a thread of its own, so that the first search there spends its clock searching.
    pub fn prepare_for_size(&self, size: usize) {
        MoveModel::load_in_background(size);
    }

    /// Starts the random choices over from `seed`.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.rng = SmallRng::seed_from_u64(seed);
    }

    /// The flag that interrupts a running move search (GoGui's `# interrupt`).
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.interrupt)
    }

    /// The win rate for the side that moved and the playouts behind it, from the last move's
    /// search (`None` when that move needed no search).
    pub fn last_estimate(&self) -> Option<(f64, usize)> {
        self.last_estimate
    }

    /// The points of dynamic komi `color` currently asks of itself (see `dynamic_komi`).
    pub fn dynamic_komi_bias(&self, color: Color) -> f64 {
        self.dynamic_komi.bias(color)
    }

    /// Chooses a move for the request's colour in `game` by searching, and plays it if the
    /// request commits. Returns `None` to resign.
    ///
    /// Passes at once when the opponent has just passed and the count (dead stones removed)
    /// already wins; resigns when the search sees almost no chance late enough in the game;
    /// with `cleanup` it never passes while it sees dead opponent stones, so they get
    /// captured first. The search's time is the smaller of the fixed time per move and what
    /// the clock allows; a committed move's time is taken off the clock.
    pub fn genmove(
        &mut self,
        game: &mut Game,
        clock: &mut Clock,
        settings: &PlayerSettings,
        request: MoveRequest,
        reporter: Option<Reporter>,
    ) -> Option<Move> {
        let mv = self.choose_move(game, clock, settings, request, reporter)?;
        if request.commit {
            game.play(request.color, mv).expect("the player only proposes legal moves");
            self.ponder_due = true;
        }
        Some(mv)
    }

    fn choose_move(
        &mut self,
        game: &Game,
        clock: &mut Clock,
        settings: &PlayerSettings,
        MoveRequest { color, commit, cleanup }: MoveRequest,
        reporter: Option<Reporter>,
    ) -> Option<Move> {
        // The controller's clock runs from the command: what is spent before the search
        // (estimating chain statuses, carrying over the tree) comes out of the move's time.
        let asked = Instant::now();
        self.last_estimate = None;
        let opponent_passed = game.last_move() == Some((color.opponent(), Move::Pass));
        // Chain statuses cost playouts: estimated once, and only where they are needed.
        let statuses = (cleanup || opponent_passed).then(|| self.statuses(game, settings));
        let dead_opponents = cleanup
            && statuses.iter().flatten().any(|(stones, status)| {
                *status == Status::Dead && game.board().stone(stones[0]) == Some(color.opponent())
            });
        if opponent_passed && !dead_opponents {
            let margin = score_with(game, statuses.as_deref().unwrap_or_default()).margin();
            let wins = if color == Color::Black { margin > 0.0 } else { margin < 0.0 };
            if wins {
                return Some(Move::Pass);
            }
        }
        let mut position = game.clone();
        position.set_to_move(color);
        let board = position.board();
        let points = board.size() * board.size();
        let clock_budget = clock.budget(color, board.empty_points().len(), points, LAG_SECONDS);
        let clock_limit = clock_budget.map(Duration::from_secs_f64);
        let time_limit = match (settings.search.time_limit, clock_limit) {
            (Some(fixed), Some(clock)) => Some(fixed.min(clock)),
            (fixed, clock) => fixed.or(clock),
        };
        // Stopping once the best move is settled saves time only where a later move can
        // use it. Time that would be lost (a fixed time per move, a byo-yomi period) goes
        // on searching, to grow the tree the next move starts from.
        let time_is_lost = time_limit
            .is_some_and(|limit| clock_limit != Some(limit) || !clock.keeps_unused_time(color));
        let early_stop = settings.search.early_stop && !time_is_lost;
        let step =
            settings.dynamic_komi_step.unwrap_or_else(|| dynamic_komi::default_step(board.size()));
        let extra_komi = self.dynamic_komi.extra_komi(&position, color, step);
        // Cleanup captures: the search sees every move inside its own area as worth the
        // same, so left alone it fills its own eyes or wanders into the opponent's area. The
        // root keeps only the dead chains' liberties and the chains in atari (while any is
        // legal).
        let mut root_avoid = settings.search.root_avoid.clone();
        let mut root_kept = false;
        if dead_opponents {
            let targets = cleanup_points(game, color, statuses.as_deref().unwrap_or_default());
            if !targets.is_empty() {
                let others = game.legal_points(color).into_iter().filter(|p| !targets.contains(p));
                root_avoid.extend(others.map(Move::Play));
                root_kept = true;
            }
        }
        let playouts = match clock_budget {
            Some(_) if !settings.playouts_given => usize::MAX,
            _ => settings.search.playouts,
        };
        let params = SearchParams {
            seed: self.rng.next_u64(),
            playouts,
            allow_root_pass: !dead_opponents,
            root_avoid,
            time_limit,
            extra_komi,
            early_stop,
            ..settings.search.clone()
        };
        let interrupt = Arc::clone(&self.interrupt);
        let result =
            self.searcher.search_reporting(&position, &params, &interrupt, reporter, asked);
        self.last_estimate = Some((result.win_rate, result.playouts));
        if commit {
            // Whether the flag fell is the controller's call, not the player's.
            clock.spend(color, asked.elapsed().as_secs_f64());
            self.dynamic_komi.update(&position, color, result.win_rate, step);
        }
        log::info!(
            "genmove {color}: {} win rate {:.3} after {} playouts (extra komi {extra_komi:.1})",
            format_move(position.board(), result.best),
            result.win_rate,
            result.playouts
        );
        // An estimate from a few simulations (an interrupted search) is no reason to resign,
        // nor is one where dynamic komi asked for more than a win.
        let enough = result.playouts >= playouts.min(MIN_RESIGN_PLAYOUTS);
        let asked_more = match color {
            Color::Black => extra_komi > 0.0,
            Color::White => extra_komi < 0.0,
        };
        // Nor is one from a cleanup's root kept to a few captures: it is the win rate of
        // those moves, not of the position.
        if enough
            && !asked_more
            && !root_kept
            && should_resign(game, settings, color, result.win_rate)
        {
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
            .find(|&mv| !passing_behind(mv) && game.check(color, mv).is_ok())
            .or(Some(Move::Pass))
    }

    /// Searches `game` as it stands with `params` (the tree kept between searches), for
    /// analysis and displays that are not a move: the caller sets the budget.
    pub fn search(&mut self, game: &Game, params: &SearchParams) -> SearchResult {
        self.searcher.search(game, params)
    }

    /// The seed the player was given (`set_random_seed`): for searches that must not depend
    /// on how many came before (deterministic analysis, slice after slice).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// A fresh seed for a search the caller sets up, from the player's random choices.
    pub fn next_seed(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// The ownership estimate of the position, on the search's threads (`--threads` binds it).
    pub fn ownership(&mut self, game: &Game, settings: &PlayerSettings) -> Ownership {
        let seed = self.seed;
        self.searcher.install(settings.search.threads, || {
            Ownership::estimate(game, OWNERSHIP_PLAYOUTS, seed)
        })
    }

    /// Every chain with its status, from the one evaluator behind scoring and status lists.
    pub fn statuses(
        &mut self,
        game: &Game,
        settings: &PlayerSettings,
    ) -> Vec<(Vec<Point>, Status)> {
        let ownership = self.ownership(game, settings);
        chain_statuses(game.board(), &ownership)
    }

    /// The count with the chains the status estimate finds dead removed.
    pub fn final_score(&mut self, game: &Game, settings: &PlayerSettings) -> Score {
        let statuses = self.statuses(game, settings);
        score_with(game, &statuses)
    }

    /// Ponder (search on the opponent's time, keeping the tree for the next move) for at most
    /// `cap` after each move played; `None` turns pondering off.
    pub fn set_ponder(&mut self, cap: Option<Duration>) {
        self.ponder_cap = cap;
    }

    /// Whether a ponder is running.
    pub fn is_pondering(&self) -> bool {
        self.pondering.is_some()
    }

    /// Starts pondering on `game` if a move has just been played and pondering is on. The
    /// I/O loop calls this after writing a response, when the engine would otherwise sit idle.
    pub fn start_pondering(&mut self, game: &Game, settings: &PlayerSettings) {
        let Some(cap) = self.ponder_cap.filter(|_| self.ponder_due) else { return };
        self.ponder_due = false;
        if self.pondering.is_some() || game.is_over() {
            return;
        }
        let mut searcher = std::mem::take(&mut self.searcher);
        let game = game.clone();
        let params = SearchParams {
            playouts: usize::MAX,
            time_limit: Some(cap),
            early_stop: false,
            seed: self.rng.next_u64(),
            ..settings.search.clone()
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
}

/// The count of `game` with the dead chains of `statuses` removed and its seki chains marked.
pub fn score_with(game: &Game, statuses: &[(Vec<Point>, Status)]) -> Score {
    let dead = chains_with(statuses, Status::Dead);
    let seki = chains_with(statuses, Status::Seki);
    game.score(&dead, &seki)
}

/// Whether `color`, seeing `win_rate`, gives up. Never in the opening, nor as white early in
/// a handicap game, where the stones' value shows in the win rate before it shows on the
/// board.
fn should_resign(game: &Game, settings: &PlayerSettings, color: Color, win_rate: f64) -> bool {
    let board = game.board();
    let points = board.size() * board.size();
    let stones = points - board.empty_points().len();
    let opening = stones < points / 3;
    let handicap_white = game.handicap() > 0 && color == Color::White && stones < points / 2;
    settings.resign_threshold > 0.0
        && win_rate < settings.resign_threshold
        && !opening
        && !handicap_white
}

/// Where `color` may play in a cleanup: the liberties of the opponent chains that
/// `statuses` calls dead (the moves that take them off the board), and the last liberty of
/// every chain in atari, either colour's, whatever its status. A fight that cannot wait
/// comes first: in a seki that the opponent breaks by filling a shared liberty, both chains
/// are left in atari on one point, and taking it wins the fight where any other move loses it
/// (a 19×19 game against Pachi was resigned so, its capture kept off the root).
fn cleanup_points(game: &Game, color: Color, statuses: &[(Vec<Point>, Status)]) -> Vec<Point> {
    let board = game.board();
    let mut points = Vec::new();
    let mut add = |point: Point| {
        let empty = board.is_on_board(point) && board.stone(point).is_none();
        if empty && !points.contains(&point) && game.check(color, Move::Play(point)).is_ok() {
            points.push(point);
        }
    };
    for (stones, _) in statuses.iter().filter(|(stones, status)| {
        *status == Status::Dead && board.stone(stones[0]) == Some(color.opponent())
    }) {
        for &stone in stones {
            board.neighbors(stone).into_iter().for_each(&mut add);
        }
    }
    for (stones, _) in statuses {
        if board.chain_liberties(stones[0]) == 1 {
            board.some_liberty(stones[0]).into_iter().for_each(&mut add);
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::vertex::{format_vertex, parse_move};
    use crate::game::clock::TimeSystem;
    use crate::game::rules::Rules;

    fn settings(search: SearchParams) -> PlayerSettings {
        PlayerSettings { search, ..PlayerSettings::default() }
    }

    fn genmove(player: &mut Player, game: &mut Game, settings: &PlayerSettings, color: Color) {
        let request = MoveRequest { color, commit: true, cleanup: false };
        player.genmove(game, &mut Clock::default(), settings, request, None);
    }

    // The cleanup targets are the empty points beside the opponent's dead chains where the
    // player may move: not the liberties of living chains, nor of the player's own dead
    // chains, nor a point that would be suicide; and the last liberty of any chain in atari.
    #[test]
    fn cleanup_targets_dead_opponent_chains_and_chains_in_atari() {
        let mut game = Game::new(9, Rules::chinese());
        let at = |game: &Game, vertex: &str| match parse_move(game.board(), vertex) {
            Some(Move::Play(p)) => p,
            _ => panic!("bad vertex {vertex}"),
        };
        // White B5 (dead) beside A4 and A6 (alive), which make A5 suicide for black; white
        // H5 alive; black E5 dead.
        for (color, vertex) in
            [(Color::White, "B5"), (Color::White, "A4"), (Color::White, "A6"), (Color::White, "H5")]
        {
            game.play(color, Move::Play(at(&game, vertex))).unwrap();
        }
        game.play(Color::Black, Move::Play(at(&game, "E5"))).unwrap();
        let chain = |vertex: &str, status| (vec![at(&game, vertex)], status);
        let statuses = [
            chain("B5", Status::Dead),
            chain("A4", Status::Alive),
            chain("A6", Status::Alive),
            chain("H5", Status::Alive),
            chain("E5", Status::Dead),
        ];
        let targets = |game: &Game, statuses: &[(Vec<Point>, Status)]| {
            let mut targets: Vec<String> = cleanup_points(game, Color::Black, statuses)
                .into_iter()
                .map(|p| format_vertex(game.board(), p))
                .collect();
            targets.sort();
            targets
        };
        assert_eq!(targets(&game, &statuses), ["B4", "B6", "C5"]);
        // White G1, called alive, in atari between black F1 and H1 (its capture, G2); black
        // J5 in atari beside white H5 and J4 (its escape, J6).
        for (color, vertex) in [
            (Color::Black, "F1"),
            (Color::White, "G1"),
            (Color::Black, "H1"),
            (Color::Black, "J5"),
            (Color::White, "J4"),
        ] {
            game.play(color, Move::Play(at(&game, vertex))).unwrap();
        }
        let mut statuses = statuses.to_vec();
        let chain = |vertex: &str, status| (vec![at(&game, vertex)], status);
        for vertex in ["F1", "G1", "H1", "J5", "J4"] {
            statuses.push(chain(vertex, Status::Alive));
        }
        assert_eq!(targets(&game, &statuses), ["B4", "B6", "C5", "G2", "J6"]);
    }

    // Six stones on 9×9: white's search sees a lost game and lowers its own target, black's
    // sees a won one and raises its own; with the step at 0 nothing moves.
    #[test]
    fn dynamic_komi_follows_lopsided_handicap_games() {
        let play = |step: Option<f64>| {
            let mut player = Player::new(3);
            let mut game = Game::new(9, Rules::chinese());
            game.place_fixed_handicap(6).unwrap();
            let settings = PlayerSettings {
                dynamic_komi_step: step,
                ..settings(SearchParams { playouts: 1000, ..SearchParams::default() })
            };
            genmove(&mut player, &mut game, &settings, Color::White);
            let white = player.last_estimate().unwrap().0;
            genmove(&mut player, &mut game, &settings, Color::Black);
            let black = player.last_estimate().unwrap().0;
            assert!(white < dynamic_komi::LOW && black > dynamic_komi::HIGH, "{white} {black}");
            (player.dynamic_komi_bias(Color::White), player.dynamic_komi_bias(Color::Black))
        };
        assert_eq!(play(None), (-2.0, 2.0));
        assert_eq!(play(Some(3.0)), (-3.0, 3.0));
        assert_eq!(play(Some(0.0)), (0.0, 0.0));
    }

    // With a fixed time per move, time saved is lost: the search runs to the deadline even
    // where early stop would have ended it (on 5×5 the centre is clear long before).
    #[test]
    fn fixed_time_per_move_is_used_in_full() {
        let limit = Duration::from_millis(400);
        let settings = settings(SearchParams {
            playouts: usize::MAX,
            time_limit: Some(limit),
            threads: 1,
            ..SearchParams::default()
        });
        let started = Instant::now();
        genmove(&mut Player::new(3), &mut Game::new(5, Rules::chinese()), &settings, Color::Black);
        assert!(started.elapsed() >= limit.mul_f64(0.95), "{:?}", started.elapsed());
    }

    // A move under a clock takes its time off that clock, and stays within what it allows.
    #[test]
    fn a_played_move_is_taken_off_the_clock() {
        let mut clock = Clock::from_gtp(3.0, 0.0, 0);
        let mut game = Game::new(9, Rules::chinese());
        let settings = settings(SearchParams { threads: 1, ..SearchParams::default() });
        let request = MoveRequest { color: Color::Black, commit: true, cleanup: false };
        let started = Instant::now();
        Player::new(3).genmove(&mut game, &mut clock, &settings, request, None);
        let spent = started.elapsed().as_secs_f64();
        let left = clock.left(Color::Black).seconds;
        assert!(spent < 3.0 - LAG_SECONDS, "{spent}");
        assert!((3.0 - left - spent).abs() < 0.05, "left {left} after {spent}");
        assert_eq!(game.moves().len(), 1);
    }

    // Under a clock the default playout budget gives way to the time (byo-yomi periods of a
    // second on 5×5, where a second is far more than 2,000 playouts); a budget the user set
    // still binds.
    #[test]
    fn a_clock_lifts_the_default_playout_budget_only() {
        let playouts = |given: bool| {
            let byo_yomi = TimeSystem::ByoYomi { main: 0.0, period: 1.0, periods: 1 };
            let mut clock = Clock::new(byo_yomi);
            let mut game = Game::new(5, Rules::chinese());
            let settings = PlayerSettings {
                playouts_given: given,
                ..settings(SearchParams { playouts: 2000, threads: 1, ..SearchParams::default() })
            };
            let request = MoveRequest { color: Color::Black, commit: true, cleanup: false };
            let mut player = Player::new(3);
            player.genmove(&mut game, &mut clock, &settings, request, None);
            player.last_estimate().unwrap().1
        };
        let lifted = playouts(false);
        assert!(lifted > 4000, "{lifted}");
        assert_eq!(playouts(true), 2000);
    }

    // Nothing to ponder before a move; after one, pondering runs until stopped, and never
    // past its cap, even if no command ever comes.
    #[test]
    fn pondering_stops_at_its_cap() {
        let settings = settings(SearchParams { playouts: 300, ..SearchParams::default() });
        let mut game = Game::new(9, Rules::chinese());
        let mut player = Player::new(3);
        player.set_ponder(Some(Duration::from_millis(50)));
        player.start_pondering(&game, &settings);
        assert!(!player.is_pondering(), "nothing to ponder before a move");
        genmove(&mut player, &mut game, &settings, Color::Black);
        player.start_pondering(&game, &settings);
        let started = Instant::now();
        while !player.pondering.as_ref().unwrap().handle.is_finished() {
            assert!(started.elapsed() < Duration::from_secs(5), "still pondering");
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(player.stop_pondering().is_some_and(|playouts| playouts > 0));
    }
}
