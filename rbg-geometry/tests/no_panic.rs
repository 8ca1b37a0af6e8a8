//! Random descriptions never panic and never hang: every outcome is a board or an error.

use proptest::prelude::*;
use rbg_geometry::{build_board, GraphSpec, Point, Polygon, Shape, SiteKind, Tiling};

fn shape() -> impl Strategy<Value = Shape> {
    let size = 0u32..6;
    prop_oneof![
        (size.clone(), size.clone()).prop_map(|(width, height)| Shape::Rectangle { width, height }),
        size.clone().prop_map(Shape::Hexagon),
        size.clone().prop_map(Shape::Triangle),
        size.prop_map(Shape::Diamond),
        prop::collection::vec((-4i32..5, -4i32..5), 0..6).prop_filter_map("a valid polygon", |corners| {
            Polygon::new(corners.into_iter().map(|(x, y)| Point::new(x as f64, y as f64)).collect())
                .ok()
                .map(Shape::Polygon)
        }),
    ]
}

fn spec() -> impl Strategy<Value = GraphSpec<()>> {
    let leaf = (0..Tiling::ALL.len(), shape()).prop_map(|(t, shape)| GraphSpec::Tiling {
        tiling: Tiling::ALL[t],
        shape,
        at: (),
    });
    leaf.prop_recursive(3, 8, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|g| GraphSpec::Dual(Box::new(g), ())),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| GraphSpec::Merge(Box::new(a), Box::new(b), ())),
            (inner.clone(), -3i32..4, -3i32..4).prop_map(|(g, x, y)| GraphSpec::Shift(
                Box::new(g),
                f64::from(x) / 2.0,
                f64::from(y),
                ()
            )),
            (inner.clone(), -360i32..360).prop_map(|(g, d)| GraphSpec::Rotate(Box::new(g), f64::from(d), ())),
            (inner.clone(), 0i32..4).prop_map(|(g, k)| GraphSpec::Scale(Box::new(g), f64::from(k), ())),
            (inner, -3i32..4).prop_filter_map("a valid polygon", |(g, k)| {
                let k = f64::from(k);
                let corners = vec![Point::new(k, k), Point::new(k + 3.0, k), Point::new(k, k + 2.0)];
                Polygon::new(corners).ok().map(|p| GraphSpec::Clip(Box::new(g), p, ()))
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_descriptions_give_a_board_or_an_error(spec in spec(), on_vertices in any::<bool>()) {
        let kind = if on_vertices { SiteKind::Vertices } else { SiteKind::Cells };
        if let Ok(board) = build_board(&spec, kind) {
            prop_assert!(!board.sites.is_empty());
            // Names are unique and edges stay on the board, one per label.
            let mut names: Vec<&str> = board.sites.iter().map(|s| s.name.as_str()).collect();
            names.sort_unstable();
            names.dedup();
            prop_assert_eq!(names.len(), board.sites.len());
            for site in &board.sites {
                prop_assert!(site.edges.windows(2).all(|w| w[0].0 < w[1].0));
                prop_assert!(site.edges.iter().all(|&(l, t)| l < board.labels.len() && t < board.sites.len()));
            }
        }
    }

    #[test]
    fn random_polygons_never_panic(corners in prop::collection::vec((-1e3f64..1e3, -1e3f64..1e3), 0..8)) {
        let _ = Polygon::new(corners.into_iter().map(|(x, y)| Point::new(x, y)).collect());
    }
}

#[test]
fn huge_sizes_are_refused_before_generating() {
    let spec = GraphSpec::Tiling { tiling: Tiling::T4612, shape: Shape::Hexagon(u32::MAX), at: () };
    assert!(matches!(
        build_board(&spec, SiteKind::Cells),
        Err((rbg_geometry::GeometryError::TooLarge { .. }, ()))
    ));
    let spec = GraphSpec::Tiling {
        tiling: Tiling::Square,
        shape: Shape::Rectangle { width: u32::MAX, height: u32::MAX },
        at: (),
    };
    assert!(matches!(
        build_board(&spec, SiteKind::Vertices),
        Err((rbg_geometry::GeometryError::TooLarge { .. }, ()))
    ));
    // Three tilings of 600 x 600 are each allowed alone, but not together.
    let big = || {
        Box::new(GraphSpec::Tiling {
            tiling: Tiling::Square,
            shape: Shape::Rectangle { width: 600, height: 600 },
            at: (),
        })
    };
    let spec = GraphSpec::Merge(Box::new(GraphSpec::Merge(big(), big(), ())), big(), ());
    assert!(matches!(
        build_board(&spec, SiteKind::Cells),
        Err((rbg_geometry::GeometryError::TooLarge { .. }, ()))
    ));
    let many = (0..300).map(|k| Point::polar(5.0, f64::from(k) * 1.2)).collect();
    assert_eq!(Polygon::new(many), Err(rbg_geometry::GeometryError::TooManyCorners));
    let far = Polygon::new(vec![Point::new(0.0, 0.0), Point::new(1e15, 0.0), Point::new(0.0, 1e15)]).unwrap();
    let spec = GraphSpec::Tiling { tiling: Tiling::Hex, shape: Shape::Polygon(far), at: () };
    assert!(matches!(
        build_board(&spec, SiteKind::Cells),
        Err((rbg_geometry::GeometryError::TooLarge { .. }, ()))
    ));
}
