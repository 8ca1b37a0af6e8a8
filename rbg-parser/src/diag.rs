//! Diagnostics as data: errors and warnings with a span and a macro-expansion trail.
//!
//! The library never prints. The CLI renders diagnostics (source snippet, trail) and
//! [`Diagnostic::reference_text`] reproduces the reference parser's one-line format.

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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// The message text, worded as the reference parser words it (spec section 13).
    pub message: String,
    /// Where it happened; `None` for file-level problems such as a missing section.
    pub span: Option<Span>,
    /// Macro expansions the offending token came from, innermost first.
    pub trail: Vec<TrailFrame>,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>, span: Option<Span>) -> Self {
        Diagnostic { severity: Severity::Error, message: message.into(), span, trail: Vec::new() }
    }

    pub fn warning(message: impl Into<String>, span: Option<Span>) -> Self {
        Diagnostic { severity: Severity::Warning, message: message.into(), span, trail: Vec::new() }
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
