//! The two players' colours. A point's content (empty, a stone, or the off-board ring) is the
//! board's business and lives in `board`; this type is only ever a player.

use std::fmt;

/// A player: the colour of the stones they play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    /// Both colours, black first, for loops over players.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    /// The other player.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: an index into per-colour tables.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Reads a colour the way GTP and SGF write it: `b`, `w`, `black`, `white`, in any case.
    pub fn parse(text: &str) -> Option<Color> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }

    /// The one-letter form used by SGF properties and result strings.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}
