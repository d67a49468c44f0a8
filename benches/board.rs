//! Board speed: light playouts from the empty board on 9×9 and 19×19 (single thread), and
//! play+undo on the `Game` layer. `cargo bench --bench board`; `tengen bench` prints the same
//! figures without criterion.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::hint::black_box;
use tengen::{Board, Color, Game, Rules};

fn light_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("light playout");
    for size in [9usize, 19] {
        let empty = Board::new(size);
        let mut rng = SmallRng::seed_from_u64(1);
        let mut board = empty.clone();
        group.throughput(Throughput::Elements(1));
        group.bench_function(format!("{size}x{size}"), |b| {
            b.iter(|| {
                board.copy_from(&empty);
                board.playout(Color::Black, 3 * size * size, &mut rng);
                black_box(board.playout_score())
            })
        });
    }
    group.finish();
}

fn play_undo(c: &mut Criterion) {
    let size = 19;
    let moves = tengen::cli::bench::random_game(size, 1);
    let mut game = Game::new(size, Rules::chinese());
    // Superko may refuse some moves of the light playout's game: count what is played.
    let played = tengen::cli::bench::play_and_undo(&mut game, &moves, |_| {});
    let mut group = c.benchmark_group("game");
    group.throughput(Throughput::Elements(2 * played));
    group.bench_function("play+undo 19x19 (a random game)", |b| {
        b.iter(|| black_box(tengen::cli::bench::play_and_undo(&mut game, &moves, |_| {})))
    });
    group.finish();
}

criterion_group!(benches, light_playouts, play_undo);
criterion_main!(benches);
