//! Arithmetic: expressions compiled to small postfix programs with constants folded.
//!
//! Values are `i64`. Every operation is checked: a division by zero or an overflow makes the
//! expression *uncomputable* (`None`), and the assignment or comparison containing it is invalid
//! (documented policy for what the reference tools leave undefined, spec 10.3). Division
//! truncates toward zero. The common shapes (a constant, a variable, a piece count) are their
//! own variants so the search evaluates them without running the postfix loop.

use rbg_parser::ir::Arith;

use super::BuildError;

/// Deepest operand stack an expression may need; deeper expressions are rejected at build time,
/// so evaluation uses a fixed array and never allocates.
pub const MAX_EXPR_STACK: usize = 32;

/// One postfix instruction. The n-ary operations fold the top `n` stack values left to right.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExprOp {
    Const(i64),
    Var(u32),
    Count(u32),
    Add(u32),
    Sub(u32),
    Mul(u32),
    Div(u32),
}

/// A compiled expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Const(i64),
    Var(u32),
    Count(u32),
    /// A constant expression that cannot be computed (division by zero or overflow).
    Invalid,
    Code(Vec<ExprOp>),
}

impl Expr {
    /// The value in a state with these variables and piece counts; `None` if uncomputable.
    #[inline]
    pub fn eval(&self, vars: &[i32], counts: &[i32]) -> Option<i64> {
        match self {
            Expr::Const(c) => Some(*c),
            Expr::Var(v) => vars.get(*v as usize).map(|&x| x as i64),
            Expr::Count(p) => counts.get(*p as usize).map(|&x| x as i64),
            Expr::Invalid => None,
            Expr::Code(code) => eval_code(code, vars, counts),
        }
    }

    /// Whether evaluating the expression reads a piece count.
    pub fn reads_counts(&self) -> bool {
        match self {
            Expr::Count(_) => true,
            Expr::Code(code) => code.iter().any(|op| matches!(op, ExprOp::Count(_))),
            _ => false,
        }
    }
}

fn eval_code(code: &[ExprOp], vars: &[i32], counts: &[i32]) -> Option<i64> {
    let mut stack = [0i64; MAX_EXPR_STACK];
    let mut top = 0usize;
    for op in code {
        match *op {
            ExprOp::Const(c) => {
                *stack.get_mut(top)? = c;
                top += 1;
            }
            ExprOp::Var(v) => {
                *stack.get_mut(top)? = *vars.get(v as usize)? as i64;
                top += 1;
            }
            ExprOp::Count(p) => {
                *stack.get_mut(top)? = *counts.get(p as usize)? as i64;
                top += 1;
            }
            ExprOp::Add(n) | ExprOp::Sub(n) | ExprOp::Mul(n) | ExprOp::Div(n) => {
                let start = top.checked_sub(n as usize)?;
                let operands = stack.get(start..top)?;
                let value = fold(*op, operands)?;
                stack[start] = value;
                top = start + 1;
            }
        }
    }
    if top == 1 {
        Some(stack[0])
    } else {
        None
    }
}

/// Left fold of an n-ary operation with checked arithmetic.
fn fold(op: ExprOp, operands: &[i64]) -> Option<i64> {
    let (&first, rest) = operands.split_first()?;
    rest.iter().try_fold(first, |acc, &x| match op {
        ExprOp::Add(_) => acc.checked_add(x),
        ExprOp::Sub(_) => acc.checked_sub(x),
        ExprOp::Mul(_) => acc.checked_mul(x),
        // `checked_div` truncates toward zero and rejects division by zero and MIN / -1.
        ExprOp::Div(_) => acc.checked_div(x),
        _ => None,
    })
}

/// Result of folding a sub-expression.
enum Folded {
    Known(i64),
    Invalid,
    Dynamic,
}

/// Compiles an IR expression. With `fold`, fully constant sub-expressions are evaluated now.
pub(crate) fn compile(
    arith: &Arith,
    fold_constants: bool,
    num_vars: u32,
    num_pieces: u32,
) -> Result<Expr, BuildError> {
    check_ids(arith, num_vars, num_pieces)?;
    if fold_constants {
        match fold_constant(arith) {
            Folded::Known(c) => return Ok(Expr::Const(c)),
            Folded::Invalid => return Ok(Expr::Invalid),
            Folded::Dynamic => {}
        }
    }
    match arith {
        Arith::Const(c) => return Ok(Expr::Const(*c)),
        Arith::Var(v) => return Ok(Expr::Var(*v)),
        Arith::Count(p) => return Ok(Expr::Count(*p)),
        _ => {}
    }
    if stack_depth(arith) > MAX_EXPR_STACK {
        return Err(BuildError::ExpressionTooDeep);
    }
    let mut code = Vec::new();
    emit(arith, fold_constants, &mut code);
    Ok(Expr::Code(code))
}

fn check_ids(arith: &Arith, num_vars: u32, num_pieces: u32) -> Result<(), BuildError> {
    match arith {
        Arith::Var(v) if *v >= num_vars => Err(BuildError::BadIr { what: format!("variable id {v}") }),
        Arith::Count(p) if *p >= num_pieces => Err(BuildError::BadIr { what: format!("piece id {p}") }),
        Arith::Sum(xs) | Arith::Difference(xs) | Arith::Product(xs) | Arith::Quotient(xs) => {
            xs.iter().try_for_each(|x| check_ids(x, num_vars, num_pieces))
        }
        _ => Ok(()),
    }
}

fn operands_and_op(arith: &Arith) -> Option<(&[Arith], ExprOp)> {
    match arith {
        Arith::Sum(xs) => Some((xs, ExprOp::Add(xs.len() as u32))),
        Arith::Difference(xs) => Some((xs, ExprOp::Sub(xs.len() as u32))),
        Arith::Product(xs) => Some((xs, ExprOp::Mul(xs.len() as u32))),
        Arith::Quotient(xs) => Some((xs, ExprOp::Div(xs.len() as u32))),
        _ => None,
    }
}

fn fold_constant(arith: &Arith) -> Folded {
    match arith {
        Arith::Const(c) => Folded::Known(*c),
        Arith::Var(_) | Arith::Count(_) => Folded::Dynamic,
        _ => {
            let Some((xs, op)) = operands_and_op(arith) else { return Folded::Dynamic };
            let mut values = Vec::with_capacity(xs.len());
            let mut invalid = false;
            for x in xs {
                match fold_constant(x) {
                    Folded::Known(c) => values.push(c),
                    Folded::Invalid => invalid = true,
                    Folded::Dynamic => return Folded::Dynamic,
                }
            }
            if invalid {
                return Folded::Invalid;
            }
            match fold(op, &values) {
                Some(c) => Folded::Known(c),
                None => Folded::Invalid,
            }
        }
    }
}

fn stack_depth(arith: &Arith) -> usize {
    match operands_and_op(arith) {
        Some((xs, _)) => xs.iter().enumerate().map(|(i, x)| i + stack_depth(x)).max().unwrap_or(0),
        None => 1,
    }
}

fn emit(arith: &Arith, fold_constants: bool, code: &mut Vec<ExprOp>) {
    if fold_constants {
        if let Folded::Known(c) = fold_constant(arith) {
            code.push(ExprOp::Const(c));
            return;
        }
    }
    match arith {
        Arith::Const(c) => code.push(ExprOp::Const(*c)),
        Arith::Var(v) => code.push(ExprOp::Var(*v)),
        Arith::Count(p) => code.push(ExprOp::Count(*p)),
        _ => {
            if let Some((xs, op)) = operands_and_op(arith) {
                for x in xs {
                    emit(x, fold_constants, code);
                }
                code.push(op);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(x: i64) -> Arith {
        Arith::Const(x)
    }

    fn eval(a: &Arith, fold: bool, vars: &[i32]) -> Option<i64> {
        compile(a, fold, vars.len() as u32, 1).unwrap().eval(vars, &[0])
    }

    #[test]
    fn division_truncates_toward_zero_and_rejects_zero() {
        // (0 - 7) / 2 = -3 (truncation toward zero, not floor -4)
        let a = Arith::Quotient(vec![Arith::Difference(vec![c(0), c(7)]), c(2)]);
        let b = Arith::Quotient(vec![Arith::Difference(vec![c(0), Arith::Var(0)]), c(2)]);
        for fold in [false, true] {
            assert_eq!(eval(&a, fold, &[7]), Some(-3));
            assert_eq!(eval(&b, fold, &[7]), Some(-3));
            let by_zero = Arith::Quotient(vec![c(5), Arith::Var(0)]);
            assert_eq!(eval(&by_zero, fold, &[0]), None);
            assert_eq!(eval(&Arith::Quotient(vec![c(5), c(0)]), fold, &[0]), None);
        }
    }

    #[test]
    fn differences_and_quotients_fold_left() {
        // 20 - 5 - 3 = 12 ; 100 / 5 / 2 = 10 ; 3 * (5 / 2) = 6 as the parser groups it
        let d = Arith::Difference(vec![Arith::Var(0), c(5), c(3)]);
        let q = Arith::Quotient(vec![Arith::Var(0), c(5), c(2)]);
        let p = Arith::Product(vec![c(3), Arith::Quotient(vec![c(5), Arith::Var(1)])]);
        for fold in [false, true] {
            assert_eq!(eval(&d, fold, &[20, 2]), Some(12));
            assert_eq!(eval(&q, fold, &[100, 2]), Some(10));
            assert_eq!(eval(&p, fold, &[0, 2]), Some(6));
        }
    }

    #[test]
    fn overflow_is_uncomputable() {
        let big = Arith::Product(vec![Arith::Var(0), Arith::Var(0), Arith::Var(0), c(2_000_000_000)]);
        assert_eq!(eval(&big, true, &[2_000_000_000]), None);
    }

    #[test]
    fn constant_expressions_fold() {
        let a = Arith::Sum(vec![c(2), Arith::Product(vec![c(3), c(4)])]);
        assert_eq!(compile(&a, true, 0, 0).unwrap(), Expr::Const(14));
        assert_eq!(compile(&Arith::Quotient(vec![c(1), c(0)]), true, 0, 0).unwrap(), Expr::Invalid);
    }
}
