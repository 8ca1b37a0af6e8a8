//! The macro bank (spec section 4.1 and 4.3): definitions by name and arity, and lookup by
//! visibility.
//!
//! A name has either one arity-0 definition or any number of definitions with distinct non-zero
//! arities (overloading). Registration reproduces the reference exactly, including its quirks:
//! redefining an arity-0 macro is the zero/non-zero error, and redefining a non-zero arity only
//! warns "overwriting" while the first definition is kept.

use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use crate::diag::Diagnostic;
use crate::source::Span;

/// One macro definition.
#[derive(Clone, Debug)]
pub(super) struct MacroDef {
    /// Parameter names in order (duplicates allowed: the first one receives the argument).
    pub params: Vec<Rc<str>>,
    /// Indices of the body's tokens in the file's token list.
    pub body: Range<usize>,
    /// The definition's context order: it is visible in token strings of a greater order.
    pub order: u32,
}

#[derive(Debug)]
enum Overloads {
    /// The one arity-0 definition of a name.
    Plain(MacroDef),
    /// Definitions with distinct arities >= 1, in file order.
    WithParams(Vec<MacroDef>),
}

/// What an identifier means in a token string of a given context order.
pub(super) enum Visible<'m> {
    /// No macro of that name is visible: an ordinary identifier.
    Nothing,
    /// A visible arity-0 macro.
    Plain(&'m MacroDef),
    /// At least one visible macro with parameters; an argument list must follow.
    WithParams(&'m [MacroDef]),
}

#[derive(Debug, Default)]
pub(super) struct MacroBank {
    by_name: HashMap<Rc<str>, Overloads>,
}

impl MacroBank {
    /// Registers a definition read from the file (section 4.1 rules).
    pub fn define(
        &mut self,
        name: Rc<str>,
        name_span: Span,
        definition: MacroDef,
        warnings: &mut Vec<Diagnostic>,
    ) -> Result<(), Diagnostic> {
        let arity = definition.params.len();
        let Some(existing) = self.by_name.get_mut(&name) else {
            let overloads = match arity {
                0 => Overloads::Plain(definition),
                _ => Overloads::WithParams(vec![definition]),
            };
            self.by_name.insert(name, overloads);
            return Ok(());
        };
        match existing {
            Overloads::WithParams(definitions) if arity > 0 => {
                if definitions.iter().any(|d| d.params.len() == arity) {
                    // The reference announces an overwrite but keeps the first definition.
                    let message = format!(
                        "Macro '{name}' with arity {arity} already defined, overwriting previous definition"
                    );
                    warnings.push(Diagnostic::warning(message, Some(name_span)));
                } else {
                    definitions.push(definition);
                }
                Ok(())
            }
            // Also reached when an arity-0 macro is redefined with arity 0, as in the reference.
            _ => Err(Diagnostic::error(
                "Cannot define two macros with the same name with zero and non zero arities",
                Some(name_span),
            )),
        }
    }

    /// The macros named `name` visible in a token string of context order `context`.
    pub fn visible(&self, name: &str, context: u32) -> Visible<'_> {
        match self.by_name.get(name) {
            Some(Overloads::Plain(definition)) if definition.order < context => Visible::Plain(definition),
            Some(Overloads::WithParams(definitions)) if definitions.iter().any(|d| d.order < context) => {
                Visible::WithParams(definitions)
            }
            _ => Visible::Nothing,
        }
    }
}

/// The visible definition among `definitions` taking `arity` arguments.
pub(super) fn with_arity(definitions: &[MacroDef], arity: usize, context: u32) -> Option<&MacroDef> {
    definitions.iter().find(|d| d.order < context && d.params.len() == arity)
}
