//! Full-search speed on one position, for comparing thread counts and profiling:
//! `search_speed SIZE PLAYOUTS THREADS [middle]` prints simulations per second.

use tengen::cli::bench::{search_speed, Position};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number =
        |i: usize, default: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let position = if args.get(3).is_some_and(|a| a == "middle") {
        Position::MiddleGame
    } else {
        Position::Empty
    };
    let figure = search_speed(number(0, 9), number(1, 100_000), 1, number(2, 1), position);
    println!("{} {:.0}/s checksum {}", figure.name, figure.per_second(), figure.checksum);
}
