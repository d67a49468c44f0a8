//! The real binary over its pipes, as a GUI or a controller talks to it, with a timeout on
//! every read: an engine that stops answering fails the test instead of hanging it. Each
//! test file uses the part it needs.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// How long a test waits for a line the engine owes it.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// A child's output, line by line, read on a thread: a line that does not come within
/// [`PATIENCE`] fails the test.
pub struct Lines(Receiver<String>);

impl Lines {
    pub fn new(output: impl Read + Send + 'static) -> Lines {
        let (send, receive) = channel();
        std::thread::spawn(move || {
            let mut output = BufReader::new(output);
            loop {
                let mut line = String::new();
                match output.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if send.send(line).is_err() => break,
                    Ok(_) => {}
                }
            }
        });
        Lines(receive)
    }

    /// The next line, with its newline.
    pub fn next(&self) -> String {
        self.0.recv_timeout(PATIENCE).unwrap_or_else(|e| panic!("no line from the engine: {e}"))
    }
}

/// `tengen gtp ARGS` running; killed when dropped.
pub struct GtpProcess {
    pub child: Child,
    input: ChildStdin,
    output: Lines,
    /// The debug log on stderr, where asked for.
    log: Option<Lines>,
}

impl GtpProcess {
    /// Starts the engine with stderr discarded.
    pub fn start(args: &[&str]) -> GtpProcess {
        GtpProcess::spawn(args, false)
    }

    /// Starts the engine with its debug log on stderr (`RUST_LOG=debug`), for [`log_until`].
    pub fn start_logging(args: &[&str]) -> GtpProcess {
        GtpProcess::spawn(args, true)
    }

    fn spawn(args: &[&str], logging: bool) -> GtpProcess {
        let mut command = Command::new(env!("CARGO_BIN_EXE_tengen"));
        command.arg("gtp").args(args).stdin(Stdio::piped()).stdout(Stdio::piped());
        if logging {
            command.env("RUST_LOG", "debug").stderr(Stdio::piped());
        } else {
            command.stderr(Stdio::null());
        }
        let mut child = command.spawn().unwrap();
        let input = child.stdin.take().unwrap();
        let output = Lines::new(child.stdout.take().unwrap());
        let log = child.stderr.take().map(Lines::new);
        GtpProcess { child, input, output, log }
    }

    /// Reads the log up to the next line containing `needle`, and returns that line.
    pub fn log_until(&self, needle: &str) -> String {
        let log = self.log.as_ref().expect("started with start_logging");
        loop {
            let line = log.next();
            if line.contains(needle) {
                return line;
            }
        }
    }

    /// Sends one command and returns its successful answer's text; an error answer fails.
    pub fn ask(&mut self, command: &str) -> String {
        writeln!(self.input, "{command}").unwrap();
        self.input.flush().unwrap();
        let mut text = self.output.next().trim_end().to_string();
        loop {
            let line = self.output.next();
            if line.trim().is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(line.trim_end());
        }
        let answer = text.strip_prefix('=').unwrap_or_else(|| panic!("`{command}`: {text}"));
        answer.trim().to_string()
    }
}

impl Drop for GtpProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The numbers after the word `key` in a line (an analysis line, a log line), up to the next
/// word that is not a number.
pub fn numbers_after(line: &str, key: &str) -> Vec<f64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let start = words.iter().position(|w| *w == key).unwrap_or_else(|| panic!("no {key}"));
    words[start + 1..].iter().map_while(|w| w.parse().ok()).collect()
}
