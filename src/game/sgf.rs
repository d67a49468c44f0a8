//! Reading and writing game records in SGF (`FF[4]`), as a pure data layer: this module knows
//! nothing of boards or rules, only of the file format.
//!
//! A record is an [`SgfRecord`]: the game information (size, komi, players, ...) plus the main
//! line of play as a flat `Vec` of [`SgfNode`]s, root node first. Side variations are read for
//! syntax but dropped. Points are `(x, y)` with `x` the column from the left and `y` the row
//! from the *top* (`aa` is the top-left corner, as SGF has it); a pass is a move with no point.
//!
//! Start reading at [`parse`]: `Reader::read_first_tree` walks the tree structure (without
//! recursion, so hostile nesting cannot overflow the stack), `Reader::read_node` and friends
//! tokenise, and `Reader::interpret` gives the properties of a main-line node their meaning.
//! [`write()`] is the inverse: `parse(&write(r)) == r` for every valid record.
//!
//! The reader is strict about what it understands (a bad point, a bad number, broken syntax is
//! an [`SgfError`] with its position) and lenient about everything else: text around the game
//! tree, unknown properties, and lower-case letters inside property identifiers are ignored.

use std::error::Error;
use std::fmt;

use crate::board::color::Color;

/// A point as `(x, y)`: column from the left, row from the top, both from 0.
pub type SgfPoint = (u8, u8);

/// The largest board size that SGF's letters `a`..`y` (with `tt` kept for passes) can describe
/// unambiguously in this module.
pub const MAX_SIZE: u8 = 25;

/// `SZ` when the root does not say: the size `FF[4]` prescribes for Go.
const DEFAULT_SIZE: u8 = 19;

/// Move nodes per line of written output, so that line-oriented tools cope.
const NODES_PER_LINE: usize = 10;

/// Setup points per line of written output, for the same reason.
const POINTS_PER_LINE: usize = 16;

/// One node of the main line: setup stones, whose turn it is, a move, a comment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SgfNode {
    /// `AB`: black stones placed, in file order.
    pub add_black: Vec<SgfPoint>,
    /// `AW`: white stones placed, in file order.
    pub add_white: Vec<SgfPoint>,
    /// `AE`: points cleared, in file order.
    pub add_empty: Vec<SgfPoint>,
    /// `PL`: the player to move next.
    pub to_play: Option<Color>,
    /// `B` or `W`: the move played; `Some((colour, None))` is a pass.
    pub mv: Option<(Color, Option<SgfPoint>)>,
    /// `C`: the comment, unescaped.
    pub comment: Option<String>,
}

/// A game record: game information and the main line.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfRecord {
    /// `SZ`: the board is `size` x `size`, 1 to [`MAX_SIZE`].
    pub size: u8,
    /// `KM`.
    pub komi: Option<f64>,
    /// `HA`.
    pub handicap: Option<u32>,
    /// `RU`, as written (`Chinese`, `Japanese`, ...).
    pub rules: Option<String>,
    /// `PB`.
    pub black_name: Option<String>,
    /// `PW`.
    pub white_name: Option<String>,
    /// `RE`, as written (`B+R`, `W+3.5`, ...).
    pub result: Option<String>,
    /// `DT`.
    pub date: Option<String>,
    /// The main line, root node first; the root holds the setup (`AB`, `AW`, `PL`) if any.
    pub nodes: Vec<SgfNode>,
}

impl SgfRecord {
    /// An empty record for a `size` x `size` board (which should be 1 to [`MAX_SIZE`]): no
    /// game information and a main line of just an empty root node.
    pub fn new(size: u8) -> Self {
        SgfRecord {
            size,
            komi: None,
            handicap: None,
            rules: None,
            black_name: None,
            white_name: None,
            result: None,
            date: None,
            nodes: vec![SgfNode::default()],
        }
    }

    /// The number of nodes that hold a move, passes included.
    pub fn move_count(&self) -> usize {
        self.nodes.iter().filter(|node| node.mv.is_some()).count()
    }
}

/// Why a text is not a readable record, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfError {
    /// Byte offset into the text.
    pub offset: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters (not bytes) from the start of the line.
    pub column: usize,
    /// What is wrong, for a person.
    pub message: String,
}

impl SgfError {
    /// An error at byte `offset` of `text` (clamped to its end), with line and column worked
    /// out. Only errors pay for the counting.
    fn at(text: &str, offset: usize, message: impl Into<String>) -> SgfError {
        let offset = offset.min(text.len());
        let before = &text.as_bytes()[..offset];
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        // A character starts at every byte that is not a UTF-8 continuation byte.
        let column = 1 + before[line_start..].iter().filter(|&&b| b & 0xC0 != 0x80).count();
        SgfError {
            offset,
            line: 1 + before.iter().filter(|&&b| b == b'\n').count(),
            column,
            message: message.into(),
        }
    }
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl Error for SgfError {}

/// Reads the first game tree of an SGF text and returns its main line.
///
/// Text before the tree and after it is ignored, as are unknown properties and the nodes of
/// side variations (which must still be well-formed). Game-information properties are taken
/// from any main-line node, `SZ` only from the root. Never panics; any text it cannot read is
/// an [`SgfError`] pointing at the problem.
pub fn parse(text: &str) -> Result<SgfRecord, SgfError> {
    Reader { text, bytes: text.as_bytes(), pos: 0 }.read_first_tree()
}

/// One property value as written, unescaped, with the byte offset of its first character.
struct RawValue {
    text: String,
    offset: usize,
}

/// One property as written: identifier (upper-case letters only), offset, at least one value.
struct RawProperty {
    ident: String,
    offset: usize,
    values: Vec<RawValue>,
}

/// A game tree being read: whether it lies on the main line, and whether a variation has been
/// opened in it yet (after which only further variations or its end may follow).
#[derive(Clone, Copy)]
struct Frame {
    on_main_line: bool,
    has_variation: bool,
}

/// A cursor over the text. Positions only ever move past ASCII bytes or whole values, so
/// `pos` always sits on a character boundary.
struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn error(&self, offset: usize, message: impl Into<String>) -> SgfError {
        SgfError::at(self.text, offset, message)
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    /// The character at the cursor, for messages.
    fn found(&self) -> String {
        match self.text.get(self.pos..).and_then(|rest| rest.chars().next()) {
            Some(c) => format!("{c:?}"),
            None => "end of input".to_string(),
        }
    }

    fn expected(&self, what: &str) -> SgfError {
        self.error(self.pos, format!("expected {what}, found {}", self.found()))
    }

    /// Where the first game tree starts: the first `(` that opens a node, so that a stray
    /// parenthesis in a preamble ("Game 3 (ranked)") is skipped; failing that the first `(`
    /// at all, so that a malformed tree is reported where it is rather than as missing.
    fn find_start(&self) -> Option<usize> {
        let opens = || (0..self.bytes.len()).filter(|&i| self.bytes[i] == b'(');
        opens()
            .find(|&i| {
                self.bytes[i + 1..]
                    .iter()
                    .find(|b| !b.is_ascii_whitespace())
                    .is_some_and(|&b| b == b';')
            })
            .or_else(|| opens().next())
    }

    /// Walks the first game tree, interpreting main-line nodes as they come.
    ///
    /// The tree is walked with an explicit stack of [`Frame`]s: the main line is the first
    /// variation at every branch, so a tree is on it exactly when its parent is and no sibling
    /// came before it.
    fn read_first_tree(mut self) -> Result<SgfRecord, SgfError> {
        self.pos = self
            .find_start()
            .ok_or_else(|| self.error(self.bytes.len(), "no game tree: expected '('"))?;
        let mut record = SgfRecord { nodes: Vec::new(), ..SgfRecord::new(DEFAULT_SIZE) };
        self.enter_tree()?;
        let mut current = Frame { on_main_line: true, has_variation: false };
        let mut parents: Vec<Frame> = Vec::new();
        loop {
            self.skip_whitespace();
            match self.peek() {
                Some(b';') => {
                    if current.has_variation {
                        return Err(self.error(
                            self.pos,
                            "a node cannot follow a variation: expected '(' or ')'",
                        ));
                    }
                    let properties = self.read_node()?;
                    if current.on_main_line {
                        let is_root = record.nodes.is_empty();
                        let node = self.interpret(&properties, &mut record, is_root)?;
                        record.nodes.push(node);
                    }
                }
                Some(b'(') => {
                    let first_variation = !current.has_variation;
                    current.has_variation = true;
                    parents.push(current);
                    current = Frame {
                        on_main_line: current.on_main_line && first_variation,
                        has_variation: false,
                    };
                    self.enter_tree()?;
                }
                Some(b')') => {
                    self.pos += 1;
                    match parents.pop() {
                        Some(parent) => current = parent,
                        // Whatever follows the first tree is not our business.
                        None => return Ok(record),
                    }
                }
                Some(b'[') => {
                    return Err(self.error(self.pos, "property value without an identifier"))
                }
                None => return Err(self.error(self.pos, "unexpected end of input: missing ')'")),
                Some(_) => return Err(self.expected("';', '(' or ')'")),
            }
        }
    }

    /// Consumes the `(` at the cursor and checks that a node follows, as every tree must
    /// start with one.
    fn enter_tree(&mut self) -> Result<(), SgfError> {
        self.pos += 1;
        self.skip_whitespace();
        match self.peek() {
            Some(b';') => Ok(()),
            _ => Err(self.expected("';' to start a node")),
        }
    }

    /// Reads the node whose `;` is at the cursor.
    fn read_node(&mut self) -> Result<Vec<RawProperty>, SgfError> {
        self.pos += 1;
        let mut properties = Vec::new();
        loop {
            self.skip_whitespace();
            match self.peek() {
                Some(b) if b.is_ascii_alphabetic() => properties.push(self.read_property()?),
                _ => return Ok(properties),
            }
        }
    }

    /// Reads the property whose identifier starts at the cursor, with all its values.
    fn read_property(&mut self) -> Result<RawProperty, SgfError> {
        let offset = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
            self.pos += 1;
        }
        let written = &self.text[offset..self.pos];
        // FF[4]: lower-case letters in identifiers are to be ignored (a relic of FF[3]).
        let ident: String = written.chars().filter(char::is_ascii_uppercase).collect();
        if ident.is_empty() {
            return Err(self.error(
                offset,
                format!("property identifier `{written}` has no upper-case letter"),
            ));
        }
        self.skip_whitespace();
        if self.peek() != Some(b'[') {
            return Err(self.expected(&format!("'[' after property {ident}")));
        }
        let mut values = Vec::new();
        while self.peek() == Some(b'[') {
            values.push(self.read_value()?);
            self.skip_whitespace();
        }
        Ok(RawProperty { ident, offset, values })
    }

    /// Reads the bracketed value at the cursor, undoing escapes: `\` makes the next character
    /// literal, and `\` before a line break (a soft line break) removes both.
    fn read_value(&mut self) -> Result<RawValue, SgfError> {
        let open = self.pos;
        self.pos += 1;
        let offset = self.pos;
        let mut value = Vec::new();
        loop {
            let Some(&byte) = self.bytes.get(self.pos) else {
                return Err(self.error(open, "unterminated property value: missing ']'"));
            };
            self.pos += 1;
            match byte {
                b']' => break,
                b'\\' => match self.peek() {
                    Some(first @ (b'\n' | b'\r')) => {
                        self.pos += 1;
                        // \r\n and \n\r are one line break.
                        let second = if first == b'\n' { b'\r' } else { b'\n' };
                        if self.peek() == Some(second) {
                            self.pos += 1;
                        }
                    }
                    Some(escaped) => {
                        value.push(escaped);
                        self.pos += 1;
                    }
                    None => {}
                },
                _ => value.push(byte),
            }
        }
        // Only ASCII bytes were dropped from valid UTF-8, so this is always the borrowed,
        // lossless case; it just spares us an unwrap.
        let text = String::from_utf8_lossy(&value).into_owned();
        Ok(RawValue { text, offset })
    }

    /// Gives a main-line node's properties their meaning: setup, move and comment go into the
    /// returned node, game information into `record`. `SZ` is honoured in the root only and
    /// read before anything else there, as every point depends on it.
    fn interpret(
        &self,
        properties: &[RawProperty],
        record: &mut SgfRecord,
        is_root: bool,
    ) -> Result<SgfNode, SgfError> {
        if is_root {
            for property in properties.iter().filter(|p| p.ident == "SZ") {
                record.size = self.board_size(self.single(property)?)?;
            }
        }
        let size = record.size;
        let mut node = SgfNode::default();
        for property in properties {
            match property.ident.as_str() {
                "AB" => node.add_black.extend(self.point_list(property, size)?),
                "AW" => node.add_white.extend(self.point_list(property, size)?),
                "AE" => node.add_empty.extend(self.point_list(property, size)?),
                "PL" => node.to_play = Some(self.color(self.single(property)?)?),
                ident @ ("B" | "W") => {
                    if node.mv.is_some() {
                        return Err(self.error(property.offset, "a node cannot hold two moves"));
                    }
                    let color = if ident == "B" { Color::Black } else { Color::White };
                    let point = self.move_point(self.single(property)?, size)?;
                    node.mv = Some((color, point));
                }
                "C" => node.comment = Some(self.text_value(property)?),
                "KM" => record.komi = Some(self.komi(self.single(property)?)?),
                "HA" => record.handicap = Some(self.handicap(self.single(property)?)?),
                "RU" => record.rules = Some(self.text_value(property)?),
                "PB" => record.black_name = Some(self.text_value(property)?),
                "PW" => record.white_name = Some(self.text_value(property)?),
                "RE" => record.result = Some(self.text_value(property)?),
                "DT" => record.date = Some(self.text_value(property)?),
                "GM" => {
                    let value = self.single(property)?;
                    if value.text.trim() != "1" {
                        return Err(self.error(
                            value.offset,
                            format!("not a Go record: GM[{}]", excerpt(&value.text)),
                        ));
                    }
                }
                // SZ was handled above; anything else is not ours to understand.
                _ => {}
            }
        }
        Ok(node)
    }

    /// The one value of a property that takes exactly one.
    fn single<'p>(&self, property: &'p RawProperty) -> Result<&'p RawValue, SgfError> {
        match property.values.as_slice() {
            [value] => Ok(value),
            [_, extra, ..] => Err(self
                .error(extra.offset, format!("property {} takes a single value", property.ident))),
            [] => {
                Err(self
                    .error(property.offset, format!("property {} has no value", property.ident)))
            }
        }
    }

    fn text_value(&self, property: &RawProperty) -> Result<String, SgfError> {
        Ok(self.single(property)?.text.clone())
    }

    fn board_size(&self, value: &RawValue) -> Result<u8, SgfError> {
        let text = value.text.trim();
        // `SZ[19:19]` is a square board written the long way; anything else with ':' is not.
        let text = match text.split_once(':') {
            Some((columns, rows)) if columns.trim() == rows.trim() => columns.trim(),
            Some(_) => {
                return Err(self.error(
                    value.offset,
                    format!("rectangular board SZ[{}] is not supported", excerpt(text)),
                ))
            }
            None => text,
        };
        match text.parse::<u32>() {
            Ok(size) if (1..=u32::from(MAX_SIZE)).contains(&size) => Ok(size as u8),
            Ok(size) => Err(self.error(
                value.offset,
                format!("board size {size} is not supported (1 to {MAX_SIZE})"),
            )),
            Err(_) => {
                Err(self.error(value.offset, format!("invalid board size `{}`", excerpt(text))))
            }
        }
    }

    fn komi(&self, value: &RawValue) -> Result<f64, SgfError> {
        match value.text.trim().parse::<f64>() {
            // f64's parser also takes `inf` and `NaN`, which are no komi.
            Ok(komi) if komi.is_finite() => Ok(komi),
            _ => Err(self.error(value.offset, format!("invalid komi `{}`", excerpt(&value.text)))),
        }
    }

    fn handicap(&self, value: &RawValue) -> Result<u32, SgfError> {
        value.text.trim().parse().map_err(|_| {
            self.error(value.offset, format!("invalid handicap `{}`", excerpt(&value.text)))
        })
    }

    fn color(&self, value: &RawValue) -> Result<Color, SgfError> {
        Color::parse(value.text.trim()).ok_or_else(|| {
            self.error(value.offset, format!("invalid colour `{}`", excerpt(&value.text)))
        })
    }

    /// A move's point: `None` for a pass, which is `[]`, or `[tt]` where `tt` is off the board.
    fn move_point(&self, value: &RawValue, size: u8) -> Result<Option<SgfPoint>, SgfError> {
        if value.text.is_empty() || (value.text == "tt" && size <= 19) {
            return Ok(None);
        }
        self.point(&value.text, value.offset, size).map(Some)
    }

    /// All points of a list property, expanding compressed rectangles like `aa:cc` row by row.
    fn point_list(&self, property: &RawProperty, size: u8) -> Result<Vec<SgfPoint>, SgfError> {
        let mut points = Vec::new();
        for value in &property.values {
            match value.text.split_once(':') {
                Some((first, second)) => {
                    let (x1, y1) = self.point(first, value.offset, size)?;
                    let (x2, y2) = self.point(second, value.offset, size)?;
                    for y in y1.min(y2)..=y1.max(y2) {
                        points.extend((x1.min(x2)..=x1.max(x2)).map(|x| (x, y)));
                    }
                }
                None => points.push(self.point(&value.text, value.offset, size)?),
            }
        }
        Ok(points)
    }

    /// A two-letter point on a `size` x `size` board.
    fn point(&self, text: &str, offset: usize, size: u8) -> Result<SgfPoint, SgfError> {
        parse_point(text, size).ok_or_else(|| {
            self.error(
                offset,
                format!("invalid point `{}` on a {size}x{size} board", excerpt(text)),
            )
        })
    }
}

/// The two-letter point `text` on a `size` x `size` board (`None` off it or malformed).
pub fn parse_point(text: &str, size: u8) -> Option<SgfPoint> {
    let coordinate =
        |letter: u8| letter.is_ascii_lowercase().then(|| letter - b'a').filter(|&c| c < size);
    match text.as_bytes() {
        &[x, y] => coordinate(x).zip(coordinate(y)),
        _ => None,
    }
}

/// The start of a value, short enough to quote in a message.
fn excerpt(text: &str) -> String {
    const LIMIT: usize = 20;
    if text.chars().count() <= LIMIT {
        text.to_string()
    } else {
        text.chars().take(LIMIT).chain(std::iter::once('…')).collect()
    }
}

/// Writes a record as `FF[4]` text: game information in the root, one node per entry of
/// `record.nodes`, line breaks between nodes every so often.
///
/// Nothing is checked: `parse(&write(r)) == r` holds whenever `r` is valid, that is its size is
/// 1 to [`MAX_SIZE`], every point is on the board, the komi is finite and `r.nodes` is not
/// empty (an empty main line is written as an empty root). Anything else is written as well
/// as it can be, which a reader may then reject.
pub fn write(record: &SgfRecord) -> String {
    let mut out = format!("(;FF[4]GM[1]CA[UTF-8]AP[tengen:0.1]SZ[{}]", record.size);
    if let Some(komi) = record.komi {
        // f64's Display is the shortest text that parses back to the same value.
        out.push_str(&format!("KM[{komi}]"));
    }
    if let Some(handicap) = record.handicap {
        out.push_str(&format!("HA[{handicap}]"));
    }
    let info = [
        ("RU", &record.rules),
        ("PB", &record.black_name),
        ("PW", &record.white_name),
        ("RE", &record.result),
        ("DT", &record.date),
    ];
    for (ident, value) in info {
        if let Some(value) = value {
            push_text(&mut out, ident, value);
        }
    }
    out.push('\n');
    let mut nodes = record.nodes.iter();
    // The root's `;` is already out, ahead of the game information.
    if let Some(root) = nodes.next() {
        let before = out.len();
        push_node(&mut out, root);
        if out.len() > before {
            out.push('\n');
        }
    }
    for (i, node) in nodes.enumerate() {
        out.push(';');
        push_node(&mut out, node);
        if (i + 1) % NODES_PER_LINE == 0 {
            out.push('\n');
        }
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(")\n");
    out
}

/// A node's properties, without its `;`.
fn push_node(out: &mut String, node: &SgfNode) {
    push_points(out, "AB", &node.add_black);
    push_points(out, "AW", &node.add_white);
    push_points(out, "AE", &node.add_empty);
    if let Some(color) = node.to_play {
        out.push_str("PL[");
        out.push(color.letter());
        out.push(']');
    }
    if let Some((color, point)) = node.mv {
        out.push(color.letter());
        out.push('[');
        // A pass is written `[]`, which unlike `[tt]` means a pass on every board size.
        if let Some(point) = point {
            push_point(out, point);
        }
        out.push(']');
    }
    if let Some(comment) = &node.comment {
        push_text(out, "C", comment);
    }
}

fn push_points(out: &mut String, ident: &str, points: &[SgfPoint]) {
    if points.is_empty() {
        return;
    }
    out.push_str(ident);
    for (i, &point) in points.iter().enumerate() {
        if i > 0 && i % POINTS_PER_LINE == 0 {
            out.push('\n');
        }
        out.push('[');
        push_point(out, point);
        out.push(']');
    }
}

/// Appends the two letters of `point`.
pub fn push_point(out: &mut String, (x, y): SgfPoint) {
    // Saturating so that an off-board point in an invalid record cannot panic here.
    out.push(char::from(b'a'.saturating_add(x)));
    out.push(char::from(b'a'.saturating_add(y)));
}

/// A text property with `]` and `\` escaped; everything else, line breaks included, is kept.
fn push_text(out: &mut String, ident: &str, text: &str) {
    out.push_str(ident);
    out.push('[');
    for c in text.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::collection::vec;
    use proptest::option;
    use proptest::prelude::*;

    const B: Color = Color::Black;
    const W: Color = Color::White;

    fn parse_ok(text: &str) -> SgfRecord {
        match parse(text) {
            Ok(record) => record,
            Err(error) => panic!("{text:?} should parse: {error}"),
        }
    }

    fn parse_err(text: &str) -> SgfError {
        match parse(text) {
            Ok(record) => panic!("{text:?} should not parse, got {record:?}"),
            Err(error) => error,
        }
    }

    fn moves(record: &SgfRecord) -> Vec<(Color, Option<SgfPoint>)> {
        record.nodes.iter().filter_map(|node| node.mv).collect()
    }

    const GAME: &str = "Downloaded from somewhere (ranked).\r\n\
        (;GM[1]FF[4]CA[UTF-8]AP[CGoban:3]ST[2]\r\n\
        RU[Japanese]SZ[19]KM[0.50]HA[2]TM[300]OT[5x30 byo-yomi]\r\n\
        PW[Honinbo Shusaku]PB[Ōta Yūzō]WR[7d]BR[6d]DT[1853-11-27]PC[Edo]RE[W+R]\r\n\
        AB[dp][pd]\r\n\
        ;W[qp]C[Shusaku's favourite.\r\nSecond line.];B[oq];W[dd];B[pn]\r\n\
        ;W[tt];B[]\r\n\
        )\r\n";

    // A realistic record with game information and handicap stones reads fully and round-trips.
    #[test]
    fn real_game_round_trip() {
        let record = parse_ok(GAME);
        assert_eq!(record.size, 19);
        assert_eq!(record.komi, Some(0.5));
        assert_eq!(record.handicap, Some(2));
        assert_eq!(record.rules.as_deref(), Some("Japanese"));
        assert_eq!(record.black_name.as_deref(), Some("Ōta Yūzō"));
        assert_eq!(record.white_name.as_deref(), Some("Honinbo Shusaku"));
        assert_eq!(record.result.as_deref(), Some("W+R"));
        assert_eq!(record.date.as_deref(), Some("1853-11-27"));
        assert_eq!(record.nodes[0].add_black, vec![(3, 15), (15, 3)]);
        assert_eq!(
            moves(&record),
            vec![
                (W, Some((16, 15))),
                (B, Some((14, 16))),
                (W, Some((3, 3))),
                (B, Some((15, 13))),
                (W, None),
                (B, None),
            ]
        );
        assert_eq!(record.move_count(), 6);
        assert_eq!(
            record.nodes[1].comment.as_deref(),
            Some("Shusaku's favourite.\r\nSecond line.")
        );
        assert_eq!(parse_ok(&write(&record)), record);
    }

    // Only the first variation at each branch is kept, however deep; the rest must be well-formed.
    #[test]
    fn variations_follow_main_line() {
        let record = parse_ok("(;B[aa](;W[bb])(;W[cc]))");
        assert_eq!(moves(&record), vec![(B, Some((0, 0))), (W, Some((1, 1)))]);

        let record = parse_ok(
            "(;SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[zz]XX[(\\]](;B[ff]))) (;B[gg])",
        );
        let expected = [(0, 0), (1, 1), (2, 2), (3, 3)].map(Some);
        assert_eq!(moves(&record).into_iter().map(|(_, p)| p).collect::<Vec<_>>(), expected);
        assert_eq!(record.nodes.len(), 5);

        let error = parse_err("(;B[aa](;W[bb])(;W[cc]);B[dd])");
        assert!(error.message.contains("variation"), "{error}");
        assert!(parse("(;B[aa](;W[bb])(;W[cc)").is_err());
    }

    // `\]` and `\\` inside values, in a comment and in an unknown property, and soft line breaks.
    #[test]
    fn escapes_in_values() {
        let record = parse_ok("(;C[a \\] b \\\\ c \\x]XY[ends in \\]B[aa\\]]\n;B[bb])");
        assert_eq!(record.nodes[0].comment.as_deref(), Some("a ] b \\ c x"));
        assert_eq!(record.nodes[0].mv, None);
        assert_eq!(moves(&record), vec![(B, Some((1, 1)))]);

        let record = parse_ok("(;C[soft\\\nbreak, soft\\\r\nbreak, hard\nbreak])");
        assert_eq!(record.nodes[0].comment.as_deref(), Some("softbreak, softbreak, hard\nbreak"));
    }

    // A compressed list `aa:cc` is the inclusive rectangle, whichever corners are given.
    #[test]
    fn compressed_point_list() {
        let record = parse_ok("(;AB[aa:cc]AW[ee:dd][ff])");
        let root = &record.nodes[0];
        assert_eq!(root.add_black.len(), 9);
        for x in 0..3 {
            for y in 0..3 {
                assert!(root.add_black.contains(&(x, y)));
            }
        }
        assert_eq!(root.add_white, vec![(3, 3), (4, 3), (3, 4), (4, 4), (5, 5)]);
        assert!(parse("(;AB[aa:zz])").is_err());
    }

    // `B[]` is a pass everywhere, `tt` only up to 19x19; above that `tt` is a point.
    #[test]
    fn passes() {
        let record = parse_ok("(;B[];W[tt])");
        assert_eq!(moves(&record), vec![(B, None), (W, None)]);
        let record = parse_ok("(;SZ[9];W[tt])");
        assert_eq!(moves(&record), vec![(W, None)]);
        let record = parse_ok("(;SZ[21];B[];W[tt])");
        assert_eq!(moves(&record), vec![(B, None), (W, Some((19, 19)))]);
    }

    // On 25x25 `yy` is the bottom-right corner and `zz` is off the board.
    #[test]
    fn size_25_edges() {
        let record = parse_ok("(;SZ[25];B[yy];W[ay])");
        assert_eq!(moves(&record), vec![(B, Some((24, 24))), (W, Some((0, 24)))]);
        assert!(parse("(;SZ[25];B[zz])").is_err());
        assert!(parse("(;SZ[25];B[YY])").is_err());
    }

    // Sizes outside 1..=25 and rectangles are errors; `SZ` is read first even when written last.
    #[test]
    fn board_sizes() {
        assert_eq!(parse_err("(;SZ[26])").offset, 5);
        assert!(parse("(;SZ[0])").is_err());
        assert!(parse("(;SZ[19:13])").is_err());
        assert_eq!(parse_ok("(;SZ[13:13])").size, 13);
        assert_eq!(parse_ok("(;SZ[1];B[aa])").size, 1);
        assert_eq!(parse_ok("(;B[aa])").size, 19);
        let record = parse_ok("(;AB[ss]B[ss]SZ[19])");
        assert_eq!(record.nodes[0].add_black, vec![(18, 18)]);
        assert!(parse("(;AB[jj]SZ[9])").is_err());
        // SZ is a root property: elsewhere it is ignored rather than reinterpreting points.
        assert_eq!(parse_ok("(;SZ[9];SZ[19]B[ii])").size, 9);
    }

    // Komi and handicap in the forms found in the wild, and bad numbers rejected.
    #[test]
    fn komi_and_handicap() {
        for (text, komi) in [("7.5", 7.5), ("6.5", 6.5), ("-3", -3.0), ("0", 0.0), (" 375 ", 375.0)]
        {
            assert_eq!(parse_ok(&format!("(;KM[{text}])")).komi, Some(komi));
        }
        assert_eq!(parse_ok("(;HA[0])").handicap, Some(0));
        assert_eq!(parse_ok("(;HA[9])").handicap, Some(9));
        for bad in
            ["(;KM[seven])", "(;KM[inf])", "(;KM[NaN])", "(;KM[])", "(;HA[-1])", "(;HA[2.5])"]
        {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    // Identifiers may carry lower-case letters, which FF[4] says to ignore.
    #[test]
    fn lower_case_in_identifiers() {
        let record = parse_ok("(;SiZe[9]AddBlack[aa]PLayer[W]KoMi[5.5];White[bb])");
        assert_eq!(record.size, 9);
        assert_eq!(record.komi, Some(5.5));
        assert_eq!(record.nodes[0].add_black, vec![(0, 0)]);
        assert_eq!(record.nodes[0].to_play, Some(W));
        assert_eq!(moves(&record), vec![(W, Some((1, 1)))]);
    }

    // Text around the first tree is skipped, including a parenthesis that opens no node.
    #[test]
    fn surroundings_ignored() {
        let record = parse_ok("\u{feff}Game 3 (ranked) é\n  ( ;B[aa] ; W [bb] )garbage((((");
        assert_eq!(moves(&record), vec![(B, Some((0, 0))), (W, Some((1, 1)))]);
        let record = parse_ok("(;B[cc])(;B[dd])");
        assert_eq!(moves(&record), vec![(B, Some((2, 2)))]);
    }

    // Malformed inputs are errors with the right position; none panics.
    #[test]
    fn malformed_inputs() {
        let cases: &[(&str, usize, usize)] = &[
            ("", 1, 1),                         // no tree at all
            ("no tree here", 1, 13),            // no tree at all
            ("(B[aa])", 1, 2),                  // node without ';'
            ("(;B[aa]", 1, 8),                  // missing ')'
            ("(;B[aa)", 1, 4),                  // unterminated value: at its '['
            ("(;B[aa]])", 1, 8),                // stray ']'
            ("(;[aa])", 1, 3),                  // value without identifier
            ("(;B)", 1, 4),                     // property without value
            ("(;b[aa])", 1, 3),                 // identifier with no upper-case letter
            ("(;B[aa]1)", 1, 8),                // stray character
            ("(;B[aa]())", 1, 9),               // empty variation
            ("(\n;B[aa]\n;W[zz])", 3, 4),       // point off the board
            ("(;B[a])", 1, 5),                  // point too short
            ("(;B[aa]W[bb])", 1, 8),            // two moves in one node
            ("(;B[aa][bb])", 1, 9),             // two values for a move
            ("(;PL[X])", 1, 6),                 // bad colour
            ("(;GM[2])", 1, 6),                 // not Go
            ("(;C[ünïcödé]\n  é;B[aa])", 2, 3), // non-ASCII before the problem
            ("(;SZ[x9])", 1, 6),                // bad size
        ];
        for &(text, line, column) in cases {
            let error = parse_err(text);
            assert_eq!((error.line, error.column), (line, column), "{text:?}: {error}");
            assert!(error.offset <= text.len());
        }
        let error = parse_err("(\n;B[aa]\n;W[zz])");
        assert_eq!(error.offset, 12);
        assert_eq!(error.to_string(), format!("line 3, column 4: {}", error.message));
    }

    // Nesting far deeper than any stack allows is read without recursion.
    #[test]
    fn deep_nesting() {
        let depth = 100_000;
        let text = format!("{}{}", "(;B[aa]".repeat(depth), ")".repeat(depth));
        assert_eq!(parse_ok(&text).nodes.len(), depth);
        let unclosed = "(;".repeat(depth);
        assert!(parse(&unclosed).is_err());
    }

    // The writer's layout: fixed header, passes as `[]`, escapes, and short lines.
    #[test]
    fn writer_format() {
        let mut record = SgfRecord::new(9);
        record.komi = Some(7.0);
        record.black_name = Some("a]b\\c".to_string());
        record.nodes[0].add_black = (0..9).flat_map(|y| (0..9).map(move |x| (x, y))).collect();
        for i in 0..100u8 {
            let color = if i % 2 == 0 { B } else { W };
            let point = (i % 7 != 3).then_some((i % 9, i / 12));
            record.nodes.push(SgfNode { mv: Some((color, point)), ..SgfNode::default() });
        }
        let text = write(&record);
        assert!(text.starts_with("(;FF[4]GM[1]CA[UTF-8]AP[tengen:0.1]SZ[9]KM[7]PB[a\\]b\\\\c]\n"));
        assert!(text.contains(";W[]") || text.contains(";B[]"));
        assert!(text.ends_with(")\n"));
        assert!(text.lines().all(|line| line.len() <= 80), "{text}");
        assert_eq!(parse_ok(&text), record);
        assert_eq!(record.move_count(), 100);
        assert_eq!(SgfRecord::new(19).move_count(), 0);
        assert_eq!(parse_ok(&write(&SgfRecord::new(19))), SgfRecord::new(19));
    }

    fn color() -> impl Strategy<Value = Color> {
        prop_oneof![Just(B), Just(W)]
    }

    /// Text with the characters that need escaping, line breaks and non-ASCII.
    fn text() -> impl Strategy<Value = String> {
        r"[a-zA-Z0-9 :;()\[\]\\\n\r\té囲]{0,12}"
    }

    fn node(size: u8) -> impl Strategy<Value = SgfNode> {
        let point = move || (0..size, 0..size);
        (
            vec(point(), 0..4),
            vec(point(), 0..3),
            vec(point(), 0..2),
            option::of(color()),
            option::of((color(), option::of(point()))),
            option::of(text()),
        )
            .prop_map(|(add_black, add_white, add_empty, to_play, mv, comment)| SgfNode {
                add_black,
                add_white,
                add_empty,
                to_play,
                mv,
                comment,
            })
    }

    fn record() -> impl Strategy<Value = SgfRecord> {
        (2u8..=MAX_SIZE).prop_flat_map(|size| {
            (
                option::of(-40i32..=40),
                option::of(0u32..10),
                proptest::array::uniform5(option::of(text())),
                vec(node(size), 1..40),
            )
                .prop_map(move |(half_komi, handicap, info, nodes)| {
                    let [rules, black_name, white_name, result, date] = info;
                    SgfRecord {
                        size,
                        komi: half_komi.map(|half| f64::from(half) / 2.0),
                        handicap,
                        rules,
                        black_name,
                        white_name,
                        result,
                        date,
                        nodes,
                    }
                })
        })
    }

    /// Whatever parses must survive a round trip too.
    fn check_any(text: &str) -> Result<(), TestCaseError> {
        if let Ok(record) = parse(text) {
            prop_assert_eq!(parse(&write(&record)), Ok(record));
        }
        Ok(())
    }

    proptest! {
        // Valid random records survive write then parse unchanged.
        #[test]
        fn round_trip(record in record()) {
            let text = write(&record);
            prop_assert_eq!(parse(&text), Ok(record), "{}", text);
        }

        // Arbitrary strings, and SGF-flavoured ones, never panic.
        #[test]
        fn random_text_never_panics(
            any_text in any::<String>(),
            sgf_text in r"[()\[\];\\:A-Za-z0-9 \n\ré]{0,80}",
        ) {
            check_any(&any_text)?;
            check_any(&sgf_text)?;
            check_any(&format!("(;{sgf_text}"))?;
        }

        // Random edits of a valid record never panic.
        #[test]
        fn mutations_never_panic(
            edits in vec((any::<prop::sample::Index>(), 0..3u8, r"[()\[\];\\:a-zA-Z\né]"), 1..6),
        ) {
            let mut chars: Vec<char> = GAME.chars().collect();
            for (index, kind, replacement) in edits {
                let at = index.index(chars.len() + 1);
                let c = replacement.chars().next().unwrap_or('(');
                match kind {
                    0 if at < chars.len() => { chars.remove(at); }
                    1 if at < chars.len() => chars[at] = c,
                    _ => chars.insert(at, c),
                }
            }
            check_any(&chars.into_iter().collect::<String>())?;
        }
    }
}
