//! The expectations of GTP regression scripts (`#? [C3|D4]`), read as gogui-regress reads
//! them: Java regular expressions compiled with `MULTILINE | DOTALL` (`^` and `$` at every
//! line, `.` across lines), and the whole response must match (`Matcher.matches`). The
//! `fancy-regex` crate gives the Java features real scripts use beyond plain regular
//! expressions: lookahead and lookbehind, inline flags such as `(?i)`, and `\b`.

use std::fmt;

/// A compiled expectation.
#[derive(Clone, Debug)]
pub struct Regex {
    /// The pattern as written, for comparisons and messages.
    pattern: String,
    /// The pattern with Java's flags, anchored to the whole text.
    whole: fancy_regex::Regex,
}

impl PartialEq for Regex {
    fn eq(&self, other: &Regex) -> bool {
        self.pattern == other.pattern
    }
}

/// A pattern that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegexError {
    pub message: String,
}

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad pattern: {}", self.message)
    }
}

impl std::error::Error for RegexError {}

impl Regex {
    /// Compiles `pattern` with gogui-regress's flags.
    ///
    /// # Errors
    /// The parser's description of what is wrong with the pattern.
    pub fn new(pattern: &str) -> Result<Regex, RegexError> {
        // `\A` and `\z` pin the whole text (with MULTILINE, `^` and `$` would not); the
        // group keeps an alternation inside the anchors.
        let anchored = format!("(?ms)\\A(?:{pattern})\\z");
        // Each part alone, too: an unbalanced `)` in `pattern` could otherwise close the
        // added group and compile as something else.
        fancy_regex::Regex::new(pattern).map_err(|e| RegexError { message: e.to_string() })?;
        let whole = fancy_regex::Regex::new(&anchored)
            .map_err(|e| RegexError { message: e.to_string() })?;
        Ok(Regex { pattern: pattern.to_string(), whole })
    }

    /// Whether the whole of `text` matches. A match that runs past the backtracking limit
    /// counts as no match.
    pub fn is_full_match(&self, text: &str) -> bool {
        self.whole.is_match(text).unwrap_or(false)
    }
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
        assert!(!full("C3|D4", "xC3"));
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

    // What gogui-regress's Java patterns add, as real regression files use it: lookahead on
    // a many-line answer (MULTILINE `^`/`$`, DOTALL `.`), inline flags, word boundaries.
    #[test]
    fn java_semantics() {
        let commands = "protocol_version\nname\nversion\nquit";
        assert!(full("(?=.*^name$)(?=.*^version$).*", commands));
        assert!(!full("(?=.*^name$)(?=.*^genmove$).*", commands));
        assert!(!full("(?=.*^nam$).*", commands), "^ and $ stop at line ends");
        assert!(full("(?i)[A-HJ][1-9]|pass", "d4"));
        assert!(full("(?i)[A-HJ][1-9]|pass", "PASS"));
        assert!(!full("[A-HJ][1-9]|pass", "d4"), "case matters without the flag");
        let no_edge = "(?=.*\\bD1\\b)(?!.*\\b[AB]\\d\\b).*";
        assert!(full(no_edge, "C3 D1 E5"));
        assert!(!full(no_edge, "A1 D1"));
        assert!(!full(no_edge, "D12"), "\\b: D1 is not inside D12");
        assert!(full("a.b", "a\nb"), "DOTALL");
        assert!(!full("a$", "a\nb"), "the whole text must match, not a line");
        assert!(full("(?<=x)y|xy", "xy"));
    }

    // Malformed patterns are errors, not panics; so is one that would close the group that
    // anchors it.
    #[test]
    fn errors() {
        for bad in ["(", "a)", "[abc", "*a", "\\", "[z-a]", ")|(", "a)|(b"] {
            assert!(Regex::new(bad).is_err(), "{bad}");
        }
    }
}
