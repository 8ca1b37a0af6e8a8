//! The compiled engine of a game built on a thread of its own while the interpreter plays:
//! `rbg client --engine auto` and `rbg serve` start a [`Build`] when a game arrives, play on
//! the interpreter, and switch to the compiled engine once it is ready (replaying the moves
//! made so far: [`Session::replay_on`](crate::session::Session::replay_on) for sessions).
//!
//! What builds is a [`Builder`]: [`compiling`] for the real thing (the compile cache, cargo at
//! low priority so a player thinking meanwhile keeps its CPU), or a stand-in in tests. A
//! builder that fails or panics is a failed build, never a crash of the caller. Whether a
//! build can start at all is [`cargo_runs`]: without cargo the front ends play on the
//! interpreter alone.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rbg_core::dynamic::AnyGame;

use crate::compile::{BuildSettings, CargoOutput};
use crate::open::{open_bytes, Engine, OpenOptions};

/// Makes the engine of a game from its file name and text (the name's extension tells RBG
/// from SBG), or says why not.
pub type Builder = Arc<dyn Fn(&str, &str) -> Result<AnyGame, String> + Send + Sync>;

/// The compiled engine through the compile cache, with the switches and build settings of
/// `options` (its engine is ignored), cargo's output captured into the error and cargo run at
/// low priority.
pub fn compiling(options: &OpenOptions) -> Builder {
    let mut options = options.clone();
    options.engine = Engine::Compiled;
    options.build.cargo_output = CargoOutput::Capture;
    options.build.low_priority = true;
    Arc::new(move |name: &str, text: &str| {
        open_bytes(Path::new(name), text.as_bytes().to_vec(), &options)
            .map(|opened| opened.game)
            .map_err(|e| e.to_string())
    })
}

/// Whether the cargo of `settings` ([`BuildSettings::cargo_program`]) runs (`cargo --version`
/// succeeds): without it a compiled engine cannot be built, so a front end offering `auto` plays
/// on the interpreter alone instead of starting builds bound to fail (and says so itself).
pub fn cargo_runs(settings: &BuildSettings) -> bool {
    Command::new(settings.cargo_program())
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// Runs `builder`; a panic is a failure (a build must not take its caller down).
pub fn run(builder: &Builder, name: &str, text: &str) -> Result<AnyGame, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| builder(name, text)))
        .unwrap_or_else(|_| Err("the build failed unexpectedly".into()))
}

/// A build running on a thread of its own.
pub struct Build {
    receiver: Receiver<Result<AnyGame, String>>,
    started: Instant,
    over: bool,
}

/// How a [`Build`] stands.
pub enum Progress {
    /// Still building.
    Pending,
    /// Built, `took` after the start: reported once.
    Ready { game: AnyGame, took: Duration },
    /// Failed, with the reason: reported once.
    Failed(String),
    /// Ready or failed, and reported already.
    Over,
}

impl Build {
    /// Starts building `text` (read as the file `name`) with `builder`.
    pub fn start(builder: Builder, name: String, text: String) -> Build {
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            // The receiver may be gone (the caller finished): nothing to tell.
            let _ = sender.send(run(&builder, &name, &text));
        });
        Build { receiver, started: Instant::now(), over: false }
    }

    /// Waits at most `timeout` for the build to finish.
    pub fn wait(&mut self, timeout: Duration) -> Progress {
        if self.over {
            return Progress::Over;
        }
        let outcome = match self.receiver.recv_timeout(timeout) {
            Err(RecvTimeoutError::Timeout) => return Progress::Pending,
            Ok(outcome) => outcome,
            Err(RecvTimeoutError::Disconnected) => Err("the build stopped unexpectedly".into()),
        };
        self.over = true;
        match outcome {
            Ok(game) => Progress::Ready { game, took: self.started.elapsed() },
            Err(message) => Progress::Failed(message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stand_in(fail: bool) -> Builder {
        Arc::new(move |name: &str, text: &str| {
            if fail {
                return Err("no build".into());
            }
            open_bytes(Path::new(name), text.as_bytes().to_vec(), &OpenOptions::new(Engine::Interpreter))
                .map(|opened| opened.game)
                .map_err(|e| e.to_string())
        })
    }

    const GAME: &str = "#players = a(1)\n#pieces = e\n#variables =\n#board = rectangle(up, down, left, right, [e])\n#rules = ->a\n";

    fn finish(build: &mut Build) -> Progress {
        match build.wait(Duration::from_secs(20)) {
            Progress::Pending => panic!("the stand-in build did not finish"),
            done => done,
        }
    }

    #[test]
    fn a_build_is_reported_once_ready_or_failed() {
        let mut build = Build::start(stand_in(false), "g.rbg".into(), GAME.into());
        assert!(matches!(finish(&mut build), Progress::Ready { .. }));
        assert!(matches!(build.wait(Duration::ZERO), Progress::Over));
        let mut failing = Build::start(stand_in(true), "g.rbg".into(), GAME.into());
        assert!(matches!(finish(&mut failing), Progress::Failed(m) if m == "no build"));
        assert!(matches!(failing.wait(Duration::ZERO), Progress::Over));
    }

    /// `cargo_runs` asks the cargo of the settings: a program that succeeds, one that fails
    /// (`false` fails even when asked `--version`) and one that is missing.
    #[test]
    fn cargo_runs_when_the_program_answers() {
        let with = |cargo: &str| BuildSettings { cargo: Some(cargo.into()), ..BuildSettings::default() };
        if cfg!(unix) {
            assert!(cargo_runs(&with("true")));
            assert!(!cargo_runs(&with("false")));
        }
        assert!(!cargo_runs(&with("/no/such/dir/cargo")));
    }

    #[test]
    fn a_panicking_builder_is_a_failed_build() {
        let panicking: Builder = Arc::new(|_: &str, _: &str| panic!("boom"));
        let mut build = Build::start(panicking, "g.rbg".into(), GAME.into());
        assert!(matches!(finish(&mut build), Progress::Failed(_)));
    }
}
