//! Games of lines drawn between points (paper soccer), told by how their file encodes them.
//!
//! RBG has no lines, so such a game puts its points on every `step`-th row and column of a
//! `rectangle` and the line between two neighbouring points (across, down or diagonal) in the
//! `step - 1` squares between them: a piece there says whether the line is drawn. With a step
//! of 3 the two diagonals of a square of points cross no common square, so every line has
//! squares of its own (the corpus's paper soccer).
//!
//! [`Pitch::detect`] recognises that encoding from the initial position alone: on a lattice of
//! step 3 or 4, every square off the points lies on a line; one piece, the *undrawn* mark, fills
//! at least a third of the line squares and stands on no point, and every line's squares are
//! either all undrawn or all not; other line pieces (drawn marks) exist; points holding a piece
//! never seen on a line (the ground and the ball) are the pitch.
//!
//! A pitch is drawn as squared paper: the lines of the grid faint, each point a small dot, the
//! lines drawn at the start along the grid dark (the pitch's edges and goals: the ones marked
//! drawn on diagonals only fence moves off the pitch), the lines drawn since in ink, and the ball
//! on the current vertex (the game walks the ball along its lines). Every square stays a click
//! target, small and invisible; the squares of lines are drawn as their lines, not as pieces.
//!
//! A move changes the squares of the lines the ball runs along, but a player clicks the points
//! the ball goes to: [`Pitch::points_of_path`] turns the one into the other (the page's click
//! path of a move).

use rbg_core::Game;

use crate::layout::{Layout, Shape};

/// A line between two neighbouring points and the squares that encode it.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    pub a: u32,
    pub b: u32,
    pub cells: Vec<u32>,
    /// Drawn in the initial position, along the grid: an edge of the pitch or of a goal.
    pub border: bool,
}

/// A pitch found in a board (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Pitch {
    /// The points of the pitch (vertices), in board order.
    pub points: Vec<u32>,
    /// Whether each vertex's piece is a mark of the encoding, drawn as the pitch and not as a
    /// piece: the squares of lines and the points off the pitch.
    pub marks: Vec<bool>,
    /// Lines between two points of the pitch.
    pub segments: Vec<Segment>,
    /// The piece of a line not drawn.
    pub undrawn: u32,
    /// Distance of neighbouring points in squares of the board.
    pub step: i64,
}

/// The spacing of the board's squares in the pitch's picture, in cells: the squares of a line
/// are click targets at least 24 pixels apart at the default cell size of 48.
const SQUARE_SPACING: f64 = 0.52;

/// Steps between points: across, down and both diagonals.
const DIRECTIONS: [[i64; 2]; 4] = [[1, 0], [0, 1], [1, 1], [1, -1]];

impl Pitch {
    /// The pitch encoded in a board of squares with these initial pieces, if it is one.
    pub fn detect(layout: &Layout, initial: &[u32]) -> Option<Pitch> {
        let grid = Grid::of(layout)?;
        if initial.len() != layout.points.len() {
            return None;
        }
        (3..=4).find_map(|step| {
            (0..step)
                .find_map(|ox| (0..step).find_map(|oy| Pitch::on_lattice(&grid, initial, step, [ox, oy])))
        })
    }

    /// The pitch of a game's board drawn with `layout`, from the game's initial position.
    pub fn of_game<G: Game>(game: &G, layout: &Layout) -> Option<Pitch> {
        Pitch::detect(layout, &crate::draw::initial_pieces(game))
    }

    /// The points a player clicks for a move whose click path on the board is `path`: the
    /// squares of one line, met one after another, give way to the point the ball reaches
    /// along it; other vertices stay; a vertex repeated at once is kept once.
    ///
    /// The ball runs through a line's squares from its start to its end, so the end is the
    /// point the squares run towards; a lone square (a move that changes only one) is placed
    /// by what came before: the end is the point the ball did not come from, or, first in the
    /// path, the point nearer the square.
    pub fn points_of_path(&self, path: &[u32]) -> Vec<u32> {
        let mut points: Vec<u32> = Vec::new();
        let mut rest = path;
        while let Some((&first, after)) = rest.split_first() {
            let Some(segment) = self.segment_of(first) else {
                push_new(&mut points, first);
                rest = after;
                continue;
            };
            let run = 1 + after.iter().take_while(|&&v| segment.cells.contains(&v)).count();
            let end = segment_end(segment, &rest[..run], points.last().copied());
            push_new(&mut points, end);
            rest = &rest[run..];
        }
        points
    }

    /// The line whose squares include `square`.
    fn segment_of(&self, square: u32) -> Option<&Segment> {
        self.segments.iter().find(|s| s.cells.contains(&square))
    }

    fn on_lattice(grid: &Grid, initial: &[u32], step: i64, offset: [i64; 2]) -> Option<Pitch> {
        let n = initial.len();
        let is_point: Vec<bool> = grid
            .cells
            .iter()
            .map(|&[x, y]| (x - offset[0]) % step == 0 && (y - offset[1]) % step == 0)
            .collect();
        let point_count = is_point.iter().filter(|&&p| p).count();
        // Pieces on the points and on the other squares (the squares of lines, checked below).
        let pieces = 1 + *initial.iter().max()? as usize;
        let mut on_points = vec![0usize; pieces];
        let mut on_lines = vec![0usize; pieces];
        for (v, &p) in initial.iter().enumerate() {
            let counts = if is_point[v] { &mut on_points } else { &mut on_lines };
            counts[p as usize] += 1;
        }
        let line_squares = n - point_count;
        let undrawn = (0..pieces)
            .filter(|&p| on_points[p] == 0 && 3 * on_lines[p] >= line_squares)
            .max_by_key(|&p| on_lines[p])? as u32;
        let drawn_marks = (0..pieces).any(|p| p as u32 != undrawn && on_lines[p] > 0);
        let pitch: Vec<bool> = (0..n).map(|v| is_point[v] && on_lines[initial[v] as usize] == 0).collect();
        let pitch_points = pitch.iter().filter(|&&p| p).count();
        if !drawn_marks || pitch_points < 9 || 3 * pitch_points < point_count {
            return None;
        }
        let mut segments = grid.segments(&is_point, step)?;
        let mut on_line = vec![false; n];
        segments.iter().flat_map(|s| &s.cells).for_each(|&c| on_line[c as usize] = true);
        let marked_whole = |s: &Segment| {
            let undrawn_cells = s.cells.iter().filter(|&&c| initial[c as usize] == undrawn).count();
            undrawn_cells == 0 || undrawn_cells == s.cells.len()
        };
        if (0..n).any(|v| !on_line[v] && !is_point[v]) || !segments.iter().all(marked_whole) {
            return None;
        }
        segments.retain(|s| pitch[s.a as usize] && pitch[s.b as usize]);
        for s in &mut segments {
            let drawn = s.cells.iter().all(|&c| initial[c as usize] != undrawn);
            let (a, b) = (grid.cells[s.a as usize], grid.cells[s.b as usize]);
            s.border = drawn && (a[0] == b[0] || a[1] == b[1]);
        }
        // Marked drawn at the start on a diagonal: a fence off the pitch, not a line on paper.
        segments.retain(|s| s.border || s.cells.iter().all(|&c| initial[c as usize] == undrawn));
        Some(Pitch {
            points: (0..n as u32).filter(|&v| pitch[v as usize]).collect(),
            marks: (0..n).map(|v| !pitch[v]).collect(),
            segments,
            undrawn,
            step,
        })
    }

    /// Whether a line is drawn when the board holds `pieces`.
    pub fn is_drawn(&self, segment: &Segment, pieces: &[u32]) -> bool {
        segment.cells.iter().all(|&c| pieces.get(c as usize).is_some_and(|&p| p != self.undrawn))
    }

    /// The board's layout for drawing the pitch: the squares closer together, each a small
    /// round click target.
    pub fn layout(&self, board: &Layout) -> Layout {
        let mut layout = board.clone();
        layout.points.iter_mut().for_each(|p| *p = [p[0] * SQUARE_SPACING, p[1] * SQUARE_SPACING]);
        layout.shape = Shape::Nodes;
        layout.on_points = true;
        layout.dots = false;
        layout.links.clear();
        layout.files_and_ranks = None;
        layout.star_points.clear();
        layout.point_radius = Some(SQUARE_SPACING / 2.0);
        layout
    }

    /// Distance of neighbouring points in the pitch's layout, in cells.
    pub fn point_spacing(&self) -> f64 {
        self.step as f64 * SQUARE_SPACING
    }
}

/// The point a ball reaches along `segment` through its squares `run` (in the order met),
/// coming from `came_from` if known.
fn segment_end(segment: &Segment, run: &[u32], came_from: Option<u32>) -> u32 {
    let index = |v: &u32| segment.cells.iter().position(|c| c == v).unwrap_or(0);
    let (first, last) = (run.first().map_or(0, index), run.last().map_or(0, index));
    // The cells run from `a` to `b`.
    let towards_b = match last.cmp(&first) {
        core::cmp::Ordering::Greater => true,
        core::cmp::Ordering::Less => false,
        core::cmp::Ordering::Equal => match came_from {
            Some(point) if point == segment.a || point == segment.b => point == segment.a,
            _ => 2 * last + 1 >= segment.cells.len(),
        },
    };
    if towards_b {
        segment.b
    } else {
        segment.a
    }
}

fn push_new(points: &mut Vec<u32>, v: u32) {
    if points.last() != Some(&v) {
        points.push(v);
    }
}

/// A board of squares with a square on every integer point of a rectangle.
struct Grid {
    cells: Vec<[i64; 2]>,
    width: i64,
    by_place: Vec<u32>,
}

impl Grid {
    fn of(layout: &Layout) -> Option<Grid> {
        if layout.shape != Shape::Squares || layout.hidden.iter().any(|&h| h) {
            return None;
        }
        let cells: Vec<[i64; 2]> =
            layout.points.iter().map(|p| [p[0].round() as i64, p[1].round() as i64]).collect();
        let width = cells.iter().map(|c| c[0]).max()? + 1;
        let height = cells.iter().map(|c| c[1]).max()? + 1;
        if cells.iter().any(|c| c[0] < 0 || c[1] < 0) || width.checked_mul(height)? != cells.len() as i64 {
            return None;
        }
        let mut by_place = vec![u32::MAX; cells.len()];
        for (v, c) in cells.iter().enumerate() {
            let slot = &mut by_place[(c[1] * width + c[0]) as usize];
            if *slot != u32::MAX {
                return None;
            }
            *slot = v as u32;
        }
        Some(Grid { cells, width, by_place })
    }

    /// Every line from a point to the next point `step` squares on across, down or along a
    /// diagonal, with the squares between.
    fn segments(&self, is_point: &[bool], step: i64) -> Option<Vec<Segment>> {
        let mut out = Vec::new();
        for (v, &[x, y]) in self.cells.iter().enumerate().filter(|&(v, _)| is_point[v]) {
            for [dx, dy] in DIRECTIONS {
                let Some(b) = self.at([x + step * dx, y + step * dy]) else { continue };
                let cells =
                    (1..step).map(|i| self.at([x + i * dx, y + i * dy])).collect::<Option<Vec<u32>>>()?;
                out.push(Segment { a: v as u32, b, cells, border: false });
            }
        }
        Some(out)
    }

    fn at(&self, [x, y]: [i64; 2]) -> Option<u32> {
        if x < 0 || y < 0 || x >= self.width {
            return None;
        }
        self.by_place.get((y * self.width + x) as usize).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points 0 and 3 with the line's squares 1 and 2 between them (from 0 towards 3), and
    /// points 3 and 6 with the squares 4 and 5.
    fn two_lines() -> Pitch {
        let line = |a: u32| Segment { a, b: a + 3, cells: vec![a + 1, a + 2], border: false };
        Pitch {
            points: vec![0, 3, 6],
            marks: vec![false; 7],
            segments: vec![line(0), line(3)],
            undrawn: 0,
            step: 3,
        }
    }

    #[test]
    fn a_lines_squares_give_way_to_the_point_they_run_towards() {
        let pitch = two_lines();
        assert_eq!(pitch.points_of_path(&[1, 2]), [3]);
        assert_eq!(pitch.points_of_path(&[2, 1]), [0]);
        // A bounce: along the first line to 3, then on to 6.
        assert_eq!(pitch.points_of_path(&[1, 2, 4, 5]), [3, 6]);
        // Lone squares: the nearer point first, then away from where the ball came from.
        assert_eq!(pitch.points_of_path(&[2]), [3]);
        assert_eq!(pitch.points_of_path(&[1]), [0]);
        assert_eq!(pitch.points_of_path(&[3, 2]), [3, 0]);
        // Points and other vertices stay; repeats at once are kept once.
        assert_eq!(pitch.points_of_path(&[3, 3, 1, 2, 3]), [3]);
        assert_eq!(pitch.points_of_path(&[]), Vec::<u32>::new());
    }
}
