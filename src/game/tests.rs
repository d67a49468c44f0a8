use super::*;
use crate::board::vertex::parse_move;
use crate::game::rules::{KoRule, Rules};

/// A game whose position is `diagram`, set up as setup stones, `to_move` to play.
fn game(diagram: &str, rules: Rules, to_move: Color) -> Game {
    let board = Board::from_diagram(diagram).expect("valid diagram");
    let mut game = Game::new(board.size(), rules);
    for p in board.points() {
        if let Some(color) = board.stone(p) {
            game.add_setup_stone(color, p).unwrap();
        }
    }
    game.set_to_move(to_move);
    game.restart_history();
    game
}

fn mv(game: &Game, vertex: &str) -> Move {
    parse_move(game.board(), vertex).expect("valid vertex")
}

fn play(game: &mut Game, color: Color, vertex: &str) -> Result<(), IllegalMove> {
    let m = mv(game, vertex);
    let result = game.play(color, m);
    game.board().check_invariants().unwrap();
    result
}

fn with_ko(ko: KoRule) -> Rules {
    Rules { ko, ..Rules::chinese() }
}

/// Black throws in at A1 (two stones in atari), white takes two at C1, black retakes one at
/// B1: the position before the throw-in comes back, with the other player to move.
const SENDING_TWO_RETURNING_ONE: &str = "
    . . . . .
    . . . . .
    O O X . .
    O O X . .
    . X . X .";

// Positional superko forbids returning one in sending-two-returning-one; simple ko does not.
#[test]
fn sending_two_returning_one_positional() {
    let mut g = game(SENDING_TWO_RETURNING_ONE, Rules::chinese(), Color::Black);
    play(&mut g, Color::Black, "A1").unwrap();
    play(&mut g, Color::White, "C1").unwrap();
    assert_eq!(g.board().prisoners(Color::White), 2);
    assert_eq!(g.board().ko(), None, "the capturing stone is not a simple ko");
    assert_eq!(play(&mut g, Color::Black, "B1"), Err(IllegalMove::PositionalSuperko));
    assert!(!g.legal_points(Color::Black).contains(&g.board().point(1, 4)));

    let mut simple = game(SENDING_TWO_RETURNING_ONE, with_ko(KoRule::Simple), Color::Black);
    for (color, vertex) in [(Color::Black, "A1"), (Color::White, "C1"), (Color::Black, "B1")] {
        play(&mut simple, color, vertex).unwrap();
    }
}

// Situational superko allows it: the old position arose after white's move, this after black's.
#[test]
fn sending_two_returning_one_situational() {
    let mut g = game(SENDING_TWO_RETURNING_ONE, with_ko(KoRule::Situational), Color::Black);
    play(&mut g, Color::Black, "A1").unwrap();
    play(&mut g, Color::White, "C1").unwrap();
    play(&mut g, Color::Black, "B1").unwrap();
    assert_eq!(g.board().stone(g.board().point(1, 4)), Some(Color::Black));
    assert_eq!(g.board().stone(g.board().point(0, 4)), None, "A1 stays empty after the recapture");
}

/// Three kos: the first and third can be taken by black, the second by white.
const TRIPLE_KO: &str = "
    . X O . . . . . .
    X O . O . . . . .
    . X O . . . . . .
    . X O . . . . . .
    X . X O . . . . .
    . X O . . . . . .
    . X O . . . . . .
    X O . O . . . . .
    . X O . . . . . .";

const TRIPLE_KO_CYCLE: [(Color, &str); 6] = [
    (Color::Black, "C8"),
    (Color::White, "B5"),
    (Color::Black, "C2"),
    (Color::White, "B8"),
    (Color::Black, "C5"),
    (Color::White, "B2"),
];

// A triple ko cycles under simple ko; positional and situational superko stop its sixth move.
#[test]
fn triple_ko() {
    let mut simple = game(TRIPLE_KO, with_ko(KoRule::Simple), Color::Black);
    let start = simple.board().clone();
    for (color, vertex) in TRIPLE_KO_CYCLE {
        play(&mut simple, color, vertex).unwrap();
    }
    assert_eq!(simple.board().to_diagram(), start.to_diagram(), "the cycle is real");

    for ko in [KoRule::Positional, KoRule::Situational] {
        let mut g = game(TRIPLE_KO, with_ko(ko), Color::Black);
        for (color, vertex) in &TRIPLE_KO_CYCLE[..5] {
            play(&mut g, *color, vertex).unwrap();
        }
        let (color, vertex) = TRIPLE_KO_CYCLE[5];
        let err = play(&mut g, color, vertex).unwrap_err();
        assert!(matches!(err, IllegalMove::PositionalSuperko | IllegalMove::SituationalSuperko));
    }
}

/// A plain ko that black can take at C4.
const KO: &str = "
    . X O . .
    X O . O .
    . X O . .
    . . . . .
    . . . . .";

// The ko ban lapses after passes, but retaking then recreates an earlier whole-board position:
// legal under simple ko, illegal under positional superko.
#[test]
fn ko_cycle_with_passes_in_between() {
    for (ko, legal) in [(KoRule::Simple, true), (KoRule::Positional, false)] {
        let mut g = game(KO, with_ko(ko), Color::Black);
        play(&mut g, Color::Black, "C4").unwrap();
        assert_eq!(play(&mut g, Color::White, "B4"), Err(IllegalMove::Ko));
        play(&mut g, Color::White, "pass").unwrap();
        play(&mut g, Color::Black, "pass").unwrap();
        assert!(g.is_over());
        let retake = play(&mut g, Color::White, "B4");
        assert_eq!(retake.is_ok(), legal, "{ko:?}");
        if !legal {
            assert_eq!(retake, Err(IllegalMove::PositionalSuperko));
        }
    }
}

// Passing is always legal, and two passes in a row end the game; a move resets the count.
#[test]
fn passes_end_the_game() {
    let mut g = Game::new(9, Rules::chinese());
    assert_eq!(g.to_move(), Color::Black);
    play(&mut g, Color::Black, "pass").unwrap();
    assert!(!g.is_over());
    play(&mut g, Color::White, "E5").unwrap();
    play(&mut g, Color::Black, "pass").unwrap();
    play(&mut g, Color::White, "pass").unwrap();
    assert!(g.is_over());
    assert_eq!(g.to_move(), Color::Black);
}

// Undo restores the exact state before each move, captures and ko included, to any depth.
#[test]
fn undo_restores_captures_and_ko() {
    let mut g = game(KO, Rules::chinese(), Color::Black);
    let mut states = vec![(g.board().clone(), g.to_move(), g.consecutive_passes())];
    for (color, vertex) in [(Color::Black, "C4"), (Color::White, "pass"), (Color::Black, "E1")] {
        play(&mut g, color, vertex).unwrap();
        states.push((g.board().clone(), g.to_move(), g.consecutive_passes()));
    }
    assert_eq!(g.board().prisoners(Color::Black), 1);
    states.pop();
    while let Some((board, to_move, passes)) = states.pop() {
        g.undo().unwrap();
        assert_eq!(g.board(), &board);
        assert_eq!(g.board().hash(), board.hash());
        assert_eq!((g.to_move(), g.consecutive_passes()), (to_move, passes));
    }
    assert_eq!(g.undo(), Err(CannotUndo));
    // After undoing the capture, black may take the ko again (history was rewound too).
    play(&mut g, Color::Black, "C4").unwrap();
    assert_eq!(g.board().ko().map(|(_, c)| c), Some(Color::White));
}

// Illegal moves leave the game untouched, history included.
#[test]
fn illegal_move_changes_nothing() {
    let mut g = game(KO, Rules::chinese(), Color::Black);
    play(&mut g, Color::Black, "C4").unwrap();
    let before = g.board().clone();
    assert_eq!(play(&mut g, Color::White, "C4"), Err(IllegalMove::Occupied));
    assert_eq!(play(&mut g, Color::White, "B4"), Err(IllegalMove::Ko));
    assert_eq!(g.board(), &before);
    assert_eq!(g.moves().len(), 1);
    assert_eq!(g.to_move(), Color::White);
}

// Suicide is illegal by default and allowed under Tromp–Taylor, where it removes the chain.
#[test]
fn suicide_by_rules() {
    let diagram = "
        X X O . .
        . O . . .
        O . . . .
        . . . . .
        . . . . .";
    let mut chinese = game(diagram, Rules::chinese(), Color::Black);
    assert_eq!(play(&mut chinese, Color::Black, "A4"), Err(IllegalMove::Suicide));
    let mut tt = game(diagram, Rules::tromp_taylor(), Color::Black);
    play(&mut tt, Color::Black, "A4").unwrap();
    assert_eq!(tt.board().prisoners(Color::White), 3);
    // Single-stone suicide recreates the position, so superko forbids it even there.
    let mut lone = game(". O\nO .", Rules::tromp_taylor(), Color::Black);
    assert_eq!(play(&mut lone, Color::Black, "A2"), Err(IllegalMove::PositionalSuperko));
}

// GTP fixed handicap: the table's points, white to move, refused on a used board.
#[test]
fn fixed_handicap_placement() {
    let mut g = Game::new(19, Rules::chinese());
    let points = g.place_fixed_handicap(4).unwrap();
    assert_eq!(points.len(), 4);
    assert_eq!(g.handicap(), 4);
    assert_eq!(g.to_move(), Color::White);
    assert!(points.iter().all(|&p| g.board().stone(p) == Some(Color::Black)));
    assert_eq!(g.place_fixed_handicap(2), Err(HandicapError::BoardNotEmpty));
    assert_eq!(g.undo(), Err(CannotUndo), "handicap stones are not moves");
    // A move after the handicap undoes back to the handicap position, white to move.
    let handicap_position = g.board().clone();
    play(&mut g, Color::White, "C3").unwrap();
    play(&mut g, Color::Black, "R3").unwrap();
    g.undo().unwrap();
    g.undo().unwrap();
    assert_eq!(g.board(), &handicap_position);
    assert_eq!((g.to_move(), g.handicap()), (Color::White, 4));
    assert_eq!(g.undo(), Err(CannotUndo));

    let mut small = Game::new(9, Rules::chinese());
    assert_eq!(small.place_fixed_handicap(10), Err(HandicapError::InvalidNumberOfStones));
    assert_eq!(small.place_fixed_handicap(1), Err(HandicapError::InvalidNumberOfStones));
    play(&mut small, Color::Black, "E5").unwrap();
    assert_eq!(small.place_fixed_handicap(2), Err(HandicapError::BoardNotEmpty));
}

// Free handicap by list: at least two distinct on-board points; a bad list changes nothing.
#[test]
fn set_free_handicap() {
    let mut g = Game::new(9, Rules::chinese());
    let p = |x, y| g.board().point(x, y);
    let (a, b) = (p(0, 0), p(4, 4));
    assert_eq!(g.set_free_handicap(&[a]), Err(HandicapError::InvalidNumberOfStones));
    assert_eq!(g.set_free_handicap(&[a, b, a]), Err(HandicapError::BadVertexList));
    assert_eq!(g.set_free_handicap(&[a, Point(0)]), Err(HandicapError::BadVertexList));
    assert_eq!(g.board().empty_points().len(), 81);
    g.set_free_handicap(&[a, b]).unwrap();
    assert_eq!((g.handicap(), g.to_move()), (2, Color::White));

    let mut tiny = Game::new(2, Rules::chinese());
    let all: Vec<Point> = tiny.board().points().collect();
    assert_eq!(tiny.set_free_handicap(&all), Err(HandicapError::InvalidNumberOfStones));
    tiny.set_free_handicap(&all[..3]).unwrap();
}

// The ancient rules start with the 座子 corner stones and white to move.
#[test]
fn ancient_rules_start() {
    let g = Game::new(19, Rules::ancient());
    assert_eq!(g.to_move(), Color::White);
    let at = |v: &str| match parse_move(g.board(), v) {
        Some(Move::Play(p)) => g.board().stone(p),
        _ => None,
    };
    assert_eq!(at("Q16"), Some(Color::Black));
    assert_eq!(at("D4"), Some(Color::Black));
    assert_eq!(at("D16"), Some(Color::White));
    assert_eq!(at("Q4"), Some(Color::White));
    assert_eq!(g.board().empty_points().len(), 361 - 4);
    for size in 2..7 {
        assert_eq!(Game::new(size, Rules::ancient()).board().empty_points().len(), size * size);
    }
    assert_eq!(Game::new(7, Rules::ancient()).board().empty_points().len(), 49 - 4);
}

// Every legal point by the game's test agrees with a trial play on a copy.
#[test]
fn legal_points_agree_with_play() {
    let mut g = game(TRIPLE_KO, Rules::chinese(), Color::Black);
    play(&mut g, Color::Black, "C8").unwrap();
    for color in Color::BOTH {
        let legal = g.legal_points(color);
        for p in g.board().points() {
            let mut copy = g.clone();
            assert_eq!(copy.play(color, Move::Play(p)).is_ok(), legal.contains(&p));
        }
    }
}
