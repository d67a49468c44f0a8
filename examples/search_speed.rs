//! Full-search speed on one position, for comparing thread counts and profiling:
//! `search_speed SIZE PLAYOUTS THREADS [middle] [waves]` prints simulations per second
//! (`waves`: the deterministic search).

use tengen::cli::bench::{search_speed, Position};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number =
        |i: usize, default: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let waves = args.iter().skip(3).any(|a| a == "waves");
    let position = if args.iter().skip(3).any(|a| a == "middle") {
        Position::MiddleGame
    } else {
        Position::Empty
    };
    let figure = search_speed(number(0, 9), number(1, 100_000), 1, number(2, 1), position, waves);
    println!("{} {:.0}/s checksum {}", figure.name, figure.per_second(), figure.checksum);
}
