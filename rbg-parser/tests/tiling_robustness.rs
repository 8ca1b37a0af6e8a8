//! The `tiling` generator never panics: random token soups and random well-formed
//! descriptions give a game or diagnostics.

use proptest::prelude::*;

const HEAD: &str = "#players = p(1)\n#pieces = e, a\n#variables =\n#rules = ->p\n#board = ";

const WORDS: &[&str] = &[
    "tiling",
    "(",
    ")",
    ",",
    "hex",
    "square",
    "tri",
    "3.4.6.4",
    "4.8.8",
    "3.3.4.3.4",
    "hexagon",
    "rectangle",
    "triangle",
    "diamond",
    "polygon",
    "dual",
    "clip",
    "merge",
    "shift",
    "rotate",
    "scale",
    "cells",
    "vertices",
    "remove",
    "e",
    "a",
    "0",
    "1",
    "2",
    "3",
    "-",
    "/",
    "[",
    "]",
    ":",
    "x0y0",
    "x1y1",
    "N",
    "orthogonal",
];

fn shape() -> impl Strategy<Value = String> {
    let n = 0u32..4;
    prop_oneof![
        (n.clone(), n.clone()).prop_map(|(w, h)| format!("rectangle({w}, {h})")),
        n.clone().prop_map(|k| format!("hexagon({k})")),
        n.clone().prop_map(|k| format!("triangle({k})")),
        n.prop_map(|k| format!("diamond({k})")),
        prop::collection::vec((-3i32..4, -3i32..4), 0..5).prop_map(|corners| {
            let points: Vec<String> = corners.iter().map(|(x, y)| format!("({x}, {y})")).collect();
            format!("polygon({})", points.join(", "))
        }),
    ]
}

fn graph() -> impl Strategy<Value = String> {
    let tilings =
        ["square", "hex", "tri", "4.8.8", "3.4.6.4", "4.6.12", "3.3.4.3.4", "3.6.3.6", "3.12.12", "5.5"];
    let leaf = (0..tilings.len(), shape()).prop_map(move |(t, s)| format!("{}({s})", tilings[t]));
    leaf.prop_recursive(3, 6, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|g| format!("dual({g})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("merge({a}, {b})")),
            (inner.clone(), -2i32..3, 1u32..3).prop_map(|(g, x, d)| format!("shift({g}, {x}/{d}, 0)")),
            (inner.clone(), 0u32..360).prop_map(|(g, d)| format!("rotate({g}, {d})")),
            (inner.clone(), 0u32..3).prop_map(|(g, k)| format!("scale({g}, {k})")),
            inner.prop_map(|g| format!("clip({g}, polygon((0,0), (3,0), (0,3)))")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn token_soups_never_panic(words in prop::collection::vec(0..WORDS.len(), 0..40)) {
        let body: Vec<&str> = words.iter().map(|&w| WORDS[w]).collect();
        let text = format!("{HEAD}tiling({}", body.join(" "));
        let out = rbg_parser::parse("t.rbg", text.as_bytes());
        prop_assert!(out.game.is_some() || out.diagnostics.iter().any(|d| d.is_error()));
    }

    #[test]
    fn random_descriptions_never_panic(graph in graph(), vertices in any::<bool>()) {
        let sites = if vertices { "vertices" } else { "cells" };
        let text = format!("{HEAD}tiling({graph}, {sites}, e)");
        let out = rbg_parser::parse("t.rbg", text.as_bytes());
        prop_assert!(out.game.is_some() || out.diagnostics.iter().any(|d| d.is_error()));
    }
}
