//! Arithmetic: the program's expressions as Rust code with checked `i64` arithmetic.
//!
//! Constants, variables and piece counts are plain expressions. Anything else becomes a small
//! function `expr_N(st) -> Option<i64>` whose `None` means "uncomputable" (division by zero or
//! overflow), exactly the interpreter's semantics: the assignment or comparison fails.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use rbg_automaton::{Expr, ExprId, ExprOp};

use crate::ctx::Ctx;
use crate::CompileError;

/// How an expression reads in generated code.
pub(crate) enum Value {
    /// Always computable: an `i64` expression.
    Total(TokenStream),
    /// May be uncomputable: an `Option<i64>` expression.
    Partial(TokenStream),
    /// Never computable.
    Invalid,
}

/// The value of expression `e` in state `st` (an identifier of type `&State` or `State`).
pub(crate) fn value(c: &Ctx, e: ExprId, st: &TokenStream) -> Value {
    match c.p.expr(e) {
        Expr::Const(v) => Value::Total(quote!(#v)),
        Expr::Var(v) => {
            let var = &c.vars[*v as usize];
            Value::Total(quote!((#st.vars[#var] as i64)))
        }
        Expr::Count(p) => {
            let piece = &c.pieces[*p as usize];
            Value::Total(quote!((#st.counts[#piece as usize] as i64)))
        }
        Expr::Invalid => Value::Invalid,
        Expr::Code(_) => {
            let f = format_ident!("expr_{}", e.get());
            Value::Partial(quote!(#f(#st)))
        }
    }
}

/// The functions of all expressions that need one.
pub(crate) fn functions(c: &Ctx) -> Result<TokenStream, CompileError> {
    let mut out = TokenStream::new();
    for (i, e) in c.p.exprs().iter().enumerate() {
        let Expr::Code(code) = e else { continue };
        // `value` calls `expr_i` for every coded expression, so none may be skipped.
        let body = tree(c, code).ok_or_else(|| {
            CompileError::Unsupported(format!("malformed arithmetic code of expression {i}"))
        })?;
        let name = format_ident!("expr_{}", i);
        let doc = format!("`{}`", describe(c, code));
        out.extend(quote! {
            #[doc = #doc]
            #[inline(always)]
            fn #name(st: &State) -> Option<i64> {
                Some(#body)
            }
        });
    }
    Ok(out)
}

/// Rebuilds the postfix code as one nested expression using `?` on every checked operation.
fn tree(c: &Ctx, code: &[ExprOp]) -> Option<TokenStream> {
    let mut stack: Vec<TokenStream> = Vec::new();
    for op in code {
        match *op {
            ExprOp::Const(v) => stack.push(quote!(#v)),
            ExprOp::Var(v) => {
                let var = c.vars.get(v as usize)?;
                stack.push(quote!((st.vars[#var] as i64)));
            }
            ExprOp::Count(p) => {
                let piece = c.pieces.get(p as usize)?;
                stack.push(quote!((st.counts[#piece as usize] as i64)));
            }
            ExprOp::Add(n) | ExprOp::Sub(n) | ExprOp::Mul(n) | ExprOp::Div(n) => {
                let method = match op {
                    ExprOp::Add(_) => quote!(checked_add),
                    ExprOp::Sub(_) => quote!(checked_sub),
                    ExprOp::Mul(_) => quote!(checked_mul),
                    _ => quote!(checked_div),
                };
                let start = stack.len().checked_sub(n as usize)?;
                let operands: Vec<TokenStream> = stack.drain(start..).collect();
                let (first, rest) = operands.split_first()?;
                let mut acc = first.clone();
                for x in rest {
                    acc = quote!(#acc.#method(#x)?);
                }
                stack.push(quote!((#acc)));
            }
        }
    }
    (stack.len() == 1).then(|| stack.pop()).flatten()
}

/// The expression in RBG-like infix syntax, for comments.
pub(crate) fn describe(c: &Ctx, code: &[ExprOp]) -> String {
    let mut stack: Vec<String> = Vec::new();
    for op in code {
        match *op {
            ExprOp::Const(v) => stack.push(v.to_string()),
            ExprOp::Var(v) => stack.push(c.g.var_name(v).to_string()),
            ExprOp::Count(p) => stack.push(c.g.pieces.get(p as usize).cloned().unwrap_or_default()),
            ExprOp::Add(n) | ExprOp::Sub(n) | ExprOp::Mul(n) | ExprOp::Div(n) => {
                let sym = match op {
                    ExprOp::Add(_) => " + ",
                    ExprOp::Sub(_) => " - ",
                    ExprOp::Mul(_) => " * ",
                    _ => " / ",
                };
                let start = stack.len().saturating_sub(n as usize);
                let parts: Vec<String> = stack.drain(start..).collect();
                stack.push(format!("({})", parts.join(sym)));
            }
        }
    }
    stack.join(" ")
}

/// An expression for comments.
pub(crate) fn describe_expr(c: &Ctx, e: ExprId) -> String {
    match c.p.expr(e) {
        Expr::Const(v) => v.to_string(),
        Expr::Var(v) => c.g.var_name(*v).to_string(),
        Expr::Count(p) => c.g.pieces.get(*p as usize).cloned().unwrap_or_default(),
        Expr::Invalid => "(uncomputable)".into(),
        Expr::Code(code) => describe(c, code),
    }
}
