//! Differential test: every optimisation off (and each one off alone) generates exactly the same
//! set of moves as the default program, state after state, along random playouts of corpus games.
//! The states are compared through the trait's observers (rules positions are numbered
//! differently by different programs, so they are not compared directly).

mod common;

use rand::Rng;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use rbg_core::{Game, MoveList};
use rbg_interp::{InterpOptions, Interpreter, ProgramOptions};

use common::{conformance_dir, corpus_dir, data_available, load_game};

fn variants() -> Vec<(&'static str, InterpOptions)> {
    let d = ProgramOptions::default;
    let program_variants = vec![
        ("no shift tables", ProgramOptions { shift_tables: false, ..d() }),
        ("no precomputed patterns", ProgramOptions { precomputed_patterns: false, ..d() }),
        ("no chain folding", ProgramOptions { fold_chains: false, ..d() }),
        ("no tail duplication", ProgramOptions { tail_duplication: false, ..d() }),
        ("no visited elimination", ProgramOptions { visited_elimination: false, ..d() }),
        ("no constant folding", ProgramOptions { constant_folding: false, ..d() }),
        ("no fan filters", ProgramOptions { fan_filters: false, ..d() }),
        ("no pattern memo", ProgramOptions { pattern_memo: false, ..d() }),
        ("no pattern tails", ProgramOptions { pattern_tails: false, ..d() }),
        ("piece counts always", ProgramOptions { always_count_pieces: true, ..d() }),
    ];
    let mut all: Vec<(&'static str, InterpOptions)> = program_variants
        .into_iter()
        .map(|(name, program)| (name, InterpOptions { program, ..Default::default() }))
        .collect();
    all.push((
        "baseline",
        InterpOptions {
            program: ProgramOptions::baseline(),
            fuse_ops: false,
            pure_patterns: false,
            read_only_patterns: false,
            probe_patterns: false,
            flat_steps: false,
            ray_patterns: false,
            skip_filtered_tests: false,
            piece_bitsets: false,
            ..Default::default()
        },
    ));
    all.push(("no fused ops", InterpOptions { fuse_ops: false, ..Default::default() }));
    all.push(("no pure patterns", InterpOptions { pure_patterns: false, ..Default::default() }));
    all.push(("no read-only patterns", InterpOptions { read_only_patterns: false, ..Default::default() }));
    all.push(("no probe patterns", InterpOptions { probe_patterns: false, ..Default::default() }));
    all.push(("no flat steps", InterpOptions { flat_steps: false, ..Default::default() }));
    all.push(("no ray patterns", InterpOptions { ray_patterns: false, ..Default::default() }));
    all.push((
        "no skipped filtered tests",
        InterpOptions { skip_filtered_tests: false, ..Default::default() },
    ));
    all.push(("no piece bitsets", InterpOptions { piece_bitsets: false, ..Default::default() }));
    all
}

fn sorted_moves(
    g: &Interpreter,
    s: &mut <Interpreter as Game>::State,
    sc: &mut rbg_interp::Scratch,
) -> Vec<Vec<(u32, u32)>> {
    let mut list = MoveList::new();
    g.legal_moves(s, sc, &mut list).expect("move generation");
    let mut out: Vec<Vec<(u32, u32)>> =
        list.iter().map(|m| m.iter().map(|a| (a.index, a.vertex)).collect()).collect();
    out.sort();
    out
}

/// What the trait lets us observe of a state.
fn observe(g: &Interpreter, s: &<Interpreter as Game>::State) -> (u32, u32, Vec<u32>, Vec<i64>) {
    let info = g.info();
    (
        g.current_player(s),
        g.current_vertex(s),
        (0..info.vertices.len() as u32).map(|v| g.piece(s, v)).collect(),
        (0..info.variables.len()).map(|v| g.variable(s, v)).collect(),
    )
}

/// Plays `playouts` random games of at most `plies` moves with both reasoners in lockstep.
fn compare(name: &str, variant: &str, a: &Interpreter, b: &Interpreter, playouts: u64, plies: usize) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let (mut sa, mut sb) = (a.new_scratch(), b.new_scratch());
    for playout in 0..playouts {
        let (mut x, mut y) = (a.initial_state(), b.initial_state());
        for ply in 0..plies {
            let alive_a = a.complete_keeper(&mut x, &mut sa, 100_000).expect("keeper");
            let alive_b = b.complete_keeper(&mut y, &mut sb, 100_000).expect("keeper");
            assert_eq!(
                alive_a, alive_b,
                "{name} ({variant}): terminal differs at playout {playout} ply {ply}"
            );
            assert_eq!(
                observe(a, &x),
                observe(b, &y),
                "{name} ({variant}): state differs at playout {playout} ply {ply}"
            );
            if !alive_a {
                break;
            }
            let ma = sorted_moves(a, &mut x, &mut sa);
            let mb = sorted_moves(b, &mut y, &mut sb);
            assert_eq!(ma, mb, "{name} ({variant}): moves differ at playout {playout} ply {ply}");
            if ma.is_empty() {
                break;
            }
            let pick = &ma[rng.gen_range(0..ma.len())];
            let m: Vec<rbg_core::Action> = pick.iter().map(|&(i, v)| rbg_core::Action::new(i, v)).collect();
            a.apply_move(&mut x, &m);
            b.apply_move(&mut y, &m);
        }
    }
}

#[test]
fn optimisations_do_not_change_moves() {
    if !data_available(&[corpus_dir(), conformance_dir().join("lowered")]) {
        return;
    }
    let games: &[(&str, u64, usize)] = &[
        ("breakthrough", 3, 80),
        ("chess", 2, 60),
        ("connect4", 4, 42),
        ("reversi", 2, 60),
        ("englishDraughts", 3, 80),
        ("hex_5x5", 4, 25),
        ("amazons_split2", 2, 40),
        ("theMillGame", 2, 60),
        ("paperSoccer", 2, 40),
        ("internationalDraughts", 1, 40),
        ("chineseCheckers6", 1, 30),
        ("pentago", 2, 36),
        ("go_nopass", 1, 30),
        ("gess", 1, 6),
        ("arimaa_split", 1, 20),
        ("foxAndHounds", 2, 40),
        ("yavalath", 2, 40),
        ("15puzzle", 1, 40),
    ];
    let jobs: Vec<(&str, u64, usize, &str, InterpOptions)> = games
        .iter()
        .flat_map(|&(g, n, p)| variants().into_iter().map(move |(v, o)| (g, n, p, v, o)))
        .collect();
    jobs.par_iter().for_each(|(name, playouts, plies, variant, options)| {
        let game = load_game(name);
        let a = Interpreter::new(&game, name, InterpOptions::default()).expect("default build");
        let b = Interpreter::new(&game, name, options.clone()).expect("variant build");
        compare(name, variant, &a, &b, *playouts, *plies);
    });
}
