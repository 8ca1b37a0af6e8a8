//! Compiles every corpus game into a module of this crate.
//!
//! The corpus is found by rbg-testdata (`$RBG_CORPUS`, else `../shared/corpus`). When it is
//! missing the crate has no games, and the tests fail or skip by rbg-testdata's policy
//! (`RBG_SKIP_CONFORMANCE`, `CI`). The build itself reads no other variable of ours, so setting
//! `CI` does not rebuild this (large) crate; of cargo's it reads `RUSTC_WORKSPACE_WRAPPER`, to
//! compile only a sample of the games for clippy, which checks and does not build (see
//! `linted_by_clippy`). A game the compiler rejects fails the build: every corpus game must
//! compile.
//!
//! The Simplified Boardgames of `games/sbg/` are compiled too, from their RBG translation
//! (rbg-sbg), so the compiled engine is checked against the direct SBG reasoner.
//!
//! The same script builds the crate `rbg-compiled-shard`, which holds every second
//! corpus game and the unoptimised baselines; this crate depends on it and its registry names
//! the shard's modules. rustc compiles one crate on one thread until code generation, so two
//! crates of about equal size build side by side on two cores: the generated code is some
//! 30 MB, the largest unit of the workspace's test build.

use std::fmt::Write as _;
use std::path::PathBuf;

use rbg_compiler::{generate_module, names, CompileOptions};
use rbg_interp::program::switches::Switches;
use rbg_interp::ProgramOptions;

/// Games also compiled with every optimisation off (program analyses and compiler options), so
/// the unoptimised code paths are tested too: a spread of shapes (tables, patterns, unbounded
/// moves, variables, many pieces).
const BASELINE_GAMES: &[&str] = &[
    "breakthrough",
    "chess",
    "reversi",
    "englishDraughts",
    "connect4",
    "hex_5x5",
    "theMillGame",
    "paperSoccer",
];

/// A game also compiled once per switch, with that switch alone away from its default, so that
/// each switch is tested off on its own (the baseline turns them off all at once). Reversi has
/// patterns, a keeper that flips, variables and a pass.
const SWITCH_GAME: &str = "reversi";

fn baseline_options() -> CompileOptions {
    CompileOptions {
        program: ProgramOptions::baseline(),
        unchecked_modifiers: false,
        compact_state: false,
        deferred_checks: false,
        pattern_order: false,
        piece_sets: false,
        monotonic_fill: false,
        lean_apply: false,
        count_replay: false,
        visit_children: false,
        board_patterns: false,
        word_tests: false,
        fused_class_moves: false,
        class_playouts: false,
        board_words: false,
        set_moves: false,
        shared_visitor: false,
        fewer_searches: false,
        ray_captures: false,
        bulk_counts: false,
        fat_lto: false,
    }
}

/// The package name of the shard crate, built by this script too.
const SHARD: &str = "rbg-compiled-shard";

/// Whether the corpus game at `index` (in the corpus order) is compiled into the shard.
fn in_shard(index: usize) -> bool {
    index % 2 == 1
}

/// Games compiled when the crate is built for clippy (see [`linted_by_clippy`]), with their
/// baselines: one of each shape the generator treats differently (patterns and a flipping
/// keeper, split moves, classes, many pieces, unbounded moves and variables).
const CLIPPY_SAMPLE: &[&str] =
    &["reversi", "breakthrough_split", "connect4", "chess", "paperSoccer", "hex_5x5"];

/// Whether this build is clippy's (cargo runs workspace members through `clippy-driver`, and
/// tells build scripts so). Clippy type-checks this crate twice (library and test profile)
/// without generating code, which for all 30 MB of generated games took four of its six
/// minutes; the generated code's lints are the generator's, so a sample of games shows them.
fn linted_by_clippy() -> bool {
    println!("cargo:rerun-if-env-changed=RUSTC_WORKSPACE_WRAPPER");
    std::env::var("RUSTC_WORKSPACE_WRAPPER").is_ok_and(|wrapper| wrapper.contains("clippy-driver"))
}

fn main() {
    println!("cargo:rerun-if-env-changed=RBG_CORPUS");
    let dir = rbg_testdata::corpus_dir();
    println!("cargo:rerun-if-changed={}", dir.display());
    let sample = linted_by_clippy();
    // Indexed in the whole corpus, so that a game is in the same crate in the sample.
    let games: Vec<(usize, String, PathBuf)> = rbg_testdata::corpus_games(&dir)
        .into_iter()
        .enumerate()
        .filter(|(_, g)| !sample || CLIPPY_SAMPLE.contains(&g.name.as_str()))
        .map(|(index, g)| (index, g.name, g.path))
        .collect();
    if sample && !games.is_empty() {
        assert_eq!(games.len(), CLIPPY_SAMPLE.len(), "a game of CLIPPY_SAMPLE is not in the corpus");
    }
    let shard = std::env::var("CARGO_PKG_NAME").is_ok_and(|name| name == SHARD);
    let mut modules = String::new();
    let mut arms = String::new();
    let mut baseline_arms = String::new();
    for (index, name, path) in &games {
        let here = in_shard(*index) == shard;
        let baseline = BASELINE_GAMES.contains(&name.as_str());
        // The registry (of this crate, not the shard's) names the shard's modules by path;
        // the baselines are all in the shard.
        let home = if here { "" } else { "::rbg_compiled_shard::" };
        let ident = names::snake(name);
        let _ = writeln!(arms, "{name:?} => Some(v.visit(&SharedChildren(&{home}{ident}::Reasoner))),");
        if baseline {
            let _ = writeln!(
                baseline_arms,
                "{name:?} => Some(v.visit(&SharedChildren(&::rbg_compiled_shard::{ident}_baseline::Reasoner))),"
            );
        }
        let baseline_here = shard && baseline;
        if !here && !baseline_here {
            continue;
        }
        println!("cargo:rerun-if-changed={}", path.display());
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let parsed = rbg_parser::parse(name, &bytes);
        let game = parsed.game.unwrap_or_else(|| panic!("{name} does not parse: {:?}", parsed.diagnostics));
        if here {
            let module = generate_module(&game, name, &CompileOptions::default())
                .unwrap_or_else(|e| panic!("{name} does not compile: {e}"));
            write_module(&mut modules, &ident, &module);
        }
        if baseline_here {
            let module = generate_module(&game, name, &baseline_options())
                .unwrap_or_else(|e| panic!("{name} does not compile without optimisations: {e}"));
            write_module(&mut modules, &format!("{ident}_baseline"), &module);
        }
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("games.rs");
    if shard {
        std::fs::write(&out, modules).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
        return;
    }
    let switch_flags = compile_switch_variants(&games, &mut modules, sample);
    let switch_arms: String = switch_flags
        .iter()
        .enumerate()
        .map(|(i, (_, module))| format!("{i} => Some(v.visit(&SharedChildren(&{module}::Reasoner))),"))
        .collect();
    let switch_flags: Vec<&String> = switch_flags.iter().map(|(flag, _)| flag).collect();
    let sbg_names = compile_sbg_games(&mut modules, sample);
    let geometry_names = compile_geometry_games(&mut modules, sample);
    let geometry_arms: String = geometry_names
        .iter()
        .map(|n| format!("{n:?} => Some(v.visit(&SharedChildren(&geometry_{}::Reasoner))),", names::snake(n)))
        .collect();
    let sbg_arms: String = sbg_names
        .iter()
        .map(|n| format!("{n:?} => Some(v.visit(&SharedChildren(&sbg_{}::Reasoner))),", names::snake(n)))
        .collect();
    let names: Vec<String> = games.iter().map(|(_, n, _)| format!("{n:?}")).collect();
    let code = format!(
        "{modules}\n\
         /// Names of the compiled games.\n\
         pub const GAMES: &[&str] = &[{}];\n\
         /// Runs `v` on the compiled reasoner of `name`.\n\
         pub fn visit_game<V: GameVisitor>(name: &str, v: V) -> Option<V::Output> {{\n\
             match name {{ {arms} _ => None }}\n\
         }}\n\
         /// Games also compiled with every optimisation off.\n\
         pub const BASELINE_GAMES: &[&str] = &{BASELINE_GAMES:?};\n\
         /// Runs `v` on the unoptimised compiled reasoner of `name`.\n\
         pub fn visit_baseline_game<V: GameVisitor>(name: &str, v: V) -> Option<V::Output> {{\n\
             match name {{ {baseline_arms} _ => None }}\n\
         }}\n\
         /// The game compiled once per switch, with that switch alone flipped from its default.\n\
         pub const SWITCH_GAME: &str = {SWITCH_GAME:?};\n\
         /// The command-line flag of each switch variant of `SWITCH_GAME`, by index.\n\
         pub const SWITCH_VARIANTS: &[&str] = &{switch_flags:?};\n\
         /// Runs `v` on the variant `index` of `SWITCH_VARIANTS`.\n\
         pub fn visit_switch_variant<V: GameVisitor>(index: usize, v: V) -> Option<V::Output> {{\n\
             match index {{ {switch_arms} _ => None }}\n\
         }}\n\
         /// Names of the compiled Simplified Boardgames (file stems in games/sbg/).\n\
         pub const SBG_GAMES: &[&str] = &{sbg_names:?};\n\
         /// Runs `v` on the compiled reasoner of the translation of `games/sbg/{{name}}.sbg`.\n\
         pub fn visit_sbg_game<V: GameVisitor>(name: &str, v: V) -> Option<V::Output> {{\n\
             match name {{ {sbg_arms} _ => None }}\n\
         }}\n\
         /// Names of the compiled games on generated geometry boards (file stems in games/geometry/).\n\
         pub const GEOMETRY_GAMES: &[&str] = &{geometry_names:?};\n\
         /// Runs `v` on the compiled reasoner of `games/geometry/{{name}}.rbg`.\n\
         pub fn visit_geometry_game<V: GameVisitor>(name: &str, v: V) -> Option<V::Output> {{\n\
             match name {{ {geometry_arms} _ => None }}\n\
         }}\n",
        names.join(", ")
    );
    std::fs::write(&out, code).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}

/// Appends the generated `module` as `pub mod {ident}` to `modules`, with the game's
/// [`SharedSearch`] entry point: the children's search compiled once, in this crate (see
/// rbg-compiled-shard's `SharedChildren`, through which the registry hands every game out).
fn write_module(modules: &mut String, ident: &str, module: &impl std::fmt::Display) {
    let _ = writeln!(
        modules,
        "pub mod {ident} {{ {module} }}\n\
         impl crate::SharedSearch for {ident}::Reasoner {{\n\
             #[inline(never)]\n\
             fn visit_children_dyn(\n\
                 &self,\n\
                 s: &mut <Self as Game>::State,\n\
                 sc: &mut <Self as Game>::Scratch,\n\
                 child: &mut <Self as Game>::State,\n\
                 visit: &mut dyn FnMut(&mut <Self as Game>::State) -> ::core::ops::ControlFlow<()>,\n\
             ) -> Result<Option<u64>, ::rbg_core::SearchError> {{\n\
                 Game::visit_children(self, s, sc, child, visit)\n\
             }}\n\
         }}"
    );
}

/// Compiles `SWITCH_GAME` once per switch of the compiler's options, that switch alone flipped;
/// returns each switch's flag and the module of its variant (`switch_variant_{i}`, or the
/// default's module where the switch does not change the game's code: the same code needs no
/// second build). For clippy's `sample` every flag names the default's module: the baselines
/// show clippy the code of switches turned off.
fn compile_switch_variants(
    games: &[(usize, String, PathBuf)],
    modules: &mut String,
    sample: bool,
) -> Vec<(String, String)> {
    let Some((index, name, path)) = games.iter().find(|(_, n, _)| n == SWITCH_GAME) else {
        return Vec::new();
    };
    // The default's module is named by path when it lives in the shard.
    let home = if in_shard(*index) { "::rbg_compiled_shard::" } else { "" };
    let default_module = format!("{home}{}", names::snake(name));
    if sample {
        return CompileOptions::all_switches()
            .iter()
            .map(|s| (s.flag.to_string(), default_module.clone()))
            .collect();
    }
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let game = rbg_parser::parse(name, &bytes).game.unwrap_or_else(|| panic!("{name} does not parse"));
    // The code without the header naming the options.
    let code = |options: &CompileOptions| {
        let module = generate_module(&game, name, options)
            .unwrap_or_else(|e| panic!("{name} does not compile with {}: {e}", options.fingerprint()));
        let text = module.to_string();
        (text.replace(&options.fingerprint(), ""), text)
    };
    let (default_code, _) = code(&CompileOptions::default());
    let mut variants = Vec::new();
    for (i, switch) in CompileOptions::all_switches().iter().enumerate() {
        let mut options = CompileOptions::default();
        assert!(options.set_switch(switch.name, !switch.default), "switch {} cannot be set", switch.name);
        let (variant_code, module) = code(&options);
        let ident = if variant_code == default_code {
            default_module.clone()
        } else {
            write_module(modules, &format!("switch_variant_{i}"), &module);
            format!("switch_variant_{i}")
        };
        variants.push((switch.flag.to_string(), ident));
    }
    variants
}

/// The files of `games/{dir}` with extension `ext`, sorted, as (file stem, path); each is a
/// build input.
fn game_files(dir: &str, ext: &str) -> Vec<(String, PathBuf)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../games").join(dir);
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            println!("cargo:rerun-if-changed={}", path.display());
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            (name, path)
        })
        .collect()
}

/// Compiles every game of `games/geometry/` (boards from the `tiling` generator) into `modules`
/// (as `geometry_NAME`), only the first for clippy's `sample`; returns the games' names (file
/// stems), sorted.
fn compile_geometry_games(modules: &mut String, sample: bool) -> Vec<String> {
    let mut names = Vec::new();
    for (name, path) in game_files("geometry", "rbg").into_iter().take(if sample { 1 } else { usize::MAX }) {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let parsed = rbg_parser::parse(&name, &bytes);
        let game = parsed.game.unwrap_or_else(|| panic!("{name} does not parse: {:?}", parsed.diagnostics));
        let module = generate_module(&game, &name, &CompileOptions::default())
            .unwrap_or_else(|e| panic!("{name} does not compile: {e}"));
        write_module(modules, &format!("geometry_{}", names::snake(&name)), &module);
        names.push(name);
    }
    names
}

/// Compiles the RBG translation of every game of `games/sbg/` into `modules` (as `sbg_NAME`),
/// only the first for clippy's `sample`; returns the games' names (file stems), sorted.
fn compile_sbg_games(modules: &mut String, sample: bool) -> Vec<String> {
    let mut names = Vec::new();
    for (name, path) in game_files("sbg", "sbg").into_iter().take(if sample { 1 } else { usize::MAX }) {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let sbg =
            rbg_sbg::parse(&name, &bytes).unwrap_or_else(|ds| panic!("{name}.sbg does not parse: {ds:?}"));
        let generated = rbg_sbg::to_rbg_writer(&sbg).parse(&name);
        let game = generated
            .game
            .unwrap_or_else(|| panic!("{name}.sbg: the translation does not parse: {:?}", generated.parsed));
        let module = generate_module(&game, &name, &CompileOptions::default())
            .unwrap_or_else(|e| panic!("{name}.sbg does not compile: {e}"));
        write_module(modules, &format!("sbg_{}", names::snake(&name)), &module);
        names.push(name);
    }
    names
}
