//! Layout hints written in a game file, for boards no inference draws right.
//!
//! A hint is a comment line (so the reference tools ignore it) starting with `@layout`, then
//! words separated by spaces:
//!
//! ```text
//! // @layout points
//! // @layout hide=counter1,counter2
//! ```
//!
//! * a style: `grid` (square cells on the grid the names or directions give), `hex` (hexagons
//!   on the lattice the edges imply), `points` (the board's points and lines: the game is
//!   played on intersections), `cells` (polygons around the positions), `rings` (concentric
//!   circles, from edge labels that run around them), `graph` (the automatic layout of the
//!   edges); a style that does not fit the board is ignored;
//! * `hide=V,...`: vertices that are not part of the board (counters, circuit helpers); they are
//!   not drawn as cells, and their edges are drawn only as the arcs they make between board
//!   points.
//!
//! Several `@layout` lines add up (the last style wins). Anything else after `@layout` is an
//! error with its line number; the caller decides whether to show it.
//!
//! The same reading also notes whether the `#board` is a `tiling(..., vertices, ...)`: the game
//! information keeps a tiling's positions but not whether its sites are cells or vertices, and
//! a board played on vertices (a go board) is drawn as points on its lines, not as cells. It
//! also keeps the file's title (the first line of its opening comment, as every corpus file
//! names its game there), by which a game known to be played on a go board is drawn as one.

use core::fmt;

/// How a board should be drawn, from the game file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayoutHint {
    /// The style asked for, if any.
    pub style: Option<Style>,
    /// Names of vertices to leave out of the board.
    pub hide: Vec<String>,
    /// The file's board is a `tiling` whose sites are the tiling's vertices (not a hint: read
    /// from the `#board` declaration written in the file; one made by a macro is not seen).
    pub on_vertices: bool,
    /// The first line of the comment the file opens with, trimmed (`Gomoku free style 15x15`);
    /// not a hint either.
    pub title: Option<String>,
}

/// A layout style a hint can ask for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Style {
    Grid,
    Hex,
    Points,
    Cells,
    Rings,
    Graph,
}

impl Style {
    const NAMES: [(&'static str, Style); 6] = [
        ("grid", Style::Grid),
        ("hex", Style::Hex),
        ("points", Style::Points),
        ("cells", Style::Cells),
        ("rings", Style::Rings),
        ("graph", Style::Graph),
    ];
}

/// A word after `@layout` that is not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HintError {
    /// The line of the game file (from 1).
    pub line: usize,
    /// The word.
    pub word: String,
}

impl fmt::Display for HintError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: unknown layout hint '{}' (expected grid, hex, points, cells, rings, graph or hide=V,...)",
            self.line, self.word
        )
    }
}

impl std::error::Error for HintError {}

impl LayoutHint {
    /// The hints of a game file's text (no hint: the default, inference only).
    pub fn from_source(text: &str) -> Result<LayoutHint, HintError> {
        let mut hint = LayoutHint::default();
        for (index, line) in text.lines().enumerate() {
            let Some(comment) = line.trim_start().strip_prefix("//") else { continue };
            let Some(words) = comment.trim_start().strip_prefix("@layout") else { continue };
            if !words.is_empty() && !words.starts_with(char::is_whitespace) {
                continue;
            }
            for word in words.split_whitespace() {
                hint.read_word(word).ok_or_else(|| HintError { line: index + 1, word: word.to_string() })?;
            }
        }
        hint.on_vertices = tiling_on_vertices(text);
        hint.title = title(text);
        Ok(hint)
    }

    fn read_word(&mut self, word: &str) -> Option<()> {
        if let Some(list) = word.strip_prefix("hide=") {
            let names: Vec<&str> = list.split(',').filter(|n| !n.is_empty()).collect();
            if names.is_empty() {
                return None;
            }
            self.hide.extend(names.iter().map(|n| n.to_string()));
            return Some(());
        }
        self.style = Some(Style::NAMES.iter().find(|(name, _)| *name == word)?.1);
        Some(())
    }
}

/// The first line of the file's opening comment, if the file opens (after blank lines) with a
/// `//` comment that is not a hint.
fn title(text: &str) -> Option<String> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let comment = first.strip_prefix("//")?.trim();
    (!comment.is_empty() && !comment.starts_with("@layout")).then(|| comment.to_string())
}

/// Whether the text (its comments left out) calls `tiling(` with `vertices` as the second
/// argument.
fn tiling_on_vertices(text: &str) -> bool {
    let code: String =
        text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    let bytes = code.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    code.match_indices("tiling").any(|(at, word)| {
        let end = at + word.len();
        let starts_word = at == 0 || !is_word(bytes[at - 1]);
        let rest = code[end..].trim_start();
        starts_word && rest.starts_with('(') && second_argument(&rest[1..]) == Some("vertices")
    })
}

/// The second top-level argument of a call whose text starts after its `(`, trimmed.
fn second_argument(arguments: &str) -> Option<&str> {
    let mut depth = 0usize;
    let mut start = None;
    for (i, c) in arguments.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return start.map(|s: usize| arguments[s..i].trim()),
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => match start {
                None => start = Some(i + 1),
                Some(s) => return Some(arguments[s..i].trim()),
            },
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_are_read_from_comment_lines_only() {
        let text =
            "#board = x\n// @layout points hide=a,b\n  //@layout hide=c\n@layout hex\n// @layouts grid\n";
        let hint = LayoutHint::from_source(text).unwrap();
        assert_eq!(hint.style, Some(Style::Points));
        assert_eq!(hint.hide, ["a", "b", "c"]);
        assert_eq!(LayoutHint::from_source("no hints").unwrap(), LayoutHint::default());
    }

    #[test]
    fn unknown_words_are_errors_with_their_line() {
        let err = LayoutHint::from_source("\n\n// @layout square\n").unwrap_err();
        assert_eq!(err, HintError { line: 3, word: "square".into() });
        assert!(err.to_string().starts_with("line 3: unknown layout hint 'square'"));
        assert!(LayoutHint::from_source("// @layout hide=").is_err());
    }

    #[test]
    fn a_tiling_on_vertices_is_noticed_in_the_board_line() {
        let on = |text: &str| LayoutHint::from_source(text).unwrap().on_vertices;
        assert!(on("#board = tiling(square(rectangle(9, 9)), vertices, e)"));
        assert!(on("#board = tiling (rotate(tri(hexagon(3)), 30) ,\n  vertices , e, x0y0: w)"));
        assert!(!on("#board = tiling(square(rectangle(9, 9)), cells, e)"));
        assert!(!on(
            "// #board = tiling(square(rectangle(9, 9)), vertices, e)\n#board = rectangle(up, down, [e])"
        ));
        assert!(!on("#board = mytiling(square(rectangle(9, 9)), vertices, e)"));
        assert!(!on("#board = tiling(square(rectangle(9, 9"));
    }

    #[test]
    fn the_title_is_the_first_line_of_the_opening_comment() {
        let title = |text: &str| LayoutHint::from_source(text).unwrap().title;
        assert_eq!(
            title("\n// Gomoku free style 15x15\n// -- rules\n#players = a(1)"),
            Some("Gomoku free style 15x15".into())
        );
        assert_eq!(title("#players = a(1)\n// Go"), None);
        assert_eq!(title("// @layout points\n// Go"), None);
        assert_eq!(title("//\n"), None);
    }
}
