//! Monte Carlo tree search: UCT with RAVE (all-moves-as-first) over light playouts.
//!
//! Michi's backbone in three verbs: *descend* the tree from the root choosing children by
//! their blended value, *run a playout* from the leaf to the end of the game, *update* the
//! nodes on the way back — their own statistics for the nodes on the path, and the RAVE
//! statistics of every sibling whose move the same player made first anywhere later in the
//! simulation. Nodes live in one arena (`Vec<Node>`), the children of a node stored together.
//!
//! Superko in the tree: a child that would recreate a position of the game or of the path
//! from the root is never created. Playouts use simple ko only. Every random choice comes from
//! a generator seeded by `SearchParams::seed`, so a search is reproducible.
//!
//! Threads run independent trees from the same root and add up their root statistics (root
//! parallelism); sharing one tree between threads, tree reuse between moves and pondering
//! come next.

use crate::board::{Board, Move, Point, SLOTS};
use crate::color::Color;
use crate::game::Game;
use crate::policy::{self, PlayoutPolicy};
use crate::score;
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// Search settings, each with a documented default.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Simulations per search. Default 10,000.
    pub playouts: usize,
    /// UCT exploration constant on top of the RAVE blend. Default 0.2.
    pub exploration: f64,
    /// RAVE equivalence parameter k: the RAVE weight is `sqrt(k / (3n + k))` after `n` visits.
    /// Default 1,000.
    pub rave_equivalence: f64,
    /// Visits a node needs before it is expanded (the root always is). Default 2.
    pub expand_after: u32,
    /// Seed of the search's random generator. Default 0.
    pub seed: u64,
    /// Whether pass is among the root's candidate moves (off for cleanup). Default true.
    pub allow_root_pass: bool,
    /// Stop after this long even if `playouts` are not done. Default none.
    pub time_limit: Option<Duration>,
    /// How simulations play once they leave the tree. Default `Tactical`.
    pub policy: PlayoutPolicy,
    /// Threads, each growing its own tree from the root (root parallelism); their root
    /// statistics are added up. Default 1.
    pub threads: usize,
    /// Memory the tree may use, in MiB. When it is full, simulations go on from the existing
    /// tree without expanding it. Default 1,024 MiB. A node takes `NODE_BYTES` bytes.
    pub max_memory_mib: usize,
}

/// Bytes per tree node, for the memory cap.
pub const NODE_BYTES: usize = std::mem::size_of::<Node>();

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            playouts: 10_000,
            exploration: 0.2,
            rave_equivalence: 1000.0,
            expand_after: 2,
            seed: 0,
            allow_root_pass: true,
            time_limit: None,
            max_memory_mib: 1024,
            threads: 1,
            policy: PlayoutPolicy::Tactical,
        }
    }
}

/// One tree node: the move that leads to it and the statistics of that move, all from the
/// point of view of the player who made it.
#[derive(Clone, Debug)]
struct Node {
    mv: Move,
    /// Index of the first child in the arena; meaningful only when `children > 0`.
    first_child: u32,
    children: u32,
    expanded: bool,
    visits: u32,
    wins: f64,
    rave_visits: u32,
    rave_wins: f64,
}

impl Node {
    fn new(mv: Move) -> Node {
        Node {
            mv,
            first_child: 0,
            children: 0,
            expanded: false,
            visits: 0,
            wins: 0.0,
            rave_visits: 0,
            rave_wins: 0.0,
        }
    }
}

/// What a search found at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The most visited move.
    pub best: Move,
    /// Its win rate for the player to move, in [0, 1].
    pub win_rate: f64,
    /// Simulations run.
    pub playouts: usize,
    /// Root children with their visits and win rates, most visited first.
    pub candidates: Vec<(Move, u32, f64)>,
    /// Nodes in the tree: changes only when the search's behaviour changes.
    pub tree_nodes: usize,
}

/// Searches the game's position for the side to move. With several threads, each runs an
/// equal share of the playouts in its own tree, seeded from `params.seed` and its index, and
/// the root statistics are summed: the result depends on the seed and the thread count only.
pub fn search(game: &Game, params: &SearchParams) -> SearchResult {
    let threads = params.threads.clamp(1, 64);
    if threads == 1 {
        return Search::new(game, params).run();
    }
    let shares: Vec<SearchParams> = (0..threads)
        .map(|i| SearchParams {
            playouts: params.playouts.div_ceil(threads),
            seed: params.seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            max_memory_mib: (params.max_memory_mib / threads).max(1),
            threads: 1,
            ..params.clone()
        })
        .collect();
    let results: Vec<SearchResult> = std::thread::scope(|scope| {
        let handles: Vec<_> = shares[1..]
            .iter()
            .map(|share| scope.spawn(move || Search::new(game, share).run()))
            .collect();
        let mut results = vec![Search::new(game, &shares[0]).run()];
        results.extend(handles.into_iter().map(|h| h.join().expect("search thread panicked")));
        results
    });
    merge(results)
}

/// Adds up the root statistics of independent searches of the same position.
fn merge(results: Vec<SearchResult>) -> SearchResult {
    let mut totals: Vec<(Move, u32, f64)> = Vec::new();
    for result in &results {
        for &(mv, visits, win_rate) in &result.candidates {
            let wins = win_rate * visits as f64;
            match totals.iter_mut().find(|(m, _, _)| *m == mv) {
                Some(total) => {
                    total.1 += visits;
                    total.2 += wins;
                }
                None => totals.push((mv, visits, wins)),
            }
        }
    }
    SearchResult::from_totals(
        totals,
        results.iter().map(|r| r.playouts).sum(),
        results.iter().map(|r| r.tree_nodes).sum(),
    )
}

impl SearchResult {
    /// The result from the root moves' (move, visits, wins): win rates, most visited first,
    /// and that move as the best (pass when there is none).
    fn from_totals(totals: Vec<(Move, u32, f64)>, playouts: usize, tree_nodes: usize) -> Self {
        let mut candidates: Vec<(Move, u32, f64)> = totals
            .into_iter()
            .map(|(mv, visits, wins)| {
                (mv, visits, if visits > 0 { wins / visits as f64 } else { 0.0 })
            })
            .collect();
        candidates.sort_by_key(|c| std::cmp::Reverse(c.1));
        let (best, _, win_rate) = candidates.first().copied().unwrap_or((Move::Pass, 0, 0.0));
        SearchResult { best, win_rate, playouts, candidates, tree_nodes }
    }
}

struct Search<'a> {
    params: &'a SearchParams,
    root_board: &'a Board,
    root_color: Color,
    root_passes: u32,
    /// The move that led to the root, for the playout policy's answers.
    root_last: Option<Move>,
    /// Komi plus handicap compensation: what black's area must exceed.
    compensation: f64,
    game_positions: HashSet<u64>,
    nodes: Vec<Node>,
    /// Node count at which expansion stops (the memory cap).
    max_nodes: usize,
    rng: SmallRng,
}

/// Player who reached a point first in the current simulation: 0 none, 1 black, 2 white.
type FirstMover = [u8; SLOTS];

/// Records `color` as the first to play on `p` in this simulation, unless someone was.
#[inline]
fn mark_first_mover(first_mover: &mut FirstMover, p: Point, color: Color) {
    if first_mover[p.index()] == 0 {
        first_mover[p.index()] = color.index() as u8 + 1;
    }
}

impl<'a> Search<'a> {
    fn new(game: &'a Game, params: &'a SearchParams) -> Search<'a> {
        Search {
            params,
            root_board: game.board(),
            root_color: game.to_move(),
            // A game already over by two passes has been resumed by the controller: search it
            // as a live position, or no move but pass would ever be considered.
            root_passes: if game.is_over() { 0 } else { game.consecutive_passes() },
            root_last: game.last_move().map(|(_, mv)| mv),
            compensation: game.rules().komi + game.rules().handicap_points(game.handicap()),
            game_positions: game.position_hashes().collect(),
            nodes: vec![Node::new(Move::Pass)],
            max_nodes: (params.max_memory_mib.saturating_mul(1 << 20) / NODE_BYTES)
                .min(u32::MAX as usize),
            rng: SmallRng::seed_from_u64(params.seed),
        }
    }

    fn run(mut self) -> SearchResult {
        let mut board = self.root_board.clone();
        let mut first_mover: FirstMover = [0; SLOTS];
        let mut path = Vec::new();
        let mut path_hashes = Vec::new();
        let limit = self.params.playouts.max(1);
        let deadline = self.params.time_limit.and_then(|t| Instant::now().checked_add(t));
        let mut playouts = 0;
        while playouts < limit {
            // The clock is read every 32 simulations: cheap, and well under a millisecond.
            // At least one simulation always runs, so there is always a move to answer.
            if playouts > 0 && playouts % 32 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            playouts += 1;
            board.copy_from(self.root_board);
            first_mover.fill(0);
            path.clear();
            path_hashes.clear();
            self.simulate(&mut board, &mut first_mover, &mut path, &mut path_hashes);
        }
        self.result(playouts.max(1))
    }

    /// One simulation: descend, expand, play out, update.
    fn simulate(
        &mut self,
        board: &mut Board,
        first_mover: &mut FirstMover,
        path: &mut Vec<u32>,
        path_hashes: &mut Vec<u64>,
    ) {
        let mut node = 0u32;
        let mut color = self.root_color;
        let mut passes = self.root_passes;
        let mut last = match self.root_last {
            Some(Move::Play(p)) => Some(p),
            _ => None,
        };
        path.push(0);
        while passes < 2 {
            let n = &self.nodes[node as usize];
            if !n.expanded {
                let full = self.nodes.len() + board.empty_points().len() + 1 > self.max_nodes;
                if node != 0 && (n.visits < self.params.expand_after || full) {
                    break;
                }
                self.expand(node, board, color, path_hashes);
            }
            let child = self.select(node);
            match self.nodes[child as usize].mv {
                Move::Play(p) => {
                    board.play_unchecked(p, color);
                    last = Some(p);
                    path_hashes.push(board.hash());
                    mark_first_mover(first_mover, p, color);
                    passes = 0;
                }
                Move::Pass => {
                    board.clear_ko();
                    last = None;
                    passes += 1;
                }
            }
            path.push(child);
            node = child;
            color = color.opponent();
        }
        if passes < 2 {
            let max_moves = 3 * board.size() * board.size();
            let policy = self.params.policy;
            policy::playout(board, policy, color, last, max_moves, &mut self.rng, |p, c| {
                mark_first_mover(first_mover, p, c);
            });
        }
        // Two passes inside the tree end the game where it stands: count it exactly, since
        // regions larger than an eye may still be empty there.
        let black_area =
            if passes >= 2 { score::area_difference(board) } else { board.playout_score() };
        let black_wins = black_area as f64 > self.compensation;
        let winner = if black_wins { Color::Black } else { Color::White };
        self.update(path, first_mover, winner);
    }

    /// Creates the children of `node`: every legal move for `color` that fills none of its
    /// own true eyes and repeats no position of the game or of the path, plus pass.
    fn expand(&mut self, node: u32, board: &Board, color: Color, path_hashes: &[u64]) {
        // Grow the arena by doubling, but never past the cap, so memory stays within it.
        let needed = self.nodes.len() + board.empty_points().len() + 1;
        if needed > self.nodes.capacity() {
            let target = (self.nodes.capacity() * 2).min(self.max_nodes).max(needed);
            self.nodes.reserve_exact(target - self.nodes.len());
        }
        let first = self.nodes.len() as u32;
        for &p in board.empty_points() {
            let p = Point(p);
            if !board.is_legal(p, color) || board.is_true_eye(p, color) {
                continue;
            }
            let hash = board.hash_after(p, color);
            if self.game_positions.contains(&hash) || path_hashes.contains(&hash) {
                continue;
            }
            self.nodes.push(Node::new(Move::Play(p)));
        }
        let has_moves = self.nodes.len() as u32 > first;
        if node != 0 || self.params.allow_root_pass || !has_moves {
            self.nodes.push(Node::new(Move::Pass));
        }
        let children = self.nodes.len() as u32 - first;
        let n = &mut self.nodes[node as usize];
        n.first_child = first;
        n.children = children;
        n.expanded = true;
    }

    /// The child with the best blend of its own win rate and its RAVE win rate, plus a UCT
    /// exploration term. Unvisited children are tried first, in arena order from a random
    /// offset, unless their RAVE value already says they are poor.
    fn select(&mut self, node: u32) -> u32 {
        let n = &self.nodes[node as usize];
        let log_visits = ((n.visits + 1) as f64).ln();
        let (first, count) = (n.first_child, n.children);
        let offset = ((self.rng.next_u32() as u64 * count as u64) >> 32) as u32;
        let mut best = first;
        let mut best_value = f64::NEG_INFINITY;
        for i in 0..count {
            let index = first + (offset + i) % count;
            let child = &self.nodes[index as usize];
            let value = self.value(child, log_visits);
            if value > best_value {
                best_value = value;
                best = index;
            }
        }
        best
    }

    fn value(&self, child: &Node, log_visits: f64) -> f64 {
        let rave = if child.rave_visits > 0 {
            Some(child.rave_wins / child.rave_visits as f64)
        } else {
            None
        };
        if child.visits == 0 {
            // First-play urgency: a clearly bad RAVE value waits, everything else goes now.
            return rave.map_or(1.1, |r| 0.5 + r);
        }
        let n = child.visits as f64;
        let q = child.wins / n;
        let blended = match rave {
            Some(r) => {
                let k = self.params.rave_equivalence;
                let beta = (k / (3.0 * n + k)).sqrt();
                (1.0 - beta) * q + beta * r
            }
            None => q,
        };
        blended + self.params.exploration * (log_visits / n).sqrt()
    }

    /// Backs the result up the path: visits and wins for each node's mover, and RAVE for every
    /// child of a path node whose move its player made first later in the simulation.
    fn update(&mut self, path: &[u32], first_mover: &FirstMover, winner: Color) {
        let mut to_move = self.root_color;
        for (depth, &node) in path.iter().enumerate() {
            if depth > 0 {
                // The node's move was made by the player before `to_move`.
                let n = &mut self.nodes[node as usize];
                n.visits += 1;
                if to_move.opponent() == winner {
                    n.wins += 1.0;
                }
            } else {
                self.nodes[0].visits += 1;
            }
            let n = &self.nodes[node as usize];
            if n.expanded {
                let mark = to_move.index() as u8 + 1;
                let won = (to_move == winner) as u8 as f64;
                let (first, count) = (n.first_child, n.children);
                for child in &mut self.nodes[first as usize..(first + count) as usize] {
                    if let Move::Play(p) = child.mv {
                        if first_mover[p.index()] == mark {
                            child.rave_visits += 1;
                            child.rave_wins += won;
                        }
                    }
                }
            }
            to_move = to_move.opponent();
        }
    }

    fn result(&self, playouts: usize) -> SearchResult {
        let root = &self.nodes[0];
        let children =
            &self.nodes[root.first_child as usize..(root.first_child + root.children) as usize];
        let candidates = children.iter().map(|c| (c.mv, c.visits, c.wins)).collect();
        SearchResult::from_totals(candidates, playouts, self.nodes.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn game(diagram: &str, to_move: Color) -> Game {
        let board = Board::from_diagram(diagram).unwrap();
        let mut game = Game::new(board.size(), Rules { komi: 0.5, ..Rules::chinese() });
        for p in board.points() {
            if let Some(c) = board.stone(p) {
                game.add_setup_stone(c, p).unwrap();
            }
        }
        game.set_to_move(to_move);
        game
    }

    // Same seed, same playouts: the same move and the same statistics, every time.
    #[test]
    fn deterministic_with_a_seed() {
        let g = Game::new(9, Rules::chinese());
        let params = SearchParams { playouts: 2000, seed: 42, ..SearchParams::default() };
        let a = search(&g, &params);
        let b = search(&g, &params);
        assert_eq!(a, b);
        let other = search(&g, &SearchParams { seed: 43, ..params });
        assert_ne!(a.candidates, other.candidates, "the seed matters");
    }

    /// A white chain of three in atari, its last liberty opening onto empty space.
    const CHAIN_IN_ATARI: &str = ". . . . . . .
         . . . . . . .
         . X X X . . .
         X O O O . . .
         . X X X . . .
         . . . . . . .
         . . . . . . .";

    // The search captures a chain in atari rather than letting it escape into open space.
    #[test]
    fn captures_a_chain_in_atari() {
        let g = game(CHAIN_IN_ATARI, Color::Black);
        let result = search(&g, &SearchParams { playouts: 4000, ..SearchParams::default() });
        assert_eq!(result.best, Move::Play(g.board().point(4, 3)), "{result:?}");
    }

    // White, to move, saves the same chain by extending.
    #[test]
    fn escapes_from_atari() {
        let g = game(CHAIN_IN_ATARI, Color::White);
        let result = search(&g, &SearchParams { playouts: 4000, ..SearchParams::default() });
        assert_eq!(result.best, Move::Play(g.board().point(4, 3)), "{:?}", &result.candidates[..3]);
    }

    // A move that would recreate an earlier position is never a candidate (superko in the
    // tree), even where the board's simple-ko test allows it.
    #[test]
    fn superko_moves_are_not_candidates() {
        let mut g = game(
            ". . . . .
             . . . . .
             O O X . .
             O O X . .
             . X . X .",
            Color::Black,
        );
        let at = |x, y| g.board().point(x, y);
        let (a1, c1, b1) = (at(0, 4), at(2, 4), at(1, 4));
        g.play(Color::Black, Move::Play(a1)).unwrap();
        g.play(Color::White, Move::Play(c1)).unwrap();
        assert!(g.board().is_legal(b1, Color::Black), "simple ko allows the recapture");
        let result = search(&g, &SearchParams { playouts: 500, ..SearchParams::default() });
        assert!(result.candidates.iter().all(|(m, _, _)| *m != Move::Play(b1)));
    }

    // The memory cap's arithmetic assumes small nodes; keep them so.
    #[test]
    fn nodes_stay_small() {
        assert_eq!(NODE_BYTES, 40);
    }

    // Two threads: every playout is run, and the result is reproducible for that count.
    #[test]
    fn two_threads_reproducible() {
        let g = Game::new(9, Rules::chinese());
        let params =
            SearchParams { playouts: 2000, threads: 2, seed: 7, ..SearchParams::default() };
        let a = search(&g, &params);
        assert_eq!(a.playouts, 2000);
        assert_eq!(a, search(&g, &params));
        let visits: u32 = a.candidates.iter().map(|c| c.1).sum();
        assert_eq!(visits as usize, 2000);
    }

    // With the tree full the search keeps simulating from the tree it has: every playout is
    // run, and the tree stays within the cap.
    #[test]
    fn memory_cap_stops_expansion_not_search() {
        let g = Game::new(9, Rules::chinese());
        let capped =
            SearchParams { playouts: 10_000, max_memory_mib: 1, ..SearchParams::default() };
        let result = search(&g, &capped);
        assert_eq!(result.playouts, 10_000);
        assert!(result.tree_nodes * NODE_BYTES <= 1 << 20, "{} nodes", result.tree_nodes);
        let free = search(&g, &SearchParams { max_memory_mib: 1024, ..capped });
        assert!(
            free.tree_nodes > result.tree_nodes,
            "{} vs {}",
            free.tree_nodes,
            result.tree_nodes
        );
    }

    // Without pass at the root the search still returns a move when one exists.
    #[test]
    fn no_root_pass_for_cleanup() {
        let g = Game::new(5, Rules::chinese());
        let params =
            SearchParams { playouts: 200, allow_root_pass: false, ..SearchParams::default() };
        let result = search(&g, &params);
        assert!(matches!(result.best, Move::Play(_)));
        assert!(result.candidates.iter().all(|(m, _, _)| *m != Move::Pass));
    }
}
