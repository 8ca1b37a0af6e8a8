//! Rendering parser diagnostics on a terminal (codespan-reporting) or in the reference format.
//!
//! Junk input must not turn into junk on the terminal: control characters of the source and of
//! messages are replaced before printing (a snippet could otherwise move the cursor or ring the
//! bell), at most [`MAX_SHOWN`] diagnostics are rendered (then a line counts the rest), and the
//! whole report is written to stderr at once. Nor does a long line or a deep macro trail: a
//! snippet of a long line is a window of about 100 columns around each label ([`Excerpt`]), at
//! most [`MAX_TRAIL_SHOWN`] frames of a trail are shown (a note counts the rest), and messages
//! are cut to [`MAX_MESSAGE`] characters.

use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use rbg_parser::diag::{Diagnostic, Severity};
use rbg_parser::source::SourceFile;

use crate::excerpt::{line_starts, Excerpt};

/// How diagnostics are printed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum Format {
    /// Source snippets with the macro-expansion trail (colour on a terminal).
    #[default]
    Human,
    /// One line per diagnostic as the reference parser prints it:
    /// `Error (line L, character C): text`, then `\tin expansion of …` lines.
    Reference,
}

/// Most diagnostics rendered for one file; the rest are counted in one line.
pub const MAX_SHOWN: usize = 20;

/// Most frames of a macro-expansion trail shown with a snippet; a note counts the rest.
pub const MAX_TRAIL_SHOWN: usize = 8;

/// Most characters of a message (or label) printed; a message quoting a huge token is cut.
pub const MAX_MESSAGE: usize = 300;

/// Prints diagnostics to stderr (write errors are ignored: stderr may be closed).
pub fn emit(file: &SourceFile, diagnostics: &[Diagnostic], format: Format) {
    use std::io::Write as _;
    let shown = &diagnostics[..diagnostics.len().min(MAX_SHOWN)];
    let rest = omitted_line(&file.name, &diagnostics[shown.len()..]);
    match format {
        Format::Reference => {
            let mut text = String::new();
            for d in shown {
                text.push_str(&escape_controls(&d.reference_text(file)));
                text.push('\n');
            }
            if let Some(rest) = rest {
                text.push_str(&rest);
                text.push('\n');
            }
            let _ = std::io::stderr().lock().write_all(text.as_bytes());
        }
        Format::Human => emit_human(file, shown, rest.as_deref()),
    }
}

/// `... and N more (E errors, W warnings) in FILE`, when some were not shown.
fn omitted_line(file_name: &str, omitted: &[Diagnostic]) -> Option<String> {
    if omitted.is_empty() {
        return None;
    }
    let errors = omitted.iter().filter(|d| d.is_error()).count();
    Some(format!(
        "... and {} more diagnostics in {} ({errors} errors, {} warnings) not shown",
        omitted.len(),
        escape_controls(file_name),
        omitted.len() - errors
    ))
}

fn emit_human(file: &SourceFile, diagnostics: &[Diagnostic], rest: Option<&str>) {
    use std::io::Write as _;
    if diagnostics.is_empty() && rest.is_none() {
        return;
    }
    let name = escape_controls(&file.name);
    let text = display_text(&file.bytes);
    let starts = line_starts(&text);
    let files = SimpleFile::new(name.as_str(), text.as_str());
    let writer = termcolor::BufferWriter::stderr(color_choice());
    let mut buffer = writer.buffer();
    let config = term::Config::default();
    for d in diagnostics {
        let mut report = to_report(d, &name);
        let ranges: Vec<_> = report.labels.iter().map(|l| l.range.clone()).collect();
        let in_text = ranges.iter().all(|r| r.start <= r.end && r.end <= text.len());
        let rendered = if in_text && Excerpt::needed(&text, &starts, &ranges) {
            let clipped: Vec<_> = ranges.iter().map(|r| Excerpt::clip(&text, &starts, r)).collect();
            let excerpt = Excerpt::new(&name, &text, &starts, &clipped);
            for (label, range) in report.labels.iter_mut().zip(&clipped) {
                label.range = excerpt.map(range.start)..excerpt.map(range.end);
            }
            term::emit(&mut buffer, &config, &excerpt, &report)
        } else {
            term::emit(&mut buffer, &config, &files, &report)
        };
        // A report that cannot be rendered (a span past the end) still gets its message out.
        if rendered.is_err() {
            let _ = writeln!(buffer, "{}: {}", name, escape_controls(&clip(&d.message)));
        }
    }
    if let Some(rest) = rest {
        let _ = writeln!(buffer, "{rest}");
    }
    let _ = writer.print(&buffer);
}

fn color_choice() -> termcolor::ColorChoice {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        termcolor::ColorChoice::Auto
    } else {
        termcolor::ColorChoice::Never
    }
}

/// The source as UTF-8 with the same byte offsets, safe to print: invalid UTF-8 bytes and
/// control characters become `?` (one per byte, so spans still point at the right characters),
/// carriage returns become spaces (CRLF files look as LF files), tabs and newlines stay.
fn display_text(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for ch in chunk.valid().chars() {
            match ch {
                '\n' | '\t' => out.push(ch),
                '\r' => out.push(' '),
                c if c.is_control() || is_bidi_control(c) => {
                    out.extend(std::iter::repeat_n('?', c.len_utf8()))
                }
                c => out.push(c),
            }
        }
        out.extend(std::iter::repeat_n('?', chunk.invalid().len()));
    }
    out
}

/// `text` cut to [`MAX_MESSAGE`] characters.
fn clip(text: &str) -> std::borrow::Cow<'_, str> {
    rbg_parser::diag::clip_text(text, MAX_MESSAGE)
}

/// Unicode's bidirectional overrides and isolates, which reorder the rest of a terminal line.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}')
}

/// A message with its control characters (which may come from the game file's tokens) written
/// as `\u{..}` escapes.
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if (ch.is_control() && ch != '\n' && ch != '\t') || is_bidi_control(ch) {
            out.push_str(&format!("\\u{{{:x}}}", ch as u32));
        } else {
            out.push(ch);
        }
    }
    out
}

fn to_report(d: &Diagnostic, file_name: &str) -> Report<()> {
    let report = match d.severity {
        Severity::Error => Report::error(),
        Severity::Warning => Report::warning(),
    };
    let mut labels = Vec::new();
    if let Some(span) = d.span {
        labels.push(Label::primary((), span.start as usize..span.end as usize));
    }
    for frame in d.trail.iter().take(MAX_TRAIL_SHOWN) {
        let span = frame.span();
        labels.push(
            Label::secondary((), span.start as usize..span.end as usize)
                .with_message(escape_controls(&clip(&frame.reference_text()))),
        );
    }
    for label in &d.labels {
        labels.push(
            Label::secondary((), label.span.start as usize..label.span.end as usize)
                .with_message(escape_controls(&clip(&label.message))),
        );
    }
    let message = escape_controls(&clip(&d.message));
    // Without a label codespan prints no location, so the message names the file itself.
    let message = if labels.is_empty() { format!("{file_name}: {message}") } else { message };
    let mut notes: Vec<String> = d.notes.iter().map(|note| escape_controls(&clip(note))).collect();
    if d.trail.len() > MAX_TRAIL_SHOWN {
        notes.push(format!(
            "and {} more macro expansions around these (only the innermost {MAX_TRAIL_SHOWN} are shown)",
            d.trail.len() - MAX_TRAIL_SHOWN
        ));
    }
    report.with_message(message).with_labels(labels).with_notes(notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_keep_offsets_and_lose_control_bytes() {
        let shown = display_text(b"ab\x07c\r\n\x1b[2Jd\xffe\t\xe2\x80\xaef");
        assert_eq!(shown, "ab?c \n?[2Jd?e\t???f");
        assert_eq!(shown.len(), b"ab\x07c\r\n\x1b[2Jd\xffe\t\xe2\x80\xaef".len());
    }

    #[test]
    fn messages_escape_control_characters() {
        assert_eq!(
            escape_controls("Identifier 'a\u{1b}b' not declared"),
            "Identifier 'a\\u{1b}b' not declared"
        );
        assert_eq!(escape_controls("plain\ttext"), "plain\ttext");
    }
}
