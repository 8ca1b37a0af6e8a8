//! Each fitness feature on hand-made games whose values are derived by hand, and the formula on
//! given feature values.

use rbg_evolve::fitness::{bell, length_difference_feature, minmax_length_feature, reducibility};
use rbg_evolve::{evaluate, EvalSettings, Features};

fn settings(
    playouts: u32,
    turn_limit: u64,
    expected_branching: f64,
    desired_rules_size: f64,
) -> EvalSettings {
    EvalSettings {
        playouts,
        turn_limit,
        depth: 2,
        nodes_per_move: 1000,
        expected_branching,
        desired_rules_size,
        extra: None,
        extra_weight: 1.0,
    }
}

fn game(text: &str) -> rbg_sbg::SbgGame {
    rbg_sbg::parse("test.sbg", text.as_bytes()).unwrap_or_else(|ds| panic!("{ds:?}"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// White's pawn has one move, onto its goal square: white wins every game on its first move.
const WHITE_WINS: &str = "<<White wins>>
<BOARD> 3 3
|..p|
|...|
|P..|
<PIECES>
P (0,1,e) &
<GOALS>
10 &
@P 0 1 &
";

#[test]
fn a_game_white_always_wins_has_min_max_balance_one() {
    let f = evaluate(&game(WHITE_WINS), &settings(4, 10, 1.0, 1.0), 5);
    assert!(f.playable);
    assert_eq!(f.b_m, 1.0);
    // Against random, min-max wins as white (2 of 4 playouts) and loses as black: B_R = 2/4.
    assert_eq!(f.b_r, 0.5);
    assert_eq!(f.s, 0.5);
    // Every playout lasts 1 half-move of 10: l = 0.1, L_M = 0.2, z = 0 so L_D = 0.
    assert!(close(f.l_m, 0.2), "{f:?}");
    assert_eq!(f.l_d, 0.0);
    // One legal move in every state, as expected: W = 1; one letter of one desired: C = 1.
    assert_eq!(f.mean_branching, 1.0);
    assert_eq!(f.w, 1.0);
    assert_eq!(f.c, 1.0);
    // Only the pawn moves and it is the only type: R = (1/1 - 1)^2 = 0.
    assert_eq!(f.r, 0.0);
    // (0.2 + 0 + 2 + 1.5 + 2 + (6 - 3 - 0.5 - 0)) / 15 = 8.2 / 15.
    assert!(close(f.fitness, 8.2 / 15.0), "{}", f.fitness);
}

/// Both pieces shuffle sideways for ever: nothing ends the game before its own turn limit.
fn shuffling(turn_limit: u64) -> String {
    format!(
        "<<Shuffle>>
<BOARD> 3 3
|..p|
|...|
|P..|
<PIECES>
P (1,0,e) + (-1,0,e) &
<GOALS>
{turn_limit} &
"
    )
}

#[test]
fn a_game_that_cannot_end_within_the_turn_limit_is_unplayable() {
    let f = evaluate(&game(&shuffling(1000)), &settings(2, 20, 2.0, 2.0), 1);
    assert!(!f.playable);
    assert!(f.unplayable_reason.as_deref().unwrap_or("").contains("turn limit"), "{f:?}");
    assert_eq!(f.fitness, 0.0);
    // The same game ending at the evaluation's limit is playable: every playout is a draw of
    // full length (l = 1: L_M = 1, L_D = 0), balanced, and never won against random.
    let f = evaluate(&game(&shuffling(20)), &settings(2, 20, 2.0, 2.0), 1);
    assert!(f.playable, "{f:?}");
    assert_eq!((f.l_m, f.l_d, f.b_m, f.b_r, f.s), (1.0, 0.0, 0.0, 0.0, 0.0));
    assert!(f.fitness > 0.0);
}

/// Three piece types, but only the pawn has a rule: it passes (`(0,0,w)` lands on itself).
const ONE_PIECE_MOVES: &str = "<<One piece moves>>
<BOARD> 3 3
|kpr|
|...|
|RPK|
<PIECES>
P (0,0,w) &
<GOALS>
10 &
";

#[test]
fn a_game_where_one_piece_makes_every_move_has_the_reducibility_of_the_formula() {
    let f = evaluate(&game(ONE_PIECE_MOVES), &settings(4, 10, 1.0, 1.0), 3);
    assert!(f.playable, "{f:?}");
    // k = 3, u = (0, 1, 0) for (K, P, R): (1/3)^2 + (1/3 - 1)^2 + (1/3)^2 = 6/9.
    assert!(close(f.r, 2.0 / 3.0), "{}", f.r);
    let usefulness: Vec<(char, f64)> = vec![('K', 0.0), ('P', 1.0), ('R', 0.0)];
    assert_eq!(f.usefulness, usefulness);
    // Draws of full length; one move everywhere (W = 1), one letter (C = 1):
    // (1 + 0 + 2 + 0 + 2 + (6 - 0 - 0 - 4/3)) / 15 = 29/45.
    assert!(close(f.fitness, 29.0 / 45.0), "{}", f.fitness);
}

#[test]
fn width_and_complexity_follow_the_rescaled_gaussian() {
    // The pass game has exactly one move per state and one letter: with mu = 2, sigma = 1/2,
    // x = 1 is two sigmas away: exp(-2).
    let f = evaluate(&game(ONE_PIECE_MOVES), &settings(2, 10, 2.0, 2.0), 3);
    assert!(close(f.w, (-2.0f64).exp()), "{}", f.w);
    assert!(close(f.c, (-2.0f64).exp()), "{}", f.c);
    assert_eq!(bell(8.0, 8.0), 1.0);
    assert!(close(bell(10.0, 8.0), (-0.5f64).exp()));
    assert!(close(bell(6.0, 8.0), (-0.5f64).exp()));
}

#[test]
fn length_features_are_the_papers_piecewise_functions() {
    assert!(close(minmax_length_feature(0.2), 0.4));
    assert_eq!(minmax_length_feature(0.5), 1.0);
    assert_eq!(minmax_length_feature(0.9), 1.0);
    assert_eq!(length_difference_feature(0.6, 0.2), 1.0);
    assert_eq!(length_difference_feature(0.1, 0.2), 0.0);
    assert!(close(length_difference_feature(0.3, 0.2), 0.4));
    assert!(close(reducibility(&[0.5, 0.5]), 0.0));
    assert!(close(
        reducibility(&[0.25, 0.25, 0.5]),
        2.0 * (1.0f64 / 3.0 - 0.25).powi(2) + (1.0f64 / 3.0 - 0.5).powi(2)
    ));
}

#[test]
fn the_fitness_formula_on_given_features() {
    let perfect =
        Features { playable: true, l_m: 1.0, l_d: 1.0, w: 1.0, s: 1.0, c: 1.0, ..Features::default() };
    assert!(close(perfect.formula(1.0), 1.0));
    let mixed = Features {
        playable: true,
        l_m: 0.5,
        l_d: 0.25,
        w: -0.5,
        b_m: -0.2,
        b_r: 0.1,
        s: 0.4,
        c: 0.3,
        r: 0.05,
        ..Features::default()
    };
    // 0.5 + 0.25 + 2(0.5) + 3(0.4) + 2(0.3) + (6 - 3(0.2) - 0.1 - 2(0.05)) = 8.75.
    assert!(close(mixed.formula(1.0), 8.75 / 15.0));
    let with_extra = Features { extra: Some(0.5), ..mixed.clone() };
    assert!(close(with_extra.formula(1.0), 9.25 / 16.0));
    assert!(close(with_extra.formula(3.0), 10.25 / 18.0));
    let unplayable = Features { playable: false, ..mixed };
    assert_eq!(unplayable.formula(1.0), 0.0);
}

#[test]
fn the_extra_scoring_function_enters_the_fitness() {
    fn half(_: &rbg_sbg::SbgGame) -> f64 {
        0.5
    }
    fn nonsense(_: &rbg_sbg::SbgGame) -> f64 {
        f64::NAN
    }
    let plain = evaluate(&game(WHITE_WINS), &settings(2, 10, 1.0, 1.0), 5);
    let with =
        evaluate(&game(WHITE_WINS), &EvalSettings { extra: Some(half), ..settings(2, 10, 1.0, 1.0) }, 5);
    assert_eq!(with.extra, Some(0.5));
    assert!(close(with.fitness, (plain.fitness * 15.0 + 0.5) / 16.0));
    let bad =
        evaluate(&game(WHITE_WINS), &EvalSettings { extra: Some(nonsense), ..settings(2, 10, 1.0, 1.0) }, 5);
    assert_eq!(bad.extra, Some(0.0));
}

/// The NLD term: the queen duel of `games/sbg/nld` has one piece type, the queen, whose
/// complexity is 6 in the NLD paper; two queens stand on the board, so equation (3) gives
/// 2 * 6 / 2 * (10 + 1) = 66 and the ease is 100 / (100 + 66).
#[test]
fn the_nld_term_is_the_ease_of_the_papers_score() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/sbg/nld/queen.sbg");
    let text = std::fs::read_to_string(&path).expect("games/sbg/nld/queen.sbg");
    let ease = rbg_evolve::fitness::nld_ease(&game(&text));
    assert!(close(ease, 100.0 / 166.0), "{ease}");
    let config = rbg_evolve::EvolveConfig { nld_term: true, ..Default::default() };
    assert!(config.extra_term().is_some());
    assert!(rbg_evolve::EvolveConfig::default().extra_term().is_none());
}
