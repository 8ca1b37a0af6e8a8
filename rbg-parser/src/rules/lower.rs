//! Lowering typed rules to the IR (spec section 9): the game-move tree, simplified and flattened,
//! normalised arithmetic, and the reference's action indices.
//!
//! Simplification and flattening happen in the constructors [`concat`] and [`alternative`]:
//! children are lowered first, nested concatenations (alternatives) are spliced into their
//! parent, and a node left with one child is replaced by it, so the tree is in normal form
//! bottom-up. Empty alternatives (`[]`) are kept.
//!
//! `m^n` makes `max(n, 1)` copies of `m`; since `n` is a 32-bit number (and powers nest), the
//! total number of copied nodes is capped at [`MAX_COPIED_NODES`] so that no input can exhaust
//! memory.

use crate::diag::Diagnostic;
use crate::ir::{Action, ActionKind, Arith, PieceId, RelOp, Rule, VarId};

use super::parse::{Node, NodeKind};
use super::typing::{Bracket, Operator, Suffix};

/// At most this many rule nodes may be created by `^n` copies in one game.
pub(crate) const MAX_COPIED_NODES: usize = 1 << 21;

/// Lowers a move-typed node. `error_at` turns a message into a diagnostic at a node.
pub(crate) struct Lowering<'e> {
    copied: usize,
    error_at: &'e dyn Fn(&Node, String) -> Diagnostic,
}

impl<'e> Lowering<'e> {
    pub(crate) fn new(error_at: &'e dyn Fn(&Node, String) -> Diagnostic) -> Self {
        Lowering { copied: 0, error_at }
    }

    /// Lowers a move. The recursion is as deep as the brackets nest, so the recursive functions
    /// keep their frames small: this one only dispatches, leaves and action brackets are
    /// lowered by non-recursive helpers, and loops are plain (iterator adapters add several
    /// frames per level in debug builds).
    pub(crate) fn lower_move(&mut self, node: &Node) -> Result<Rule, Diagnostic> {
        match &node.kind {
            NodeKind::Op(op, operands) => self.lower_sequence(node, *op, operands),
            NodeKind::Group { bracket, suffix, content } => {
                self.lower_group(node, *bracket, *suffix, content)
            }
            _ => self.lower_leaf(node),
        }
    }

    /// Concatenation or alternative.
    fn lower_sequence(&mut self, node: &Node, op: Operator, operands: &[Node]) -> Result<Rule, Diagnostic> {
        let mut children = Vec::with_capacity(operands.len());
        for operand in operands {
            children.push(self.lower_move(operand)?);
        }
        match op {
            Operator::Concat => Ok(concat(children)),
            Operator::Plus => Ok(alternative(children)),
            _ => Err(self.internal(node)),
        }
    }

    fn lower_group(
        &mut self,
        node: &Node,
        bracket: Bracket,
        suffix: Suffix,
        content: &Node,
    ) -> Result<Rule, Diagnostic> {
        match bracket {
            Bracket::None | Bracket::Round => {
                let inner = self.lower_move(content)?;
                self.apply_suffix(node, inner, suffix)
            }
            Bracket::Condition | Bracket::NegatedCondition => {
                let body = Box::new(self.lower_move(content)?);
                Ok(action(ActionKind::Pattern { positive: bracket == Bracket::Condition, body }))
            }
            _ => self.lower_action_bracket(bracket, content),
        }
    }

    fn lower_leaf(&self, node: &Node) -> Result<Rule, Diagnostic> {
        Ok(action(match &node.kind {
            NodeKind::Label(label) => ActionKind::Shift(*label),
            NodeKind::SwitchPlayer(player) => ActionKind::SwitchPlayer(*player),
            NodeKind::SwitchKeeper => ActionKind::SwitchKeeper,
            NodeKind::Noop => ActionKind::Noop,
            _ => return Err(self.internal(node)),
        }))
    }

    /// Ons, offs, assignments and comparisons.
    fn lower_action_bracket(&self, bracket: Bracket, content: &Node) -> Result<Rule, Diagnostic> {
        Ok(match bracket {
            Bracket::On => {
                let mut pieces = self.pieces(content)?;
                pieces.sort_unstable();
                pieces.dedup();
                action(ActionKind::On(pieces))
            }
            Bracket::Off => {
                alternative(self.pieces(content)?.into_iter().map(|p| action(ActionKind::Off(p))).collect())
            }
            Bracket::Assignment => concat(self.assignments(content)?),
            Bracket::Comparison => match &content.kind {
                NodeKind::Op(op, sides) => match (relation(*op), sides.as_slice()) {
                    (Some(rel), [left, right]) => {
                        action(ActionKind::Compare(self.arith(left)?, rel, self.arith(right)?))
                    }
                    _ => return Err(self.internal(content)),
                },
                _ => return Err(self.internal(content)),
            },
            _ => return Err(self.internal(content)),
        })
    }

    /// `m*` is a star; `m^n` is `max(n, 1)` copies of `m` in sequence.
    fn apply_suffix(&mut self, node: &Node, inner: Rule, suffix: Suffix) -> Result<Rule, Diagnostic> {
        match suffix {
            Suffix::None => Ok(inner),
            Suffix::Star => Ok(Rule::Star(Box::new(inner))),
            Suffix::Power(0 | 1) => Ok(inner),
            Suffix::Power(n) => {
                let copies = n as usize;
                let extra = size(&inner).saturating_mul(copies - 1);
                self.copied = self.copied.saturating_add(extra);
                if self.copied > MAX_COPIED_NODES {
                    return Err((self.error_at)(
                        node,
                        format!("Powers '^n' make the rules too large (more than {MAX_COPIED_NODES} copied nodes)"),
                    ));
                }
                Ok(concat(vec![inner; copies]))
            }
        }
    }

    /// The pieces of a piece list, in written order.
    fn pieces(&self, node: &Node) -> Result<Vec<PieceId>, Diagnostic> {
        match &node.kind {
            NodeKind::Empty => Ok(Vec::new()),
            NodeKind::Piece(piece) => Ok(vec![*piece]),
            NodeKind::Op(Operator::Comma, items) => items
                .iter()
                .map(|item| match item.kind {
                    NodeKind::Piece(piece) => Ok(piece),
                    _ => Err(self.internal(item)),
                })
                .collect(),
            _ => Err(self.internal(node)),
        }
    }

    /// The assignments of an assignment list, in written order.
    fn assignments(&self, node: &Node) -> Result<Vec<Rule>, Diagnostic> {
        match &node.kind {
            NodeKind::Op(Operator::Comma, items) => items.iter().map(|item| self.assignment(item)).collect(),
            _ => Ok(vec![self.assignment(node)?]),
        }
    }

    fn assignment(&self, node: &Node) -> Result<Rule, Diagnostic> {
        let NodeKind::Op(Operator::Assign, sides) = &node.kind else { return Err(self.internal(node)) };
        let [target, value] = sides.as_slice() else { return Err(self.internal(node)) };
        let variable: VarId = match target.kind {
            NodeKind::Variable(v) => v,
            // Player scores come first in the unified numbering.
            NodeKind::Player(p) => p,
            _ => return Err(self.internal(target)),
        };
        Ok(action(ActionKind::Assign(variable, self.arith(value)?)))
    }

    /// Normalised arithmetic: no one-operand operations, sums and products merged into their
    /// parent sum or product; differences and quotients are never merged.
    fn arith(&self, node: &Node) -> Result<Arith, Diagnostic> {
        Ok(match &node.kind {
            NodeKind::Literal(value) => Arith::Const(i64::from(*value)),
            NodeKind::Piece(piece) => Arith::Count(*piece),
            NodeKind::Player(player) => Arith::Var(*player),
            NodeKind::Variable(variable) => Arith::Var(*variable),
            NodeKind::Group { bracket: Bracket::Round, suffix: Suffix::None, content } => {
                self.arith(content)?
            }
            NodeKind::Op(op, operands) => {
                let mut lowered = Vec::with_capacity(operands.len());
                for operand in operands {
                    let operand = self.arith(operand)?;
                    match (op, operand) {
                        (Operator::Plus, Arith::Sum(parts)) | (Operator::Times, Arith::Product(parts)) => {
                            lowered.extend(parts)
                        }
                        (_, operand) => lowered.push(operand),
                    }
                }
                match op {
                    _ if lowered.len() == 1 => lowered.pop().unwrap_or(Arith::Const(0)),
                    Operator::Plus => Arith::Sum(lowered),
                    Operator::Minus => Arith::Difference(lowered),
                    Operator::Times => Arith::Product(lowered),
                    Operator::Divide => Arith::Quotient(lowered),
                    _ => return Err(self.internal(node)),
                }
            }
            _ => return Err(self.internal(node)),
        })
    }

    /// A node whose shape typing should have ruled out (never expected to happen).
    fn internal(&self, node: &Node) -> Diagnostic {
        (self.error_at)(
            node,
            format!("Internal error: unexpected {} while lowering the rules", node.ty.name()),
        )
    }
}

fn relation(op: Operator) -> Option<RelOp> {
    Some(match op {
        Operator::Less => RelOp::Lt,
        Operator::LessEqual => RelOp::Le,
        Operator::Greater => RelOp::Gt,
        Operator::GreaterEqual => RelOp::Ge,
        Operator::Equal => RelOp::Eq,
        Operator::NotEqual => RelOp::Ne,
        _ => return None,
    })
}

/// An action, to be numbered by [`number_actions`].
fn action(kind: ActionKind) -> Rule {
    Rule::Action(Action { kind, index: 0 })
}

/// A concatenation in normal form: nested concatenations spliced, a single child returned.
pub(crate) fn concat(children: Vec<Rule>) -> Rule {
    let mut flat = Vec::with_capacity(children.len());
    for child in children {
        match child {
            Rule::Concat(grandchildren) => flat.extend(grandchildren),
            other => flat.push(other),
        }
    }
    if flat.len() == 1 {
        if let Some(only) = flat.pop() {
            return only;
        }
    }
    Rule::Concat(flat)
}

/// An alternative in normal form: nested alternatives spliced, a single child returned, an
/// empty alternative kept.
pub(crate) fn alternative(children: Vec<Rule>) -> Rule {
    let mut flat = Vec::with_capacity(children.len());
    for child in children {
        match child {
            Rule::Alt(grandchildren) => flat.extend(grandchildren),
            other => flat.push(other),
        }
    }
    if flat.len() == 1 {
        if let Some(only) = flat.pop() {
            return only;
        }
    }
    Rule::Alt(flat)
}

/// Number of rule nodes (pattern bodies included).
fn size(rule: &Rule) -> usize {
    match rule {
        Rule::Concat(children) | Rule::Alt(children) => {
            let mut total = 1usize;
            for child in children {
                total = total.saturating_add(size(child));
            }
            total
        }
        Rule::Star(body) => 1 + size(body),
        Rule::Action(Action { kind: ActionKind::Pattern { body, .. }, .. }) => 1 + size(body),
        Rule::Action(_) => 1,
    }
}

/// Numbers the actions as the reference does (spec 9.2) and returns the number of modifiers.
///
/// Left to right from 1: a modifier takes the next number; any other action is tagged with the
/// number the next modifier will get; everything inside a pattern gets 0 and does not count.
pub(crate) fn number_actions(rule: &mut Rule) -> u32 {
    let mut next = 1;
    number(rule, &mut next);
    next - 1
}

fn number(rule: &mut Rule, next: &mut u32) {
    match rule {
        Rule::Concat(children) | Rule::Alt(children) => {
            for child in children {
                number(child, next);
            }
        }
        Rule::Star(body) => number(body, next),
        Rule::Action(action) => {
            action.index = *next;
            if action.kind.is_modifier() {
                *next += 1;
            }
            // Pattern contents keep index 0.
        }
    }
}
