//! Byte offsets (rbg-ide) to LSP positions (line and UTF-16 column) and back.

use lsp_types::{Position, Range};
use rbg_parser::source::Span;

/// Where each line of a text starts.
pub struct LineIndex<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> LineIndex<'t> {
    pub fn new(text: &'t str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, starts }
    }

    /// The position of a byte offset (clamped to the text and to a character boundary).
    pub fn position(&self, offset: u32) -> Position {
        let mut offset = (offset as usize).min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let column: usize = self.text[self.starts[line]..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, column as u32)
    }

    pub fn range(&self, span: Span) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }

    /// The byte offset of a position; a line past the end is the end of the text, a column past
    /// the end of its line is the line's end.
    pub fn offset(&self, position: Position) -> u32 {
        let Some(&start) = self.starts.get(position.line as usize) else { return self.text.len() as u32 };
        let end = self.starts.get(position.line as usize + 1).map_or(self.text.len(), |&next| next - 1);
        let mut units = 0;
        for (i, c) in self.text[start..end].char_indices() {
            if units >= position.character as usize {
                return (start + i) as u32;
            }
            units += c.len_utf16();
        }
        end as u32
    }

    pub fn span(&self, range: Range) -> Span {
        let (a, b) = (self.offset(range.start), self.offset(range.end));
        Span::new(a.min(b), a.max(b))
    }
}
