//! A small GTP client: starts any GTP program, sends command lines, reads responses with a
//! timeout, and notices crashes and stray output. The regression runner (`tengen regress`)
//! talks to engines through it; the match runner will too.

use crate::gtp::testfile::Session;
use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// Why a command got no response.
#[derive(Debug)]
pub enum ClientError {
    /// No complete response within the timeout.
    Timeout,
    /// The program closed its output (exited or crashed).
    Exited,
    Io(io::Error),
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::Timeout => f.write_str("no response within the timeout"),
            ClientError::Exited => f.write_str("the engine exited"),
            ClientError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ClientError {}

/// A response: success and text (without `=`/`?`, id and the final empty line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub ok: bool,
    pub text: String,
}

/// A running GTP program.
pub struct GtpProcess {
    child: Child,
    input: ChildStdin,
    /// Lines of the program's standard output, read by a thread so reads can time out.
    lines: Receiver<String>,
    timeout: Duration,
    /// Lines the program printed outside any response: a protocol error worth reporting.
    pub stray_output: Vec<String>,
}

impl GtpProcess {
    /// Starts `command` (program and arguments separated by spaces, see [`split_command`])
    /// in `dir`, with `timeout` for each response. The program's stderr is discarded.
    ///
    /// # Errors
    /// An empty or badly quoted command, or a program that cannot be started.
    pub fn spawn(command: &str, dir: &Path, timeout: Duration) -> io::Result<GtpProcess> {
        let words = split_command(command).map_err(io::Error::other)?;
        let mut words = words.iter().map(String::as_str);
        let program = words.next().ok_or_else(|| io::Error::other("empty engine command"))?;
        // A relative path is meant from here, not from `dir`, where the program runs.
        let program = match std::fs::canonicalize(program) {
            Ok(absolute) if program.contains('/') => absolute,
            _ => program.into(),
        };
        let mut child = Command::new(program)
            .args(words)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let input = child.stdin.take().expect("stdin was piped");
        let output = child.stdout.take().expect("stdout was piped");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(GtpProcess { child, input, lines, timeout, stray_output: Vec::new() })
    }

    /// Sends one command line and waits for its response.
    ///
    /// # Errors
    /// A timeout, an exited program, or a broken pipe.
    pub fn command(&mut self, line: &str) -> Result<Response, ClientError> {
        self.command_within(line, self.timeout)
    }

    /// Sends one command line and waits at most `timeout` for its response (a `genmove` under
    /// a clock waits as long as the player's time allows).
    ///
    /// # Errors
    /// A timeout, an exited program, or a broken pipe.
    pub fn command_within(
        &mut self,
        line: &str,
        timeout: Duration,
    ) -> Result<Response, ClientError> {
        writeln!(self.input, "{line}").and_then(|_| self.input.flush()).map_err(|e| {
            if e.kind() == io::ErrorKind::BrokenPipe {
                ClientError::Exited
            } else {
                ClientError::Io(e)
            }
        })?;
        let mut body: Vec<String> = Vec::new();
        let mut ok = None;
        // The timeout is for the whole response: chatter on stdout does not extend it.
        let deadline = std::time::Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line.trim_end_matches('\r').to_string(),
                Err(RecvTimeoutError::Timeout) => return Err(ClientError::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(ClientError::Exited),
            };
            match ok {
                None if line.is_empty() => continue,
                None if line.starts_with('=') || line.starts_with('?') => {
                    ok = Some(line.starts_with('='));
                    let rest = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
                    body.push(rest.strip_prefix(' ').unwrap_or(rest).to_string());
                }
                None => self.stray_output.push(line),
                Some(_) if line.is_empty() => break,
                Some(_) => body.push(line),
            }
        }
        let text = body.into_iter().filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n");
        Ok(Response { ok: ok.unwrap_or(false), text })
    }
}

/// Splits an engine command line into program and arguments: words separated by white space,
/// where single or double quotes keep spaces inside a word (`"/opt/my engine/gnugo" --mode
/// gtp`) and a backslash outside single quotes takes the next character as it is.
///
/// # Errors
/// An unclosed quote or a trailing backslash.
pub fn split_command(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let current = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => current.push(c),
                        None => return Err(format!("unclosed ' in {command:?}")),
                    }
                }
            }
            '"' => {
                let current = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => current.push(c),
                            None => return Err(format!("trailing \\ in {command:?}")),
                        },
                        Some(c) => current.push(c),
                        None => return Err(format!("unclosed \" in {command:?}")),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err(format!("trailing \\ in {command:?}")),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

impl Session for GtpProcess {
    fn send(&mut self, line: &str) -> io::Result<(bool, String)> {
        match self.command(line) {
            Ok(response) => Ok((response.ok, response.text)),
            Err(ClientError::Io(e)) => Err(e),
            Err(other) => Err(io::Error::other(other.to_string())),
        }
    }
}

impl Drop for GtpProcess {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        std::thread::sleep(Duration::from_millis(5));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Engine command lines split as a shell would for the simple cases users write.
    #[test]
    fn splits_command_lines() {
        let split = |s: &str| split_command(s).unwrap();
        assert_eq!(split("gnugo  --mode gtp"), ["gnugo", "--mode", "gtp"]);
        assert_eq!(split("\"/opt/my engine/x\" -a 'b c'"), ["/opt/my engine/x", "-a", "b c"]);
        assert_eq!(split("a\\ b \"\""), ["a b", ""]);
        assert_eq!(split("  "), Vec::<String>::new());
        assert!(split_command("x 'open").is_err());
        assert!(split_command("x \"open").is_err());
        assert!(split_command("x \\").is_err());
    }
}
