//! Macro expansion of one section (spec sections 4.3-4.8) as an explicit-stack machine.
//!
//! Every token string being read (the section body, a macro body, an argument) is a [`Frame`]
//! on a stack: the machine reads the top frame's next raw token and either emits it, or pushes
//! the frame of the macro body or argument it stands for. A frame is popped when it runs out of
//! tokens. There is no Rust recursion, so nesting depth is only bounded by the work budget.
//!
//! Pasting is streamed instead of done on finished lists (which would shift tokens once per
//! enclosing chain): when a unit is followed by `~` and its chain has already produced a token,
//! the machine remembers a pending glue, and the next token emitted anywhere (necessarily the
//! first token of the right operand) is pasted onto the last output token instead of being
//! appended. If the right operand finishes without emitting anything, the glue is dropped: empty
//! operands are transparent. At most one glue is pending at a time, since a chain deeper in the
//! right operand can only have a non-empty left side after something was emitted.
//!
//! Trail frames are created lazily, when a frame first emits a token or reports an error, so
//! expansions that produce nothing cost no trail entries.

use std::rc::Rc;

use super::arguments::ArgumentBounds;
use super::directives::{FileDirectives, SectionSource};
use super::macros::{with_arity, MacroBank, MacroDef, Visible};
use super::paste::paste;
use crate::diag::{Diagnostic, TrailFrame};
use crate::source::Span;
use crate::token::{SectionTokens, Sym, Token, TokenKind, TrailId, Trails};

/// The work budget of one section: raw tokens read, arguments split, plus two per macro or
/// argument expansion. It bounds time, output size (at most one token per step) and memory
/// (tokens, frames, trail entries) of inputs whose expansion grows exponentially. The largest
/// section of the corpus (arimaa's rules) expands to about 19 000 tokens.
pub const MAX_EXPANSION_STEPS: u64 = 5_000_000;

/// Cost of one macro or argument expansion (a frame and possibly a trail entry).
const EXPANSION_COST: u64 = 2;

/// Expands one section body. An error stops the expansion; the tokens produced before it are
/// kept (see [`SectionTokens`]).
pub(super) fn expand_section(
    file: &FileDirectives,
    tokens: &[Token],
    bounds: &ArgumentBounds,
    trails: &mut Trails,
    section: &SectionSource,
) -> SectionTokens {
    let mut machine = Machine {
        tokens,
        macros: &file.macros,
        bounds,
        trails,
        section_context: section.order,
        stack: vec![Frame::section(section)],
        out: Vec::new(),
        emitted: 0,
        glue: None,
        steps: 0,
    };
    let error = machine.run().err();
    if error.is_some() {
        let settled = machine.settled_len();
        machine.out.truncate(settled);
    }
    SectionTokens { tokens: machine.out, error, end: section.end }
}

/// An argument bound to a parameter: a raw token range to be expanded in the caller's context
/// each time the parameter occurs.
#[derive(Clone, Debug)]
struct Argument {
    start: usize,
    end: usize,
    /// The caller's context order.
    context: u32,
    /// The caller's parameters (the argument may mention them).
    env: Option<Rc<Env>>,
    /// Where the argument is written (an empty span at its separator when it is empty).
    span: Span,
}

/// The parameters of one macro body.
#[derive(Debug)]
struct Env {
    bindings: Vec<(Rc<str>, Argument)>,
}

impl Env {
    /// The argument of parameter `name`; with duplicate parameter names the first one wins.
    fn argument(&self, name: &str) -> Option<&Argument> {
        self.bindings.iter().find(|(param, _)| **param == *name).map(|(_, argument)| argument)
    }
}

/// The trail entry of a frame: created when first needed.
#[derive(Debug)]
enum FrameTrail {
    Known(TrailId),
    Pending(TrailFrameSource),
}

#[derive(Debug)]
enum TrailFrameSource {
    Macro { name: Rc<str>, call: Span },
    Argument { param: Rc<str>, arg: Span },
}

impl TrailFrameSource {
    fn to_frame(&self) -> TrailFrame {
        match self {
            TrailFrameSource::Macro { name, call } => {
                TrailFrame::Macro { name: name.to_string(), call: *call }
            }
            TrailFrameSource::Argument { param, arg } => {
                TrailFrame::Argument { param: param.to_string(), arg: *arg }
            }
        }
    }
}

/// A position in the output: its length and the number of tokens emitted so far (pasted ones
/// included, so that "did this chain emit anything" survives pasting into earlier tokens).
#[derive(Copy, Clone, Debug, Default)]
struct Mark {
    len: usize,
    emitted: u64,
}

/// A token string being read.
#[derive(Debug)]
struct Frame {
    /// Next raw token to read, and the end of the string (indices into the file's tokens).
    pos: usize,
    end: usize,
    /// Context order: macros of a smaller order are visible.
    context: u32,
    /// Parameters of the macro body this string belongs to (None in a section).
    env: Option<Rc<Env>>,
    trail: FrameTrail,
    /// Where the unit being read started.
    unit_start: Mark,
    /// Where the open `~` chain started, if the last unit was followed by `~`.
    chain_start: Option<Mark>,
}

impl Frame {
    fn section(section: &SectionSource) -> Frame {
        Frame {
            pos: section.body.start,
            end: section.body.end,
            context: section.order,
            env: None,
            trail: FrameTrail::Known(TrailId::ROOT),
            unit_start: Mark::default(),
            chain_start: None,
        }
    }
}

/// A `~` whose right operand has not emitted its first token yet.
#[derive(Copy, Clone, Debug)]
struct Glue {
    /// Stack index of the frame the `~` belongs to.
    owner: usize,
    /// Index of the `~` token (errors point at it).
    tilde: usize,
}

struct Machine<'a> {
    tokens: &'a [Token],
    macros: &'a MacroBank,
    bounds: &'a ArgumentBounds,
    trails: &'a mut Trails,
    /// Context order of the section: `~` is illegal in strings of this order.
    section_context: u32,
    stack: Vec<Frame>,
    out: Vec<Token>,
    emitted: u64,
    glue: Option<Glue>,
    steps: u64,
}

impl Machine<'_> {
    fn run(&mut self) -> Result<(), Diagnostic> {
        while let Some(top) = self.stack.last() {
            if top.pos < top.end {
                self.read_unit()?;
            } else {
                self.stack.pop();
                if self.stack.is_empty() {
                    break;
                }
                // The popped string was one unit of the frame below.
                self.finish_unit()?;
            }
        }
        Ok(())
    }

    /// Reads the next unit of the top frame: a plain token, a parameter or a macro call.
    fn read_unit(&mut self) -> Result<(), Diagnostic> {
        let tokens = self.tokens;
        let mark = self.mark();
        let Some(frame) = self.stack.last_mut() else { return Ok(()) };
        frame.unit_start = mark;
        let at = frame.pos;
        let Some(token) = tokens.get(at) else {
            frame.pos = frame.end;
            return Ok(());
        };
        self.charge(1, token.span)?;
        match &token.kind {
            TokenKind::Sym(Sym::Tilde) => Err(self.error("Unexpected tilde", token.span)),
            TokenKind::Ident(name) => self.read_identifier(at, name),
            _ => self.emit_plain(at),
        }
    }

    /// Section 4.4: parameter, arity-0 macro, macro with parameters, or plain identifier.
    fn read_identifier(&mut self, at: usize, name: &Rc<str>) -> Result<(), Diagnostic> {
        let Some(frame) = self.stack.last_mut() else { return Ok(()) };
        let argument = frame.env.as_ref().and_then(|env| env.argument(name)).cloned();
        if let Some(argument) = argument {
            frame.pos = at + 1;
            return self.push_argument(name, argument);
        }
        let context = frame.context;
        let call_span = self.span(at);
        let macros = self.macros;
        match macros.visible(name, context) {
            Visible::Nothing => self.emit_plain(at),
            Visible::Plain(definition) => {
                if let Some(frame) = self.stack.last_mut() {
                    frame.pos = at + 1;
                }
                self.push_macro(name, call_span, definition, None)
            }
            Visible::WithParams(definitions) => self.call_with_arguments(at, name, definitions),
        }
    }

    /// A call of a macro with parameters at `at`: split the arguments, pick the definition with
    /// that many parameters and push its body.
    fn call_with_arguments(
        &mut self,
        at: usize,
        name: &Rc<str>,
        definitions: &[MacroDef],
    ) -> Result<(), Diagnostic> {
        let Some(frame) = self.stack.last() else { return Ok(()) };
        let (context, env, end) = (frame.context, frame.env.clone(), frame.end);
        let call_span = self.span(at);
        let (ranges, after) = self.split_arguments(at, end)?;
        let Some(definition) = with_arity(definitions, ranges.len(), context) else {
            let message = format!(
                "Macro with given name exists but requires another number of arguments ({} given)",
                ranges.len()
            );
            return Err(self.error(&message, call_span));
        };
        let bindings = definition
            .params
            .iter()
            .zip(ranges)
            .map(|(param, (start, end))| {
                let span = self.argument_span(start, end);
                (param.clone(), Argument { start, end, context, env: env.clone(), span })
            })
            .collect();
        if let Some(frame) = self.stack.last_mut() {
            frame.pos = after;
        }
        self.push_macro(name, call_span, definition, Some(Rc::new(Env { bindings })))
    }

    /// Section 4.5: the raw arguments after the macro name at `name_at`, in the current string
    /// ending before `end`. Returns their ranges and the index after the closing `)`.
    fn split_arguments(
        &mut self,
        name_at: usize,
        end: usize,
    ) -> Result<(Vec<(usize, usize)>, usize), Diagnostic> {
        let name_span = self.span(name_at);
        let open_at = name_at + 1;
        let open = match self.tokens.get(open_at) {
            Some(open) if open_at < end => open,
            _ => return Err(self.error("Unexpected end of macro arguments", name_span)),
        };
        if !open.is_sym(Sym::LParen) {
            let message = format!("Expected '(' token, encountered '{}'", open.kind);
            return Err(self.error(&message, open.span));
        }
        match self.bounds.split(self.tokens, open_at, end) {
            Some((arguments, after)) => {
                self.charge(arguments.len() as u64, name_span)?;
                Ok((arguments, after))
            }
            None => Err(self.error("Unexpected end of macro arguments", name_span)),
        }
    }

    fn push_macro(
        &mut self,
        name: &Rc<str>,
        call: Span,
        definition: &MacroDef,
        env: Option<Rc<Env>>,
    ) -> Result<(), Diagnostic> {
        self.charge(EXPANSION_COST, call)?;
        self.stack.push(Frame {
            pos: definition.body.start,
            end: definition.body.end,
            context: definition.order,
            env,
            trail: FrameTrail::Pending(TrailFrameSource::Macro { name: name.clone(), call }),
            unit_start: self.mark(),
            chain_start: None,
        });
        Ok(())
    }

    fn push_argument(&mut self, param: &Rc<str>, argument: Argument) -> Result<(), Diagnostic> {
        self.charge(EXPANSION_COST, argument.span)?;
        let source = TrailFrameSource::Argument { param: param.clone(), arg: argument.span };
        self.stack.push(Frame {
            pos: argument.start,
            end: argument.end,
            context: argument.context,
            env: argument.env,
            trail: FrameTrail::Pending(source),
            unit_start: self.mark(),
            chain_start: None,
        });
        Ok(())
    }

    /// Emits the raw token at `at` of the top frame as a unit of its own.
    fn emit_plain(&mut self, at: usize) -> Result<(), Diagnostic> {
        let tokens = self.tokens;
        let Some(token) = tokens.get(at) else { return Ok(()) };
        let Some(frame) = self.stack.last_mut() else { return Ok(()) };
        frame.pos = at + 1;
        let trail = self.top_trail();
        match self.glue.take() {
            Some(glue) => self.paste_onto_last(glue, token)?,
            None => self.out.push(Token { kind: token.kind.clone(), span: token.span, trail }),
        }
        self.emitted += 1;
        self.finish_unit()
    }

    /// Glues `right` onto the last output token; the result keeps the left token's span and
    /// trail.
    fn paste_onto_last(&mut self, glue: Glue, right: &Token) -> Result<(), Diagnostic> {
        let Some(left) = self.out.last() else {
            return Err(Diagnostic::error(
                "Internal error: pasting without a left operand",
                Some(right.span),
            ));
        };
        match paste(&left.kind, &right.kind) {
            Ok(kind) => {
                if let Some(left) = self.out.last_mut() {
                    left.kind = kind;
                }
                Ok(())
            }
            Err(failure) => {
                let message = failure.message(&left.kind, &right.kind);
                let tilde = self.span(glue.tilde);
                let trail = self.trail_of(glue.owner);
                Err(Diagnostic::error(message, Some(tilde)).with_trail(self.trails.frames(trail)))
            }
        }
    }

    /// Called when the top frame has finished a unit: resolves an empty right operand and opens
    /// or closes the frame's `~` chain.
    fn finish_unit(&mut self) -> Result<(), Diagnostic> {
        let tokens = self.tokens;
        let top = self.stack.len().saturating_sub(1);
        if self.glue.is_some_and(|glue| glue.owner == top) {
            // The right operand produced nothing: the left side stays as it is.
            self.glue = None;
        }
        let emitted = self.emitted;
        let Some(frame) = self.stack.last_mut() else { return Ok(()) };
        let tilde_at = frame.pos;
        let tilde = match tokens.get(tilde_at) {
            Some(tilde) if tilde_at < frame.end && tilde.is_sym(Sym::Tilde) => tilde,
            _ => {
                frame.chain_start = None;
                return Ok(());
            }
        };
        let chain_start = *frame.chain_start.get_or_insert(frame.unit_start);
        if frame.context == self.section_context {
            return Err(self.error("Tokens can be pasted only inside macros", tilde.span));
        }
        if tilde_at + 1 == frame.end {
            return Err(self.error("Tilde at the end of tokens string", tilde.span));
        }
        frame.pos = tilde_at + 1;
        if chain_start.emitted < emitted {
            self.glue = Some(Glue { owner: top, tilde: tilde_at });
        }
        Ok(())
    }

    /// Counts `cost` steps against the budget; `span` locates the error.
    fn charge(&mut self, cost: u64, span: Span) -> Result<(), Diagnostic> {
        self.steps += cost;
        if self.steps > MAX_EXPANSION_STEPS {
            let message = format!(
                "Macro expansion of this section is too large (more than {MAX_EXPANSION_STEPS} expansion steps)"
            );
            return Err(self.error(&message, span));
        }
        Ok(())
    }

    /// An error at `span` in the top frame, with its trail.
    fn error(&mut self, message: &str, span: Span) -> Diagnostic {
        let trail = self.top_trail();
        Diagnostic::error(message, Some(span)).with_trail(self.trails.frames(trail))
    }

    fn top_trail(&mut self) -> TrailId {
        self.trail_of(self.stack.len().saturating_sub(1))
    }

    /// The trail entry of the frame at stack index `index`, creating the missing entries of it
    /// and of the frames below it. A frame's parent entry is the frame just below it: macro
    /// calls and parameter occurrences are always read in the frame below the one they push.
    fn trail_of(&mut self, index: usize) -> TrailId {
        let mut known = index.min(self.stack.len().saturating_sub(1));
        let mut parent = TrailId::ROOT;
        while let Some(frame) = self.stack.get(known) {
            if let FrameTrail::Known(id) = frame.trail {
                parent = id;
                break;
            }
            if known == 0 {
                break;
            }
            known -= 1;
        }
        for frame in self.stack.iter_mut().take(index + 1).skip(known) {
            if let FrameTrail::Pending(source) = &frame.trail {
                parent = self.trails.push(parent, source.to_frame());
                frame.trail = FrameTrail::Known(parent);
            }
        }
        parent
    }

    /// Output length up to which tokens are final: tokens of an unfinished `~` chain are not,
    /// since the reference holds them back until it knows what they glue to.
    fn settled_len(&self) -> usize {
        let open_chains = self.stack.iter().filter_map(|frame| frame.chain_start.map(|mark| mark.len));
        open_chains.min().unwrap_or(self.out.len()).min(self.out.len())
    }

    fn mark(&self) -> Mark {
        Mark { len: self.out.len(), emitted: self.emitted }
    }

    fn span(&self, at: usize) -> Span {
        self.tokens.get(at).map_or_else(Span::default, |token| token.span)
    }

    /// The span of argument tokens `start..end`; an empty argument gets an empty span at the
    /// separator that ends it.
    fn argument_span(&self, start: usize, end: usize) -> Span {
        match (self.tokens.get(start), self.tokens.get(end.wrapping_sub(1))) {
            (Some(first), Some(last)) if start < end => first.span.to(last.span),
            _ => {
                let at = self.span(end).start;
                Span::new(at, at)
            }
        }
    }
}
