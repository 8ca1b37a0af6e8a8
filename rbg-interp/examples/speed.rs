//! Single-thread speed on a low-level game file:
//! `speed FILE PERFT_DEPTH MC_SECONDS [flags]` prints perft nodes/s and flat-MC playouts/s.
use std::time::Duration;

use rbg_core::perft::{perft, PerftOptions};
use rbg_core::playout::{flat_monte_carlo, McLimit, McOptions};
use rbg_interp::{InterpOptions, Interpreter, ProgramOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read(&args[1]).expect("read");
    let depth: u32 = args[2].parse().expect("depth");
    // MC limit: seconds, or `pN` for N playouts.
    let limit = match args[3].strip_prefix('p') {
        Some(n) => McLimit::Playouts(n.parse().expect("playouts")),
        None => McLimit::Time(Duration::from_secs_f64(args[3].parse().expect("seconds"))),
    };
    let mut options = InterpOptions::default();
    let mut monotonic = true;
    let mut bitsets = true;
    for flag in args.get(4).map(String::as_str).unwrap_or("").split(',') {
        let o = &mut options.program;
        match flag {
            "baseline" => *o = ProgramOptions::baseline(),
            "no-tables" => o.shift_tables = false,
            "no-patterns" => o.precomputed_patterns = false,
            "no-fold" => o.fold_chains = false,
            "no-tail" => o.tail_duplication = false,
            "no-visited" => o.visited_elimination = false,
            "no-const" => o.constant_folding = false,
            "counts" => o.always_count_pieces = true,
            "no-mono" => monotonic = false,
            "no-bitsets" => bitsets = false,
            "no-memo" => o.pattern_memo = false,
            _ => {}
        }
    }
    options.piece_bitsets = bitsets;
    let game = rbg_parser::parse(&args[1], &text).game.expect("the game parses");
    let interp = Interpreter::new(&game, &args[1], options).expect("build");
    eprintln!("{}", interp.program().summary());
    if depth > 0 {
        let t = std::time::Instant::now();
        let c = perft(&interp, depth, &PerftOptions::default()).expect("perft");
        let s = t.elapsed().as_secs_f64();
        println!(
            "perft({depth}) leaves {} nodes {} {:.3}s {:.0} nodes/s",
            c.leaves,
            c.nodes,
            s,
            c.nodes as f64 / s
        );
    }
    if limit != McLimit::Playouts(0) && limit != McLimit::Time(Duration::ZERO) {
        let opts = McOptions { limit, monotonic, ..Default::default() };
        let st = flat_monte_carlo(&interp, &opts, |_| {}).expect("mc");
        println!(
            "mc {} playouts {} plies {:.1}s {:.1} playouts/s avg_depth {:.2} scores {:?}",
            st.playouts,
            st.plies,
            st.elapsed.as_secs_f64(),
            st.playouts_per_second(),
            st.mean_plies(),
            (0..st.score_sum.len()).map(|i| st.mean_score(i)).collect::<Vec<_>>()
        );
    }
}
