//! Child processes: the `rbg measure-child` wrapper's work ([`run_child`]), one measurement
//! through the wrapper, and the streaming perft probe.
//!
//! The wrapper and the suite talk through the wrapper's standard error (a line starting with
//! [`PEAK_MARKER`]) and its exit code ([`TIMEOUT_EXIT_CODE`] for a time-out), so both sides take
//! these from here.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

/// The first words of the wrapper's report on its standard error; the peak follows in KiB.
pub const PEAK_MARKER: &str = "rbg-measure-child: peak-rss-kib ";
/// Exit code of the wrapper when the measurement ran out of time (as `timeout(1)`).
pub const TIMEOUT_EXIT_CODE: u8 = 124;
/// A probe gives up waiting for the next depth after this long (the estimate was wrong).
const PROBE_ROW_TIMEOUT: Duration = Duration::from_secs(30);

/// How a wrapped program ended.
#[derive(Debug)]
pub enum ChildEnd {
    /// It exited (or was killed by a signal) with this status; the peak resident set of this
    /// process's reaped children, in KiB, where the system reports it.
    Exited { status: ExitStatus, peak_rss_kib: Option<u64> },
    /// It ran past the time limit and was killed.
    TimedOut,
}

/// Runs the program with this process's standard streams until it ends or `limit` passes (then
/// kills and reaps it). Meant for a process that starts no other child, so the peak memory of
/// its reaped children is the program's.
pub fn run_child(program: &OsString, args: &[OsString], limit: Duration) -> Result<ChildEnd, String> {
    let mut child = Command::new(program)
        .args(args)
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", Path::new(program).display()))?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                return Ok(ChildEnd::Exited { status, peak_rss_kib: children_peak_rss_kib() })
            }
            Ok(None) if start.elapsed() >= limit => break,
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("cannot wait for the measured program: {e}")),
        }
    }
    // Kill the child we started (by its handle) and reap it.
    let _ = child.kill();
    let _ = child.wait();
    Ok(ChildEnd::TimedOut)
}

/// The largest peak resident set of the reaped children, in KiB (Linux reports KiB).
#[cfg(unix)]
fn children_peak_rss_kib() -> Option<u64> {
    use nix::sys::resource::{getrusage, UsageWho};
    let usage = getrusage(UsageWho::RUSAGE_CHILDREN).ok()?;
    u64::try_from(usage.max_rss()).ok().filter(|&kib| kib > 0)
}

#[cfg(not(unix))]
fn children_peak_rss_kib() -> Option<u64> {
    None
}

/// How to run one engine's perft/mc commands on one game.
pub(crate) struct EngineCommand {
    pub(crate) program: PathBuf,
    /// The game file for `rbg perft FILE`; a compiled engine's binary takes none.
    pub(crate) file: Option<PathBuf>,
}

impl EngineCommand {
    pub(crate) fn args(&self, command: &str, rest: &[String]) -> Vec<OsString> {
        let mut v = vec![OsString::from(command)];
        v.extend(self.file.iter().map(|f| f.as_os_str().to_owned()));
        v.extend(rest.iter().map(OsString::from));
        v
    }
}

/// A measurement's last JSON line and the peak memory of its process.
pub(crate) struct Measured {
    pub(crate) json: Value,
    pub(crate) peak_rss_kib: Option<u64>,
}

/// Runs one measurement through the `measure-child` wrapper of the `rbg` binary `rbg`.
pub(crate) fn run_measured(
    rbg: &Path,
    engine: &EngineCommand,
    argv: &[OsString],
    timeout_seconds: f64,
) -> Result<Measured, String> {
    let output = Command::new(rbg)
        .arg("measure-child")
        .arg("--timeout-seconds")
        .arg(format!("{timeout_seconds:.0}"))
        .arg("--")
        .arg(&engine.program)
        .args(argv)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run the measurement: {e}"))?;
    let errors = String::from_utf8_lossy(&output.stderr);
    if output.status.code() == Some(i32::from(TIMEOUT_EXIT_CODE)) {
        return Err(format!("timed out after {timeout_seconds:.0} s"));
    }
    if !output.status.success() {
        return Err(format!("failed ({}): {}", output.status, last_lines(&errors)));
    }
    let peak_rss_kib =
        errors.lines().find_map(|l| l.strip_prefix(PEAK_MARKER)).and_then(|n| n.trim().parse().ok());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
    let json = serde_json::from_str(line).map_err(|_| format!("printed no JSON line: {line}"))?;
    Ok(Measured { json, peak_rss_kib })
}

/// Runs `perft --depth limit --json` and reads its JSON lines as they come, parsed by `row`,
/// killing it when `stop` says so after a row.
pub(crate) fn probe_perft<R>(
    engine: &EngineCommand,
    limit: u32,
    row: impl Fn(&Value) -> Option<R>,
    stop: impl Fn(&[R]) -> bool,
) -> Result<Vec<R>, String> {
    let argv = engine.args("perft", &["--depth".into(), limit.to_string(), "--json".into()]);
    let mut child = Command::new(&engine.program)
        .args(&argv)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", engine.program.display()))?;
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
    let (send, lines) = mpsc::channel();
    if let Some(stdout) = stdout {
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
    }
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut stderr) = stderr {
            let _ = stderr.read_to_string(&mut text);
        }
        text
    });
    let mut rows = Vec::new();
    let mut timed_out = false;
    while !stop(&rows) {
        match lines.recv_timeout(PROBE_ROW_TIMEOUT) {
            Ok(line) => rows.extend(serde_json::from_str(&line).ok().as_ref().and_then(&row)),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                timed_out = true;
                break;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    // Stop the probe we started (a no-op when it has finished) and reap it.
    let _ = child.kill();
    let status = child.wait();
    let errors = errors.join().unwrap_or_default();
    if !rows.is_empty() {
        return Ok(rows);
    }
    if timed_out {
        return Err(format!("perft depth 1 took over {} s", PROBE_ROW_TIMEOUT.as_secs()));
    }
    let status = status.map(|s| s.to_string()).unwrap_or_else(|e| e.to_string());
    Err(format!("perft failed ({status}): {}", last_lines(&errors)))
}

/// The last lines of a child's error output, on one line, for a table cell.
fn last_lines(text: &str) -> String {
    let lines: Vec<&str> =
        text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with(PEAK_MARKER)).collect();
    let tail = &lines[lines.len().saturating_sub(2)..];
    if tail.is_empty() {
        "no message".into()
    } else {
        tail.join(" / ")
    }
}
