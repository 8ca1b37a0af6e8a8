//! Differential test: the compiled reasoner and the interpreter play the same random games (one
//! seed, moves chosen from the interpreter's list) and must produce identical legal move lists,
//! in the same order, and identical observable states at every step, on every corpus game. At a
//! state of a monotonic class, the class's moves the compiled reasoner lists without a search
//! (`Game::monotonic_moves`) are its legal moves, in the same order. Counting the moves without
//! listing them (`Game::count_moves`) gives the list's length, and applying a move by its number
//! (`Game::apply_nth_move`) gives the state that applying the listed move gives, and the children
//! the search builds (`Game::visit_children`) are the states applying each listed move gives.

use std::ops::ControlFlow;

use rand::Rng;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use rbg_compiled_tests::{visit_baseline_game, visit_game, GameVisitor, BASELINE_GAMES, GAMES};
use rbg_core::{Action, Game, MoveList};
use rbg_interp::{InterpOptions, Interpreter};

use rbg_testdata::{available, corpus_game};

/// Player moves per playout; long games are cut (the prefix still covers many states).
const MAX_PLIES: usize = 120;
const PLAYOUTS: u64 = 3;
const KEEPER_LIMIT: u64 = 100_000;
/// Once this many moves were compared on a game, its playouts stop (games with huge move lists,
/// such as arimaa, would otherwise dominate the test's time).
const MOVE_BUDGET: usize = 200_000;

/// What the trait lets us observe of a state (rules positions are numbered alike, since both
/// engines run the same program, so they are compared too).
fn observe<G: Game>(g: &G, s: &G::State) -> (u32, u32, u32, Vec<u32>, Vec<i64>) {
    let info = g.info();
    (
        g.current_player(s),
        g.current_vertex(s),
        g.rules_state(s),
        (0..info.vertices.len() as u32).map(|v| g.piece(s, v)).collect(),
        (0..info.variables.len()).map(|v| g.variable(s, v)).collect(),
    )
}

fn moves_of(list: &MoveList) -> Vec<Vec<(u32, u32)>> {
    list.iter().map(|m| m.iter().map(|a| (a.index, a.vertex)).collect()).collect()
}

/// Plays the compiled game against the interpreter in lockstep; returns the states compared and
/// the states whose monotonic-class moves were compared.
struct Lockstep<'a> {
    name: &'a str,
    interp: &'a Interpreter,
    /// Compare move lists as sets (an unoptimised program may order moves differently).
    sorted: bool,
}

impl GameVisitor for Lockstep<'_> {
    type Output = (u64, u64);

    fn visit<G: Game>(self, compiled: &G) -> (u64, u64) {
        let (name, interp, sorted) = (self.name, self.interp, self.sorted);
        assert_eq!(compiled.info(), interp.info(), "{name}: game info differs");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
        let (mut sc_c, mut sc_i) = (compiled.new_scratch(), interp.new_scratch());
        let (mut list_c, mut list_i) = (MoveList::new(), MoveList::new());
        let mut compared = 0;
        let mut class_states = 0;
        let mut class_moves = Vec::new();
        let mut moves_compared = 0;
        for playout in 0..PLAYOUTS {
            let (mut c, mut i) = (compiled.initial_state(), interp.initial_state());
            for ply in 0..MAX_PLIES {
                let at = format!("{name}: playout {playout} ply {ply}");
                let alive_c =
                    compiled.complete_keeper(&mut c, &mut sc_c, KEEPER_LIMIT).expect("compiled keeper");
                let alive_i =
                    interp.complete_keeper(&mut i, &mut sc_i, KEEPER_LIMIT).expect("interpreter keeper");
                assert_eq!(alive_c, alive_i, "{at}: terminal differs");
                let (mut seen_c, mut seen_i) = (observe(compiled, &c), observe(interp, &i));
                if sorted {
                    // Rules positions are numbered differently by different programs.
                    (seen_c.2, seen_i.2) = (0, 0);
                }
                assert_eq!(seen_c, seen_i, "{at}: state differs");
                compared += 1;
                if !alive_c {
                    break;
                }
                compiled.legal_moves(&mut c, &mut sc_c, &mut list_c).expect("compiled moves");
                interp.legal_moves(&mut i, &mut sc_i, &mut list_i).expect("interpreter moves");
                let (mut moves_c, mut moves_i) = (moves_of(&list_c), moves_of(&list_i));
                if sorted {
                    moves_c.sort();
                    moves_i.sort();
                }
                assert_eq!(moves_c, moves_i, "{at}: legal moves differ");
                if let Some(class) = compiled.monotonic_class(&c) {
                    if compiled.monotonic_moves(&c, class, &mut class_moves) {
                        let listed: Vec<Vec<(u32, u32)>> =
                            class_moves.iter().map(|a| vec![(a.index, a.vertex)]).collect();
                        assert_eq!(listed, moves_of(&list_c), "{at}: class {class}'s moves differ");
                        class_moves_play_as_applied(compiled, &c, &mut sc_c, class, &class_moves, &at);
                        class_states += 1;
                    }
                }
                count_and_replay_agree_with_the_list(compiled, &c, &mut sc_c, &list_c, !sorted, &at);
                children_agree_with_the_list(compiled, &c, &mut sc_c, &list_c, !sorted, &at);
                moves_compared += list_i.len();
                if list_i.is_empty() || moves_compared > MOVE_BUDGET {
                    break;
                }
                let pick = rng.gen_range(0..list_i.len());
                let m = list_i.get(pick).to_vec();
                compiled.apply_move(&mut c, &m);
                interp.apply_move(&mut i, &m);
            }
        }
        (compared, class_states)
    }
}

/// Playing each of a class's moves with `play_class_move` (the compiled reasoners go from the
/// switch straight into the keeper's search) leaves the state, and gives the result, that
/// `apply_move` and `complete_keeper` give, under keeper limits that stop it early too; so does
/// an action that is no move at all.
fn class_moves_play_as_applied<G: Game>(
    g: &G,
    s: &G::State,
    sc: &mut G::Scratch,
    class: u32,
    moves: &[Action],
    at: &str,
) {
    // Garbage too: a vertex off the board, an action index no game has.
    let garbage = moves.first().map(|a| [Action::new(a.index, u32::MAX), Action::new(u32::MAX, a.vertex)]);
    for &a in moves.iter().chain(garbage.iter().flatten()) {
        for limit in [0, 1, KEEPER_LIMIT] {
            let (mut played, mut applied) = (s.clone(), s.clone());
            let ongoing = g.play_class_move(&mut played, sc, class, a, limit);
            g.apply_move(&mut applied, &[a]);
            let expected = g.complete_keeper(&mut applied, sc, limit);
            let (ongoing, expected) = (format!("{ongoing:?}"), format!("{expected:?}"));
            assert_eq!(ongoing, expected, "{at}: playing {a:?} (keeper limit {limit}) ends otherwise");
            if limit == KEEPER_LIMIT {
                assert_eq!(played, applied, "{at}: playing {a:?} leaves another state than applying it");
            }
        }
    }
}

/// `count_moves` is the length of `list` (the moves of `s`), or `None` for reasoners compiled
/// without it (`counts`: the optimised ones count); `apply_nth_move` of the first, middle and
/// last move equals applying the listed move, and one past the last leaves the state as it was.
fn count_and_replay_agree_with_the_list<G: Game>(
    g: &G,
    s: &G::State,
    sc: &mut G::Scratch,
    list: &MoveList,
    counts: bool,
    at: &str,
) {
    let mut probe = s.clone();
    let counted = g.count_moves(&mut probe, sc).expect("count_moves");
    assert_eq!(probe, *s, "{at}: counting changed the state");
    match counted {
        Some(n) => assert_eq!(n, list.len() as u64, "{at}: counted moves differ from the list"),
        None => assert!(!counts, "{at}: the optimised reasoner does not count"),
    }
    let last = list.len().saturating_sub(1);
    for n in [0, list.len() / 2, last, list.len()] {
        let mut by_number = s.clone();
        let applied = g.apply_nth_move(&mut by_number, sc, n as u64).expect("apply_nth_move");
        assert_eq!(applied, n < list.len(), "{at}: apply_nth_move({n}) of {} moves", list.len());
        let mut expected = s.clone();
        if applied {
            g.apply_move(&mut expected, list.get(n));
        }
        assert_eq!(by_number, expected, "{at}: move {n} applied by number differs");
    }
}

/// `visit_children` builds, in order, the state each move of `list` (the moves of `s`) leads to,
/// or returns `None` for reasoners compiled without it (`builds`: the optimised ones do); a visit
/// stopped at the first child visits one and leaves the state as it was.
fn children_agree_with_the_list<G: Game>(
    g: &G,
    s: &G::State,
    sc: &mut G::Scratch,
    list: &MoveList,
    builds: bool,
    at: &str,
) {
    let mut probe = s.clone();
    let mut child = s.clone();
    let mut children = Vec::new();
    let visited = g
        .visit_children(&mut probe, sc, &mut child, |c| {
            children.push(c.clone());
            ControlFlow::Continue(())
        })
        .expect("visit_children");
    assert_eq!(probe, *s, "{at}: visiting the children changed the state");
    let Some(visited) = visited else {
        assert!(!builds, "{at}: the optimised reasoner builds no children");
        return;
    };
    assert_eq!(visited, list.len() as u64, "{at}: children visited differ from the moves listed");
    assert_eq!(children.len(), list.len(), "{at}: children differ in number from the moves listed");
    for (n, built) in children.iter().enumerate() {
        let mut expected = s.clone();
        g.apply_move(&mut expected, list.get(n));
        assert_eq!(*built, expected, "{at}: child {n} differs from its listed move applied");
    }
    let stopped = g
        .visit_children(&mut probe, sc, &mut child, |_| ControlFlow::Break(()))
        .expect("visit_children stopped");
    assert_eq!(stopped, Some(list.len().min(1) as u64), "{at}: a stopped visit went on");
    assert_eq!(probe, *s, "{at}: a stopped visit changed the state");
}

fn interpreter(name: &str) -> Interpreter {
    let path = corpus_game(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let game = rbg_parser::parse(name, &bytes).game.unwrap_or_else(|| panic!("{name} does not parse"));
    Interpreter::new(&game, name, InterpOptions::default()).expect("interpreter")
}

#[test]
fn compiled_and_interpreted_moves_agree_on_every_game() {
    if !available(&[&rbg_testdata::corpus_dir()]) {
        return;
    }
    assert!(!GAMES.is_empty(), "no compiled games although the corpus exists");
    let counts: Vec<(u64, u64)> = GAMES
        .par_iter()
        .map(|name| {
            let interp = interpreter(name);
            visit_game(name, Lockstep { name, interp: &interp, sorted: false }).expect("compiled")
        })
        .collect();
    let compared: u64 = counts.iter().map(|c| c.0).sum();
    let class_states: u64 = counts.iter().map(|c| c.1).sum();
    println!("{} games, {compared} states compared, {class_states} with their class's moves", GAMES.len());
    // Placement games (gomoku, hex, connect4, tic-tac-toe ...) have classes whose moves the
    // compiled reasoners list directly: every state of theirs in the playouts is one.
    assert!(class_states > 1000, "only {class_states} states had their class's moves compared");
}

/// The unoptimised compiled reasoners generate the same move sets as the (optimised)
/// interpreter, and their moves have the same effects.
#[test]
fn unoptimised_compiled_moves_agree_with_the_interpreter() {
    if !available(&[&rbg_testdata::corpus_dir()]) {
        return;
    }
    let compared: u64 = BASELINE_GAMES
        .par_iter()
        .map(|name| {
            let interp = interpreter(name);
            visit_baseline_game(name, Lockstep { name, interp: &interp, sorted: true }).expect("compiled").0
        })
        .sum();
    println!("{} games, {compared} states compared", BASELINE_GAMES.len());
}

/// A game's own playout loop (`class-playouts`, generated where every monotonic class has one
/// switch) against rbg-core's generic loop over the same reasoner, from the same generator
/// state: the same outcome, final state and generator state after every playout, and the same
/// errors (too long, keeper limit 0). Returns the playouts that drew from a class cache.
struct OwnLoop;

/// The moves a game's playouts may list in one setting of [`OwnLoop`] before it stops early.
const MOVES_LISTED_PER_SETTING: u64 = 2_000_000;

impl GameVisitor for OwnLoop {
    type Output = u64;
    fn visit<G: Game>(self, game: &G) -> u64 {
        use rbg_core::playout::{random_playout, PlayoutBuffers, PlayoutLimits};
        if game.monotonic_classes() == 0 {
            return 0;
        }
        let (mut root, mut sc) = (game.initial_state(), game.new_scratch());
        game.complete_keeper(&mut root, &mut sc, KEEPER_LIMIT).expect("keeper");
        let mut buffers = PlayoutBuffers::new(game, rbg_core::moves::DEFAULT_MAX_ACTIONS);
        let mut cached = 0;
        for (max_plies, keeper_limit) in [(MAX_PLIES as u64, KEEPER_LIMIT), (8, KEEPER_LIMIT), (1000, 0)] {
            let limits = PlayoutLimits { max_plies, keeper_limit, ..PlayoutLimits::default() };
            let mut own = rbg_core::PlayoutRng::from_state([5, 6, 7, 8]);
            let mut generic = own.clone();
            let mut moves_listed = 0;
            for _ in 0..20 {
                let (mut s, mut t) = (root.clone(), root.clone());
                let a = game.random_playout(&mut s, &mut sc, &mut buffers, &mut own, &limits);
                let b = random_playout(game, &mut t, &mut sc, &mut buffers, &mut generic, &limits);
                assert_eq!(a, b, "max plies {max_plies}, keeper limit {keeper_limit}");
                assert_eq!(own, generic);
                if let Ok(outcome) = a {
                    assert_eq!(observe(game, &s), observe(game, &t));
                    cached += u64::from(!outcome.moves_exact);
                    moves_listed += outcome.moves_seen;
                }
                // Connect6 lists some 60,000 moves a ply (two stones): a few of its playouts
                // say as much as twenty of another game's.
                if moves_listed > MOVES_LISTED_PER_SETTING {
                    break;
                }
            }
        }
        cached
    }
}

#[test]
fn own_playout_loops_play_the_generic_loops_games() {
    if !available(&[&rbg_testdata::corpus_dir()]) {
        return;
    }
    let cached: u64 = GAMES.par_iter().map(|name| visit_game(name, OwnLoop).expect("compiled")).sum();
    // The 15 corpus games with classes (connect4, gomoku, hex, tic-tac-toe, yavalath, ...)
    // draw from their caches in every playout that ends within the bound.
    println!("{cached} playouts drew from a class cache");
    assert!(cached > 100, "only {cached} playouts drew from a class cache");
}

/// The registry hands every game out as rbg-compiled-shard's `SharedChildren`, which forwards
/// each `Game` method to the compiled game by hand. A method added to `Game` with a default
/// body and not forwarded there would make these tests check the default instead of the
/// compiled game's own code, silently: so every method of the trait must be forwarded, but
/// `perft_subtree`, which the wrapper keeps as the trait's default on purpose.
#[test]
fn the_shared_children_wrapper_forwards_every_game_method() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let read =
        |path: &str| std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    let fn_names = |text: &str| -> Vec<String> {
        let words: Vec<&str> = text.split(|c: char| !(c.is_alphanumeric() || c == '_')).collect();
        words.windows(2).filter(|w| w[0] == "fn" && !w[1].is_empty()).map(|w| w[1].to_string()).collect()
    };
    let game_rs = read("rbg-core/src/game.rs");
    let trait_start = game_rs.find("pub trait Game").expect("the Game trait");
    let trait_end = trait_start + game_rs[trait_start..].find("\n}\n").expect("the end of the Game trait");
    let wrapper_rs = read("rbg-compiled-shard/src/lib.rs");
    let impl_start = wrapper_rs.find("for SharedChildren").expect("the wrapper's impl of Game");
    let forwarded = fn_names(&wrapper_rs[impl_start..]);
    let methods = fn_names(&game_rs[trait_start..trait_end]);
    assert!(methods.len() > 20, "the Game trait's methods were not found: {methods:?}");
    let missing: Vec<_> =
        methods.iter().filter(|m| *m != "perft_subtree" && !forwarded.contains(m)).collect();
    assert!(missing.is_empty(), "SharedChildren does not forward {missing:?}");
}
