//! Source files, byte spans and line/column lookup.

/// A half-open byte range `start..end` in one source file.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub const fn new(start: u32, end: u32) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
}

/// A named source text with a line index. Input is a byte string (the language is byte-based);
/// invalid UTF-8 is allowed and only ever appears in comments, strings or stray characters.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub bytes: Vec<u8>,
    line_starts: Vec<u32>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Self {
        let bytes = bytes.into();
        let mut line_starts = vec![0];
        line_starts.extend(bytes.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i as u32 + 1));
        SourceFile { name: name.into(), bytes, line_starts }
    }

    /// 1-based line and column (in bytes) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        (line as u32 + 1, offset - self.line_starts[line] + 1)
    }

    /// The text of a span, lossily decoded.
    pub fn snippet(&self, span: Span) -> String {
        let end = (span.end as usize).min(self.bytes.len());
        let start = (span.start as usize).min(end);
        String::from_utf8_lossy(&self.bytes[start..end]).into_owned()
    }

    /// The whole text, lossily decoded (for renderers that need `&str`).
    pub fn text_lossy(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}
