//! The move model's cost at a node's expansion, where every legal move gets its features:
//! the large-shape hashes of every empty point, and the whole feature set with the shipped
//! 19×19 model, in the middle-game position of `tengen bench` (a crowded board with captures
//! behind it), and the same with latent factors of 16 dimensions for every group, as
//! `train_move_model --factors 16 --factor-group all` fits them. `cargo bench --bench
//! move_model`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tengen::search::large_shapes;
use tengen::search::move_model::{MoveModel, Recent, GROUPS};
use tengen::{Color, Point};

fn expansion(c: &mut Criterion) {
    let board = tengen::cli::bench::middle_game(19).board().clone();
    let empty: Vec<Point> = board.empty_points().iter().map(|&p| Point(p)).collect();
    let legal: Vec<Point> =
        empty.iter().copied().filter(|&p| board.is_legal(p, Color::Black)).collect();
    let model = MoveModel::builtin(19);
    let mut group = c.benchmark_group("move model 19x19 middle game");
    group.throughput(Throughput::Elements(empty.len() as u64));
    group.bench_function("large-shape hashes of every empty point", |b| {
        b.iter(|| {
            empty.iter().fold(0u64, |acc, &p| {
                acc ^ large_shapes::hashes(&board, p, Color::Black)[large_shapes::SIZES - 1]
            })
        })
    });
    group.throughput(Throughput::Elements(legal.len() as u64));
    let recent = Recent::default();
    // Every value of every group gets a vector (the zeros cost what any numbers would):
    // one factor line per group is enough to give its values vectors.
    let mut text = model.to_text();
    for g in GROUPS {
        text.push_str(&format!("factor {} 0{}\n", g.name(), " 0.01".repeat(16)));
    }
    let factored = MoveModel::parse(&text).expect("the factored model parses");
    for (name, model) in [
        ("features and strength of every legal move", model),
        ("features and strength of every legal move, 16 factors", &factored),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                legal
                    .iter()
                    .map(|&p| model.strength(&model.features(&board, Color::Black, p, recent)))
                    .sum::<f64>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, expansion);
criterion_main!(benches);
