//! A small regular-expression matcher for the expectations of GTP regression scripts
//! (`#? [C3|D4]`). It covers what such scripts use — literals, `.`, classes `[a-z]` and
//! `[^...]`, the escapes `\d \w \s \D \W \S` and escaped metacharacters, groups `( )`,
//! alternation `|`, the quantifiers `* + ?` and `{m}`, `{m,}`, `{m,n}`, and the anchors `^ $` —
//! by backtracking over a parsed tree. Matching is against the whole text, as gogui-regress
//! does, and case-sensitive.

use std::fmt;

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Char(char),
    Any,
    Class { ranges: Vec<(char, char)>, negated: bool },
    Group(Box<Node>),
    Alternation(Vec<Node>),
    Sequence(Vec<Node>),
    Repeat { node: Box<Node>, min: usize, max: Option<usize> },
    Start,
    End,
}

/// A compiled pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct Regex {
    root: Node,
}

/// A pattern that could not be read, with the character position of the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegexError {
    pub position: usize,
    pub message: String,
}

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad pattern at {}: {}", self.position, self.message)
    }
}

impl std::error::Error for RegexError {}

/// Repetitions beyond this bound are refused, so a pattern cannot ask for unbounded work.
const MAX_REPEAT: usize = 1000;

struct Parser {
    chars: Vec<char>,
    at: usize,
}

impl Parser {
    fn error(&self, message: &str) -> RegexError {
        RegexError { position: self.at, message: message.to_string() }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn alternation(&mut self, depth: usize) -> Result<Node, RegexError> {
        if depth > 100 {
            return Err(self.error("groups nested too deeply"));
        }
        let mut branches = vec![self.sequence(depth)?];
        while self.peek() == Some('|') {
            self.at += 1;
            branches.push(self.sequence(depth)?);
        }
        Ok(if branches.len() == 1 { branches.pop().unwrap() } else { Node::Alternation(branches) })
    }

    fn sequence(&mut self, depth: usize) -> Result<Node, RegexError> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom(depth)?;
            items.push(self.quantified(atom)?);
        }
        Ok(Node::Sequence(items))
    }

    fn quantified(&mut self, atom: Node) -> Result<Node, RegexError> {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => return self.braces(atom),
            _ => return Ok(atom),
        };
        self.at += 1;
        if matches!(atom, Node::Start | Node::End) {
            return Err(self.error("nothing to repeat"));
        }
        Ok(Node::Repeat { node: Box::new(atom), min, max })
    }

    fn braces(&mut self, atom: Node) -> Result<Node, RegexError> {
        let close = (self.at..self.chars.len()).find(|&i| self.chars[i] == '}');
        let Some(close) = close else {
            return Err(self.error("unclosed {"));
        };
        let inside: String = self.chars[self.at + 1..close].iter().collect();
        let number = |s: &str| s.trim().parse::<usize>().ok().filter(|&n| n <= MAX_REPEAT);
        let (min, max) = match inside.split_once(',') {
            None => {
                let n = number(&inside).ok_or_else(|| self.error("bad repetition count"))?;
                (n, Some(n))
            }
            Some((lo, "")) => (number(lo).ok_or_else(|| self.error("bad repetition count"))?, None),
            Some((lo, hi)) => {
                let lo = number(lo).ok_or_else(|| self.error("bad repetition count"))?;
                let hi = number(hi).ok_or_else(|| self.error("bad repetition count"))?;
                if hi < lo {
                    return Err(self.error("repetition bounds out of order"));
                }
                (lo, Some(hi))
            }
        };
        self.at = close + 1;
        Ok(Node::Repeat { node: Box::new(atom), min, max })
    }

    fn atom(&mut self, depth: usize) -> Result<Node, RegexError> {
        let c = self.peek().ok_or_else(|| self.error("unexpected end"))?;
        self.at += 1;
        match c {
            '.' => Ok(Node::Any),
            '^' => Ok(Node::Start),
            '$' => Ok(Node::End),
            '(' => {
                // Non-capturing groups `(?:...)` read like plain ones.
                if self.chars[self.at..].starts_with(&['?', ':']) {
                    self.at += 2;
                }
                let inner = self.alternation(depth + 1)?;
                if self.peek() != Some(')') {
                    return Err(self.error("unclosed ("));
                }
                self.at += 1;
                Ok(Node::Group(Box::new(inner)))
            }
            '[' => self.class(),
            '\\' => self.escape(),
            '*' | '+' | '?' | '{' => {
                Err(RegexError { position: self.at - 1, message: "nothing to repeat".into() })
            }
            other => Ok(Node::Char(other)),
        }
    }

    fn escape(&mut self) -> Result<Node, RegexError> {
        let c = self.peek().ok_or_else(|| self.error("trailing backslash"))?;
        self.at += 1;
        Ok(match shorthand(c) {
            Some((ranges, negated)) => Node::Class { ranges, negated },
            None => Node::Char(match c {
                'n' => '\n',
                't' => '\t',
                other => other,
            }),
        })
    }

    fn class(&mut self) -> Result<Node, RegexError> {
        let negated = self.peek() == Some('^');
        if negated {
            self.at += 1;
        }
        let mut ranges = Vec::new();
        let mut first = true;
        loop {
            let c = self.peek().ok_or_else(|| self.error("unclosed ["))?;
            self.at += 1;
            if c == ']' && !first {
                break;
            }
            first = false;
            let low = if c == '\\' {
                let e = self.peek().ok_or_else(|| self.error("trailing backslash"))?;
                self.at += 1;
                if let Some((more, false)) = shorthand(e) {
                    ranges.extend(more);
                    continue;
                }
                e
            } else {
                c
            };
            if self.peek() == Some('-') && self.chars.get(self.at + 1).is_some_and(|&n| n != ']') {
                let high = self.chars[self.at + 1];
                self.at += 2;
                if high < low {
                    return Err(self.error("class range out of order"));
                }
                ranges.push((low, high));
            } else {
                ranges.push((low, low));
            }
        }
        Ok(Node::Class { ranges, negated })
    }
}

fn shorthand(c: char) -> Option<(Vec<(char, char)>, bool)> {
    let digits = vec![('0', '9')];
    let word = vec![('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')];
    let space = vec![(' ', ' '), ('\t', '\t'), ('\n', '\n'), ('\r', '\r')];
    match c {
        'd' => Some((digits, false)),
        'D' => Some((digits, true)),
        'w' => Some((word, false)),
        'W' => Some((word, true)),
        's' => Some((space, false)),
        'S' => Some((space, true)),
        _ => None,
    }
}

impl Regex {
    /// Compiles `pattern`.
    ///
    /// # Errors
    /// Unbalanced groups or classes, a quantifier with nothing to repeat, a bad count.
    pub fn new(pattern: &str) -> Result<Regex, RegexError> {
        let mut parser = Parser { chars: pattern.chars().collect(), at: 0 };
        let root = parser.alternation(0)?;
        if parser.at != parser.chars.len() {
            return Err(parser.error("unmatched )"));
        }
        Ok(Regex { root })
    }

    /// Whether the pattern matches all of `text`.
    pub fn is_full_match(&self, text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        let mut steps = 0usize;
        matches(&self.root, &chars, 0, &mut |end, _| end == chars.len(), &mut steps)
    }
}

/// Step budget for one match: backtracking on hostile patterns gives up instead of hanging.
const MAX_STEPS: usize = 10_000_000;

/// Continuation-passing backtracking: does `node` match at `at` such that `rest` accepts the
/// position where it ends?
fn matches(
    node: &Node,
    text: &[char],
    at: usize,
    rest: &mut dyn FnMut(usize, &mut usize) -> bool,
    steps: &mut usize,
) -> bool {
    *steps += 1;
    if *steps > MAX_STEPS {
        return false;
    }
    match node {
        Node::Char(c) => text.get(at) == Some(c) && rest(at + 1, steps),
        Node::Any => at < text.len() && text[at] != '\n' && rest(at + 1, steps),
        Node::Class { ranges, negated } => match text.get(at) {
            Some(&c) => {
                let inside = ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi);
                inside != *negated && rest(at + 1, steps)
            }
            None => false,
        },
        Node::Start => at == 0 && rest(at, steps),
        Node::End => at == text.len() && rest(at, steps),
        Node::Group(inner) => matches(inner, text, at, rest, steps),
        Node::Alternation(branches) => branches.iter().any(|b| matches(b, text, at, rest, steps)),
        Node::Sequence(items) => sequence(items, text, at, rest, steps),
        Node::Repeat { node, min, max } => repeat(node, *min, *max, 0, text, at, rest, steps),
    }
}

fn sequence(
    items: &[Node],
    text: &[char],
    at: usize,
    rest: &mut dyn FnMut(usize, &mut usize) -> bool,
    steps: &mut usize,
) -> bool {
    match items.split_first() {
        None => rest(at, steps),
        Some((first, others)) => matches(
            first,
            text,
            at,
            &mut |next, steps| sequence(others, text, next, rest, steps),
            steps,
        ),
    }
}

/// Greedy repetition: try one more copy first, then stop, never looping on empty copies.
#[allow(clippy::too_many_arguments)]
fn repeat(
    node: &Node,
    min: usize,
    max: Option<usize>,
    done: usize,
    text: &[char],
    at: usize,
    rest: &mut dyn FnMut(usize, &mut usize) -> bool,
    steps: &mut usize,
) -> bool {
    let may_more = max.is_none_or(|m| done < m);
    if may_more {
        let more = matches(
            node,
            text,
            at,
            &mut |next, steps| {
                next != at && repeat(node, min, max, done + 1, text, next, rest, steps)
            },
            steps,
        );
        if more {
            return true;
        }
    }
    done >= min && rest(at, steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(pattern: &str, text: &str) -> bool {
        Regex::new(pattern).unwrap().is_full_match(text)
    }

    // The whole response must match, as under gogui-regress, and case matters.
    #[test]
    fn whole_text_and_case() {
        assert!(full("C3|D4", "D4"));
        assert!(!full("C3|D4", "D45"));
        assert!(!full("C3", "c3"));
        assert!(full("", ""));
        assert!(!full("", "x"));
    }

    // Classes, escapes, groups and quantifiers as regression scripts write them.
    #[test]
    fn features() {
        assert!(full("[A-HJ-T][0-9]+", "Q16"));
        assert!(!full("[A-HJ-T][0-9]+", "I16"));
        assert!(full("[^A]", "B"));
        assert!(full("B\\+\\d+(\\.5)?", "B+12.5"));
        assert!(full("(pass|PASS)?", ""));
        assert!(full("a{2,3}b{2}", "aaabb"));
        assert!(!full("a{2,3}", "aaaa"));
        assert!(full(".*superko.*", "illegal move: superko"));
        assert!(full("x\\s*y", "x \t y"));
        assert!(full("^W\\+0\\.5$", "W+0.5"));
        assert!(full("(a|ab)(c|bcd)(d*)", "abcd"), "backtracking into the alternation");
        assert!(full("(a*)*b", "aaab"), "nested stars terminate");
        assert!(full("= [a]", "= a"));
    }

    // Malformed patterns are errors, not panics.
    #[test]
    fn errors() {
        for bad in ["(", "a)", "[abc", "*a", "a{2", "a{3,1}", "\\", "[z-a]", "a{99999}"] {
            assert!(Regex::new(bad).is_err(), "{bad}");
        }
    }
}
