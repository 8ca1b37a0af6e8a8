//! The cost of the dynamic layer: perft and flat Monte Carlo through static dispatch and
//! through `AnyGame`, for the interpreter and for a compiled reasoner loaded as a library
//! (and, as the fully static baseline, that compiled crate's own binary).
//!
//! ```text
//! cargo run --release -p rbg-dynlib --example dyn_overhead -- GAME.rbg DEPTH PLAYOUTS ROUNDS [LIB BIN]
//! ```
//!
//! `LIB` and `BIN` are the cdylib and the binary of the game's compiled crate (`rbg compile
//! GAME.rbg -o DIR`, then `cargo build --release` in DIR). Each round runs every variant once,
//! in a rotated order, so that drifts of a noisy machine spread over all of them; the medians
//! over the rounds are printed with their ratio to the static variant of the same engine.
//! `DYN_OVERHEAD_ONLY=i` runs only the `i`-th variant once, for instruction counts: run it
//! under `valgrind --tool=callgrind` with the workload and with `DEPTH` and `PLAYOUTS` 0, and
//! subtract (the set-up is the same in both).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use rbg_core::dynamic::AnyGame;
use rbg_core::perft::{perft, PerftOptions};
use rbg_core::playout::{flat_monte_carlo, McLimit, McOptions};
use rbg_core::Game;
use rbg_interp::{InterpOptions, Interpreter};

/// Seconds of one perft and of one batch of playouts.
fn run<G: Game>(game: &G, depth: u32, playouts: u64) -> (f64, f64) {
    let start = Instant::now();
    perft(game, depth, &PerftOptions::default()).expect("perft");
    let perft_s = start.elapsed().as_secs_f64();
    let opts = McOptions { limit: McLimit::Playouts(playouts), ..Default::default() };
    let start = Instant::now();
    flat_monte_carlo(game, &opts, |_| {}).expect("playouts");
    (perft_s, start.elapsed().as_secs_f64())
}

/// The same through the compiled crate's binary (wall time of the process).
fn run_binary(bin: &Path, depth: u32, playouts: u64) -> (f64, f64) {
    let time = |args: &[String]| {
        let start = Instant::now();
        let out = Command::new(bin).args(args).output().expect("run the compiled binary");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        start.elapsed().as_secs_f64()
    };
    let perft_s = time(&["perft".into(), "--depth".into(), depth.to_string(), "--only-last".into()]);
    let mc_s = time(&["mc".into(), "--playouts".into(), playouts.to_string()]);
    (perft_s, mc_s)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 4 && args.len() != 6 {
        eprintln!("usage: dyn_overhead GAME.rbg DEPTH PLAYOUTS ROUNDS [LIB BIN]");
        std::process::exit(2);
    }
    let path = Path::new(&args[0]);
    let depth: u32 = args[1].parse().expect("DEPTH");
    let playouts: u64 = args[2].parse().expect("PLAYOUTS");
    let rounds: usize = args[3].parse().expect("ROUNDS");
    let name = path.file_stem().unwrap().to_string_lossy().to_string();
    let bytes = std::fs::read(path).expect("read the game");
    let parsed = rbg_parser::parse(&args[0], &bytes);
    let ir = parsed.game.unwrap_or_else(|| panic!("{:?}", parsed.diagnostics));
    let interp = Interpreter::new(&ir, &name, InterpOptions::default()).expect("interpreter");
    let interp_dyn = AnyGame::new(interp.clone());
    let lib = args.get(4).map(|p| rbg_dynlib::LibGame::open(p).expect("load the library"));
    let lib_dyn = lib.clone().map(AnyGame::new);
    let bin = args.get(5).map(Path::new);

    type Variant<'a> = (&'static str, Box<dyn Fn() -> (f64, f64) + 'a>);
    let mut variants: Vec<Variant> = vec![
        ("interpreter, static", Box::new(|| run(&interp, depth, playouts))),
        ("interpreter, AnyGame", Box::new(|| run(&interp_dyn, depth, playouts))),
    ];
    if let (Some(lib), Some(lib_dyn), Some(bin)) = (&lib, &lib_dyn, bin) {
        variants.push(("compiled binary (static)", Box::new(move || run_binary(bin, depth, playouts))));
        variants.push(("compiled cdylib, LibGame", Box::new(move || run(lib, depth, playouts))));
        variants.push(("compiled cdylib, AnyGame", Box::new(move || run(lib_dyn, depth, playouts))));
    }
    // `DYN_OVERHEAD_ONLY=i` runs variant `i` alone (for instruction counts under callgrind).
    if let Some(only) = std::env::var("DYN_OVERHEAD_ONLY").ok().and_then(|v| v.parse::<usize>().ok()) {
        let (p, m) = (variants[only].1)();
        println!("{}: perft {p:.3} s, mc {m:.3} s", variants[only].0);
        return;
    }
    let mut times = vec![(Vec::new(), Vec::new()); variants.len()];
    for round in 0..rounds {
        for k in 0..variants.len() {
            let i = (k + round) % variants.len();
            let (p, m) = (variants[i].1)();
            times[i].0.push(p);
            times[i].1.push(m);
        }
    }
    println!("{name}: perft depth {depth}, {playouts} playouts, medians of {rounds} rounds");
    println!("{:<28} {:>10} {:>8} {:>10} {:>8}", "variant", "perft s", "vs", "mc s", "vs");
    let mut base = (0.0, 0.0);
    for (i, (label, _)) in variants.iter().enumerate() {
        let (p, m) = (median(&mut times[i].0), median(&mut times[i].1));
        // Each engine's first variant is the baseline of the lines after it.
        if i == 0 || i == 2 {
            base = (p, m);
        }
        println!(
            "{label:<28} {p:>10.3} {:>7.1}% {m:>10.3} {:>7.1}%",
            100.0 * (p / base.0 - 1.0),
            100.0 * (m / base.1 - 1.0)
        );
    }
}
