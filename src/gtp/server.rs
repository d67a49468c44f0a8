//! The GTP I/O loop: reads command lines, preprocesses them as the specification says, hands
//! them to the engine and writes one response per command, flushed at once. Generic over
//! `BufRead` and `Write` so tests drive it with strings.

use crate::gtp::command::{self, AnalysisRequest, Command};
use crate::gtp::engine::Engine;
use std::io::{self, BufRead, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Longest command line read; the rest of a longer line is discarded and answered as a syntax
/// error, so no input can make the engine hold unbounded memory.
pub const MAX_LINE: usize = 4 << 20;

/// A command line after preprocessing: optional numeric id, name, arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub id: Option<String>,
    pub name: String,
    pub args: Vec<String>,
}

/// Applies the specification's preprocessing to one raw line: control characters other than
/// HT and LF removed, everything from `#` dropped, HT turned into space. Bytes that are not
/// UTF-8 become U+FFFD (no command contains them). Returns `None` for a line with nothing
/// left to execute.
pub fn preprocess(raw: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(raw);
    let mut clean = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '#' => break,
            '\t' => clean.push(' '),
            c if c.is_control() && c != '\n' => {}
            c => clean.push(c),
        }
    }
    let trimmed = clean.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

/// Splits a preprocessed line into id, command name and arguments.
pub fn parse_request(line: &str) -> Request {
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or("");
    let (id, name) = if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
        (Some(first.to_string()), words.next().unwrap_or("").to_string())
    } else {
        (None, first.to_string())
    };
    Request { id, name, args: words.map(str::to_string).collect() }
}

/// One response in wire form: `=id result` or `?id message`, then an empty line. Empty lines
/// inside a multi-line result are dropped, since the empty line ends the response.
pub fn format_response(id: Option<&str>, result: &Result<String, String>) -> String {
    let (mark, text) = match result {
        Ok(text) => ('=', text.as_str()),
        Err(message) => ('?', message.as_str()),
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push(mark);
    out.push_str(id.unwrap_or(""));
    let body: Vec<&str> = text.split('\n').filter(|l| !l.trim().is_empty()).collect();
    let leading_newline = text.starts_with('\n') && !body.is_empty();
    if !body.is_empty() {
        out.push(if leading_newline { '\n' } else { ' ' });
        out.push_str(&body.join("\n"));
    }
    out.push_str("\n\n");
    out
}

/// Reads one line of at most `MAX_LINE` bytes into `line` (without its newline). Returns
/// `Ok(false)` at end of input, and whether the line was cut short in `truncated`.
fn read_line<R: BufRead>(
    input: &mut R,
    line: &mut Vec<u8>,
    truncated: &mut bool,
) -> io::Result<bool> {
    line.clear();
    *truncated = false;
    let mut read_any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(read_any);
        }
        read_any = true;
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], i + 1),
            None => (available, available.len()),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        if chunk.len() > room {
            *truncated = true;
        }
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let found_newline = done > chunk.len();
        input.consume(done);
        if found_newline {
            return Ok(true);
        }
    }
}

/// A line as the reader thread delivers it: the bytes, and whether it was cut short.
type Line = io::Result<(Vec<u8>, bool)>;

/// Runs the loop until `quit` or end of input. Every executable line gets exactly one
/// response. Lines are read on a thread of their own, so that live analysis can run until
/// the next line arrives and pondering can stop the moment it does.
///
/// # Errors
/// Only I/O errors of the streams themselves.
pub fn run<R: BufRead + Send + 'static, W: Write>(
    engine: &mut Engine,
    input: R,
    mut output: W,
) -> io::Result<()> {
    let (sender, lines) = mpsc::sync_channel::<Line>(64);
    // GoGui's `# interrupt` comment asks a running genmove to answer now; the reader sees it
    // while the engine thinks.
    let interrupt = engine.interrupt_flag();
    // Not joined: after `quit` it may wait on an input that never ends, until the process
    // exits; it stops by itself at the end of input or once the loop has gone.
    std::thread::spawn(move || {
        let mut input = input;
        loop {
            let mut raw = Vec::new();
            let mut truncated = false;
            let line = match read_line(&mut input, &mut raw, &mut truncated) {
                Ok(true) => Ok((raw, truncated)),
                Ok(false) => break,
                Err(e) => Err(e),
            };
            if line.as_ref().is_ok_and(|(raw, _)| raw.trim_ascii().starts_with(b"# interrupt")) {
                interrupt.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            let failed = line.is_err();
            if sender.send(line).is_err() || failed {
                break;
            }
        }
    });
    let mut pending: Option<Line> = None;
    loop {
        let next = match pending.take() {
            Some(line) => line,
            None => match lines.recv() {
                Ok(line) => line,
                Err(_) => break,
            },
        };
        // A line has arrived: whatever the engine pondered, the controller speaks now.
        engine.stop_pondering();
        let (raw, truncated) = next?;
        // An interrupt is for the command running when it came, never for the next one.
        engine.interrupt_flag().store(false, std::sync::atomic::Ordering::Relaxed);
        let Some(line) = preprocess(&raw) else {
            if truncated {
                // An overlong line of nothing still gets its one answer.
                let response = format_response(None, &Err("syntax error".to_string()));
                output.write_all(response.as_bytes())?;
                output.flush()?;
            }
            continue;
        };
        let request = parse_request(&line);
        log::debug!("<< {line}");
        if !truncated {
            let args: Vec<&str> = request.args.iter().map(String::as_str).collect();
            match command::parse(&request.name, &args) {
                Ok(Command::Analyze(analysis)) => {
                    let id = request.id.as_deref();
                    pending = stream_analysis(engine, &analysis, id, &lines, &mut output)?;
                    continue;
                }
                Ok(Command::GenMoveAnalyze(color, analysis)) => {
                    // A normal command that streams while it thinks: no early stop on input.
                    writeln!(output, "={}", request.id.as_deref().unwrap_or(""))?;
                    output.flush()?;
                    let mut failed = None;
                    let answer = engine.genmove_analyze(color, &analysis, &mut |line| {
                        if failed.is_none() && !line.is_empty() {
                            failed = writeln!(output, "{line}").and_then(|()| output.flush()).err();
                        }
                    });
                    if let Some(e) = failed {
                        return Err(e);
                    }
                    write!(output, "play {answer}\n\n")?;
                    output.flush()?;
                    engine.start_pondering();
                    continue;
                }
                _ => {}
            }
        }
        let result = if truncated {
            Err("syntax error".to_string())
        } else if request.name.is_empty() {
            Err("unknown command".to_string())
        } else {
            let args: Vec<&str> = request.args.iter().map(String::as_str).collect();
            engine.handle(&request.name, &args).map_err(|e| e.0)
        };
        let response = format_response(request.id.as_deref(), &result);
        log::debug!(">> {}", response.trim_end());
        output.write_all(response.as_bytes())?;
        output.flush()?;
        if request.name == "quit" && result.is_ok() {
            break;
        }
        engine.start_pondering();
    }
    engine.stop_pondering();
    Ok(())
}

/// The longest the engine searches without looking for input during analysis: with the
/// stop's own cost, well inside the 50 ms a GUI is promised (`tests/analysis.rs`).
const ANALYSIS_SLICE: Duration = Duration::from_millis(20);

/// Answers an analysis command: `=` at once, then a line of candidates every interval,
/// until input arrives (or ends); then the empty line that ends the response. Returns the
/// line that stopped it, which the loop handles next.
fn stream_analysis<W: Write>(
    engine: &mut Engine,
    request: &AnalysisRequest,
    id: Option<&str>,
    lines: &mpsc::Receiver<Line>,
    output: &mut W,
) -> io::Result<Option<Line>> {
    writeln!(output, "={}", id.unwrap_or(""))?;
    output.flush()?;
    let interval = Duration::from_millis(10 * u64::from(request.interval_cs));
    let began = Instant::now();
    let mut next_report = began + interval;
    let stopped_by = loop {
        let slice = next_report
            .saturating_duration_since(Instant::now())
            .clamp(Duration::from_millis(1), ANALYSIS_SLICE);
        let info = engine.analyze(request, slice);
        // A budget reached ends the analysis by itself; asked again, it resumes from the tree.
        let budget_spent = request.max_visits.is_some_and(|n| engine.analysis_visits() >= n)
            || request.max_time.is_some_and(|t| began.elapsed().as_secs_f64() >= t);
        let stop = match lines.try_recv() {
            Ok(line) => Some(Some(line)),
            Err(mpsc::TryRecvError::Disconnected) => Some(None),
            Err(mpsc::TryRecvError::Empty) if budget_spent => Some(None),
            Err(mpsc::TryRecvError::Empty) => None,
        };
        if Instant::now() >= next_report || stop.is_some() {
            if !info.is_empty() {
                writeln!(output, "{info}")?;
                output.flush()?;
            }
            next_report = Instant::now() + interval;
        }
        if let Some(line) = stop {
            break line;
        }
    };
    writeln!(output)?;
    output.flush()?;
    Ok(stopped_by)
}

/// Runs a whole session on in-memory input and returns everything written: for tests and
/// the regression runner.
pub fn run_on_text(engine: &mut Engine, input: &[u8]) -> String {
    let mut output = Vec::new();
    run(engine, io::Cursor::new(input.to_vec()), &mut output)
        .expect("in-memory streams do not fail");
    String::from_utf8(output).expect("responses are UTF-8")
}

impl crate::gtp::testfile::Session for Engine {
    /// Runs the line through the same preprocessing and formatting as the I/O loop.
    fn send(&mut self, line: &str) -> io::Result<(bool, String)> {
        let mut output = Vec::new();
        run(self, io::Cursor::new(line.as_bytes().to_vec()), &mut output)?;
        let text = String::from_utf8_lossy(&output).into_owned();
        Ok(split_response(&text))
    }
}

/// Splits one wire response into success and text: `=12 text\n\n` gives `(true, "text")`.
pub fn split_response(response: &str) -> (bool, String) {
    let ok = response.starts_with('=');
    let body = response.trim_end_matches('\n');
    let after_mark = body.get(1..).unwrap_or("");
    let after_id = after_mark.trim_start_matches(|c: char| c.is_ascii_digit());
    let text =
        after_id.strip_prefix(' ').or_else(|| after_id.strip_prefix('\n')).unwrap_or(after_id);
    (ok, text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Preprocessing as the specification says: CR and other control characters go, comments
    // go, tabs become spaces, empty lines vanish.
    #[test]
    fn preprocessing() {
        assert_eq!(preprocess(b"  name\r"), Some("name".into()));
        assert_eq!(preprocess(b"play\tb\tD4 # comment"), Some("play b D4".into()));
        assert_eq!(preprocess(b"# only a comment"), None);
        assert_eq!(preprocess(b" \t \r"), None);
        assert_eq!(preprocess(b"na\x00me\x07"), Some("name".into()));
        assert_eq!(preprocess(b"\xff\xfename"), Some("\u{fffd}\u{fffd}name".into()));
    }

    // Ids are echoed; responses end with one empty line and never contain another.
    #[test]
    fn response_format() {
        assert_eq!(format_response(Some("12"), &Ok("tengen".into())), "=12 tengen\n\n");
        assert_eq!(format_response(None, &Ok(String::new())), "=\n\n");
        assert_eq!(format_response(Some("3"), &Err("illegal move".into())), "?3 illegal move\n\n");
        assert_eq!(format_response(None, &Ok("a\n\nb\n".into())), "= a\nb\n\n");
        assert_eq!(format_response(None, &Ok("\n  A B\n1 . .".into())), "=\n  A B\n1 . .\n\n");
        assert_eq!(parse_request("7 play b d4").id, Some("7".into()));
        assert_eq!(parse_request("play b d4").args, vec!["b", "d4"]);
    }

    // A line longer than the limit is answered once, as a syntax error, and the session goes on.
    #[test]
    fn overlong_line() {
        let mut input = vec![b'x'; MAX_LINE + 10];
        input.extend_from_slice(b"\nname\n");
        let out = run_on_text(&mut Engine::default(), &input);
        assert_eq!(out, "? syntax error\n\n= tengen\n\n");
        let mut blank = vec![b' '; MAX_LINE + 10];
        blank.extend_from_slice(b"x\nname\n");
        assert_eq!(run_on_text(&mut Engine::default(), &blank), "? syntax error\n\n= tengen\n\n");
    }
}
