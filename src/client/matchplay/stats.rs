//! The statistics of a match between two engines: a win rate with its Wilson interval, the
//! Elo difference it implies, and a sequential probability ratio test that stops a match as
//! soon as it has decided between two Elo hypotheses.

/// The normal quantile of a two-sided 95 % interval.
const Z_95: f64 = 1.959_963_984_540_054;

/// A share with its 95 % confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

/// The Wilson score interval of `score` successes in `games` trials (a draw counts half).
/// Unlike the normal approximation it stays inside [0, 1] and is sound for the 0 % and 100 %
/// results that short matches against weak opponents give. `None` without games.
pub fn wilson(score: f64, games: usize) -> Option<Interval> {
    if games == 0 {
        return None;
    }
    let n = games as f64;
    let p = (score / n).clamp(0.0, 1.0);
    let z2 = Z_95 * Z_95;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = Z_95 / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(Interval { estimate: p, low: (centre - half).max(0.0), high: (centre + half).min(1.0) })
}

/// The Elo difference that gives an expected score of `p` under the logistic model; infinite
/// at 0 and 1.
pub fn elo_from_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// The expected score of a player `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference with the interval mapped from the win rate's Wilson interval.
pub fn elo_interval(score: f64, games: usize) -> Option<Interval> {
    let rate = wilson(score, games)?;
    Some(Interval {
        estimate: elo_from_score(rate.estimate),
        low: elo_from_score(rate.low),
        high: elo_from_score(rate.high),
    })
}

/// What a sequential probability ratio test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// The first engine is `elo1` stronger (H1 accepted).
    Stronger,
    /// The first engine is at most `elo0` stronger (H0 accepted).
    NotStronger,
    Continue,
}

/// A test of H0: the Elo difference is `elo0`, against H1: it is `elo1`, with error rates
/// `alpha` (accepting H1 wrongly) and `beta` (accepting H0 wrongly). Each game is a
/// Bernoulli trial on the score, a draw counting as half a win and half a loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    /// The usual 5 % / 5 % test between two Elo values.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt { elo0, elo1, alpha: 0.05, beta: 0.05 }
    }

    /// The log-likelihood ratio of H1 against H0 after these results.
    pub fn llr(&self, wins: f64, losses: f64, draws: f64) -> f64 {
        let p0 = score_from_elo(self.elo0);
        let p1 = score_from_elo(self.elo1);
        let successes = wins + draws / 2.0;
        let failures = losses + draws / 2.0;
        successes * (p1 / p0).ln() + failures * ((1.0 - p1) / (1.0 - p0)).ln()
    }

    /// The bounds the ratio must cross: below the first H0 is accepted, above the second H1.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    pub fn decide(&self, wins: f64, losses: f64, draws: f64) -> SprtDecision {
        let llr = self.llr(wins, losses, draws);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::Stronger
        } else if llr <= lower {
            SprtDecision::NotStronger
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-3
    }

    // Values checked by hand against the textbook formula.
    #[test]
    fn wilson_intervals() {
        let half = wilson(50.0, 100).unwrap();
        assert!(close(half.estimate, 0.5) && close(half.low, 0.4038) && close(half.high, 0.5962));
        let perfect = wilson(30.0, 30).unwrap();
        assert!(close(perfect.high, 1.0) && close(perfect.low, 0.8865), "{perfect:?}");
        let none = wilson(0.0, 10).unwrap();
        assert!(close(none.low, 0.0) && close(none.high, 0.2775), "{none:?}");
        assert_eq!(wilson(0.0, 0), None);
    }

    // 75 % is about +191 Elo; 50 % is even; the extremes are infinite.
    #[test]
    fn elo_differences() {
        assert!(close(elo_from_score(0.75), 190.849));
        assert!(close(elo_from_score(0.5), 0.0));
        assert!(close(score_from_elo(elo_from_score(0.3)), 0.3));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        let interval = elo_interval(75.0, 100).unwrap();
        assert!(interval.low < 190.0 && 190.0 < interval.high && interval.low > 90.0);
    }

    // A lopsided result accepts H1, an even one H0, and a short match decides nothing.
    #[test]
    fn sprt_decides() {
        let test = Sprt::new(0.0, 50.0);
        let (lower, upper) = test.bounds();
        assert!(close(lower, -2.944) && close(upper, 2.944));
        assert_eq!(test.decide(5.0, 3.0, 0.0), SprtDecision::Continue);
        assert_eq!(test.decide(140.0, 60.0, 0.0), SprtDecision::Stronger);
        assert_eq!(test.decide(100.0, 100.0, 0.0), SprtDecision::Continue);
        assert_eq!(test.decide(200.0, 200.0, 0.0), SprtDecision::NotStronger);
        assert!(close(test.llr(1.0, 1.0, 0.0), test.llr(0.0, 0.0, 2.0)), "a draw is half each");
    }
}
