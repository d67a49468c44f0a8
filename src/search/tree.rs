//! The search tree that every search thread shares: nodes in an arena addressed by `u32` ids,
//! the children of a node in one contiguous block, statistics in atomics.
//!
//! The arena is a row of fixed-size chunks allocated on first use, so memory grows with the
//! tree and never past the cap, and no node ever moves (threads hold ids, not references
//! that a reallocation could invalidate).
//!
//! A node's children appear exactly once: the thread that wins the compare-and-swap from
//! `LEAF` to `EXPANDING` creates them, writes their moves and the block's start, then
//! publishes the count with a release store; readers load the state with acquire before
//! touching the block. The state only moves forward (`LEAF` → `EXPANDING` → count), except
//! that an expansion which finds the arena full goes back to `LEAF`.

use super::priors::Prior;
use crate::board::{Move, Point, SLOTS};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// A node's `state` before its children exist.
const LEAF: u32 = 0;
/// A node's `state` while one thread creates its children.
const EXPANDING: u32 = u32::MAX;

const CHUNK_BITS: u32 = 14;
/// Nodes per chunk: 16,384 nodes, 448 KiB.
const CHUNK: u32 = 1 << CHUNK_BITS;

/// The id of the root of a tree.
pub const ROOT: u32 = 0;

/// The statistics of one node's move, from the point of view of the player who made it.
/// Kept apart from the node's links so that choosing among children, the search's most
/// frequent memory traffic, reads 16 bytes a child, four to a cache line.
#[derive(Debug, Default)]
#[repr(C, align(16))]
pub struct Stats {
    /// Simulations through this node, counting those still running: a running simulation
    /// is a visit without a win yet, which is the virtual loss that spreads threads apart.
    pub visits: AtomicU32,
    /// Finished simulations through this node won by the player who made its move.
    pub wins: AtomicU32,
    /// All-moves-as-first statistics. Updated with plain load and store rather than atomic
    /// read-modify-write: a lost increment under contention is rare and harmless to a
    /// heuristic, and the lock-free path keeps the simulation's hottest update cheap.
    pub rave_visits: AtomicU32,
    pub rave_wins: AtomicU32,
}

impl Stats {
    /// Adds one to a statistic that tolerates lost updates (see `rave_visits`).
    #[inline]
    pub fn bump(counter: &AtomicU32) {
        counter.store(counter.load(Ordering::Relaxed).wrapping_add(1), Ordering::Relaxed);
    }
}

/// Where a node sits in the tree.
#[derive(Debug, Default)]
struct Links {
    /// The move in the low 16 bits: a point index, or 0 for pass (no point has index 0).
    /// Above it, where the priors go to the node itself ([`PriorTarget::Node`]), the prior's
    /// virtual visits (bits 16–23) and wins (bits 24–31): in a word of its own they would
    /// make every node 4 bytes bigger. Written before the block is published, never changed
    /// after.
    mv: AtomicU32,
    /// First child's id. Written before `state` publishes the children.
    first_child: AtomicU32,
    /// `LEAF`, `EXPANDING`, or the number of children (at least one) once they exist.
    state: AtomicU32,
}

/// Bytes per node, for the memory cap.
pub const NODE_BYTES: usize = std::mem::size_of::<Stats>() + std::mem::size_of::<Links>();

fn encode(mv: Move) -> u32 {
    match mv {
        Move::Play(p) => u32::from(p.0),
        Move::Pass => 0,
    }
}

fn decode(code: u32) -> Move {
    match code & 0xffff {
        0 => Move::Pass,
        p => Move::Play(Point(p as u16)),
    }
}

/// Where a new node's prior knowledge goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PriorTarget {
    /// Virtual RAVE results: they fade as the move's all-moves-as-first results come in,
    /// which every simulation that plays the move anywhere adds to.
    #[default]
    Rave,
    /// Virtual simulations of the node's own, as Pachi counts them: they fade only as the
    /// node's real visits come in. At most 255 of them, at the prior's rate.
    Node,
}

/// A prior's visits and wins in the bits above the move (see `Links::mv`), scaled down to
/// 255 visits at the same rate where it has more.
fn pack_prior(prior: Prior) -> u32 {
    let visits = prior.visits.min(255);
    let wins = if prior.visits > 255 {
        (u64::from(prior.wins) * 255 / u64::from(prior.visits)) as u32
    } else {
        prior.wins
    };
    visits << 16 | wins.min(visits) << 24
}

/// A chunk of nodes: statistics and links side by side.
struct Chunk {
    stats: Box<[Stats]>,
    links: Box<[Links]>,
}

/// The arena.
pub struct Tree {
    chunks: Box<[OnceLock<Chunk>]>,
    /// The next free id. Under a lock because a block must not straddle two chunks; only
    /// expansions take it, a few hundred times fewer than statistic updates.
    next: Mutex<u32>,
    /// Nodes given out so far: `next` less the ends of chunks left empty because a block
    /// did not fit, which depend on the order in which threads expand.
    allocated: AtomicUsize,
    capacity: u32,
    full: AtomicBool,
    /// Final scores of the simulations through each root child, by the child's place in the
    /// root's block: what analysis reports as score lead and spread.
    root_scores: Box<[ScoreSum]>,
    /// Per point (by index), the sum of its owner (+1 black, -1 white, 0 neither) at the end
    /// of the simulations that tracked ownership, and the sum of its absolute value.
    ownership: Box<[(AtomicI64, AtomicI64)]>,
    ownership_samples: AtomicU64,
}

/// Sums of black's area count over simulations.
#[derive(Debug, Default)]
struct ScoreSum {
    count: AtomicU64,
    sum: AtomicI64,
    sum_of_squares: AtomicI64,
}

/// Root moves at most: every point of the largest board and pass.
const MAX_ROOT_CHILDREN: usize = 25 * 25 + 1;

impl Tree {
    /// An empty tree (just a root, a leaf reached by pass) holding at most `max_nodes`
    /// nodes (at least one).
    pub fn new(max_nodes: usize) -> Tree {
        let capacity = max_nodes.clamp(1, (u32::MAX - CHUNK) as usize) as u32;
        let chunks = (0..capacity.div_ceil(CHUNK)).map(|_| OnceLock::new()).collect();
        let tree = Tree {
            chunks,
            next: Mutex::new(0),
            allocated: AtomicUsize::new(0),
            capacity,
            full: AtomicBool::new(false),
            root_scores: (0..MAX_ROOT_CHILDREN).map(|_| ScoreSum::default()).collect(),
            ownership: (0..SLOTS).map(|_| Default::default()).collect(),
            ownership_samples: AtomicU64::new(0),
        };
        tree.allocate(1).expect("room for the root");
        tree
    }

    #[inline]
    fn chunk(&self, id: u32) -> &Chunk {
        self.chunks[(id >> CHUNK_BITS) as usize].get().expect("allocated node")
    }

    /// The statistics of node `id`.
    #[inline]
    pub fn stats(&self, id: u32) -> &Stats {
        &self.chunk(id).stats[(id & (CHUNK - 1)) as usize]
    }

    #[inline]
    fn links(&self, id: u32) -> &Links {
        &self.chunk(id).links[(id & (CHUNK - 1)) as usize]
    }

    /// The statistics of a block of children (one chunk holds every block): one lookup for
    /// a whole selection.
    #[inline]
    pub fn stats_block(&self, ids: Range<u32>) -> &[Stats] {
        let offset = (ids.start & (CHUNK - 1)) as usize;
        &self.chunk(ids.start).stats[offset..offset + ids.len()]
    }

    /// The moves of a block of children, as their codes (see [`Tree::mv`]).
    #[inline]
    pub fn moves_block(&self, ids: Range<u32>) -> impl Iterator<Item = Move> + '_ {
        let offset = (ids.start & (CHUNK - 1)) as usize;
        self.chunk(ids.start).links[offset..offset + ids.len()]
            .iter()
            .map(|l| decode(l.mv.load(Ordering::Relaxed)))
    }

    /// The move that leads to node `id`.
    #[inline]
    pub fn mv(&self, id: u32) -> Move {
        decode(self.links(id).mv.load(Ordering::Relaxed))
    }

    /// The node's own virtual simulations and wins from its prior, where the priors went to
    /// the node ([`PriorTarget::Node`]); none otherwise.
    #[inline]
    pub fn node_prior(&self, id: u32) -> (u32, u32) {
        let code = self.links(id).mv.load(Ordering::Relaxed);
        ((code >> 16) & 0xff, code >> 24)
    }

    /// Nodes in use: unlike [`Tree::node_count`], the same however the threads' expansions
    /// interleaved, so decisions that depend on the tree's size read this.
    pub fn allocated_nodes(&self) -> usize {
        self.allocated.load(Ordering::Relaxed)
    }

    /// Nodes in use (ids handed out, counting the few a chunk boundary skips).
    pub fn node_count(&self) -> usize {
        *self.next.lock().unwrap_or_else(|p| p.into_inner()) as usize
    }

    /// Records black's area count at the end of a simulation through the root child at
    /// `offset` in the root's block.
    pub fn add_root_score(&self, offset: usize, black_area: i32) {
        if let Some(sum) = self.root_scores.get(offset) {
            let area = i64::from(black_area);
            sum.count.fetch_add(1, Ordering::Relaxed);
            sum.sum.fetch_add(area, Ordering::Relaxed);
            sum.sum_of_squares.fetch_add(area * area, Ordering::Relaxed);
        }
    }

    /// Mean and standard deviation of black's area count through the root child at
    /// `offset`, if any simulation recorded one.
    pub fn root_score(&self, offset: usize) -> Option<(f64, f64)> {
        let sum = self.root_scores.get(offset)?;
        let count = sum.count.load(Ordering::Relaxed);
        if count == 0 {
            return None;
        }
        let n = count as f64;
        let mean = sum.sum.load(Ordering::Relaxed) as f64 / n;
        let square = sum.sum_of_squares.load(Ordering::Relaxed) as f64 / n;
        Some((mean, (square - mean * mean).max(0.0).sqrt()))
    }

    /// Adds one thread's ownership sums (by point index: owner and absolute owner) over
    /// `samples` simulations.
    pub fn add_ownership(&self, owners: &[i32], absolute: &[i32], samples: u64) {
        for ((total, &owner), &abs) in self.ownership.iter().zip(owners).zip(absolute) {
            if abs != 0 {
                total.0.fetch_add(i64::from(owner), Ordering::Relaxed);
                total.1.fetch_add(i64::from(abs), Ordering::Relaxed);
            }
        }
        self.ownership_samples.fetch_add(samples, Ordering::Relaxed);
    }

    /// Mean ownership of point index `p` from black's side and its standard deviation, over
    /// the simulations that tracked it.
    pub fn ownership(&self, p: usize) -> Option<(f64, f64)> {
        let samples = self.ownership_samples.load(Ordering::Relaxed);
        if samples == 0 {
            return None;
        }
        let n = samples as f64;
        let mean = self.ownership[p].0.load(Ordering::Relaxed) as f64 / n;
        let square = self.ownership[p].1.load(Ordering::Relaxed) as f64 / n;
        Some((mean, (square - mean * mean).max(0.0).sqrt()))
    }

    /// Whether an expansion has failed for want of room.
    pub fn is_full(&self) -> bool {
        self.full.load(Ordering::Relaxed)
    }

    /// A block of `count` fresh nodes inside one chunk, or `None` if the cap is reached.
    fn allocate(&self, count: u32) -> Option<u32> {
        if count == 0 || count > CHUNK {
            return None;
        }
        let mut next = self.next.lock().unwrap_or_else(|p| p.into_inner());
        let mut start = *next;
        if (start & (CHUNK - 1)) + count > CHUNK {
            start = (start | (CHUNK - 1)) + 1;
        }
        if u64::from(start) + u64::from(count) > u64::from(self.capacity) {
            self.full.store(true, Ordering::Relaxed);
            return None;
        }
        *next = start + count;
        self.allocated.fetch_add(count as usize, Ordering::Relaxed);
        let chunk = start >> CHUNK_BITS;
        // The last chunk holds only what the cap allows, so memory never passes it.
        let length = CHUNK.min(self.capacity - (chunk << CHUNK_BITS));
        self.chunks[chunk as usize].get_or_init(|| Chunk {
            stats: (0..length).map(|_| Stats::default()).collect(),
            links: (0..length).map(|_| Links::default()).collect(),
        });
        Some(start)
    }

    /// The ids of `id`'s children, once they exist.
    #[inline]
    pub fn children(&self, id: u32) -> Option<Range<u32>> {
        let node = self.links(id);
        match node.state.load(Ordering::Acquire) {
            LEAF | EXPANDING => None,
            count => {
                let first = node.first_child.load(Ordering::Relaxed);
                Some(first..first + count)
            }
        }
    }

    /// Claims the right to expand `id`: true for exactly one caller while it is a leaf.
    pub fn begin_expansion(&self, id: u32) -> bool {
        self.links(id)
            .state
            .compare_exchange(LEAF, EXPANDING, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    }

    /// Creates `id`'s children (after [`Tree::begin_expansion`] returned true), with `priors`
    /// when given (one per move) where `target` puts them, and publishes them. With
    /// no room left, or no moves, `id` goes back to being a leaf: false.
    pub fn finish_expansion(
        &self,
        id: u32,
        moves: &[Move],
        priors: &[Prior],
        target: PriorTarget,
    ) -> bool {
        match self.build_children(moves, priors, target) {
            Some(children) => {
                self.publish_children(id, children);
                true
            }
            None => {
                self.abandon_expansion(id);
                false
            }
        }
    }

    /// Creates the children an expansion claimed with [`Tree::begin_expansion`] without
    /// publishing them: until [`Tree::publish_children`], the node still reads as a leaf
    /// being expanded, and walks down the tree cannot tell when they were built (the
    /// deterministic search builds them while the next wave walks). Their ids, or `None`
    /// with no room left or no moves; the node stays claimed either way.
    pub fn build_children(
        &self,
        moves: &[Move],
        priors: &[Prior],
        target: PriorTarget,
    ) -> Option<Range<u32>> {
        let count = u32::try_from(moves.len()).ok()?;
        let first = self.allocate(count)?;
        for (offset, &mv) in moves.iter().enumerate() {
            let child = first + offset as u32;
            let prior = priors.get(offset).copied().unwrap_or_default();
            let code = match target {
                PriorTarget::Rave => {
                    let stats = self.stats(child);
                    stats.rave_visits.store(prior.visits, Ordering::Relaxed);
                    stats.rave_wins.store(prior.wins, Ordering::Relaxed);
                    encode(mv)
                }
                PriorTarget::Node => encode(mv) | pack_prior(prior),
            };
            self.links(child).mv.store(code, Ordering::Relaxed);
        }
        Some(first..first + count)
    }

    /// Makes `children`, built by [`Tree::build_children`], `id`'s children.
    pub fn publish_children(&self, id: u32, children: Range<u32>) {
        let node = self.links(id);
        node.first_child.store(children.start, Ordering::Relaxed);
        node.state.store(children.len() as u32, Ordering::Release);
    }

    /// Gives up an expansion claimed with [`Tree::begin_expansion`]: `id` is a leaf again.
    pub fn abandon_expansion(&self, id: u32) {
        self.links(id).state.store(LEAF, Ordering::Release);
    }

    /// A new tree, within `max_nodes`, holding a copy of the subtree under `id` with `id` as
    /// its root: what tree reuse keeps of the last search. Copies breadth first, so that as
    /// much of the top of the subtree as fits is kept when the cap is smaller.
    pub fn copy_subtree(&self, id: u32, max_nodes: usize) -> Tree {
        let copy = Tree::new(max_nodes);
        let mut queue = std::collections::VecDeque::from([(id, ROOT)]);
        while let Some((from, to)) = queue.pop_front() {
            copy_statistics(self.stats(from), copy.stats(to));
            // The whole word: the move and, where it went there, the node's prior.
            copy.links(to).mv.store(self.links(from).mv.load(Ordering::Relaxed), Ordering::Relaxed);
            let Some(children) = self.children(from) else { continue };
            let moves: Vec<Move> = children.clone().map(|c| self.mv(c)).collect();
            if !copy.begin_expansion(to)
                || !copy.finish_expansion(to, &moves, &[], PriorTarget::Rave)
            {
                continue;
            }
            let new_children = copy.children(to).expect("just expanded");
            queue.extend(children.zip(new_children));
        }
        copy
    }
}

fn copy_statistics(from: &Stats, to: &Stats) {
    let load = |a: &AtomicU32| a.load(Ordering::Relaxed);
    to.visits.store(load(&from.visits), Ordering::Relaxed);
    to.wins.store(load(&from.wins), Ordering::Relaxed);
    to.rave_visits.store(load(&from.rave_visits), Ordering::Relaxed);
    to.rave_wins.store(load(&from.rave_wins), Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(n: u16) -> Vec<Move> {
        (1..=n).map(|p| Move::Play(Point(p))).chain([Move::Pass]).collect()
    }

    // Children appear once, contiguous, with their moves; a second expansion is refused.
    #[test]
    fn expansion_happens_once() {
        let tree = Tree::new(1000);
        assert_eq!(tree.children(ROOT), None);
        assert!(tree.begin_expansion(ROOT));
        assert!(!tree.begin_expansion(ROOT), "one expander at a time");
        assert!(tree.finish_expansion(ROOT, &moves(3), &[], PriorTarget::Rave));
        let children = tree.children(ROOT).unwrap();
        assert_eq!(children, 1..5);
        let got: Vec<Move> = children.map(|c| tree.mv(c)).collect();
        assert_eq!(got, moves(3));
        assert!(!tree.begin_expansion(ROOT), "expanded for good");
        assert_eq!(tree.node_count(), 5);
    }

    // A prior goes where the target says, and only there: into the RAVE statistics, or into
    // the node's own virtual simulations beside its move (more than 255 visits scaled down
    // at the same rate); tree reuse keeps either, and the moves read back unchanged.
    #[test]
    fn priors_go_where_the_target_says() {
        let priors = [Prior { visits: 20, wins: 18 }, Prior { visits: 1000, wins: 500 }];
        let load = |a: &AtomicU32| a.load(Ordering::Relaxed);
        for target in [PriorTarget::Rave, PriorTarget::Node] {
            let tree = Tree::new(1000);
            assert!(tree.begin_expansion(ROOT));
            assert!(tree.finish_expansion(ROOT, &moves(2), &priors, target));
            let first = tree.children(ROOT).expect("expanded").start;
            let copy = tree.copy_subtree(ROOT, 1000);
            for t in [&tree, &copy] {
                let stats = t.stats(first);
                let rave = (load(&stats.rave_visits), load(&stats.rave_wins));
                match target {
                    PriorTarget::Rave => {
                        assert_eq!((rave, t.node_prior(first)), ((20, 18), (0, 0)));
                        assert_eq!(load(&t.stats(first + 1).rave_visits), 1000);
                    }
                    PriorTarget::Node => {
                        assert_eq!((rave, t.node_prior(first)), ((0, 0), (20, 18)));
                        assert_eq!(t.node_prior(first + 1), (255, 127));
                    }
                }
                assert_eq!(t.node_prior(first + 2), (0, 0), "pass had no prior");
                let read: Vec<Move> = t.children(ROOT).unwrap().map(|c| t.mv(c)).collect();
                assert_eq!(read, moves(2));
            }
        }
    }

    // Blocks never straddle chunks, and the cap turns an expansion back into a leaf.
    // Children built for a claimed expansion stay out of sight until published; a claim given
    // up leaves a leaf that can be claimed again.
    #[test]
    fn built_children_are_hidden_until_published() {
        let tree = Tree::new(1000);
        assert!(tree.begin_expansion(ROOT));
        let children = tree.build_children(&moves(3), &[], PriorTarget::Rave).expect("room");
        assert_eq!(children.len(), moves(3).len());
        assert_eq!(tree.children(ROOT), None, "built, not published");
        assert!(!tree.begin_expansion(ROOT), "still claimed");
        tree.publish_children(ROOT, children.clone());
        assert_eq!(tree.children(ROOT), Some(children.clone()));
        let child = children.start;
        assert!(tree.begin_expansion(child));
        tree.abandon_expansion(child);
        assert_eq!(tree.children(child), None);
        assert!(tree.begin_expansion(child), "a leaf again");
    }

    #[test]
    fn blocks_and_cap() {
        let tree = Tree::new(CHUNK as usize + 10);
        let big: Vec<Move> = vec![Move::Pass; CHUNK as usize - 5];
        assert!(
            tree.begin_expansion(ROOT) && tree.finish_expansion(ROOT, &big, &[], PriorTarget::Rave)
        );
        let child = tree.children(ROOT).unwrap().start;
        assert!(tree.begin_expansion(child));
        assert!(
            tree.finish_expansion(child, &moves(9), &[], PriorTarget::Rave),
            "10 nodes start the second chunk"
        );
        assert_eq!(tree.children(child).unwrap().start, CHUNK);
        let grandchild = CHUNK;
        assert!(tree.begin_expansion(grandchild));
        assert!(
            !tree.finish_expansion(grandchild, &moves(1), &[], PriorTarget::Rave),
            "the cap is reached"
        );
        assert!(tree.is_full());
        assert_eq!(tree.children(grandchild), None);
        assert!(tree.begin_expansion(grandchild), "a leaf again");
    }

    // A copied subtree keeps the statistics and shape under the new root.
    #[test]
    fn copies_a_subtree() {
        let tree = Tree::new(1000);
        assert!(
            tree.begin_expansion(ROOT)
                && tree.finish_expansion(ROOT, &moves(2), &[], PriorTarget::Rave)
        );
        let second = tree.children(ROOT).unwrap().start + 1;
        tree.stats(second).visits.store(7, Ordering::Relaxed);
        assert!(
            tree.begin_expansion(second)
                && tree.finish_expansion(second, &moves(4), &[], PriorTarget::Rave)
        );
        let leaf = tree.children(second).unwrap().start + 2;
        tree.stats(leaf).wins.store(3, Ordering::Relaxed);
        let copy = tree.copy_subtree(second, 1000);
        assert_eq!(copy.stats(ROOT).visits.load(Ordering::Relaxed), 7);
        assert_eq!(copy.mv(ROOT), Move::Play(Point(2)));
        let children = copy.children(ROOT).unwrap();
        assert_eq!(children.len(), 5);
        assert_eq!(copy.stats(children.start + 2).wins.load(Ordering::Relaxed), 3);
        assert_eq!(copy.node_count(), 6);
        let small = tree.copy_subtree(second, 3);
        assert_eq!(
            (small.node_count(), small.children(ROOT)),
            (1, None),
            "no room for the children"
        );
    }
}
