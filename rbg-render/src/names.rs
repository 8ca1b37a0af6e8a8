//! A grid guessed from vertex names, for boards given as node lists.
//!
//! Three patterns are recognised; every vertex of the board must follow the same one:
//!
//! * **Axes**: any prefix without digits, then `x` and `y` with integers (`x3y5`, `rx3y5`,
//!   `cell_x0y12`), optionally followed by `z` and an integer (`x1y2z0`). Column `x`, row `y`
//!   counted from the top (as the generators count); layers `z` side by side, one empty column
//!   apart.
//! * **Row and column**: `r` and an integer, then `c` and an integer (`r2c7`): row from the top,
//!   then column.
//! * **Chess style**: one or two letters and then an integer (`a1`, `h8`, `c12`, `aa3`): the
//!   letters are the column (`a` = 0 to `z` = 25, then `aa` = 26 ...; any case), the integer is
//!   the rank counted from the bottom.
//!
//! A guess is rejected when two vertices land on the same point, when the grid would be very
//! sparse (a side longer than four times the number of vertices plus ten), or when most of the
//! board's edges join points more than two rows or columns apart (then the names do not
//! describe the geometry).

use std::collections::HashSet;

/// Which naming pattern a board follows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NamePattern {
    /// `[prefix]x<int>y<int>[z<int>]`.
    Axes,
    /// `r<int>c<int>`.
    RowColumn,
    /// `<letters><int>`, rank from the bottom.
    Chess,
}

/// Grid cells `(column, row from the top)` of every vertex, from 0, when all names follow one
/// pattern and the guess is plausible (see the module docs).
pub fn grid_from_names(names: &[String], edges: &[(u32, u32, u32)]) -> Option<(NamePattern, Vec<[i64; 2]>)> {
    let (pattern, cells) = grid_from_most_names(names, edges, names.len())?;
    Some((pattern, cells.into_iter().collect::<Option<_>>()?))
}

/// Reads one name's grid cell: column, row (or chess rank), layer.
type NameParser = fn(&str) -> Option<[i64; 3]>;

/// As [`grid_from_names`] for the vertices whose names follow one pattern, at least `required`
/// of them: the others (helper vertices, named otherwise) get `None`. Edges touching those are
/// not used to judge the guess.
pub fn grid_from_most_names(
    names: &[String],
    edges: &[(u32, u32, u32)],
    required: usize,
) -> Option<(NamePattern, Vec<Option<[i64; 2]>>)> {
    if names.is_empty() || required == 0 {
        return None;
    }
    let patterns: [(NamePattern, NameParser); 3] = [
        (NamePattern::Axes, parse_axes),
        (NamePattern::RowColumn, parse_row_column),
        (NamePattern::Chess, parse_chess),
    ];
    patterns.into_iter().find_map(|(pattern, parse)| {
        let parsed: Vec<Option<[i64; 3]>> = names.iter().map(|n| parse(n)).collect();
        if parsed.iter().flatten().count() < required {
            return None;
        }
        let cells = normalised(pattern, &parsed)?;
        plausible(&cells, edges).then_some((pattern, cells))
    })
}

/// `x<int>y<int>[z<int>]` at the end of `name`, after a prefix without digits.
fn parse_axes(name: &str) -> Option<[i64; 3]> {
    let start = name.find(|c: char| c.is_ascii_digit() || c == '-')?;
    let head = name.get(..start)?;
    let prefix = head.strip_suffix('x')?;
    let rest = &name[start..];
    let (x, rest) = leading_int(rest)?;
    let rest = rest.strip_prefix('y')?;
    let (y, rest) = leading_int(rest)?;
    let z = match rest.strip_prefix('z') {
        Some(tail) => match leading_int(tail)? {
            (z, "") => z,
            _ => return None,
        },
        None if rest.is_empty() => 0,
        None => return None,
    };
    (!prefix.contains(|c: char| c.is_ascii_digit())).then_some([x, y, z])
}

/// `r<int>c<int>`: column, row.
fn parse_row_column(name: &str) -> Option<[i64; 3]> {
    let (row, rest) = leading_int(name.strip_prefix('r')?)?;
    match leading_int(rest.strip_prefix('c')?)? {
        (column, "") => Some([column, row, 0]),
        _ => None,
    }
}

/// `<letters><int>`: file, rank (counted from the bottom; turned into rows by [`normalised`]).
fn parse_chess(name: &str) -> Option<[i64; 3]> {
    let letters = name.find(|c: char| !c.is_ascii_alphabetic())?;
    if !(1..=2).contains(&letters) {
        return None;
    }
    let (rank, rest) = leading_int(&name[letters..])?;
    let file = name[..letters]
        .bytes()
        .map(|b| i64::from(b.to_ascii_lowercase() - b'a'))
        .fold(-1i64, |acc, d| (acc + 1) * 26 + d);
    (rest.is_empty() && rank >= 0).then_some([file, rank, 0])
}

/// An optionally negative decimal integer at the start of `text` (at most 9 digits) and the
/// rest of the text.
fn leading_int(text: &str) -> Option<(i64, &str)> {
    let negative = text.starts_with('-');
    let digits_start = usize::from(negative);
    let digits = text[digits_start..].bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let end = digits_start + digits;
    let value: i64 = text[digits_start..end].parse().ok()?;
    Some((if negative { -value } else { value }, &text[end..]))
}

/// Cells shifted to start at 0 (chess ranks turned into rows from the top), layers placed
/// side by side; `None` when two coincide or the grid is too sparse.
fn normalised(pattern: NamePattern, parsed: &[Option<[i64; 3]>]) -> Option<Vec<Option<[i64; 2]>>> {
    let cells: Vec<[i64; 3]> = parsed.iter().flatten().copied().collect();
    let min = |k: usize| cells.iter().map(|c| c[k]).min().unwrap_or(0);
    let max = |k: usize| cells.iter().map(|c| c[k]).max().unwrap_or(0);
    let (x0, y0, z0) = (min(0), min(1), min(2));
    let (top, width) = (max(1), max(0) - x0 + 1);
    let place = |c: &[i64; 3]| {
        let row = if pattern == NamePattern::Chess { top - c[1] } else { c[1] - y0 };
        [(c[0] - x0) + (c[2] - z0) * (width + 1), row]
    };
    let out: Vec<Option<[i64; 2]>> = parsed.iter().map(|c| c.as_ref().map(place)).collect();
    let placed: Vec<[i64; 2]> = out.iter().flatten().copied().collect();
    let limit = 4 * placed.len() as i64 + 10;
    let span = |k: usize| placed.iter().map(|c| c[k]).max().unwrap_or(0) + 1;
    if span(0) > limit || span(1) > limit {
        return None;
    }
    let distinct: HashSet<[i64; 2]> = placed.iter().copied().collect();
    (distinct.len() == placed.len()).then_some(out)
}

/// At least half of the edges between different vertices join cells at most two rows and two
/// columns apart (or there are no such edges).
fn plausible(cells: &[Option<[i64; 2]>], edges: &[(u32, u32, u32)]) -> bool {
    let mut total = 0usize;
    let mut short = 0usize;
    for &(from, _, to) in edges {
        let (Some(Some(a)), Some(Some(b))) = (cells.get(from as usize), cells.get(to as usize)) else {
            continue;
        };
        if from == to {
            continue;
        }
        total += 1;
        if (a[0] - b[0]).abs() <= 2 && (a[1] - b[1]).abs() <= 2 {
            short += 1;
        }
    }
    2 * short >= total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn chess_names_put_rank_one_at_the_bottom() {
        let (pattern, cells) = grid_from_names(&names(&["a1", "b1", "a2", "b2", "c12"]), &[]).unwrap();
        assert_eq!(pattern, NamePattern::Chess);
        // Ranks 1..12: rank 12 is row 0, rank 1 is row 11.
        assert_eq!(cells, vec![[0, 11], [1, 11], [0, 10], [1, 10], [2, 0]]);
        let (_, wide) = grid_from_names(&names(&["z1", "aa1", "ab1"]), &[]).unwrap();
        assert_eq!(wide, vec![[0, 0], [1, 0], [2, 0]]);
    }

    #[test]
    fn axes_names_with_prefixes_and_layers() {
        let (pattern, cells) = grid_from_names(&names(&["rx0y0", "rx1y0", "rx0y1"]), &[]).unwrap();
        assert_eq!(pattern, NamePattern::Axes);
        assert_eq!(cells, vec![[0, 0], [1, 0], [0, 1]]);
        // Two layers two columns wide: the second starts at column 3.
        let (_, layered) = grid_from_names(&names(&["x0y0z0", "x1y0z0", "x0y0z1", "x1y0z1"]), &[]).unwrap();
        assert_eq!(layered, vec![[0, 0], [1, 0], [3, 0], [4, 0]]);
    }

    #[test]
    fn row_column_names() {
        let (pattern, cells) = grid_from_names(&names(&["r0c0", "r0c1", "r1c0"]), &[]).unwrap();
        assert_eq!(pattern, NamePattern::RowColumn);
        assert_eq!(cells, vec![[0, 0], [1, 0], [0, 1]]);
    }

    #[test]
    fn mixed_long_or_colliding_names_are_not_grids() {
        assert!(grid_from_names(&names(&["outer1", "outer2", "inner1"]), &[]).is_none());
        assert!(grid_from_names(&names(&["a1", "x0y0"]), &[]).is_none());
        assert!(grid_from_names(&names(&["a1", "a01"]), &[]).is_none());
        assert!(grid_from_names(&names(&["a1", "a999"]), &[]).is_none());
        assert!(grid_from_names(&names(&["1x0y0"]), &[]).is_none());
        assert!(grid_from_names(&[], &[]).is_none());
    }

    #[test]
    fn names_contradicted_by_the_edges_are_rejected() {
        let cells = names(&["a1", "b1", "c1", "d1", "e1", "f1"]);
        // Every edge jumps five columns: the names do not describe the geometry.
        assert!(grid_from_names(&cells, &[(0, 0, 5), (5, 0, 0)]).is_none());
        assert!(grid_from_names(&cells, &[(0, 0, 1), (1, 0, 0)]).is_some());
    }
}
