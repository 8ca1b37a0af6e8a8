//! Source snippets of bounded size for diagnostics on very long lines.
//!
//! codespan-reporting prints every source line a label touches in full, so an error in a
//! one-line game of a megabyte printed the megabyte (twice, with the trail). An [`Excerpt`] is
//! a stand-in source holding only the touched lines, each long one cut down to windows of about
//! [`WINDOW`] characters around its labels (joined by `…`), and it reports the original line
//! and column numbers to codespan through its `Files` implementation. Short lines are kept
//! whole, so ordinary diagnostics look as before; [`Excerpt::needed`] says when one is needed.

use std::ops::Range;

use codespan_reporting::files::{Error, Files};

/// Characters of context kept on each side of a label on a long line.
pub const CONTEXT: usize = 50;
/// A line longer than this (in bytes) is cut into windows around its labels.
pub const LONG_LINE: usize = 2 * WINDOW;
/// About the width of one window: a label (at most [`MAX_LABEL`]) and its context.
pub const WINDOW: usize = 100;
/// A label on a long line is shortened to this many bytes (and to its first line).
pub const MAX_LABEL: usize = 40;

/// The text joining two windows of a line, and marking a cut at either end.
const ELLIPSIS: &str = "…";

/// One window: a stretch of an original line copied into the excerpt.
#[derive(Debug)]
struct Piece {
    /// Where it starts in the original text.
    original: usize,
    /// Where it starts in the excerpt.
    excerpt: usize,
    len: usize,
    /// The original column (counted in characters from 1, as codespan counts) of its start.
    column: usize,
}

/// One line of the excerpt.
#[derive(Debug)]
struct Line {
    range: Range<usize>,
    /// The original line number, from 1.
    number: usize,
    pieces: Vec<Piece>,
}

/// A stand-in source for one diagnostic (see the module docs).
pub struct Excerpt<'a> {
    name: &'a str,
    text: String,
    lines: Vec<Line>,
}

/// The start of each line of `text`.
pub fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect()
}

/// The index of the line holding byte `at`.
fn line_of(starts: &[usize], at: usize) -> usize {
    starts.partition_point(|&s| s <= at).saturating_sub(1)
}

/// The end of line `line` (before its newline).
fn line_end(text: &str, starts: &[usize], line: usize) -> usize {
    starts.get(line + 1).map_or(text.len(), |&next| next - 1)
}

/// The nearest character boundary at or before `at`.
fn floor_char(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The nearest character boundary at or after `at`.
fn ceil_char(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

impl<'a> Excerpt<'a> {
    /// Whether any of the ranges touches a line longer than [`LONG_LINE`] bytes.
    pub fn needed(text: &str, starts: &[usize], ranges: &[Range<usize>]) -> bool {
        ranges.iter().any(|r| {
            let (first, last) = (line_of(starts, r.start), line_of(starts, r.end));
            (first..=last).any(|l| line_end(text, starts, l) - starts[l] > LONG_LINE)
        })
    }

    /// Labels shortened to [`MAX_LABEL`] bytes of their first line, within the text.
    pub fn clip(text: &str, starts: &[usize], range: &Range<usize>) -> Range<usize> {
        let start = floor_char(text, range.start);
        let end = range.end.min(line_end(text, starts, line_of(starts, start))).min(start + MAX_LABEL);
        start..ceil_char(text, end.max(start))
    }

    /// The excerpt of `text` showing the (clipped) `ranges`.
    pub fn new(name: &'a str, text: &str, starts: &[usize], ranges: &[Range<usize>]) -> Self {
        // The windows of each touched line, by line, merged where they overlap.
        let mut windows: Vec<(usize, Range<usize>)> = ranges
            .iter()
            .map(|r| {
                let line = line_of(starts, r.start);
                let (begin, end) = (starts[line], line_end(text, starts, line));
                if end - begin <= LONG_LINE {
                    return (line, begin..end);
                }
                let from = floor_char(text, r.start.saturating_sub(CONTEXT).max(begin));
                let to = ceil_char(text, (r.end + CONTEXT).min(end));
                (line, from..to)
            })
            .collect();
        windows.sort_by_key(|(line, w)| (*line, w.start));
        let mut merged: Vec<(usize, Range<usize>)> = Vec::new();
        for (line, w) in windows {
            match merged.last_mut() {
                Some((l, last)) if *l == line && w.start <= last.end => last.end = last.end.max(w.end),
                _ => merged.push((line, w)),
            }
        }
        let mut excerpt = Excerpt { name, text: String::new(), lines: Vec::new() };
        let mut i = 0;
        while i < merged.len() {
            let line = merged[i].0;
            let (begin, end) = (starts[line], line_end(text, starts, line));
            let start = excerpt.text.len();
            let mut pieces = Vec::new();
            while i < merged.len() && merged[i].0 == line {
                let w = merged[i].1.clone();
                if w.start > begin || !pieces.is_empty() {
                    excerpt.text.push_str(ELLIPSIS);
                }
                let column = text[begin..w.start].chars().count() + 1;
                pieces.push(Piece { original: w.start, excerpt: excerpt.text.len(), len: w.len(), column });
                excerpt.text.push_str(&text[w.clone()]);
                i += 1;
                if (i == merged.len() || merged[i].0 != line) && w.end < end {
                    excerpt.text.push_str(ELLIPSIS);
                }
            }
            excerpt.lines.push(Line { range: start..excerpt.text.len(), number: line + 1, pieces });
            excerpt.text.push('\n');
        }
        excerpt
    }

    /// Where original byte `at` (inside one of the windows) is in the excerpt.
    pub fn map(&self, at: usize) -> usize {
        self.lines
            .iter()
            .flat_map(|l| &l.pieces)
            .find(|p| (p.original..=p.original + p.len).contains(&at))
            .map_or(0, |p| p.excerpt + (at - p.original))
    }

    /// The excerpt's text (what codespan prints from).
    #[cfg(test)]
    fn text(&self) -> &str {
        &self.text
    }
}

impl<'a> Files<'a> for Excerpt<'_> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, Error> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, Error> {
        Ok(&self.text)
    }

    fn line_index(&'a self, (): (), byte_index: usize) -> Result<usize, Error> {
        Ok(self.lines.partition_point(|l| l.range.start <= byte_index).saturating_sub(1))
    }

    fn line_number(&'a self, (): (), line_index: usize) -> Result<usize, Error> {
        self.lines
            .get(line_index)
            .map(|l| l.number)
            .ok_or(Error::LineTooLarge { given: line_index, max: self.lines.len() })
    }

    fn column_number(&'a self, (): (), line_index: usize, byte_index: usize) -> Result<usize, Error> {
        let line = self
            .lines
            .get(line_index)
            .ok_or(Error::LineTooLarge { given: line_index, max: self.lines.len() })?;
        let piece = line.pieces.iter().rev().find(|p| p.excerpt <= byte_index).or(line.pieces.first());
        Ok(piece.map_or(1, |p| {
            let upto = byte_index.clamp(p.excerpt, p.excerpt + p.len);
            p.column + self.text[p.excerpt..upto].chars().count()
        }))
    }

    fn line_range(&'a self, (): (), line_index: usize) -> Result<Range<usize>, Error> {
        // codespan's ranges include the line's newline.
        let line = self
            .lines
            .get(line_index)
            .ok_or(Error::LineTooLarge { given: line_index, max: self.lines.len() })?;
        Ok(line.range.start..line.range.end + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_keeps_windows_around_labels_with_true_columns() {
        let text = format!("short\n{}ERR{}X\nend", "a".repeat(1000), "b".repeat(1000));
        let starts = line_starts(&text);
        let err = 6 + 1000;
        let x = err + 3 + 1000;
        let ranges = [err..err + 3, x..x + 1];
        assert!(Excerpt::needed(&text, &starts, &ranges));
        assert!(!Excerpt::needed(&text, &starts, std::slice::from_ref(&(0..5))));
        let e = Excerpt::new("f", &text, &starts, &ranges);
        // Two windows of the second line, each with CONTEXT bytes either side when available.
        let shown = e.text();
        assert_eq!(shown.lines().count(), 1, "{shown}");
        assert!(shown.len() < 2 * (2 * CONTEXT + 3) + 4 * ELLIPSIS.len() + 1, "{}", shown.len());
        assert_eq!(&shown[e.map(err)..e.map(err) + 3], "ERR");
        assert_eq!(&shown[e.map(x)..e.map(x) + 1], "X");
        // Line 2; ERR is at column 1001 of it, X at 2004 (counted by hand above).
        let line = e.line_index((), e.map(err)).unwrap();
        assert_eq!(e.line_number((), line).unwrap(), 2);
        assert_eq!(e.column_number((), line, e.map(err)).unwrap(), 1001);
        assert_eq!(e.column_number((), line, e.map(x)).unwrap(), 2004);
    }

    #[test]
    fn labels_are_clipped_to_their_first_line() {
        let text = format!("{}\nnext", "c".repeat(500));
        let starts = line_starts(&text);
        assert_eq!(Excerpt::clip(&text, &starts, &(10..600)), 10..10 + MAX_LABEL);
        assert_eq!(Excerpt::clip(&text, &starts, &(495..600)), 495..500);
        // A multi-byte character is never split.
        let wide = "é".repeat(300);
        let starts = line_starts(&wide);
        let r = Excerpt::clip(&wide, &starts, &(1..3));
        assert!(wide.is_char_boundary(r.start) && wide.is_char_boundary(r.end));
    }
}
