//! Board speed: light playouts from the empty board on 9×9 and 19×19 (single thread), and
//! play+undo on the `Game` layer. `cargo bench --bench board`; `tengen bench` prints the same
//! figures without criterion.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::hint::black_box;
use tengen::{Board, Color, Game, Move, Rules};

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

/// Plays `moves` on `game` and undoes what was played: the number of moves played (superko
/// may refuse some of the light playout's game).
fn play_and_undo(game: &mut Game, moves: &[(Color, tengen::Point)]) -> u64 {
    let mut played = 0;
    for &(color, p) in moves {
        if game.play(color, Move::Play(p)).is_ok() {
            played += 1;
        }
    }
    for _ in 0..played {
        game.undo().unwrap();
    }
    played
}

fn play_undo(c: &mut Criterion) {
    let size = 19;
    let moves = tengen::bench::random_game(size, 1);
    let mut game = Game::new(size, Rules::chinese());
    let played = play_and_undo(&mut game, &moves);
    let mut group = c.benchmark_group("game");
    group.throughput(Throughput::Elements(2 * played));
    group.bench_function("play+undo 19x19 (a random game)", |b| {
        b.iter(|| black_box(play_and_undo(&mut game, &moves)))
    });
    group.finish();
}

criterion_group!(benches, light_playouts, play_undo);
criterion_main!(benches);
