//! Invariants of the building blocks, the initial individuals and the genetic operators.

use std::collections::BTreeSet;

use rbg_evolve::blocks::{rule_size, rule_text, Block, BlockPools, OnSquare, Step};
use rbg_evolve::genome::{army_rows, Genome, Side};
use rbg_evolve::operators::{crossover, mutate, mutate_square, Mutation};
use rbg_evolve::seeds::{rng_for, Purpose};
use rbg_evolve::{EvolveConfig, Features};

fn config(width: u32, height: u32) -> EvolveConfig {
    EvolveConfig {
        width,
        height,
        weak_pieces: 2,
        light_pieces: 2,
        strong_pieces: 2,
        ..EvolveConfig::default()
    }
}

fn pools(seed: u64) -> BlockPools {
    BlockPools::random(&mut rng_for(seed, Purpose::Blocks, 0, 0))
}

fn genomes(config: &EvolveConfig, seed: u64, count: usize) -> Vec<Genome> {
    let pools = pools(seed);
    let mut rng = rng_for(seed, Purpose::Population, 0, 0);
    (0..count).map(|_| Genome::random(config, &pools, &mut rng)).collect()
}

fn assert_valid(genome: &Genome, config: &EvolveConfig) {
    assert_eq!((genome.width, genome.height), (config.width, config.height));
    assert_eq!(genome.cells.len(), (config.width * config.height) as usize);
    let game = genome.to_game(config, "valid").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((game.width, game.height), (config.width, config.height));
}

#[test]
fn a_knight_block_expands_to_the_eight_leaps() {
    let leap = Block {
        steps: vec![Step { dx: 1, dy: 2, on: OnSquare::Empty, star: false }],
        mirror_horizontal: true,
        mirror_vertical: false,
        rotate: true,
    };
    let words: BTreeSet<(i32, i32)> = leap.words().iter().map(|w| (w[0].dx, w[0].dy)).collect();
    let expected: BTreeSet<(i32, i32)> =
        [(1, 2), (-1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, 1), (-2, -1)].into_iter().collect();
    assert_eq!(words, expected);
    assert_eq!(rule_size(std::slice::from_ref(&leap)), 8);
    // A starred inner letter is written with ^*, and repeats across blocks are written once.
    let rider = Block {
        steps: vec![
            Step { dx: 0, dy: 1, on: OnSquare::Empty, star: true },
            Step { dx: 0, dy: 1, on: OnSquare::Opponent, star: false },
        ],
        mirror_horizontal: false,
        mirror_vertical: true,
        rotate: false,
    };
    assert_eq!(rule_text(&[rider.clone(), rider]), "(0,1,e)^*(0,1,p) + (0,-1,e)^*(0,-1,p)");
}

#[test]
fn random_individuals_are_valid_sbg_of_the_board_size() {
    for (w, h) in [(4, 4), (6, 6), (5, 7), (8, 8)] {
        let config = config(w, h);
        for genome in genomes(&config, u64::from(w * 100 + h), 25) {
            assert_valid(&genome, &config);
        }
    }
}

#[test]
fn the_initial_position_is_two_armies_black_mirroring_white_by_class() {
    let config = config(6, 6);
    let rows = army_rows(6);
    for genome in genomes(&config, 9, 40) {
        for x in 0..6 {
            for y in 0..6 {
                let cell = genome.cell(x, y);
                if y < rows {
                    assert!(cell.is_none_or(|p| p.side == Side::White));
                    let mirror = genome.cell(x, 5 - y);
                    assert_eq!(cell.is_some(), mirror.is_some(), "square {x} {y}");
                    if let (Some(white), Some(black)) = (cell, mirror) {
                        assert_eq!(black.side, Side::Black);
                        assert_eq!(config.class_of(white.kind), config.class_of(black.kind));
                    }
                } else if y < 6 - rows {
                    assert_eq!(cell, None, "the middle rows start empty");
                }
            }
        }
        // The front row of each army holds weak pieces only.
        for x in 0..6 {
            if let Some(p) = genome.cell(x, rows - 1) {
                assert_eq!(config.class_of(p.kind), rbg_evolve::blocks::PieceClass::Weak);
            }
        }
    }
}

#[test]
fn crossover_keeps_whole_columns_rules_and_conditions_of_the_parents() {
    let config = config(6, 6);
    let population = genomes(&config, 21, 30);
    let mut rng = rng_for(21, Purpose::Operators, 1, 0);
    for pair in population.chunks(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let (first, second) = crossover(a, b, &mut rng);
        for child in [&first, &second] {
            assert_valid(child, &config);
        }
        for x in 0..6 {
            let column = |g: &Genome| (0..6).map(|y| g.cell(x, y)).collect::<Vec<_>>();
            let (ca, cb) = (column(a), column(b));
            // Each column comes whole from one parent, and the children share the two out.
            assert!(
                (column(&first) == ca && column(&second) == cb)
                    || (column(&first) == cb && column(&second) == ca),
                "column {x}"
            );
        }
        for kind in 0..a.rules.len() {
            let pair = [&a.rules[kind], &b.rules[kind]];
            assert!(pair.contains(&&first.rules[kind]));
            assert!(pair.contains(&&second.rules[kind]));
        }
        let parents: BTreeSet<String> =
            a.conditions.iter().chain(&b.conditions).map(|c| format!("{c:?}")).collect();
        for c in first.conditions.iter().chain(&second.conditions) {
            assert!(parents.contains(&format!("{c:?}")));
        }
    }
}

#[test]
fn mutation_changes_what_it_says_and_nothing_else() {
    let config = config(6, 6);
    let pools = pools(4);
    let population = genomes(&config, 4, 10);
    let features = Features {
        playable: true,
        r: 0.4,
        c: 0.5,
        b_m: 0.6,
        usefulness: vec![('P', 0.1), ('W', 0.0), ('N', 0.3), ('B', 0.2), ('R', 0.2), ('Q', 0.2)],
        ..Features::default()
    };
    let mut seen = BTreeSet::new();
    let mut not_square = 0;
    let trials = 3000;
    for t in 0..trials {
        let parent = &population[t % population.len()];
        let mut rng = rng_for(t as u64, Purpose::Operators, 0, 0);
        let (mutant, kind) = mutate(parent, &features, &config, &pools, &mut rng);
        assert_valid(&mutant, &config);
        seen.insert(format!("{kind:?}"));
        let changed_cells = parent.cells.iter().zip(&mutant.cells).filter(|(a, b)| a != b).count();
        match kind {
            Mutation::Square => {
                assert_eq!(changed_cells, 1);
                assert_eq!((&mutant.rules, &mutant.conditions), (&parent.rules, &parent.conditions));
            }
            Mutation::LeastUsefulRule | Mutation::RouletteRule | Mutation::SwapRules => {
                not_square += 1;
                assert_eq!((changed_cells, &mutant.conditions), (0, &parent.conditions));
                let changed: Vec<usize> = (0..6).filter(|&k| mutant.rules[k] != parent.rules[k]).collect();
                if kind == Mutation::LeastUsefulRule {
                    // 'W' (type 1) has the lowest usefulness; only its rule may change.
                    assert!(changed.iter().all(|&k| k == 1), "{changed:?}");
                }
                if kind == Mutation::SwapRules && !changed.is_empty() {
                    assert_eq!(changed.len(), 2);
                    assert_eq!(config.class_of(changed[0]), config.class_of(changed[1]));
                    assert_eq!(mutant.rules[changed[0]], parent.rules[changed[1]]);
                }
            }
            Mutation::BothSidesConditions | Mutation::OneSideConditions => {
                not_square += 1;
                assert_eq!((changed_cells, &mutant.rules), (0, &parent.rules));
                if kind == Mutation::OneSideConditions {
                    // White is favoured (B_M > 0): white loses a condition or black gains one.
                    let lost: Vec<_> =
                        parent.conditions.iter().filter(|c| !mutant.conditions.contains(c)).collect();
                    let gained: Vec<_> =
                        mutant.conditions.iter().filter(|c| !parent.conditions.contains(c)).collect();
                    assert!(lost.iter().all(|c| c.side == Side::White), "{lost:?}");
                    assert!(gained.iter().all(|c| c.side == Side::Black), "{gained:?}");
                    assert_eq!(lost.len() + gained.len(), 1);
                }
            }
        }
    }
    assert_eq!(seen.len(), 6, "every kind of mutation happens: {seen:?}");
    // Rules or conditions with probability 1/s = 1/12: expect 250 of 3000 (sd about 15).
    assert!((190..=310).contains(&not_square), "{not_square}");
}

#[test]
fn a_square_mutation_puts_white_below_the_middle_and_black_above() {
    let config = config(6, 6);
    let mut rng = rng_for(3, Purpose::Operators, 0, 0);
    for genome in genomes(&config, 3, 200) {
        let mut mutant = genome.clone();
        mutate_square(&mut mutant, &config, &mut rng);
        let changed: Vec<usize> = (0..36).filter(|&i| mutant.cells[i] != genome.cells[i]).collect();
        assert_eq!(changed.len(), 1);
        let y = changed[0] as u32 / 6;
        if let Some(p) = mutant.cells[changed[0]] {
            assert_eq!(p.side, if y < 3 { Side::White } else { Side::Black });
        }
    }
}
