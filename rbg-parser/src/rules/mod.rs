//! The `#rules` section (spec sections 7-9): parse and type ([`parse`], [`typing`]), check that
//! the whole expression is a move, lower to the IR and number the actions ([`lower`]).

pub(crate) mod lower;
pub(crate) mod parse;
pub(crate) mod typing;

use crate::cursor::Cursor;
use crate::decl::Declarations;
use crate::diag::Diagnostic;
use crate::expand::Expanded;
use crate::ir::{LabelId, Rule};

/// The names an identifier in the rules may denote.
pub(crate) struct Names<'d> {
    pub decls: &'d Declarations,
    /// Edge labels, sorted (a label's id is its position).
    pub labels: &'d [String],
    /// Relation words of a `tiling` board, each standing for a choice of labels.
    pub relations: &'d [(String, Vec<LabelId>)],
}

impl<'d> Names<'d> {
    pub(crate) fn label(&self, name: &str) -> Option<LabelId> {
        self.labels.binary_search_by(|l| l.as_str().cmp(name)).ok().map(|i| i as LabelId)
    }

    pub(crate) fn relation(&self, name: &str) -> Option<&'d [LabelId]> {
        self.relations.iter().find(|(word, _)| word == name).map(|(_, labels)| labels.as_slice())
    }
}

/// The lowered, numbered rules and the number of modifiers.
pub(crate) fn build_rules(
    expanded: &Expanded,
    names: &Names,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(Rule, u32), Diagnostic> {
    let mut cursor = Cursor::new(&expanded.rules, &expanded.trails);
    let tree = parse::Parser::new(&mut cursor, names).parse()?;
    cursor.warn_if_trailing("'rules' segment", warnings)?;
    let error_at = |node: &parse::Node, message: String| match node.at {
        Some(token) => cursor.error_at(token, message),
        None => Diagnostic::error(message, Some(expanded.rules.end)),
    };
    if !tree.ty.is_move() {
        let message = format!("Segment 'rules' is of type '{}' (should be move  expression)", tree.ty.name());
        return Err(error_at(&tree, message));
    }
    let mut rule = lower::Lowering::new(&error_at).lower_move(&tree)?;
    let modifiers = lower::number_actions(&mut rule);
    Ok((rule, modifiers))
}

#[cfg(test)]
mod tests;
