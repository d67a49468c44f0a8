use super::*;
use crate::board::vertex::parse_move;

fn board(diagram: &str) -> Board {
    let board = Board::from_diagram(diagram).expect("valid diagram");
    board.check_invariants().expect("consistent board");
    board
}

fn at(board: &Board, vertex: &str) -> Point {
    match parse_move(board, vertex) {
        Some(Move::Play(p)) => p,
        _ => panic!("bad vertex {vertex}"),
    }
}

fn play(board: &mut Board, color: Color, vertex: &str) -> Result<MoveEffect, IllegalMove> {
    let p = at(board, vertex);
    let result = board.try_play(p, color);
    board.check_invariants().expect("consistent after the move");
    result
}

fn assert_diagram(board: &Board, expected: &str) {
    let expected: String = expected
        .lines()
        .map(|l| l.split_whitespace().collect::<String>())
        .filter(|l| !l.is_empty())
        .map(|l| l + "\n")
        .collect();
    assert_eq!(board.to_diagram(), expected);
}

/// The empty 19×19 hash; it changes only if the Zobrist seed or generator changes.
const PINNED_EMPTY_19X19_HASH: u64 = 5925319058078789683;

// The empty board has every point empty and the pinned size-only hash.
#[test]
fn empty_board() {
    for size in MIN_SIZE..=MAX_SIZE {
        let b = Board::new(size);
        assert_eq!(b.empty_points().len(), size * size);
        assert_eq!(b.hash(), zobrist::empty_board_key(size));
        b.check_invariants().unwrap();
    }
    assert_eq!(Board::new(19).hash(), PINNED_EMPTY_19X19_HASH);
}

// A single stone in the middle is captured when its fourth liberty is taken.
#[test]
fn captures_single_stone() {
    let mut b = board(
        ". . . . .
         . . X . .
         . X O . .
         . . X . .
         . . . . .",
    );
    let effect = play(&mut b, Color::Black, "D3").unwrap();
    assert_eq!(effect.captured, 1);
    assert_eq!(b.prisoners(Color::Black), 1);
    assert_diagram(
        &b,
        ". . . . .
         . . X . .
         . X . X .
         . . X . .
         . . . . .",
    );
}

// One move can capture two separate chains at once, and each freed point becomes a liberty.
#[test]
fn captures_two_chains_at_once() {
    let mut b = board(
        ". X O X .
         X O . O X
         . X O X .
         . . X . .
         . . . . .",
    );
    let effect = play(&mut b, Color::Black, "C4").unwrap();
    assert_eq!(effect.captured, 4, "the C5, B4, D4 and C3 chains");
    assert_diagram(
        &b,
        ". X . X .
         X . X . X
         . X . X .
         . . X . .
         . . . . .",
    );
    assert_eq!(b.chain_liberties(at(&b, "C4")), 4);
}

// Chains on the edge and in the corner have fewer liberties and are captured accordingly.
#[test]
fn captures_on_edge_and_corner() {
    let mut b = board(
        "O X . . .
         X . . . .
         . . . . .
         . . . X .
         . . X O O",
    );
    // The corner stone A5 was captured while the diagram was set up: it had no liberty.
    assert_eq!(b.stone(at(&b, "A5")), None);
    assert_eq!(b.chain_liberties(at(&b, "D1")), 1);
    let effect = play(&mut b, Color::Black, "E2").unwrap();
    assert_eq!(effect.captured, 2);
    assert_diagram(
        &b,
        ". X . . .
         X . . . .
         . . . . .
         . . . X X
         . . X . .",
    );
}

// A move takes the corner stones: one alone, then two along the edge.
#[test]
fn corner_captures_by_a_move() {
    let mut b = board(
        "O X . . .
         . . . . .
         . . . . .
         . . . . .
         . . . . .",
    );
    assert_eq!(b.chain_liberties(at(&b, "A5")), 1);
    assert_eq!(play(&mut b, Color::Black, "A4").unwrap().captured, 1);
    assert_eq!(b.stone(at(&b, "A5")), None);
    assert_eq!(b.prisoners(Color::Black), 1);
    assert_eq!(b.chain_liberties(at(&b, "B5")), 3, "A5 is a liberty again");

    let mut two = board(
        "O X . . .
         O X . . .
         . . . . .
         . . . . .
         . . . . .",
    );
    assert_eq!(play(&mut two, Color::Black, "A3").unwrap().captured, 2);
    assert_diagram(
        &two,
        ". X . . .
         . X . . .
         X . . . .
         . . . . .
         . . . . .",
    );
}

// A move into a point without liberties that captures nothing is suicide, single stone.
#[test]
fn suicide_single_stone() {
    let mut b = board(
        ". O . . .
         O . . . .
         . . . . .
         . . . . .
         . . . . .",
    );
    let before = b.clone();
    assert_eq!(play(&mut b, Color::Black, "A5"), Err(IllegalMove::Suicide));
    assert_eq!(b, before);
    assert!(play(&mut b, Color::White, "A5").is_ok(), "own eye filling is legal");
}

// Joining a chain whose last liberty is the move's point is a multi-stone suicide.
#[test]
fn suicide_multi_stone() {
    let mut b = board(
        "X X O . .
         . O . . .
         O . . . .
         . . . . .
         . . . . .",
    );
    assert_eq!(play(&mut b, Color::Black, "A4"), Err(IllegalMove::Suicide));
    let mut allowed = b.clone();
    let p = at(&allowed, "A4");
    let effect = allowed.try_play_allowing_suicide(p, Color::Black).unwrap();
    assert_eq!(effect.suicided, 3);
    assert_eq!(allowed.prisoners(Color::White), 3);
    allowed.check_invariants().unwrap();
    assert_diagram(
        &allowed,
        ". . O . .
         . O . . .
         O . . . .
         . . . . .
         . . . . .",
    );
}

// Capture comes before the suicide test: a stone with no liberty that captures is legal.
#[test]
fn capture_rescues_a_move_without_liberties() {
    let mut b = board(
        ". O X . .
         O X . . .
         X . . . .
         . . . . .
         . . . . .",
    );
    let effect = play(&mut b, Color::Black, "A5").unwrap();
    assert_eq!(effect.captured, 2);
    assert_eq!(b.chain_liberties(at(&b, "A5")), 2);
}

// A capture that saves an own chain in atari gives it back its liberties.
#[test]
fn capture_rescues_own_chain() {
    let mut b = board(
        ". . . . .
         . O O . .
         O X X O .
         X O . O .
         . X . . .",
    );
    assert_eq!(b.chain_liberties(at(&b, "B3")), 1);
    let effect = play(&mut b, Color::Black, "C2").unwrap();
    assert_eq!(effect.captured, 1, "B2 shares its last liberty C2");
    assert_eq!(b.ko(), None);
    assert_eq!(b.chain_liberties(at(&b, "B3")), 2);
}

// Simple ko: the immediate retake is illegal, allowed again after a move elsewhere.
#[test]
fn simple_ko() {
    let mut b = board(
        ". X O . .
         X O . O .
         . X O . .
         . . . . .
         . . . . .",
    );
    play(&mut b, Color::Black, "C4").unwrap();
    assert_eq!(b.ko(), Some((at(&b, "B4"), Color::White)));
    assert_eq!(play(&mut b, Color::White, "B4"), Err(IllegalMove::Ko));
    assert!(b.check_move(at(&b, "B4"), Color::Black).is_ok(), "the ban is white's alone");
    play(&mut b, Color::White, "E1").unwrap();
    play(&mut b, Color::Black, "E2").unwrap();
    assert_eq!(b.ko(), None);
    assert_eq!(play(&mut b, Color::White, "B4").unwrap().captured, 1);
}

// Capturing two stones or capturing with a stone that has other liberties is no ko.
#[test]
fn no_ko_after_larger_capture() {
    let mut b = board(
        ". X O O X
         X O . . O
         . X O O .
         . . . . .
         . . . . .",
    );
    assert_eq!(b.stone(at(&b, "E5")), None, "E5 captured during setup");
    play(&mut b, Color::White, "E5").unwrap();
    let mut b2 = board(
        "X O . . .
         . X O . .
         X O . . .
         . . . . .
         . . . . .",
    );
    play(&mut b2, Color::White, "A4").unwrap();
    assert_eq!(b2.ko(), None, "the capturing stone has two liberties");
}

// Occupied and off-board points are refused with their own reasons.
#[test]
fn occupied_and_off_board() {
    let mut b = board(
        "X .
         . .",
    );
    assert_eq!(b.try_play(at(&b, "A2"), Color::White), Err(IllegalMove::Occupied));
    assert_eq!(b.try_play(Point(0), Color::White), Err(IllegalMove::OffBoard));
    assert_eq!(b.try_play(Point(MAX_POINTS as u16 + 5), Color::White), Err(IllegalMove::OffBoard));
}

// The one-point eye tests: edge and corner eyes need no enemy diagonal, the centre one.
#[test]
fn true_eyes() {
    let b = board(
        ". X . X .
         X X X X X
         . X . X O
         X O X X O
         . O . . O",
    );
    assert!(b.is_true_eye(at(&b, "A5"), Color::Black));
    assert!(b.is_true_eye(at(&b, "C5"), Color::Black));
    assert!(b.is_true_eye(at(&b, "C3"), Color::Black), "one enemy diagonal in the centre");
    assert!(!b.is_true_eye(at(&b, "A3"), Color::Black), "an enemy diagonal on the edge");
    assert!(b.is_true_eye(at(&b, "E5"), Color::Black));
    assert!(!b.is_eyeish(at(&b, "A1"), Color::Black), "not surrounded");
    assert!(b.is_eyeish(at(&b, "A3"), Color::Black));
    assert!(!b.is_true_eye(at(&b, "A5"), Color::White));
}

// Chains merge through a new stone with the union of their liberties, shared ones once.
#[test]
fn merge_counts_shared_liberties_once() {
    let mut b = board(
        ". . . . .
         . X . . .
         . . X . .
         . . . . .
         . . . . .",
    );
    play(&mut b, Color::Black, "B3").unwrap();
    assert_eq!(b.chain_liberties(at(&b, "B4")), 7, "3 + 3 + 2 with C4 shared");
    play(&mut b, Color::Black, "C4").unwrap();
    assert_eq!(b.chain_len(at(&b, "C3")), 4);
    assert_eq!(b.chain_liberties(at(&b, "C3")), 8);
}

// `hash_after` predicts the hash of a legal move, captures included.
#[test]
fn hash_after_predicts_capture() {
    let b = board(
        ". X O . .
         X O . O .
         . X O . .
         . . . . .
         . . . . .",
    );
    let p = at(&b, "C4");
    let predicted = b.hash_after(p, Color::Black);
    let mut played = b.clone();
    played.try_play(p, Color::Black).unwrap();
    assert_eq!(predicted, played.hash());
    assert_ne!(predicted, b.hash());
}

// Diagram errors are reported, not panicked on.
#[test]
fn diagram_errors() {
    assert!(Board::from_diagram("X").is_err());
    assert!(Board::from_diagram("X .\n. . .").is_err());
    assert!(Board::from_diagram("X ?\n. .").is_err());
}

// Setting up and clearing points keeps every invariant; clearing restores liberties.
#[test]
fn clear_point_restores_liberties() {
    let mut b = board(
        ". X O .
         X O O .
         . X O .
         . . . .",
    );
    let white = at(&b, "B3");
    assert_eq!(b.chain_liberties(white), 4);
    b.clear_point(at(&b, "B4"));
    b.check_invariants().unwrap();
    assert_eq!(b.chain_liberties(white), 5);
    assert_eq!(b.stone(at(&b, "B4")), None);
}

// A light playout ends with both sides passing and only eye-like points left empty.
#[test]
fn playout_runs_to_the_end() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
    for size in [2, 3, 5, 9, 19] {
        let mut b = Board::new(size);
        let moves = b.playout(Color::Black, 10 * size * size, &mut rng);
        b.check_invariants().unwrap();
        assert!(moves > 0);
        for color in Color::BOTH {
            assert_eq!(b.random_move(color, &mut rng), None, "a finished playout on {size}");
        }
        for &p in b.empty_points() {
            let p = Point(p);
            assert!(b.is_eyeish(p, Color::Black) || b.is_eyeish(p, Color::White) || size <= 3);
        }
        let score = b.playout_score();
        assert!(score.unsigned_abs() as usize <= size * size);
    }
}

// The playout move picker, before every move of seeded playouts: its move is legal (no
// suicide, no ko retake) and fills no own true eye, and it passes only when every empty
// point is illegal or such an eye.
#[test]
fn random_moves_are_legal_and_keep_own_eyes() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
    for (size, games) in [(3, 200), (5, 100), (9, 20)] {
        for _ in 0..games {
            let mut b = Board::new(size);
            let mut color = Color::Black;
            let mut passes = 0;
            let mut moves = 0;
            while passes < 2 && moves < 4 * size * size {
                match b.random_move(color, &mut rng) {
                    Some(p) => {
                        assert!(b.is_legal(p, color), "{color} {p:?} illegal on\n{b:?}");
                        assert!(!b.is_true_eye(p, color), "{color} fills an eye at {p:?}\n{b:?}");
                        b.try_play(p, color).expect("legal");
                        b.check_invariants().unwrap();
                        passes = 0;
                        moves += 1;
                    }
                    None => {
                        let open = b.empty_points().iter().map(|&q| Point(q));
                        for q in open {
                            assert!(!b.is_legal(q, color) || b.is_true_eye(q, color), "{q:?}");
                        }
                        b.clear_ko();
                        passes += 1;
                    }
                }
                color = color.opponent();
            }
        }
    }
}

// Liberties after a move: own empty neighbours, those of joined chains, captured stones
// next to the move, each counted once and capped at the limit.
#[test]
fn liberties_after_a_move() {
    let b = board(
        ". O X . .
         O . X . .
         X X . . .
         . . . . .
         . . . . .",
    );
    assert_eq!(b.liberties_after(at(&b, "A5"), Color::Black, 4), 0, "suicide");
    assert_eq!(b.liberties_after(at(&b, "A5"), Color::White, 4), 1, "joins into atari");
    assert_eq!(b.liberties_after(at(&b, "B4"), Color::White, 4), 1);
    assert_eq!(b.liberties_after(at(&b, "B4"), Color::Black, 9), 5, "joins both chains");
    assert_eq!(b.liberties_after(at(&b, "B4"), Color::Black, 3), 3, "capped");
    assert_eq!(b.liberties_after(at(&b, "E1"), Color::White, 4), 2, "corner");
    let capture = board(
        "X O . . .
         . X . . .
         . . . . .
         . . . . .
         . . . . .",
    );
    assert_eq!(capture.liberties_after(at(&capture, "C5"), Color::Black, 4), 3, "takes B5");
}

// Against the board itself, on every empty point of seeded random positions: where the move
// captures nothing, `liberties_after` is the chain's liberty count after playing it, capped
// at the limit (long chains with few liberties included, whose walk stops early); where it
// captures, the count may fall short but never over.
#[test]
fn liberties_after_agrees_with_playing_the_move() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
    let mut checked = 0;
    for size in [5, 9, 13] {
        for game in 0..60 {
            let mut b = Board::new(size);
            let moves = (game + 1) * size * size / 20;
            b.playout(Color::Black, moves, &mut rng);
            for &q in b.empty_points() {
                let p = Point(q);
                for color in [Color::Black, Color::White] {
                    if !b.is_legal(p, color) {
                        continue;
                    }
                    let mut after = b.clone();
                    let captured = after.play_unchecked(p, color).captured;
                    let truth = after.chain_liberties(p);
                    for limit in 1..=8 {
                        let counted = b.liberties_after(p, color, limit);
                        if captured == 0 {
                            assert_eq!(
                                counted,
                                truth.min(limit),
                                "{color} {p:?} limit {limit}\n{b:?}"
                            );
                        } else {
                            assert!(counted <= truth.min(limit), "{color} {p:?} capture\n{b:?}");
                        }
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 5_000, "{checked} moves checked");
}

// The neighbour masks the playout policies scan: a bit for each point, in order, holding a
// stone of the colour asked whose chain has exactly the liberties asked.
#[test]
fn chains_with_liberties_marks_the_points_in_order() {
    let b = board(
        ". . . . .
         . O X . .
         O X . X .
         . O X . .
         . . . . .",
    );
    // Around C3, in the order of `neighbors`: C4, B3, D3, C2. B3 has one liberty (C3),
    // C4 three (C5, D4, C3), D3 four, C2 three (C3, D2, C1).
    let around = b.neighbors(at(&b, "C3"));
    let marked = |color: Color, liberties: u16| -> Vec<Point> {
        points_in(around, b.chains_with_liberties(around, color, liberties)).collect()
    };
    let expected =
        |vertices: &[&str]| -> Vec<Point> { vertices.iter().map(|v| at(&b, v)).collect() };
    assert_eq!(marked(Color::Black, 1), expected(&["B3"]));
    assert_eq!(marked(Color::Black, 2), expected(&[]));
    assert_eq!(marked(Color::Black, 3), expected(&["C4", "C2"]));
    assert_eq!(marked(Color::Black, 4), expected(&["D3"]));
    assert_eq!(marked(Color::White, 1), expected(&[]));
    // Around B3: B4 (B5, A4), A3 (A4, A2) and B2 (B1, A2) have two liberties each.
    let beside_b3 = b.neighbors(at(&b, "B3"));
    let white_2 = b.chains_with_liberties(beside_b3, Color::White, 2);
    assert_eq!(points_in(beside_b3, white_2).collect::<Vec<_>>(), expected(&["B4", "A3", "B2"]));
    assert_eq!(points_in(around, 0).count(), 0);
}
