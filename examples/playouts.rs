//! A fixed amount of playout work for profilers (callgrind, perf): `cargo run --release
//! --example playouts -- SIZE COUNT [light|tactical|patterns]` (light by default). Prints
//! the checksum so runs can be compared.

use rand::rngs::SmallRng;
use rand::SeedableRng;
use tengen::search::policy::{self, PlayoutPolicy, Recent};
use tengen::{Board, Color};

fn main() {
    let mut args = std::env::args().skip(1);
    let size: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(9);
    let count: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let name = args.next().unwrap_or_else(|| "light".into());
    let Some(policy) = PlayoutPolicy::from_name(&name) else {
        eprintln!("unknown policy {name}: light, tactical or patterns");
        std::process::exit(2);
    };
    let empty = Board::new(size);
    let mut board = empty.clone();
    let mut rng = SmallRng::seed_from_u64(1);
    let (mut moves, mut score) = (0usize, 0i64);
    for _ in 0..count {
        board.copy_from(&empty);
        moves += policy::playout(
            &mut board,
            policy,
            Color::Black,
            Recent::default(),
            3 * size * size,
            &mut rng,
            |_, _| {},
        );
        score += board.playout_score() as i64;
    }
    println!("{count} {policy:?} playouts on {size}x{size}: {moves} moves, score sum {score}");
}
