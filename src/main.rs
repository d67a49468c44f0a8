//! The `tengen` command line: argument parsing and dispatch only.

use clap::{Parser, Subcommand};
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "tengen",
    version,
    about = "A Go engine: GTP v2, Monte Carlo tree search, Chinese rules"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Measure light playouts per second and play+undo throughput (single thread).
    Bench {
        /// Seconds to spend on each figure.
        #[arg(long, default_value_t = 2.0)]
        seconds: f64,
        /// Seed of the random generator.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Bench {
        seconds: 2.0,
        seed: 1,
    }) {
        Command::Bench { seconds, seed } => run_bench(seconds, seed),
    }
}

fn run_bench(seconds: f64, seed: u64) {
    let budget = Duration::from_secs_f64(seconds.max(0.01));
    let figures = [
        tengen::bench::light_playouts(9, budget, seed),
        tengen::bench::light_playouts(19, budget, seed),
        tengen::bench::play_undo(19, budget, seed),
    ];
    for figure in figures {
        println!(
            "{:<24} {:>10.0} /s   ({} in {:.2} s, checksum {})",
            figure.name,
            figure.per_second(),
            figure.count,
            figure.elapsed.as_secs_f64(),
            figure.checksum
        );
    }
}
