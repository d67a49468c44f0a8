//! `tengen regress`: replays GTP regression scripts (`*.tst`) against any GTP engine, with
//! gogui-regress semantics — a fresh engine per file, started in the file's folder; the
//! pattern must match the whole answer; an error answer fails; a trailing `*` marks a known
//! failure, and an unexpected pass is reported too. A crashing or hanging engine is reported
//! for its file and the run goes on.

use crate::client::process::GtpProcess;
use crate::gtp::testfile::{parse_script, replay, Outcome};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The outcome of one script file.
#[derive(Debug)]
pub struct FileReport {
    pub path: PathBuf,
    pub outcomes: Vec<Outcome>,
    /// Set when the file could not be run to the end: unreadable, malformed, or the engine
    /// failed (exited, hung, could not start).
    pub error: Option<String>,
    /// Lines the engine printed outside responses.
    pub stray_output: Vec<String>,
}

impl FileReport {
    pub fn passed(&self) -> usize {
        self.outcomes.iter().filter(|o| o.counts_as_pass()).count()
    }

    pub fn failed(&self) -> usize {
        self.outcomes.iter().filter(|o| o.counts_as_failure()).count()
    }

    pub fn ignored(&self) -> usize {
        self.outcomes.iter().filter(|o| o.ignored).count()
    }

    pub fn unexpected(&self) -> usize {
        self.outcomes.iter().filter(|o| o.is_unexpected()).count()
    }
}

/// The `.tst` files named by `paths`: files as given, folders searched (not recursively) for
/// `*.tst`, in name order.
///
/// # Errors
/// A path that does not exist.
pub fn collect_scripts(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "tst"))
                .collect();
            found.sort();
            files.extend(found);
        } else if path.is_file() {
            files.push(path.clone());
        } else {
            return Err(std::io::Error::other(format!(
                "{}: no such file or folder",
                path.display()
            )));
        }
    }
    Ok(files)
}

/// Runs one script against a fresh `engine` started in the script's folder.
pub fn run_file(path: &Path, engine: &str, timeout: Duration) -> FileReport {
    let mut report = FileReport {
        path: path.to_path_buf(),
        outcomes: Vec::new(),
        error: None,
        stray_output: Vec::new(),
    };
    let script = match std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|text| parse_script(&text).map_err(|e| e.to_string()))
    {
        Ok(script) => script,
        Err(e) => {
            report.error = Some(e);
            return report;
        }
    };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut process = match GtpProcess::spawn(engine, dir, timeout) {
        Ok(process) => process,
        Err(e) => {
            report.error = Some(format!("cannot start '{engine}': {e}"));
            return report;
        }
    };
    // Replay command by command so that the outcomes before a failure are kept.
    for (index, command) in script.iter().enumerate() {
        match replay(&script[index..=index], &mut process) {
            Ok(mut outcomes) => report.outcomes.append(&mut outcomes),
            Err(e) => {
                report.error = Some(format!("line {}: `{}`: {e}", command.line, command.text));
                break;
            }
        }
    }
    report.stray_output = std::mem::take(&mut process.stray_output);
    report
}

/// The human-readable report: each unexpected result, a line per file, and the closing
/// `N passed, M failed` line.
pub fn format_report(reports: &[FileReport]) -> String {
    let mut out = String::new();
    for report in reports {
        let name = report.path.display();
        for o in report.outcomes.iter().filter(|o| o.is_unexpected()) {
            let kind = if o.passed { "unexpected pass" } else { "FAIL" };
            let _ = writeln!(
                out,
                "{name}:{}: {kind}: `{}` answered {}{:?}, expected {}",
                o.line,
                o.command,
                o.answer_mark(),
                o.answer,
                o.expected()
            );
        }
        for o in report.outcomes.iter().filter(|o| o.ignored) {
            let _ = writeln!(
                out,
                "{name}:{}: not checked: `{}` answered {}{:?}",
                o.line,
                o.command,
                o.answer_mark(),
                o.answer
            );
        }
        if let Some(error) = &report.error {
            let _ = writeln!(out, "{name}: ERROR: {error}");
        }
        for line in &report.stray_output {
            let _ = writeln!(out, "{name}: stray output from the engine: {line:?}");
        }
        let _ = write!(
            out,
            "{name}: {} passed, {} failed ({} unexpected)",
            report.passed(),
            report.failed(),
            report.unexpected()
        );
        match report.ignored() {
            0 => out.push('\n'),
            n => {
                let _ = writeln!(out, ", {n} not checked");
            }
        }
    }
    let passed: usize = reports.iter().map(FileReport::passed).sum();
    let failed: usize = reports.iter().map(FileReport::failed).sum();
    let _ = writeln!(out, "{passed} passed, {failed} failed");
    out
}

/// Whether the run went as expected: no unexpected result, no file error, no stray output.
pub fn all_expected(reports: &[FileReport]) -> bool {
    reports.iter().all(|r| r.unexpected() == 0 && r.error.is_none() && r.stray_output.is_empty())
}

fn xml_escape(text: &str) -> String {
    text.chars()
        .filter(|&c| c == '\t' || c == '\n' || !c.is_control())
        .map(|c| match c {
            '&' => "&amp;".to_string(),
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            '"' => "&quot;".to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// JUnit XML: a test suite per file, a test case per checked command.
pub fn junit_xml(reports: &[FileReport]) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    for report in reports {
        let name = xml_escape(&report.path.display().to_string());
        let errors = usize::from(report.error.is_some());
        let _ = writeln!(
            out,
            "  <testsuite name=\"{name}\" tests=\"{}\" failures=\"{}\" errors=\"{errors}\">",
            report.outcomes.len(),
            report.unexpected()
        );
        for o in &report.outcomes {
            let case = xml_escape(&format!("{}:{} {}", name, o.line, o.command));
            let _ = write!(out, "    <testcase name=\"{case}\" classname=\"{name}\"");
            if o.ignored {
                let _ = writeln!(out, ">\n      <skipped/>\n    </testcase>");
            } else if o.is_unexpected() {
                let message =
                    format!("answered {}{}, expected {}", o.answer_mark(), o.answer, o.expected());
                let _ = writeln!(
                    out,
                    ">\n      <failure message=\"{}\"/>\n    </testcase>",
                    xml_escape(&message)
                );
            } else {
                let _ = writeln!(out, "/>");
            }
        }
        if let Some(error) = &report.error {
            let _ = writeln!(
                out,
                "    <testcase name=\"{name} (run)\" classname=\"{name}\">\n      <error message=\"{}\"/>\n    </testcase>",
                xml_escape(error)
            );
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}
