//! The compiled engine through `rbg::open` and the cache: two threads building one game at
//! once, and a failed build that leaves no complete entry.
//!
//! Every test builds a game text of its own (the game with a comment naming the run), so the
//! entry is new and the build really happens; the cache is the one the `rbg` binary of this
//! target directory uses (`target/rbg-cache`), so cargo builds the dependencies once for all.
//! The first run takes a minute or two (rbg-core, rbg-runner and clap in release).
//!
//! Expected counts are derived by hand: tic-tac-toe has 9, 72, 504 leaves at depths 1-3 (no
//! line of three before the fifth mark); Breakthrough 5x5 has 13 first moves (5 straight, 8
//! diagonal) and 13 x 12 = 156 at depth 2 (the advanced pawn blocks one straight reply).

use std::path::{Path, PathBuf};
use std::sync::Barrier;
use std::time::{SystemTime, UNIX_EPOCH};

use rbg::compile::{build_engine, BuildError, BuildSettings, CompileOptions};
use rbg::open::{Engine, OpenError, OpenOptions};
use rbg_core::perft::{perft, PerftOptions};
use rbg_core::Game;

fn cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).parent().expect("target/tmp").join("rbg-cache")
}

fn settings() -> BuildSettings {
    BuildSettings { cache_dir: Some(cache()), ..BuildSettings::default() }
}

/// The game's text with a comment that makes it (and its cache key) new for this run.
fn fresh_text(relative: &str, test: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games").join(relative);
    let mut text = std::fs::read(path).expect("the game file");
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    text.extend_from_slice(format!("\n// {test}: run {} at {nanos}\n", std::process::id()).as_bytes());
    text
}

fn leaves<G: Game>(game: &G, depths: std::ops::RangeInclusive<u32>) -> Vec<u64> {
    let options = PerftOptions { threads: 1, ..PerftOptions::default() };
    depths.map(|d| perft(game, d, &options).expect("perft runs").leaves).collect()
}

#[test]
fn two_threads_building_one_game_both_get_it_built_once() {
    let text = fresh_text("ticTacToe.rbg", "two threads");
    let game = rbg::parse_game(Path::new("ticTacToe.rbg"), text.clone()).unwrap();
    let barrier = Barrier::new(2);
    let built: Vec<_> = std::thread::scope(|s| {
        let threads: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    barrier.wait();
                    let built = build_engine(&game, &CompileOptions::default(), &settings()).expect("built");
                    let loaded = rbg_dynlib::load(&built.library).expect("loads");
                    (built, leaves(&loaded, 1..=3))
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().expect("no panic")).collect()
    });
    for (_, counts) in &built {
        assert_eq!(counts, &[9, 72, 504]);
    }
    // One thread built it; the other waited for the lock and found the entry complete.
    assert_eq!(built.iter().filter(|(b, _)| !b.cached).count(), 1);
    assert_eq!(built[0].0.library, built[1].0.library);
    // rbg::open finds it in the cache.
    let options = OpenOptions { engine: Engine::Compiled, build: settings(), ..OpenOptions::default() };
    let opened = rbg::open_bytes(Path::new("ticTacToe.rbg"), text, &options).unwrap();
    assert_eq!((opened.engine, leaves(&opened.game, 1..=3)), (Engine::Compiled, vec![9, 72, 504]));
    let _ = std::fs::remove_dir_all(&built[0].0.entry);
}

/// Loading needs the library alone, so that is all a plain build makes; the runner binary
/// (perft and Monte Carlo in a process of their own) comes in an entry of its own when asked.
#[test]
fn the_runner_binary_is_built_only_when_asked() {
    let text = fresh_text("ticTacToe.rbg", "runner");
    let game = rbg::parse_game(Path::new("ticTacToe.rbg"), text).unwrap();
    let library_only = build_engine(&game, &CompileOptions::default(), &settings()).unwrap();
    assert!(library_only.binary.is_none() && library_only.library.is_file(), "{library_only:?}");
    let marker = std::fs::read_to_string(library_only.entry.join("complete")).unwrap();
    assert!(!marker.contains("binary"), "{marker}");
    let runner_settings = BuildSettings { runner: true, ..settings() };
    let with_runner = build_engine(&game, &CompileOptions::default(), &runner_settings).unwrap();
    assert_ne!(with_runner.entry, library_only.entry);
    let binary = with_runner.binary.clone().expect("a runner binary");
    let out = std::process::Command::new(&binary)
        .args(["perft", "--depth", "2", "--json", "--only-last"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // 9 first moves, 8 replies each.
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"leaves\":72"), "{out:?}");
    // The library-only entry is not taken for one with the runner, nor the other way round.
    assert!(build_engine(&game, &CompileOptions::default(), &settings()).unwrap().binary.is_none());
    for built in [library_only, with_runner] {
        let _ = std::fs::remove_dir_all(&built.entry);
    }
}

#[cfg(unix)]
#[test]
fn a_failed_build_leaves_no_complete_entry() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("rbg-failing-cargo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let failing = dir.join("cargo");
    std::fs::write(&failing, "#!/bin/sh\necho 'error: this cargo fails on purpose' >&2\nexit 101\n").unwrap();
    std::fs::set_permissions(&failing, std::fs::Permissions::from_mode(0o755)).unwrap();

    let text = fresh_text("sbg/breakthrough5.sbg", "failed build");
    let path = Path::new("breakthrough5.sbg");
    let mut options = OpenOptions { engine: Engine::Compiled, build: settings(), ..OpenOptions::default() };
    options.build.cargo = Some(failing);
    let error = rbg::open_bytes(path, text.clone(), &options).unwrap_err();
    let OpenError::Build { error: BuildError::CargoFailed { crate_dir, stderr, status }, .. } = &error else {
        panic!("{error:?}")
    };
    assert_eq!(status.code(), Some(101));
    assert!(stderr.contains("fails on purpose"), "{stderr}");
    assert!(error.to_string().contains("fails on purpose"), "{error}");
    assert!(crate_dir.join("Cargo.toml").exists(), "the crate is kept to look at");
    assert!(!crate_dir.join("complete").exists(), "but the entry is not complete");

    // The same game with a working cargo: built into the same entry, which is then complete.
    options.build.cargo = None;
    let opened = rbg::open_bytes(path, text.clone(), &options).unwrap();
    assert_eq!(leaves(&opened.game, 1..=2), [13, 156]);
    assert!(crate_dir.join("complete").exists());
    let game = rbg::parse_game(path, text).unwrap();
    let again = build_engine(&game, &CompileOptions::default(), &settings()).unwrap();
    assert!(again.cached && again.entry == *crate_dir, "{again:?}");
    let _ = std::fs::remove_dir_all(crate_dir);
    let _ = std::fs::remove_dir_all(&dir);
}
