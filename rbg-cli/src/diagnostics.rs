//! Rendering parser diagnostics on a terminal (codespan-reporting) or in the reference format.

use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use rbg_parser::diag::{Diagnostic, Severity};
use rbg_parser::source::SourceFile;

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

/// Prints diagnostics to stderr.
pub fn emit(file: &SourceFile, diagnostics: &[Diagnostic], format: Format) {
    match format {
        Format::Reference => {
            for d in diagnostics {
                eprintln!("{}", d.reference_text(file));
            }
        }
        Format::Human => emit_human(file, diagnostics),
    }
}

fn emit_human(file: &SourceFile, diagnostics: &[Diagnostic]) {
    let text = display_text(&file.bytes);
    let files = SimpleFile::new(file.name.as_str(), text.as_str());
    let writer = termcolor::StandardStream::stderr(color_choice());
    let config = term::Config::default();
    for d in diagnostics {
        let report = to_report(d);
        // A failed write to stderr leaves nothing better to do than to go on.
        let _ = term::emit(&mut writer.lock(), &config, &files, &report);
    }
}

fn color_choice() -> termcolor::ColorChoice {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        termcolor::ColorChoice::Auto
    } else {
        termcolor::ColorChoice::Never
    }
}

/// The source as UTF-8 with the same byte offsets: valid UTF-8 is kept; otherwise every
/// non-ASCII byte is shown as `?` so spans still point at the right characters.
fn display_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => bytes.iter().map(|&b| if b < 0x80 { b as char } else { '?' }).collect(),
    }
}

fn to_report(d: &Diagnostic) -> Report<()> {
    let report = match d.severity {
        Severity::Error => Report::error(),
        Severity::Warning => Report::warning(),
    };
    let mut labels = Vec::new();
    if let Some(span) = d.span {
        labels.push(Label::primary((), span.start as usize..span.end as usize));
    }
    for frame in &d.trail {
        let span = frame.span();
        labels.push(
            Label::secondary((), span.start as usize..span.end as usize).with_message(frame.reference_text()),
        );
    }
    report.with_message(&d.message).with_labels(labels)
}
