//! The rules expression parser (spec section 7): one operator-precedence parser for moves,
//! arithmetic, assignments and lists, typing every node as it is built (section 8).
//!
//! The parser is iterative: an explicit stack of frames, one per open bracket, each with an
//! operand stack and an operator stack (shunting-yard). Deep nesting therefore cannot overflow
//! the Rust stack while parsing; it is still capped ([`MAX_NESTING`]) because the later passes
//! over the tree are recursive.
//!
//! Grouping follows the reference: every operator has its own precedence level and a run of the
//! same operator is one n-ary node, so `a * b / c` is `a * (b / c)` and `a - b + c` is
//! `(a - b) + c`. A sign is read only where an operand is expected. After a primary whose
//! content is a move (a label, a switch, `.`, or a bracket around a move), `*` and `^n` are
//! suffixes; after anything else `*` is multiplication and `^` ends the expression.

use crate::cursor::Cursor;
use crate::diag::Diagnostic;
use crate::ir::{LabelId, PieceId, PlayerIdx, VarId};
use crate::token::{Sym, Token, TokenKind};

use super::typing::{type_group, type_operator, Bracket, Operator, Suffix, Ty};
use super::Names;

/// Brackets may nest at most this deep. The reference has no limit, but the passes over the
/// lowered tree (ours, and those of the interpreter and compiler) are recursive, and a debug
/// build spends a few kilobytes of stack per level; 256 levels fit a 2 MiB thread stack with
/// a wide margin and are far beyond any real game (the corpus nests at most 16 deep, in chess).
pub(crate) const MAX_NESTING: usize = 256;

const EXPRESSION: &str = "expression";

/// A typed syntax node.
#[derive(Debug)]
pub(crate) struct Node<'a> {
    pub kind: NodeKind<'a>,
    pub ty: Ty,
    /// The token the node starts at (`None` only for an empty top-level expression).
    pub at: Option<&'a Token>,
}

#[derive(Debug)]
pub(crate) enum NodeKind<'a> {
    /// The empty expression (an empty pieces sequence).
    Empty,
    /// A literal with its sign applied (32-bit, as in the reference).
    Literal(i32),
    Piece(PieceId),
    Player(PlayerIdx),
    Variable(VarId),
    Label(LabelId),
    SwitchPlayer(PlayerIdx),
    SwitchKeeper,
    Noop,
    Op(Operator, Vec<Node<'a>>),
    /// A bracket around `content`, or a bare leaf with a suffix ([`Bracket::None`]).
    Group {
        bracket: Bracket,
        suffix: Suffix,
        content: Box<Node<'a>>,
    },
}

/// An operator waiting for its right operands: `arity` operands on top of the operand stack
/// belong to it once the run ends.
struct Pending<'a> {
    op: Operator,
    /// The operator token (for juxtaposition, which has none: the first token of its second
    /// operand, used only if the first operand has no token).
    token: &'a Token,
    arity: usize,
}

/// The expression inside one open bracket, or the top-level expression.
#[derive(Default)]
struct Frame<'a> {
    operands: Vec<Node<'a>>,
    ops: Vec<Pending<'a>>,
}

/// An open bracket: its token, its kind and the expression read inside it so far.
struct OpenBracket<'a> {
    token: &'a Token,
    bracket: Bracket,
    frame: Frame<'a>,
}

/// What the parser looks for next.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Expect {
    /// The first operand of an expression, which may be empty.
    FirstOperand,
    /// An operand after a binary operator.
    Operand,
    /// A binary operator, the start of a juxtaposed operand, or the end of the expression.
    Operator,
}

pub(crate) struct Parser<'c, 'a> {
    cursor: &'c mut Cursor<'a>,
    names: &'c Names<'c>,
    top: Frame<'a>,
    /// Innermost last.
    open: Vec<OpenBracket<'a>>,
}

impl<'c, 'a> Parser<'c, 'a> {
    pub(crate) fn new(cursor: &'c mut Cursor<'a>, names: &'c Names<'c>) -> Self {
        Parser { cursor, names, top: Frame::default(), open: Vec::new() }
    }

    /// Parses one expression; stops (without consuming) at the first token that cannot continue
    /// it at the top level.
    pub(crate) fn parse(mut self) -> Result<Node<'a>, Diagnostic> {
        self.parse_expression().map_err(|error| match self.open.last() {
            Some(open) => explain_unclosed(error, open.token, open.bracket),
            None => error,
        })
    }

    fn parse_expression(&mut self) -> Result<Node<'a>, Diagnostic> {
        let mut expect = Expect::FirstOperand;
        loop {
            expect = match expect {
                Expect::FirstOperand | Expect::Operand => match self.operand(expect)? {
                    Some(next) => next,
                    None => match self.close_frame()? {
                        Some(top) => return Ok(top),
                        None => Expect::Operator,
                    },
                },
                Expect::Operator => match self.operator()? {
                    true => Expect::Operand,
                    false => match self.close_frame()? {
                        Some(top) => return Ok(top),
                        None => Expect::Operator,
                    },
                },
            };
        }
    }

    /// The innermost expression being read.
    fn frame(&mut self) -> &mut Frame<'a> {
        match self.open.last_mut() {
            Some(open) => &mut open.frame,
            None => &mut self.top,
        }
    }

    /// Reads an operand, or opens a bracket. Returns what to expect next, or `None` if an
    /// optional first operand is absent (the expression is empty).
    fn operand(&mut self, expect: Expect) -> Result<Option<Expect>, Diagnostic> {
        let token = match expect {
            Expect::FirstOperand => match self.cursor.peek()? {
                Some(token) => token,
                None => return Ok(None),
            },
            _ => self.cursor.peek_required(EXPRESSION)?,
        };
        let TokenKind::Sym(sym) = &token.kind else {
            let leaf = match &token.kind {
                TokenKind::Number(n) => literal(*n, false, token),
                TokenKind::Ident(name) => self.identifier(name, token)?,
                _ => return self.no_operand(expect, token),
            };
            self.cursor.advance();
            self.primary_done(leaf, Bracket::None, token)?;
            return Ok(Some(Expect::Operator));
        };
        let leaf = match sym {
            Sym::Plus | Sym::Minus => {
                self.cursor.advance();
                let digits = self.cursor.peek_required("integer")?;
                let TokenKind::Number(n) = digits.kind else {
                    return Err(self.cursor.encountered("Expected digit", digits));
                };
                literal(n, *sym == Sym::Minus, token)
            }
            Sym::Arrow => {
                self.cursor.advance();
                let player = self.cursor.peek_required("arrow expression")?;
                let TokenKind::Ident(name) = &player.kind else {
                    return Err(self.cursor.encountered("Expected identifier", player));
                };
                let index =
                    self.names.decls.player(name).ok_or_else(|| {
                        self.cursor.error_at(player, format!("Player {name} was not declared"))
                    })?;
                leaf_node(NodeKind::SwitchPlayer(index), Ty::MoveExpression, token)
            }
            Sym::DoubleArrow => leaf_node(NodeKind::SwitchKeeper, Ty::MoveExpression, token),
            Sym::Dot => leaf_node(NodeKind::Noop, Ty::MoveExpression, token),
            _ => match opening_bracket(*sym) {
                Some(bracket) => {
                    self.open(token, bracket)?;
                    return Ok(Some(Expect::FirstOperand));
                }
                None => return self.no_operand(expect, token),
            },
        };
        self.cursor.advance();
        self.primary_done(leaf, Bracket::None, token)?;
        Ok(Some(Expect::Operator))
    }

    /// `token` cannot start an operand: an empty expression where allowed, else an error.
    fn no_operand(&self, expect: Expect, token: &Token) -> Result<Option<Expect>, Diagnostic> {
        match expect {
            Expect::FirstOperand => Ok(None),
            _ => Err(self.cursor.encountered("Expected some operand", token)),
        }
    }

    fn identifier(&self, name: &str, token: &'a Token) -> Result<Node<'a>, Diagnostic> {
        let decls = self.names.decls;
        let (kind, ty) = if let Some(piece) = decls.piece(name) {
            (NodeKind::Piece(piece), Ty::PieceName)
        } else if let Some(player) = decls.player(name) {
            (NodeKind::Player(player), Ty::PlayerName)
        } else if let Some(variable) = decls.variable(name) {
            (NodeKind::Variable(variable), Ty::Variable)
        } else if let Some(label) = self.names.label(name) {
            (NodeKind::Label(label), Ty::ShiftMove)
        } else if let Some(labels) = self.names.relation(name) {
            return Ok(relation_node(labels, token));
        } else {
            return Err(self.cursor.error_at(token, format!("Identifier '{name}' not declared")));
        };
        Ok(leaf_node(kind, ty, token))
    }

    fn open(&mut self, token: &'a Token, bracket: Bracket) -> Result<(), Diagnostic> {
        if self.open.len() >= MAX_NESTING {
            return Err(self.cursor.error_at(
                token,
                format!("Brackets are nested too deeply (more than {MAX_NESTING} levels)"),
            ));
        }
        self.cursor.advance();
        self.open.push(OpenBracket { token, bracket, frame: Frame::default() });
        Ok(())
    }

    /// Reads a binary operator or notices a juxtaposed operand. Returns `false` at the end of
    /// the current expression.
    fn operator(&mut self) -> Result<bool, Diagnostic> {
        let Some(token) = self.cursor.peek()? else { return Ok(false) };
        let op = match &token.kind {
            TokenKind::Sym(sym) => match binary_operator(*sym) {
                Some(op) => {
                    self.cursor.advance();
                    op
                }
                None if opening_bracket(*sym).is_some()
                    || matches!(sym, Sym::Arrow | Sym::DoubleArrow | Sym::Dot) =>
                {
                    Operator::Concat
                }
                None => return Ok(false),
            },
            TokenKind::Number(_) | TokenKind::Ident(_) => Operator::Concat,
            TokenKind::Keyword(_) | TokenKind::Str(_) => return Ok(false),
        };
        self.push_operator(op, token)?;
        Ok(true)
    }

    /// Reduces tighter operators, then extends a run of the same operator or starts one.
    fn push_operator(&mut self, op: Operator, token: &'a Token) -> Result<(), Diagnostic> {
        while self.frame().ops.last().is_some_and(|top| top.op.level() > op.level()) {
            self.reduce()?;
        }
        let frame = self.frame();
        match frame.ops.last_mut() {
            Some(top) if top.op == op => top.arity += 1,
            _ => frame.ops.push(Pending { op, token, arity: 2 }),
        }
        Ok(())
    }

    /// Builds the node of the innermost pending operator from its operands.
    fn reduce(&mut self) -> Result<(), Diagnostic> {
        let frame = self.frame();
        let Some(pending) = frame.ops.pop() else { return Ok(()) };
        let start = frame.operands.len().saturating_sub(pending.arity);
        let operands: Vec<Node<'a>> = frame.operands.drain(start..).collect();
        let types: Vec<Ty> = operands.iter().map(|n| n.ty).collect();
        let at = operands.first().and_then(|n| n.at);
        // An operator's error points at the operator; a concatenation's at its start.
        let culprit = match pending.op {
            Operator::Concat => at.unwrap_or(pending.token),
            _ => pending.token,
        };
        let ty = type_operator(pending.op, &types).map_err(|msg| self.cursor.error_at(culprit, msg))?;
        self.frame().operands.push(Node { kind: NodeKind::Op(pending.op, operands), ty, at });
        Ok(())
    }

    /// Ends the innermost expression. For a bracket, reads its closing token and completes the
    /// bracket as an operand of the enclosing expression (returns `None`); at the top level,
    /// returns the whole expression.
    fn close_frame(&mut self) -> Result<Option<Node<'a>>, Diagnostic> {
        while !self.frame().ops.is_empty() {
            self.reduce()?;
        }
        let Some(OpenBracket { token: open, bracket, mut frame }) = self.open.pop() else {
            let empty = Node { kind: NodeKind::Empty, ty: Ty::PiecesSequence, at: None };
            return Ok(Some(self.top.operands.pop().unwrap_or(empty)));
        };
        let empty = Node { kind: NodeKind::Empty, ty: Ty::PiecesSequence, at: Some(open) };
        let content = frame.operands.pop().unwrap_or(empty);
        let close = self.cursor.peek_required(EXPRESSION).map_err(|e| explain_unclosed(e, open, bracket))?;
        let expected = closing_bracket(bracket);
        if !close.is_sym(expected) {
            let error =
                self.cursor.encountered(&format!("Expected corresponding '{}'", expected.as_str()), close);
            return Err(explain_unclosed(error, open, bracket));
        }
        self.cursor.advance();
        self.primary_done(content, bracket, open)?;
        Ok(None)
    }

    /// A primary starting at `at` is complete: reads a suffix if its content is a move, types
    /// the bracket and pushes the result as an operand.
    fn primary_done(&mut self, content: Node<'a>, bracket: Bracket, at: &'a Token) -> Result<(), Diagnostic> {
        let suffix = if content.ty.is_move() { self.suffix()? } else { Suffix::None };
        let node = if bracket == Bracket::None && suffix == Suffix::None {
            content
        } else {
            let ty = type_group(bracket, suffix, content.ty).map_err(|msg| self.cursor.error_at(at, msg))?;
            Node { kind: NodeKind::Group { bracket, suffix, content: Box::new(content) }, ty, at: Some(at) }
        };
        self.frame().operands.push(node);
        Ok(())
    }

    /// `*`, `^n` or nothing.
    fn suffix(&mut self) -> Result<Suffix, Diagnostic> {
        let Some(token) = self.cursor.peek()? else { return Ok(Suffix::None) };
        if token.is_sym(Sym::Star) {
            self.cursor.advance();
            return Ok(Suffix::Star);
        }
        if !token.is_sym(Sym::Caret) {
            return Ok(Suffix::None);
        }
        self.cursor.advance();
        let number = self.cursor.peek_required("integer")?;
        let TokenKind::Number(n) = number.kind else {
            return Err(self.cursor.encountered("Expected number", number));
        };
        self.cursor.advance();
        Ok(Suffix::Power(n))
    }
}

/// A number token with an optional minus, as the reference's 32-bit `int` (values of 2^31 and
/// more wrap to negative and then fail typing).
fn literal<'a>(digits: u32, negative: bool, at: &'a Token) -> Node<'a> {
    let value = digits as i32;
    let value = if negative { value.wrapping_neg() } else { value };
    let ty = if value >= 0 { Ty::UnsignedInteger } else { Ty::Integer };
    leaf_node(NodeKind::Literal(value), ty, at)
}

/// A relation word of a tiling board: the choice `(l1 + l2 + ...)` of its labels.
/// A relation with one label is just that shift (the board keeps only relations with labels).
fn relation_node<'a>(labels: &[LabelId], at: &'a Token) -> Node<'a> {
    if let [label] = labels {
        return leaf_node(NodeKind::Label(*label), Ty::ShiftMove, at);
    }
    let shifts: Vec<Node<'a>> =
        labels.iter().map(|&l| leaf_node(NodeKind::Label(l), Ty::ShiftMove, at)).collect();
    let sum = Node { kind: NodeKind::Op(Operator::Plus, shifts), ty: Ty::MoveExpression, at: Some(at) };
    let content = Box::new(sum);
    Node {
        kind: NodeKind::Group { bracket: Bracket::Round, suffix: Suffix::None, content },
        ty: Ty::MoveExpression,
        at: Some(at),
    }
}

fn leaf_node<'a>(kind: NodeKind<'a>, ty: Ty, at: &'a Token) -> Node<'a> {
    Node { kind, ty, at: Some(at) }
}

fn binary_operator(sym: Sym) -> Option<Operator> {
    Some(match sym {
        Sym::Comma => Operator::Comma,
        Sym::Assign => Operator::Assign,
        Sym::Lt => Operator::Less,
        Sym::Le => Operator::LessEqual,
        Sym::Gt => Operator::Greater,
        Sym::Ge => Operator::GreaterEqual,
        Sym::Eq => Operator::Equal,
        Sym::Ne => Operator::NotEqual,
        Sym::Plus => Operator::Plus,
        Sym::Minus => Operator::Minus,
        Sym::Star => Operator::Times,
        Sym::Slash => Operator::Divide,
        _ => return None,
    })
}

fn opening_bracket(sym: Sym) -> Option<Bracket> {
    Some(match sym {
        Sym::LParen => Bracket::Round,
        Sym::LBrace => Bracket::On,
        Sym::LBracket => Bracket::Off,
        Sym::LBracketDollar => Bracket::Assignment,
        Sym::LBraceDollar => Bracket::Comparison,
        Sym::LBraceQuestion => Bracket::Condition,
        Sym::LBraceBang => Bracket::NegatedCondition,
        _ => return None,
    })
}

/// Points a missing-closer error (end of input, or a wrong closing bracket) at the bracket left
/// open: a label on it and a note saying what was expected. Other errors (such as a deferred
/// expansion error met at the end) are returned unchanged. The reference text is not affected.
fn explain_unclosed(error: Diagnostic, open: &Token, bracket: Bracket) -> Diagnostic {
    let missing_closer = error.message.starts_with("Unexpected end of input")
        || error.message.starts_with("Expected corresponding");
    if !missing_closer || !error.labels.is_empty() {
        return error;
    }
    let closer = closing_bracket(bracket).as_str();
    let at_end = error.message.starts_with("Unexpected end of input");
    let note = if at_end {
        format!("expected '{closer}' before the end of the section to close '{}'", open.kind)
    } else {
        format!("expected '{closer}' here to close '{}'; brackets close innermost first", open.kind)
    };
    error.with_label(open.span, format!("this '{}' is not closed", open.kind)).with_note(note)
}

fn closing_bracket(bracket: Bracket) -> Sym {
    match bracket {
        Bracket::Round | Bracket::None => Sym::RParen,
        Bracket::Off | Bracket::Assignment => Sym::RBracket,
        Bracket::On | Bracket::Comparison | Bracket::Condition | Bracket::NegatedCondition => Sym::RBrace,
    }
}
