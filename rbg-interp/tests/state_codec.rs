//! State serialisation of the interpreter: states reached by random play round-trip through
//! bytes with the same legal moves and perft counts, and spoiled bytes are errors, never panics.

use rand::Rng;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use rbg_core::perft::DEFAULT_KEEPER_LIMIT;
use rbg_core::{Game, MoveList, StateCodecError};
use rbg_interp::{InterpOptions, Interpreter, ProgramOptions};

mod common;
use common::{corpus_dir, data_available, interpreter, read_game};

/// Counts reached by brute force from `s` (independent of the driver): (leaves, nodes) as the
/// perft driver counts them, keeper states completed.
fn brute_perft(game: &Interpreter, s: &rbg_interp::State, depth: u32) -> (u64, u64) {
    let mut sc = game.new_scratch();
    let mut s = s.clone();
    if !game.complete_keeper(&mut s, &mut sc, DEFAULT_KEEPER_LIMIT).unwrap() || depth == 0 {
        return ((depth == 0) as u64, 1);
    }
    let mut list = MoveList::new();
    game.legal_moves(&mut s, &mut sc, &mut list).unwrap();
    let (mut leaves, mut nodes) = (0, 1);
    for m in list.iter() {
        let mut child = s.clone();
        game.apply_move(&mut child, m);
        let (l, n) = brute_perft(game, &child, depth - 1);
        leaves += l;
        nodes += n;
    }
    (leaves, nodes)
}

fn moves_of(game: &Interpreter, s: &rbg_interp::State) -> Vec<Vec<rbg_core::Action>> {
    let (mut s, mut sc, mut list) = (s.clone(), game.new_scratch(), MoveList::new());
    game.legal_moves(&mut s, &mut sc, &mut list).unwrap();
    list.iter().map(|m| m.to_vec()).collect()
}

/// Plays random games and checks every state on the way (keeper states included); returns the
/// number of states checked.
fn check_round_trips(game: &Interpreter, seed: u64, playouts: u32, perft_depth: u32) -> u32 {
    let mut checked = 0;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut sc = game.new_scratch();
    let mut list = MoveList::new();
    let mut bytes = Vec::new();
    for _ in 0..playouts {
        let mut s = game.initial_state();
        for ply in 0..200 {
            bytes.clear();
            game.encode_state(&s, &mut bytes);
            let decoded = game.decode_state(&bytes).unwrap_or_else(|e| panic!("ply {ply}: {e}"));
            assert_eq!(decoded, s, "ply {ply}");
            checked += 1;
            assert_eq!(moves_of(game, &decoded), moves_of(game, &s), "ply {ply}");
            if ply % 7 == 0 {
                assert_eq!(brute_perft(game, &decoded, perft_depth), brute_perft(game, &s, perft_depth));
            }
            game.legal_moves(&mut s, &mut sc, &mut list).unwrap();
            if list.is_empty() {
                break;
            }
            let i = rng.gen_range(0..list.len());
            game.apply_move(&mut s, list.get(i));
        }
    }
    checked
}

/// Every prefix and every single-byte change of an encoding is an error (or, were it to
/// decode, the very same state).
fn check_spoiled_bytes(game: &Interpreter, s: &rbg_interp::State) {
    let mut bytes = Vec::new();
    game.encode_state(s, &mut bytes);
    for len in 0..bytes.len() {
        if let Ok(decoded) = game.decode_state(&bytes[..len]) {
            assert_eq!(&decoded, s, "prefix of {len} bytes");
        }
    }
    for i in 0..bytes.len() {
        for x in [0x01u8, 0x02, 0x40, 0x80, 0xff] {
            let mut spoiled = bytes.clone();
            spoiled[i] ^= x;
            if let Ok(decoded) = game.decode_state(&spoiled) {
                assert_eq!(&decoded, s, "byte {i} ^ {x:#x}");
            }
        }
    }
}

/// Tic-tac-toe with scores, written here so the test runs without the corpus.
const TIC_TAC_TOE: &str = "#players = x(100), o(100)\n#pieces = e, px, po\n#variables =\n\
    #board = rectangle(up, down, left, right, [e,e,e][e,e,e][e,e,e])\n\
    #line(p) = (right* {p} (left {p})^2 + down* {p} (up {p})^2 + (down right)* {p} (up left {p})^2 \
               + (down left)* {p} (up right {p})^2)\n\
    #turn(me; piece; opp) = ->me (up* + down*)(left* + right*) {e} [piece] \
        ({? line(piece)} [$ me=100] [$ opp=0] ->> {} + {! line(piece)} ->>)\n\
    #rules = [$ x=50] [$ o=50] (turn(x; px; o) turn(o; po; x))*\n";

fn tic_tac_toe(options: InterpOptions) -> Interpreter {
    let game = read_game(TIC_TAC_TOE.as_bytes()).expect("tic-tac-toe parses");
    Interpreter::new(&game, "ttt", options).expect("builds")
}

#[test]
fn random_states_round_trip_with_the_same_moves_and_perft() {
    let game = tic_tac_toe(InterpOptions::default());
    // Every tic-tac-toe game has at least 5 player moves and as many keeper moves.
    assert!(check_round_trips(&game, 1, 20, 2) >= 20 * 10);
    let mut s = game.initial_state();
    let mut sc = game.new_scratch();
    game.complete_keeper(&mut s, &mut sc, 100).unwrap();
    check_spoiled_bytes(&game, &s);
}

#[test]
fn corpus_states_round_trip() {
    if !data_available(&[corpus_dir()]) {
        return;
    }
    for (name, playouts) in
        [("chess", 2), ("breakthrough", 3), ("amazons", 2), ("reversi", 2), ("hex_9x9", 3)]
    {
        let game = interpreter(name, InterpOptions::default());
        assert!(check_round_trips(&game, 7, playouts, 1) >= 2 * playouts, "{name}");
    }
    let game = interpreter("chess", InterpOptions::default());
    let mut s = game.initial_state();
    let mut sc = game.new_scratch();
    game.complete_keeper(&mut s, &mut sc, 100).unwrap();
    check_spoiled_bytes(&game, &s);
}

#[test]
fn states_of_another_game_or_numbering_are_rejected() {
    let game = tic_tac_toe(InterpOptions::default());
    let mut bytes = Vec::new();
    game.encode_state(&game.initial_state(), &mut bytes);
    // The same game in another run (a fresh interpreter) loads it.
    assert_eq!(tic_tac_toe(InterpOptions::default()).decode_state(&bytes), Ok(game.initial_state()));
    // Without the analyses the rules positions are numbered differently.
    let baseline = tic_tac_toe(InterpOptions { program: ProgramOptions::baseline(), ..Default::default() });
    assert!(matches!(baseline.decode_state(&bytes), Err(StateCodecError::WrongReasoner { .. })));
    // Another game.
    let other =
        read_game(TIC_TAC_TOE.replace("[e,e,e][e,e,e][e,e,e]", "[e,e,e][e,e,e][e,e,e][e,e,e]").as_bytes())
            .unwrap();
    let other = Interpreter::new(&other, "ttt4", InterpOptions::default()).unwrap();
    assert!(matches!(other.decode_state(&bytes), Err(StateCodecError::WrongGame { .. })));
}
