//! Diagnostics as data: errors and warnings with a span and a macro-expansion trail.
//!
//! The library never prints. The CLI renders diagnostics (source snippet, trail) and
//! [`Diagnostic::reference_text`] reproduces the reference parser's one-line format.
//!
//! Beyond the reference's message, a diagnostic may carry [`Label`]s (other places in the
//! source that explain it, such as the bracket left open) and free-text notes (what was
//! expected, how to fix it) and a [`Fix`] (an edit an editor can apply). The reference format
//! ignores them; richer renderers show them.
//!
//! Junk input can produce a warning for nearly every byte. [`WarningLimit`] keeps the first
//! [`MAX_WARNINGS_OF_A_KIND`] warnings of each kind and replaces the rest by one summary.

use std::collections::HashMap;

use crate::source::{SourceFile, Span};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    Error,
    Warning,
}

/// One step of the macro-expansion stack a diagnostic arose in, innermost first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrailFrame {
    /// Inside the body of macro `name`, called at `call`.
    Macro { name: String, call: Span },
    /// Inside the argument passed for parameter `param`, written at `arg`.
    Argument { param: String, arg: Span },
}

impl TrailFrame {
    pub fn span(&self) -> Span {
        match self {
            TrailFrame::Macro { call, .. } => *call,
            TrailFrame::Argument { arg, .. } => *arg,
        }
    }

    /// The reference parser's wording of this frame.
    pub fn reference_text(&self) -> String {
        match self {
            TrailFrame::Macro { name, .. } => format!("in expansion of macro '{name}'"),
            TrailFrame::Argument { param, .. } => format!("in expansion of '{param}' macro argument"),
        }
    }
}

/// A secondary place in the source that helps explain a diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// The message text, worded as the reference parser words it (spec section 13).
    pub message: String,
    /// Where it happened; `None` for file-level problems such as a missing section.
    pub span: Option<Span>,
    /// Macro expansions the offending token came from, innermost first.
    pub trail: Vec<TrailFrame>,
    /// Other places that explain the problem (not part of the reference format).
    pub labels: Vec<Label>,
    /// Extra help, one sentence each (not part of the reference format).
    pub notes: Vec<String>,
    /// A suggested edit that resolves the diagnostic, for editors to offer (not part of the
    /// reference format). Boxed: most diagnostics have none, and `Diagnostic` travels in
    /// every parser `Result`.
    pub fix: Option<Box<Fix>>,
}

/// A machine-applicable suggestion: replace the bytes of `span` by `replacement`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub span: Span,
    pub replacement: String,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>, span: Option<Span>) -> Self {
        Diagnostic::new(Severity::Error, message.into(), span)
    }

    pub fn warning(message: impl Into<String>, span: Option<Span>) -> Self {
        Diagnostic::new(Severity::Warning, message.into(), span)
    }

    fn new(severity: Severity, message: String, span: Option<Span>) -> Self {
        Diagnostic {
            severity,
            message,
            span,
            trail: Vec::new(),
            labels: Vec::new(),
            notes: Vec::new(),
            fix: None,
        }
    }

    /// Adds a secondary place with its explanation.
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label { span, message: message.into() });
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Adds a suggested edit.
    pub fn with_fix(mut self, span: Span, replacement: impl Into<String>) -> Self {
        self.fix = Some(Box::new(Fix { span, replacement: replacement.into() }));
        self
    }

    pub fn with_trail(mut self, trail: Vec<TrailFrame>) -> Self {
        self.trail = trail;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `Error (line L, character C): text`, followed by one `\n\tin expansion of …` line per
    /// trail frame, as the reference parser prints it.
    pub fn reference_text(&self, file: &SourceFile) -> String {
        let kind = match self.severity {
            Severity::Error => "Error",
            Severity::Warning => "Warning",
        };
        let mut out = match self.span {
            Some(span) => {
                let (line, col) = file.line_col(span.start);
                format!("{kind} (line {line}, character {col}): {}", self.message)
            }
            None => format!("{kind}: {}", self.message),
        };
        for frame in &self.trail {
            out.push_str("\n\t");
            out.push_str(&frame.reference_text());
        }
        out
    }
}

/// `text` cut to `max_chars` characters, marked with `…` and the count left out: a message
/// quoting a huge token (a megabyte-long word) stays printable.
pub fn clip_text(text: &str, max_chars: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max_chars) {
        None => text.into(),
        Some((at, _)) => format!("{}… ({} more characters)", &text[..at], text[at..].chars().count()).into(),
    }
}

/// How many warnings of one kind [`WarningLimit`] keeps. Real games produce a handful of
/// warnings; beyond 50 of one kind the input is junk and more copies help nobody.
pub const MAX_WARNINGS_OF_A_KIND: usize = 50;

/// Keeps the first [`MAX_WARNINGS_OF_A_KIND`] warnings of each kind and counts the rest.
///
/// The kind of a warning is its message up to the first `'`, so "Stray 'x' character in file"
/// and "Stray 'y' character in file" are one kind while quoted names do not split it further.
/// Errors are always kept.
#[derive(Debug, Default)]
pub struct WarningLimit {
    /// Per kind: warnings seen, and the first message (quoted in the summary).
    seen: HashMap<String, (usize, String)>,
    /// Kinds in the order they first went over the limit.
    over: Vec<String>,
}

impl WarningLimit {
    /// Appends `diagnostic` to `out` unless it is a warning of a kind already kept
    /// [`MAX_WARNINGS_OF_A_KIND`] times.
    pub fn push(&mut self, out: &mut Vec<Diagnostic>, diagnostic: Diagnostic) {
        if diagnostic.is_error() {
            out.push(diagnostic);
            return;
        }
        let kind = diagnostic.message.split('\'').next().unwrap_or_default();
        let (count, _) = match self.seen.get_mut(kind) {
            Some(entry) => entry,
            None => self.seen.entry(kind.to_string()).or_insert((0, diagnostic.message.clone())),
        };
        *count += 1;
        if *count <= MAX_WARNINGS_OF_A_KIND {
            out.push(diagnostic);
        } else if *count == MAX_WARNINGS_OF_A_KIND + 1 {
            self.over.push(kind.to_string());
        }
    }

    /// One warning per kind that went over the limit, saying how many were left out.
    pub fn summaries(&self) -> Vec<Diagnostic> {
        self.over
            .iter()
            .map(|kind| {
                let (count, example) = &self.seen[kind];
                Diagnostic::warning(
                    format!(
                        "{} more warnings like \"{example}\" are not shown (only the first \
                         {MAX_WARNINGS_OF_A_KIND} of a kind are kept)",
                        count - MAX_WARNINGS_OF_A_KIND
                    ),
                    None,
                )
            })
            .collect()
    }

    /// Limits a finished list: the kept diagnostics in order, the summaries after the last
    /// warning (before the error, which always comes last).
    pub fn apply(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
        let mut limit = WarningLimit::default();
        let mut out = Vec::with_capacity(diagnostics.len().min(1024));
        let mut errors = Vec::new();
        for d in diagnostics {
            if d.is_error() {
                errors.push(d);
            } else {
                limit.push(&mut out, d);
            }
        }
        out.extend(limit.summaries());
        out.extend(errors);
        out
    }
}
