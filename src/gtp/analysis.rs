//! The analysis lines GUIs parse (Leela Zero's, Sabaki's and KataGo's dialects), written
//! from a search result: candidates, win rates, priors, confidence bounds, principal
//! variations, score lead and ownership.

use crate::board::color::Color;
use crate::board::vertex::format_move;
use crate::board::Move;
use crate::game::Game;
use crate::gtp::command::{AnalysisDialect, AnalysisRequest};
use crate::search::{move_priors, Recent, SearchResult};

/// The analysis line GUIs parse, for `color` to move in `game`: one `info` segment per
/// candidate (most visited first; unvisited ones only to reach `minmoves`, at most
/// `maxmoves`), in the request's dialect, then KataGo's optional `rootInfo`, `ownership` and
/// `ownershipStdev`. Values are from `color`'s side.
pub fn analysis_line(
    game: &Game,
    color: Color,
    request: &AnalysisRequest,
    result: &SearchResult,
    avoided: &[Move],
    model_prior: f64,
) -> String {
    let board = game.board();
    let mut shown: Vec<usize> = (0..result.candidates.len())
        .filter(|&i| {
            let (mv, visits, _) = result.candidates[i];
            (visits > 0 || i < request.min_moves) && !avoided.contains(&mv)
        })
        .collect();
    if request.max_moves > 0 {
        shown.truncate(request.max_moves);
    }
    // Priors as shares of all root moves' priors, as a policy's probabilities would be.
    let moves: Vec<Move> = result.candidates.iter().map(|&(mv, _, _)| mv).collect();
    let all_priors = move_priors(board, color, &moves, Recent::of(game), model_prior);
    let prior_sum: f64 = all_priors.iter().sum::<f64>().max(f64::MIN_POSITIVE);
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    // Black's area count becomes `color`'s lead in points.
    let lead = |area: f64| sign * (area - result.compensation);
    let kata = request.dialect == AnalysisDialect::KataGo;
    let per_10000 = |x: f64| (x * 10_000.0).round() as i64;
    let lcb_of = |win_rate: f64, visits: u32| {
        if visits == 0 {
            return 0.0;
        }
        (win_rate - 1.96 * (win_rate * (1.0 - win_rate) / f64::from(visits)).sqrt()).max(0.0)
    };
    let mut segments: Vec<String> = shown
        .iter()
        .enumerate()
        .map(|(order, &i)| {
            let (mv, visits, win_rate) = result.candidates[i];
            let prior = all_priors[i] / prior_sum;
            let lcb = lcb_of(win_rate, visits);
            let pv: Vec<String> = result.pvs[i].iter().map(|&(m, _)| format_move(board, m)).collect();
            let vertex = format_move(board, mv);
            let mut text = if kata {
                let (mean, stdev) = result.scores[i].map_or((0.0, 0.0), |(m, s)| (lead(m), s));
                format!(
                    "info move {vertex} visits {visits} utility {:.6} winrate {win_rate:.6} \
                     scoreMean {mean:.3} scoreStdev {stdev:.3} scoreLead {mean:.3} \
                     scoreSelfplay {mean:.3} prior {prior:.6} lcb {lcb:.6} utilityLcb {:.6} \
                     order {order} pv {}",
                    2.0 * win_rate - 1.0,
                    2.0 * lcb - 1.0,
                    pv.join(" ")
                )
            } else {
                format!(
                    "info move {vertex} visits {visits} winrate {} prior {} lcb {} order {order} pv {}",
                    per_10000(win_rate),
                    per_10000(prior),
                    per_10000(lcb),
                    pv.join(" ")
                )
            };
            if kata && request.pv_visits {
                let visits: Vec<String> = result.pvs[i].iter().map(|(_, v)| v.to_string()).collect();
                text.push_str(&format!(" pvVisits {}", visits.join(" ")));
            }
            text
        })
        .collect();
    if kata && request.root_info {
        let visits: u32 = result.candidates.iter().map(|c| c.1).sum();
        let wins: f64 = result.candidates.iter().map(|c| f64::from(c.1) * c.2).sum();
        let win_rate = if visits > 0 { wins / f64::from(visits) } else { 0.5 };
        let (mut weight, mut total) = (0.0, 0.0);
        for (c, score) in result.candidates.iter().zip(&result.scores) {
            if let Some((mean, _)) = score {
                weight += f64::from(c.1);
                total += f64::from(c.1) * lead(*mean);
            }
        }
        let score = if weight > 0.0 { total / weight } else { 0.0 };
        segments.push(format!(
            "rootInfo visits {} utility {:.6} winrate {win_rate:.6} scoreMean {score:.3} scoreLead {score:.3} scoreSelfplay {score:.3}",
            result.root_visits,
            2.0 * win_rate - 1.0
        ));
    }
    if kata && (request.ownership || request.ownership_stdev) {
        let size = board.size();
        let grid = |pick: &dyn Fn((f64, f64)) -> f64| -> String {
            let values = result.ownership.as_deref();
            (0..size * size)
                .map(|i| {
                    let p = board.point(i % size, i / size);
                    let value = values.map_or(0.0, |v| pick(v[p.index()]));
                    format!("{value:.4}")
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        if request.ownership {
            segments.push(format!("ownership {}", grid(&|(mean, _)| sign * mean)));
        }
        if request.ownership_stdev {
            segments.push(format!("ownershipStdev {}", grid(&|(_, stdev)| stdev)));
        }
    }
    segments.join(" ")
}
