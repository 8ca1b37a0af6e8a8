//! A minimal SVG (XML) writer: elements with attributes, text escaped, numbers written short.
//!
//! Every element opened is closed by the same writer, so the output is well-formed whatever
//! the names in a game are: text and attribute values are escaped, and characters XML 1.0
//! forbids (control characters other than tab, line feed and carriage return) are replaced by
//! U+FFFD.

use core::fmt::Write as _;

/// One attribute: a name (always one of ours, a valid XML name) and its value.
pub(crate) type Attr<'a> = (&'a str, String);

/// An SVG document under construction.
pub(crate) struct SvgWriter {
    out: String,
    open: Vec<&'static str>,
}

impl SvgWriter {
    pub(crate) fn new() -> Self {
        SvgWriter { out: String::new(), open: Vec::new() }
    }

    /// Opens `<name attrs>`; [`SvgWriter::close`] ends it.
    pub(crate) fn open(&mut self, name: &'static str, attrs: &[Attr<'_>]) {
        self.start_tag(name, attrs);
        self.out.push_str(">\n");
        self.open.push(name);
    }

    /// Closes the element opened last.
    pub(crate) fn close(&mut self) {
        if let Some(name) = self.open.pop() {
            let _ = writeln!(self.out, "</{name}>");
        }
    }

    /// An element without content: `<name attrs/>`.
    pub(crate) fn empty(&mut self, name: &'static str, attrs: &[Attr<'_>]) {
        self.start_tag(name, attrs);
        self.out.push_str("/>\n");
    }

    /// An element holding text: `<name attrs>text</name>`.
    pub(crate) fn text(&mut self, name: &'static str, attrs: &[Attr<'_>], text: &str) {
        self.start_tag(name, attrs);
        self.out.push('>');
        self.out.push_str(&escape(text));
        let _ = writeln!(self.out, "</{name}>");
    }

    /// The document, with every element still open closed.
    pub(crate) fn finish(mut self) -> String {
        while !self.open.is_empty() {
            self.close();
        }
        self.out
    }

    fn start_tag(&mut self, name: &str, attrs: &[Attr<'_>]) {
        self.out.push('<');
        self.out.push_str(name);
        for (key, value) in attrs {
            let _ = write!(self.out, " {key}=\"{}\"", escape(value));
        }
    }
}

/// `text` safe inside XML and HTML text and double-quoted attribute values (used by rbg-metrics'
/// HTML report too).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            // Not allowed anywhere in an XML 1.0 document, not even as a reference.
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate or length with at most two decimals and no trailing zeros (`12`, `3.5`);
/// anything not finite is written as 0 so that no `NaN` reaches the document.
pub(crate) fn num(x: f64) -> String {
    if !x.is_finite() {
        return "0".into();
    }
    let rounded = (x * 100.0).round() / 100.0;
    let text = format!("{rounded:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    match text {
        "-0" | "" => "0".into(),
        t => t.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_characters_are_escaped_and_forbidden_ones_replaced() {
        assert_eq!(escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert_eq!(escape("x\u{1}y\u{FFFF}"), "x\u{FFFD}y\u{FFFD}");
        assert_eq!(escape("tab\tok"), "tab\tok");
    }

    #[test]
    fn numbers_are_short_and_finite() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(3.5), "3.5");
        assert_eq!(num(0.125), "0.13");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(f64::NAN), "0");
        assert_eq!(num(f64::INFINITY), "0");
    }

    #[test]
    fn unclosed_elements_are_closed_at_the_end() {
        let mut w = SvgWriter::new();
        w.open("svg", &[("width", "2".into())]);
        w.open("g", &[]);
        w.text("text", &[], "a&b");
        let out = w.finish();
        assert_eq!(out, "<svg width=\"2\">\n<g>\n<text>a&amp;b</text>\n</g>\n</svg>\n");
    }
}
