//! Fitting the move model (`search::move_model`) to game records: the positions to learn
//! from with the features of every legal move ([`TrainingSet`]), Coulom's minorisation–
//! maximisation updates ([`train`]), and the labels that `examples/label_positions.rs` writes
//! into SGF comments and `examples/train_move_model.rs` reads. Offline code: the engine
//! never calls it.

use crate::game::sgf;
use crate::search::move_model::{
    group_index, Factors, Features, Group, MoveModel, GROUPS, MAX_FACTOR_DIMENSION,
};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::borrow::Cow;
use std::ops::Range;

/// Positions per piece of work in [`train_from`]'s parallel sums.
const POSITIONS_PER_CHUNK: usize = 8192;
/// Chunks summed at once in [`train_from`]: enough to keep the threads of a big machine
/// busy, few enough that their sums (one per value of the group) take little memory.
const CHUNKS_PER_BATCH: usize = 32;

/// Bits a group's values take in a [`Packed`] candidate.
const fn value_bits(group: Group) -> u32 {
    usize::BITS - (group.values() - 1).leading_zeros()
}

/// Where each group's value starts in a [`Packed`] candidate: the groups' values one after
/// another in the order of [`GROUPS`], and at the end the bits they take in all.
const SHIFTS: [u32; GROUPS.len() + 1] = {
    let mut shifts = [0; GROUPS.len() + 1];
    let mut g = 0;
    while g < GROUPS.len() {
        shifts[g + 1] = shifts[g] + value_bits(GROUPS[g]);
        g += 1;
    }
    shifts
};
const _: () = assert!(SHIFTS[GROUPS.len()] <= 80, "a candidate's features fit in ten bytes");

/// A candidate's features in ten bytes instead of the 44 of [`Features`], so that a training
/// set holds millions of positions of a few hundred candidates each on a 24 GB machine.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Packed([u16; 5]);

impl Packed {
    fn pack(features: &Features) -> Packed {
        let mut bits: u128 = 0;
        for (g, &value) in features.iter().enumerate() {
            assert!((value as usize) < GROUPS[g].values(), "{:?} {value}", GROUPS[g]);
            bits |= u128::from(value) << SHIFTS[g];
        }
        Packed(std::array::from_fn(|i| (bits >> (16 * i)) as u16))
    }

    fn bits(self) -> u128 {
        self.0.iter().rev().fold(0, |bits, &word| bits << 16 | u128::from(word))
    }

    fn unpack(self) -> Features {
        let bits = self.bits();
        std::array::from_fn(|g| Packed::field(bits, g) as u32)
    }

    /// The value of group number `g`, without unpacking the others.
    fn value(self, g: usize) -> usize {
        Packed::field(self.bits(), g)
    }

    fn field(bits: u128, g: usize) -> usize {
        (bits >> SHIFTS[g]) as usize & ((1 << (SHIFTS[g + 1] - SHIFTS[g])) - 1)
    }
}

/// Positions to learn from: each with the features of every legal move and the share of
/// the choice each move had: all of it for the one move played, or a search's visits spread
/// over several.
#[derive(Clone, Debug, Default)]
pub struct TrainingSet {
    candidates: Vec<Packed>,
    /// Per position: its first candidate, its candidate count and its range in `shares`.
    positions: Vec<(usize, usize, Range<usize>)>,
    /// (candidate index within its position, share); a position's shares sum to 1.
    shares: Vec<(usize, f64)>,
}

impl TrainingSet {
    /// Adds a position whose legal moves have `candidates`, of which `chosen` was played.
    pub fn add(&mut self, candidates: &[Features], chosen: usize) {
        self.add_shares(candidates, &[(chosen, 1.0)]);
    }

    /// Adds a position whose legal moves have `candidates`, where each move of `weights`
    /// (candidate index, weight such as a search's visits) was chosen in proportion to its
    /// weight. Weights that are not positive and finite are dropped; a position left with
    /// none is not added.
    pub fn add_shares(&mut self, candidates: &[Features], weights: &[(usize, f64)]) {
        let weights: Vec<_> = weights.iter().filter(|(_, w)| w.is_finite() && *w > 0.0).collect();
        assert!(weights.iter().all(|(i, _)| *i < candidates.len()), "the chosen are candidates");
        if weights.is_empty() {
            return;
        }
        let total: f64 = weights.iter().map(|(_, w)| w).sum();
        let first_share = self.shares.len();
        self.shares.extend(weights.iter().map(|&&(i, w)| (i, w / total)));
        let shares = first_share..self.shares.len();
        self.positions.push((self.candidates.len(), candidates.len(), shares));
        self.candidates.extend(candidates.iter().map(Packed::pack));
    }

    /// Moves the positions of `other` to the end of this set.
    pub fn append(&mut self, other: TrainingSet) {
        let (candidates, shares) = (self.candidates.len(), self.shares.len());
        self.positions.extend(other.positions.into_iter().map(|(start, len, range)| {
            (start + candidates, len, range.start + shares..range.end + shares)
        }));
        self.candidates.extend(other.candidates);
        self.shares.extend(other.shares);
    }

    /// The positions of `sets`, in order, in one set that takes no more memory than they
    /// hold (appending one by one would let the vectors grow to twice that).
    pub fn concat(sets: Vec<TrainingSet>) -> TrainingSet {
        let mut all = TrainingSet {
            candidates: Vec::with_capacity(sets.iter().map(|s| s.candidates.len()).sum()),
            positions: Vec::with_capacity(sets.iter().map(|s| s.positions.len()).sum()),
            shares: Vec::with_capacity(sets.iter().map(|s| s.shares.len()).sum()),
        };
        for set in sets {
            all.append(set);
        }
        all
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// How many moves the positions hold in all.
    pub fn candidates(&self) -> usize {
        self.candidates.len()
    }

    /// How often `model` gives the chosen move (the one with the largest share) the highest
    /// strength (ties count as misses), and the mean log-likelihood of the choices: of the
    /// chosen move, or with shares the mean of their moves' log-likelihoods weighted by share.
    pub fn evaluate(&self, model: &MoveModel) -> (f64, f64) {
        let (hits, log_likelihood) = self
            .positions
            .par_chunks(POSITIONS_PER_CHUNK)
            .map(|chunk| {
                let mut hits = 0;
                let mut log_likelihood = 0.0;
                let mut strengths = Vec::new();
                for (start, len, shares) in chunk {
                    let shares = &self.shares[shares.clone()];
                    strengths.clear();
                    let candidates = &self.candidates[*start..start + len];
                    strengths.extend(candidates.iter().map(|f| model.strength(&f.unpack())));
                    let chosen =
                        shares.iter().max_by(|a, b| a.1.total_cmp(&b.1)).map_or(0, |&(i, _)| i);
                    let best = strengths[chosen];
                    if strengths.iter().enumerate().all(|(i, &s)| i == chosen || s < best) {
                        hits += 1;
                    }
                    let total: f64 = strengths.iter().sum();
                    for &(i, share) in shares {
                        log_likelihood += share * (strengths[i] / total).ln();
                    }
                }
                (hits, log_likelihood)
            })
            .collect::<Vec<_>>()
            .into_iter()
            .fold((0, 0.0), |(h, l), (hits, ll)| (h + hits, l + ll));
        let n = self.positions.len().max(1) as f64;
        (hits as f64 / n, log_likelihood / n)
    }
}

/// Fits the gammas to `set` by `iterations` rounds of MM updates, one group after another;
/// the groups in `without` keep gamma 1, as if the model did not have them.
/// Each value also gets one virtual win and one virtual loss against a gamma of 1, so rare
/// values stay near 1 instead of running off to 0 or infinity (Coulom's prior).
pub fn train(set: &TrainingSet, iterations: usize, without: &[Group]) -> MoveModel {
    train_from(MoveModel::default(), set, iterations, without)
}

/// [`train`] starting from the gammas of `model` instead of all 1, so that the groups in
/// `without` keep those gammas: e.g. a model's shapes, learnt from many games, with the other
/// groups refitted to positions of another board size.
pub fn train_from(
    mut model: MoveModel,
    set: &TrainingSet,
    iterations: usize,
    without: &[Group],
) -> MoveModel {
    let mut wins: Vec<Vec<f64>> = GROUPS.iter().map(|g| vec![0.0; g.values()]).collect();
    for (start, _, shares) in &set.positions {
        for &(i, share) in &set.shares[shares.clone()] {
            for (g, &value) in set.candidates[start + i].unpack().iter().enumerate() {
                wins[g][value as usize] += share;
            }
        }
    }
    // Each candidate's strength, kept as the gammas change: worked out afresh from all the
    // gammas at the start of each round, and within it multiplied by each updated gamma's
    // change (one gamma read a candidate per group, not one per group and group). Four
    // bytes a candidate: the sums that use them are kept in double precision.
    let mut strengths = vec![0f32; set.candidates.len()];
    for round in 0..iterations {
        log::info!("MM round {} of {iterations}", round + 1);
        strengths.par_iter_mut().zip(&set.candidates).for_each(|(s, f)| {
            *s = model.strength(&f.unpack()) as f32;
        });
        for g in (0..GROUPS.len()).filter(|&g| !without.contains(&GROUPS[g])) {
            // Denominator of each value's update: over positions, the strength its
            // candidates would have without this group's gamma, over the position's total.
            // Summed in fixed chunks of positions, added up in order, so that the result
            // does not depend on the number of threads; a batch of chunks at a time, so that
            // the chunks' sums held at once stay few (each is as long as the group's values:
            // 8 MB for the large shapes).
            let gammas = &model.gammas[g];
            let mut denominators = vec![0.0; gammas.len()];
            for batch in set.positions.chunks(POSITIONS_PER_CHUNK * CHUNKS_PER_BATCH) {
                let partial: Vec<Vec<f64>> = batch
                    .par_chunks(POSITIONS_PER_CHUNK)
                    .map(|chunk| {
                        let mut sums = vec![0.0; gammas.len()];
                        for &(start, len, _) in chunk {
                            let strengths = &strengths[start..start + len];
                            let total: f64 = strengths.iter().map(|&s| f64::from(s)).sum();
                            let candidates = &set.candidates[start..start + len];
                            for (f, &s) in candidates.iter().zip(strengths) {
                                let value = f.value(g);
                                sums[value] += f64::from(s) / gammas[value] / total;
                            }
                        }
                        sums
                    })
                    .collect();
                for sums in partial {
                    for (d, s) in denominators.iter_mut().zip(sums) {
                        *d += s;
                    }
                }
            }
            let old = model.gammas[g].clone();
            for (value, gamma) in model.gammas[g].iter_mut().enumerate() {
                if denominators[value] == 0.0 && wins[g][value] == 0.0 {
                    continue;
                }
                let virtual_games = 2.0 / (*gamma + 1.0);
                *gamma = (wins[g][value] + 1.0) / (denominators[value] + virtual_games);
            }
            let new = &model.gammas[g];
            strengths.par_iter_mut().zip(&set.candidates).for_each(|(s, f)| {
                let value = f.value(g);
                *s = (f64::from(*s) * new[value] / old[value]) as f32;
            });
        }
    }
    model
}

/// How [`fit_factors`] fits a model's latent factors.
#[derive(Clone, Debug)]
pub struct FactorFit {
    /// The length of each value's vector.
    pub dimension: usize,
    /// The groups whose values get vectors.
    pub groups: Vec<Group>,
    /// Passes over the positions, each in a new random order.
    pub epochs: usize,
    /// The step of the first pass; pass `n` (from 0) takes `learning_rate / (n + 1)`.
    pub learning_rate: f32,
    /// L2 weight on the vectors of the moves chosen, at each step.
    pub regularisation: f32,
    /// Seeds the starting vectors and the order of the positions: the same seed, the same fit.
    pub seed: u64,
    /// Whether the gammas move too, with the same steps (their optimum without interactions
    /// is not theirs with them); else they stay as they are.
    pub gammas: bool,
}

impl FactorFit {
    /// Whether this fit goes on from `model`'s factors instead of fresh random vectors: a
    /// model whose factors are those the fit asks for (the same dimension and groups) takes
    /// more passes on top of the fit already made.
    pub fn goes_on_from(&self, model: &MoveModel) -> bool {
        let (model_groups, model_dimension) = model.factor_groups();
        model_dimension == self.dimension
            && model_groups.len() == self.groups.len()
            && self.groups.iter().all(|g| model_groups.contains(g))
    }
}

/// Fits latent factors (`move_model::Factors`) to `set` on top of `model`'s gammas (which
/// move too with [`FactorFit::gammas`]): stochastic gradient ascent on the log-likelihood of
/// the choices, one position at a time in a shuffled order (one thread, so that a seed gives
/// one result). The vectors of values that occur in `set` start small and random (all 0
/// would have no gradient), the others stay 0; where `model` already has factors of this
/// dimension for these groups, the fit goes on from them instead. `after_epoch` sees the
/// model after each pass, e.g. to measure it on held-out positions.
pub fn fit_factors(
    model: MoveModel,
    set: &TrainingSet,
    fit: &FactorFit,
    after_epoch: impl FnMut(usize, &MoveModel),
) -> MoveModel {
    fit_factors_over(model, fit, |_| Cow::Borrowed(set), after_epoch)
}

/// [`fit_factors`] with the positions of pass `n` from `set_for_pass(n)`: the same set every
/// time, or fresh positions for each pass, so that the passes see more positions than memory
/// holds at once, and positions the gammas were not fitted to (on the 19×19 model, six fresh
/// slices of 2.2 million positions gave 39.4 % of held-out professional moves, one slice six
/// times 39.2 %, and won in play where that lost; `docs/strength.md`). The values that get
/// random starting vectors are those of the first pass's set; a value first seen later
/// starts at 0 and still learns, from the other vectors of its moves.
pub fn fit_factors_over<'a>(
    mut model: MoveModel,
    fit: &FactorFit,
    mut set_for_pass: impl FnMut(usize) -> Cow<'a, TrainingSet>,
    mut after_epoch: impl FnMut(usize, &MoveModel),
) -> MoveModel {
    let dimension = fit.dimension;
    let groups: Vec<usize> = fit.groups.iter().map(|&g| group_index(g)).collect();
    let mut rng = SmallRng::seed_from_u64(fit.seed);
    let mut set = set_for_pass(0);
    let mut factors = if fit.goes_on_from(&model) {
        model.factors.clone()
    } else {
        let mut factors = Factors::zeros(dimension, &fit.groups);
        let mut seen: Vec<Vec<bool>> = GROUPS.iter().map(|g| vec![false; g.values()]).collect();
        for candidate in &set.candidates {
            let bits = candidate.bits();
            for &g in &groups {
                seen[g][Packed::field(bits, g)] = true;
            }
        }
        for &g in &groups {
            for (value, _) in seen[g].iter().enumerate().filter(|(_, &s)| s) {
                for x in &mut factors.vectors[g][value * dimension..(value + 1) * dimension] {
                    *x = rng.gen_range(-0.1..0.1);
                }
            }
        }
        factors
    };
    let mut log_gammas: Vec<Vec<f32>> =
        model.gammas.iter().map(|gammas| gammas.iter().map(|&g| g.ln() as f32).collect()).collect();
    // Kept from pass to pass and shuffled again, so that one set gives the fits it always has.
    let mut order: Vec<usize> = Vec::new();
    let (mut scores, mut sums, mut features) = (Vec::new(), Vec::new(), Vec::new());
    let mut sum = [0.0; MAX_FACTOR_DIMENSION];
    for epoch in 0..fit.epochs {
        if epoch > 0 {
            // The last pass's positions go before the next are gathered.
            drop(std::mem::take(&mut set));
            set = set_for_pass(epoch);
        }
        if order.len() != set.positions.len() {
            order = (0..set.positions.len()).collect();
        }
        order.shuffle(&mut rng);
        let rate = fit.learning_rate / (epoch + 1) as f32;
        let mut log_likelihood = 0.0;
        for &i in &order {
            let (start, len, ref shares) = set.positions[i];
            let shares = &set.shares[shares.clone()];
            scores.clear();
            sums.clear();
            features.clear();
            for candidate in &set.candidates[start..start + len] {
                let f = candidate.unpack();
                let base: f32 = f.iter().zip(&log_gammas).map(|(&v, l)| l[v as usize]).sum();
                scores.push(base + factors.interaction(&f, &mut sum));
                sums.extend_from_slice(&sum[..dimension]);
                features.push(f);
            }
            // Chances: a softmax of the scores; the gradient of the log-likelihood by a
            // candidate's score is its share of the choice less its chance.
            let most = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let mut total = 0.0;
            for score in &mut scores {
                *score = (*score - most).exp();
                total += *score;
            }
            for &(c, share) in shares {
                log_likelihood += share * f64::from(scores[c] / total).ln();
            }
            for score in &mut scores {
                *score = -*score / total;
            }
            for &(c, share) in shares {
                scores[c] += share as f32;
            }
            // A pair's product vᵢ·vⱼ has the gradient vⱼ by vᵢ: by each of a move's
            // vectors, the sum of the move's others.
            for (c, f) in features.iter().enumerate() {
                let step = rate * scores[c];
                if fit.gammas {
                    for (l, &v) in log_gammas.iter_mut().zip(f) {
                        l[v as usize] += step;
                    }
                }
                let sum = &sums[c * dimension..(c + 1) * dimension];
                for &g in &groups {
                    let at = f[g] as usize * dimension;
                    let vector = &mut factors.vectors[g][at..at + dimension];
                    for (x, &s) in vector.iter_mut().zip(sum) {
                        *x += step * (s - *x);
                    }
                }
            }
            for &(c, share) in shares {
                let shrink = 1.0 - rate * fit.regularisation * share as f32;
                for &g in &groups {
                    let at = features[c][g] as usize * dimension;
                    factors.vectors[g][at..at + dimension].iter_mut().for_each(|x| *x *= shrink);
                }
            }
        }
        log::info!(
            "factors: pass {} of {}, mean log-likelihood {:.4} while fitting",
            epoch + 1,
            fit.epochs,
            log_likelihood / set.positions.len().max(1) as f64
        );
        model.factors = factors.clone();
        if fit.gammas {
            for (gammas, logs) in model.gammas.iter_mut().zip(&log_gammas) {
                for (gamma, &l) in gammas.iter_mut().zip(logs) {
                    *gamma = f64::from(l).exp();
                }
            }
        }
        after_epoch(epoch, &model);
    }
    model.factors = factors;
    model
}

/// A training label in a game record: the comment on a move saying that `name` would have
/// played at SGF point `(x, y)` (column and row from the top left, from 0) in the position
/// before it. `examples/label_positions.rs` writes them, `examples/train_move_model.rs`
/// learns from them.
pub fn label_comment(name: &str, point: (u8, u8)) -> String {
    format!("{name}: {}", sgf_point(point))
}

/// A label in a game record for a search's choice: the comment on a move saying that
/// `name`'s search visited these SGF points this many times in the position before it, e.g.
/// `T10k: pd 4120 dp 2890 qq 35`.
pub fn visits_comment(name: &str, visits: &[((u8, u8), u32)]) -> String {
    let moves: Vec<String> = visits.iter().map(|&(p, n)| format!("{} {n}", sgf_point(p))).collect();
    format!("{name}: {}", moves.join(" "))
}

fn sgf_point(point: (u8, u8)) -> String {
    let mut text = String::new();
    sgf::push_point(&mut text, point);
    text
}

/// The moves a label by `name` gives on a `size` board, with their weights: the one point of
/// a [`label_comment`] with weight 1, or the points of a [`visits_comment`] with their visits.
/// `None` for any other comment, and for one with a point off that board.
pub fn labelled_moves(comment: &str, name: &str, size: u8) -> Option<Vec<((u8, u8), f64)>> {
    let words: Vec<&str> = comment.strip_prefix(name)?.strip_prefix(": ")?.split(' ').collect();
    let point = |word: &str| sgf::parse_point(word, size);
    if let [word] = words[..] {
        return Some(vec![(point(word)?, 1.0)]);
    }
    let pairs = words.chunks(2).map(|pair| match *pair {
        [p, n] => Some((point(p)?, f64::from(n.parse::<u32>().ok()?))),
        _ => None,
    });
    pairs.collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::move_model::group_index;

    // A label reads back as its point on boards that hold it, and nothing else reads as one.
    #[test]
    fn labels_read_back_and_other_comments_are_not_labels() {
        for point in [(0, 0), (2, 6), (8, 8), (18, 3)] {
            let comment = label_comment("GNU Go", point);
            assert_eq!(labelled_moves(&comment, "GNU Go", 19), Some(vec![(point, 1.0)]));
        }
        assert_eq!(label_comment("GNU Go", (2, 6)), "GNU Go: cg");
        assert_eq!(labelled_moves("GNU Go: jj", "GNU Go", 9), None, "off a 9x9 board");
        assert_eq!(labelled_moves("GNU Go: cg", "Pachi", 9), None, "another name");
        for comment in ["GNU Go: pass", "GNU Go: c", "GNU Go: cgh", "GNU Go:cg", "good move", ""] {
            assert_eq!(labelled_moves(comment, "GNU Go", 9), None, "{comment:?}");
        }
        // A search's visits read back as weights, and only whole pairs on the board count.
        let visits = [((15, 3), 4120), ((3, 15), 2890), ((16, 16), 35)];
        let comment = visits_comment("T10k", &visits);
        assert_eq!(comment, "T10k: pd 4120 dp 2890 qq 35");
        let read = labelled_moves(&comment, "T10k", 19).unwrap();
        assert_eq!(read, visits.map(|(p, n)| (p, f64::from(n))));
        for comment in ["T10k: pd 4120 dp", "T10k: pd 41x0", "T10k: pd -3", "T10k: pd 1 tt 2"] {
            assert_eq!(labelled_moves(comment, "T10k", 19), None, "{comment:?}");
        }
    }

    // A position whose choice is spread 1:4 over two moves teaches what one choice in five
    // and four in five of the same position do, and scores the same.
    #[test]
    fn shares_teach_as_the_choices_they_spread() {
        let candidates: Vec<Features> = (0..2)
            .map(|value| {
                let mut f = [0u32; GROUPS.len()];
                f[group_index(Group::Capture)] = value;
                f
            })
            .collect();
        let (mut spread, mut played) = (TrainingSet::default(), TrainingSet::default());
        for position in 0..500 {
            spread.add_shares(&candidates, &[(0, 10.0), (1, 40.0), (1, -3.0), (0, f64::NAN)]);
            played.add(&candidates, usize::from(position % 5 != 0));
        }
        spread.add_shares(&candidates, &[(0, 0.0)]);
        assert_eq!(spread.len(), 500, "a position with no positive weight is not added");
        let (from_spread, from_played) = (train(&spread, 30, &[]), train(&played, 30, &[]));
        let ratio = |m: &MoveModel| m.gamma(Group::Capture, 1) / m.gamma(Group::Capture, 0);
        assert!((ratio(&from_spread) - 4.0).abs() < 0.1, "{}", ratio(&from_spread));
        assert!((ratio(&from_spread) - ratio(&from_played)).abs() < 1e-9);
        let (spread_hits, spread_ll) = spread.evaluate(&from_spread);
        let (played_hits, played_ll) = played.evaluate(&from_spread);
        assert_eq!(spread_hits, 1.0, "the move with the larger share is the one chosen");
        assert!((played_hits - 0.8).abs() < 1e-9);
        assert!((spread_ll - played_ll).abs() < 1e-9, "{spread_ll} {played_ll}");
    }

    // Two sets appended hold the positions of both, in order: they train and score as the
    // set built in one piece.
    #[test]
    fn appended_sets_are_one_set() {
        let candidates = |position: u32| -> Vec<Features> {
            (0..3)
                .map(|value| {
                    let mut f = [0u32; GROUPS.len()];
                    f[group_index(Group::Line)] = value;
                    f[group_index(Group::Atari)] = (position + value) % 3;
                    f
                })
                .collect()
        };
        let (mut whole, mut first, mut second) =
            (TrainingSet::default(), TrainingSet::default(), TrainingSet::default());
        for position in 0..300u32 {
            let half = if position < 120 { &mut first } else { &mut second };
            for set in [&mut whole, half] {
                if position % 7 == 0 {
                    set.add_shares(&candidates(position), &[(1, 2.0), (2, 1.0)]);
                } else {
                    set.add(&candidates(position), (position % 3) as usize);
                }
            }
        }
        first.append(second);
        assert_eq!(first.len(), whole.len());
        let (a, b) = (train(&first, 5, &[]), train(&whole, 5, &[]));
        assert_eq!(a, b);
        assert_eq!(first.evaluate(&a), whole.evaluate(&b));
    }

    // Moves that are good only in one combination of two features: capturing is right next
    // to the last stone and wrong far from it. No product of gammas says that (capture's
    // gamma is one number wherever the move is); the factors of the two groups do, and the
    // same seed fits the same factors.
    /// A candidate that captures (`capture` 1) or not, at `distance` from the last stone.
    fn capture_at(capture: u32, distance: u32) -> Features {
        let mut f = [0u32; GROUPS.len()];
        f[group_index(Group::Capture)] = capture;
        f[group_index(Group::LastDistance)] = distance;
        f
    }

    /// 400 positions of a capture and a quiet move: near the last stone the capture is
    /// played, far from it the quiet move, which no product of gammas can say.
    fn captures_played_near_the_last_stone() -> TrainingSet {
        let mut set = TrainingSet::default();
        for position in 0..400 {
            if position % 2 == 0 {
                set.add(&[capture_at(0, 2), capture_at(1, 2)], 1);
            } else {
                set.add(&[capture_at(0, 9), capture_at(1, 9)], 0);
            }
        }
        set
    }

    /// Factors for the capture and distance groups of [`capture_at`]'s candidates.
    fn capture_and_distance_fit() -> FactorFit {
        FactorFit {
            dimension: 4,
            groups: vec![Group::Capture, Group::LastDistance],
            epochs: 20,
            learning_rate: 0.1,
            regularisation: 0.0,
            seed: 7,
            gammas: false,
        }
    }

    #[test]
    fn factors_learn_what_gammas_cannot() {
        let set = captures_played_near_the_last_stone();
        let gammas_only = train(&set, 20, &[]);
        let (hits, log_likelihood) = set.evaluate(&gammas_only);
        assert!(hits <= 0.5 + 1e-9, "{hits}");
        assert!((log_likelihood - 0.5f64.ln()).abs() < 0.01, "{log_likelihood}");
        let fit = capture_and_distance_fit();
        let mut passes = 0;
        let with_factors = fit_factors(gammas_only.clone(), &set, &fit, |_, _| passes += 1);
        assert_eq!(passes, 20);
        assert_eq!(with_factors.gammas, gammas_only.gammas, "the gammas stay");
        let (hits, log_likelihood) = set.evaluate(&with_factors);
        assert_eq!(hits, 1.0);
        assert!(log_likelihood > -0.2, "{log_likelihood}");
        assert_eq!(with_factors.factor_groups(), (fit.groups.clone(), 4));
        // Values that never occur keep zero vectors; the same seed gives the same fit.
        assert_eq!(
            with_factors.factors.vector(group_index(Group::Capture), 3),
            Some(&[0.0; 4][..])
        );
        assert_eq!(fit_factors(gammas_only.clone(), &set, &fit, |_, _| {}), with_factors);
        // Moving the gammas too fits as well.
        let both = FactorFit { gammas: true, ..fit };
        let moved = fit_factors(gammas_only.clone(), &set, &both, |_, _| {});
        assert_ne!(moved.gammas, gammas_only.gammas);
        assert_eq!(set.evaluate(&moved).0, 1.0);
    }

    // A fit on a model that already has the factors asked for goes on from them: a fit of
    // no passes gives them back as they were (fresh random vectors would not), and more
    // passes fit better; factors of another dimension start afresh.
    #[test]
    fn factor_fits_go_on_from_the_models_factors() {
        let set = captures_played_near_the_last_stone();
        let gammas_only = train(&set, 20, &[]);
        let few = FactorFit { epochs: 2, learning_rate: 0.02, ..capture_and_distance_fit() };
        let started = fit_factors(gammas_only.clone(), &set, &few, |_, _| {});
        assert!(!few.goes_on_from(&gammas_only));
        assert!(few.goes_on_from(&started));
        let no_pass = FactorFit { epochs: 0, ..few.clone() };
        assert_eq!(fit_factors(started.clone(), &set, &no_pass, |_, _| {}), started);
        let went_on = fit_factors(started.clone(), &set, &few, |_, _| {});
        assert!(set.evaluate(&went_on).1 > set.evaluate(&started).1 + 0.01);
        let wider = FactorFit { dimension: 3, ..no_pass };
        assert!(!wider.goes_on_from(&started));
        let afresh = fit_factors(started.clone(), &set, &wider, |_, _| {});
        assert_eq!(afresh.factor_groups().1, 3);
    }

    // Passes over other positions learn from each: the first pass's set has only positions
    // near the last stone, the next only far ones, whose distance value starts at 0 and
    // still learns; factors fitted to the near positions alone know nothing of the far ones.
    #[test]
    fn factor_passes_learn_from_the_sets_they_are_given() {
        let (mut near, mut far, mut both) = Default::default();
        for _ in 0..200 {
            let n = [capture_at(0, 2), capture_at(1, 2)];
            let f = [capture_at(0, 9), capture_at(1, 9)];
            TrainingSet::add(&mut near, &n, 1);
            TrainingSet::add(&mut far, &f, 0);
            TrainingSet::add(&mut both, &n, 1);
            TrainingSet::add(&mut both, &f, 0);
        }
        let gammas_only = train(&both, 20, &[]);
        let fit = capture_and_distance_fit();
        let mut passes = Vec::new();
        let alternating = fit_factors_over(
            gammas_only.clone(),
            &fit,
            |pass| {
                passes.push(pass);
                Cow::Borrowed(if pass % 2 == 0 { &near } else { &far })
            },
            |_, _| {},
        );
        assert_eq!(passes, (0..20).collect::<Vec<_>>());
        assert_eq!(near.evaluate(&alternating).0, 1.0);
        assert_eq!(far.evaluate(&alternating).0, 1.0);
        let near_only = fit_factors(gammas_only.clone(), &near, &fit, |_, _| {});
        assert_eq!(near.evaluate(&near_only).0, 1.0);
        let (_, far_log_likelihood) = far.evaluate(&near_only);
        assert!((far_log_likelihood - 0.5f64.ln()).abs() < 0.05, "{far_log_likelihood}");
        assert!(far.evaluate(&alternating).1 > -0.2);
    }

    // A candidate packed in ten bytes unpacks to the same features, the largest value of
    // every group included, and each group's value reads alone as in the whole.
    #[test]
    fn packed_features_read_back() {
        let largest: Features = std::array::from_fn(|g| GROUPS[g].values() as u32 - 1);
        let mixed: Features =
            std::array::from_fn(|g| (g as u32 * 7 + 1) % GROUPS[g].values() as u32);
        for features in [[0; GROUPS.len()], largest, mixed] {
            let packed = Packed::pack(&features);
            assert_eq!(packed.unpack(), features);
            for (g, &value) in features.iter().enumerate() {
                assert_eq!(packed.value(g), value as usize, "{:?}", GROUPS[g]);
            }
        }
        assert_eq!(std::mem::size_of::<Packed>(), 10);
    }

    // A value past its group's range is refused, not folded into another group's bits.
    #[test]
    #[should_panic(expected = "LargeShape")]
    fn a_value_out_of_range_is_not_packed() {
        let mut features = [0; GROUPS.len()];
        features[group_index(Group::LargeShape)] = Group::LargeShape.values() as u32;
        Packed::pack(&features);
    }

    // Data drawn from known gammas: training recovers their ratios.
    #[test]
    fn training_recovers_known_strengths() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let truth = [1.0, 4.0, 0.25];
        let mut set = TrainingSet::default();
        for _ in 0..4000 {
            let candidates: Vec<Features> = (0..6)
                .map(|_| {
                    let mut f = [0u32; GROUPS.len()];
                    f[group_index(Group::Capture)] = rng.gen_range(0..3);
                    f
                })
                .collect();
            let strength = |f: &Features| truth[f[group_index(Group::Capture)] as usize];
            let total: f64 = candidates.iter().map(strength).sum();
            let mut pick = rng.gen::<f64>() * total;
            let chosen = candidates
                .iter()
                .position(|f| {
                    pick -= strength(f);
                    pick < 0.0
                })
                .unwrap_or(candidates.len() - 1);
            set.add(&candidates, chosen);
        }
        let model = train(&set, 30, &[]);
        // Left out, the group keeps gamma 1 for every value.
        let without = train(&set, 30, &[Group::Capture]);
        assert!((0..3).all(|v| without.gamma(Group::Capture, v) == 1.0));
        // Started from other gammas, a group left out keeps them, and a group trained still
        // finds the ratios of the data.
        let mut start = MoveModel::default();
        start.gammas[group_index(Group::Capture)][..3].copy_from_slice(&[2.0, 3.0, 5.0]);
        let kept = train_from(start.clone(), &set, 30, &[Group::Capture]);
        assert_eq!(kept.gammas[group_index(Group::Capture)][..3], [2.0, 3.0, 5.0]);
        let refitted = train_from(start, &set, 30, &[]);
        let refitted_ratio = refitted.gamma(Group::Capture, 1) / refitted.gamma(Group::Capture, 0);
        assert!((refitted_ratio - 4.0).abs() < 0.6, "{refitted_ratio}");
        let ratio = |v| model.gamma(Group::Capture, v) / model.gamma(Group::Capture, 0);
        assert!((ratio(1) - 4.0).abs() < 0.6, "{}", ratio(1));
        assert!((ratio(2) - 0.25).abs() < 0.06, "{}", ratio(2));
        // Ties count as misses, so the untrained model never picks the move played.
        assert_eq!(set.evaluate(&MoveModel::default()).0, 0.0);
        let (accuracy, log_likelihood) = set.evaluate(&model);
        assert!(accuracy > 0.1, "{accuracy}");
        assert!(log_likelihood > set.evaluate(&MoveModel::default()).1 + 0.1);
    }
}
