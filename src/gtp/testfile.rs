//! GTP regression scripts in GNU Go's format (`*.tst`), as gogui-regress replays them:
//!
//! ```text
//! # a comment
//! boardsize 9            (an unnumbered command: sent, answer not checked)
//! 10 play b E5           (a numbered command)
//! #? []                  (its expectation: the answer must fully match the pattern)
//! 20 genmove w
//! #? [!E5|pass]          (`!` negates)
//! 30 final_score
//! #? [W\+.*]*            (a trailing `*`: a known failure)
//! 40 estimate_score
//! #? [.*]&               (a trailing `&`, GNU Go's mark: the answer is shown, not checked)
//! ```
//!
//! A failing command (`?` answer) fails its test whatever the pattern, as under gogui-regress.

use crate::gtp::regex::{Regex, RegexError};
use std::io;

/// One line of a script that is sent to the engine.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptCommand {
    /// 1-based line number in the file.
    pub line: usize,
    /// The command as written, id included.
    pub text: String,
    /// The numeric id, if the command has one.
    pub id: Option<u64>,
    pub expectation: Option<Expectation>,
}

/// What a numbered command's answer must look like.
#[derive(Clone, Debug, PartialEq)]
pub struct Expectation {
    pub line: usize,
    pub pattern: String,
    pub regex: Regex,
    pub negated: bool,
    /// Marked with a trailing `*`: a failure here is expected.
    pub expected_failure: bool,
    /// Marked with a trailing `&` (GNU Go's regress.awk): the answer is reported, never
    /// counted as a pass or a failure.
    pub ignored: bool,
}

impl Expectation {
    /// Whether an answer passes: a success answer whose text matches (or, negated, does not).
    pub fn passes(&self, succeeded: bool, answer: &str) -> bool {
        succeeded && self.regex.is_full_match(answer) != self.negated
    }
}

/// A script that cannot be read.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ScriptError {}

/// Reads a script.
///
/// # Errors
/// An expectation line without `[...]`, an expectation with no numbered command before it,
/// or a pattern that does not compile.
pub fn parse_script(text: &str) -> Result<Vec<ScriptCommand>, ScriptError> {
    let mut commands: Vec<ScriptCommand> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim();
        if let Some(rest) = trimmed.strip_prefix("#?") {
            let expectation = parse_expectation(rest.trim(), line)?;
            match commands.last_mut() {
                Some(command) if command.id.is_some() && command.expectation.is_none() => {
                    command.expectation = Some(expectation);
                }
                _ => {
                    return Err(ScriptError {
                        line,
                        message: "expectation without a numbered command before it".into(),
                    })
                }
            }
            continue;
        }
        let content = trimmed.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let first = content.split_whitespace().next().unwrap_or("");
        let id = if first.bytes().all(|b| b.is_ascii_digit()) { first.parse().ok() } else { None };
        commands.push(ScriptCommand { line, text: content.to_string(), id, expectation: None });
    }
    Ok(commands)
}

fn parse_expectation(text: &str, line: usize) -> Result<Expectation, ScriptError> {
    let error = |message: String| ScriptError { line, message };
    // GNU Go accepts the marks in either order after the closing bracket: `]*`, `]&`, `]*&`.
    let marks = text.len() - text.trim_end_matches(['*', '&']).len();
    let (body, marks) = text.split_at(text.len() - marks);
    let expected_failure = marks.contains('*');
    let ignored = marks.contains('&');
    let body = body.trim_end();
    let inner = body
        .strip_prefix('[')
        .and_then(|b| b.strip_suffix(']'))
        .ok_or_else(|| error(format!("expected #? [pattern], found {text:?}")))?;
    // gogui-regress trims the text between the brackets, then reads a leading `!`.
    let inner = inner.trim();
    let (negated, pattern) = match inner.strip_prefix('!') {
        Some(rest) => (true, rest),
        None => (false, inner),
    };
    let regex = Regex::new(pattern).map_err(|e: RegexError| error(e.to_string()))?;
    Ok(Expectation {
        line,
        pattern: pattern.to_string(),
        regex,
        negated,
        expected_failure,
        ignored,
    })
}

/// Something that answers GTP command lines: the engine in-process, or a program.
pub trait Session {
    /// Sends one command line; returns whether it succeeded and the response text (without
    /// the `=`/`?`, id and final empty line).
    ///
    /// # Errors
    /// When the engine cannot be reached (crashed, closed its output).
    fn send(&mut self, line: &str) -> io::Result<(bool, String)>;
}

/// The result of one checked command.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub line: usize,
    pub command: String,
    pub pattern: String,
    pub negated: bool,
    pub expected_failure: bool,
    /// Marked `&`: shown, neither passed nor failed.
    pub ignored: bool,
    pub succeeded: bool,
    pub answer: String,
    pub passed: bool,
}

impl Outcome {
    /// A failure not marked as expected, or a pass where a failure was expected.
    pub fn is_unexpected(&self) -> bool {
        !self.ignored && self.passed == self.expected_failure
    }

    /// How the answer began: `= ` or `? `.
    pub fn answer_mark(&self) -> &'static str {
        if self.succeeded {
            "= "
        } else {
            "? "
        }
    }

    /// The expectation as the script writes it: `[pattern]`, or `![pattern]` when negated.
    pub fn expected(&self) -> String {
        format!("{}[{}]", if self.negated { "!" } else { "" }, self.pattern)
    }

    pub fn counts_as_pass(&self) -> bool {
        !self.ignored && self.passed
    }

    pub fn counts_as_failure(&self) -> bool {
        !self.ignored && !self.passed
    }
}

/// Sends every command of `script` in order and checks those with an expectation.
///
/// # Errors
/// When the session fails; outcomes so far are lost with it.
pub fn replay<S: Session + ?Sized>(
    script: &[ScriptCommand],
    session: &mut S,
) -> io::Result<Vec<Outcome>> {
    let mut outcomes = Vec::new();
    for command in script {
        let (succeeded, answer) = session.send(&command.text)?;
        if let Some(expectation) = &command.expectation {
            outcomes.push(Outcome {
                line: command.line,
                command: command.text.clone(),
                pattern: expectation.pattern.clone(),
                negated: expectation.negated,
                expected_failure: expectation.expected_failure,
                ignored: expectation.ignored,
                succeeded,
                passed: expectation.passes(succeeded, &answer),
                answer,
            });
        }
    }
    Ok(outcomes)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Numbered commands pick up the expectation below them; others are sent unchecked.
    #[test]
    fn reads_a_script() {
        let script = parse_script(
            "# header\nboardsize 9\n\n10 play b E5\n#? []\n20 genmove w  # comment\n#? [!E5|pass]*\n",
        )
        .unwrap();
        assert_eq!(script.len(), 3);
        assert_eq!(script[0].expectation, None);
        assert_eq!(script[1].id, Some(10));
        let e = script[2].expectation.as_ref().unwrap();
        assert!(e.negated && e.expected_failure);
        assert_eq!(script[2].text, "20 genmove w");
        assert!(e.passes(true, "D4"));
        assert!(!e.passes(true, "pass"));
        assert!(!e.passes(false, "D4"), "an error answer never passes");
    }

    // GNU Go's `&` mark: the answer is kept for the report and counts neither way.
    #[test]
    fn ignored_expectations_count_neither_way() {
        let script = parse_script("1 name\n#? [x]&\n2 name\n#? [y]*&\n3 name\n#? [z]*\n").unwrap();
        let marks: Vec<(bool, bool)> = script
            .iter()
            .map(|c| c.expectation.as_ref().map(|e| (e.ignored, e.expected_failure)).unwrap())
            .collect();
        assert_eq!(marks, [(true, false), (true, true), (false, true)]);
        struct Echo;
        impl Session for Echo {
            fn send(&mut self, _: &str) -> io::Result<(bool, String)> {
                Ok((true, "tengen".into()))
            }
        }
        let outcomes = replay(&script, &mut Echo).unwrap();
        assert!(!outcomes[0].is_unexpected() && !outcomes[0].counts_as_failure());
        assert!(!outcomes[0].counts_as_pass());
        assert!(outcomes[2].counts_as_failure() && !outcomes[2].is_unexpected());
        assert_eq!(outcomes[0].answer, "tengen");
    }

    // Broken scripts are errors with their line numbers.
    #[test]
    fn rejects_broken_scripts() {
        assert_eq!(parse_script("#? [x]").unwrap_err().line, 1);
        assert_eq!(parse_script("1 name\n#? x").unwrap_err().line, 2);
        assert_eq!(parse_script("1 name\n#? [(]").unwrap_err().line, 2);
        assert!(parse_script("name\n#? [x]").is_err(), "unnumbered commands take no expectation");
    }
}
