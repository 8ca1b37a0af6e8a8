//! Fewer copies of the search for large games (`fewer-searches`).
//!
//! The node functions are generic over the sink that receives the moves, so the whole search is
//! compiled once per sink type. On most games that is cheap, and every sink keeps a search
//! specialised to it. On games whose search code is large (the arimaa games: some 120,000
//! generated lines, seven copies) the copies are most of the build, and there the less
//! speed-critical sinks share two types, each matching at run time what it was asked to do:
//!
//! * [`StateSink`](sinks): the searches that keep or copy the working state at a move, drawing
//!   the n-th move (`apply_nth_move`), the keeper's first move (the 0th) and perft's children
//!   (`visit_children`, whose visitor becomes a `&mut dyn FnMut`);
//! * `StreamSink`: the searches that stream moves' actions and may prune, the visitor of
//!   `visit_moves` (with `shared-visitor`) and the move-by-move filter (`next_actions`).
//!
//! Listing and counting, the playouts' and perft's hot searches, keep their own: four copies
//! instead of seven. The generated code of a game below [`LARGE_SEARCH_TOKENS`] is unchanged.

use proc_macro2::{TokenStream, TokenTree};
use quote::quote;

use crate::ctx::Ctx;

/// The size of the search code (its tokens, see [`token_count`]) from which the searches are
/// shared. In the corpus the arimaa games have about 720,000; the largest below them, gess,
/// 171,000, then pentago 113,000, doubleChess 77,000, chess 71,000, the draughts games and reversi
/// at most 60,000, breakthrough and connect4 a few thousand.
pub(crate) const LARGE_SEARCH_TOKENS: usize = 400_000;

/// Whether the game's searches share sinks: the switch is on and the search code `search` (the
/// node functions, patterns and dispatch) is large.
pub(crate) fn applies(c: &Ctx, search: &TokenStream) -> bool {
    c.o.fewer_searches && token_count(search) >= LARGE_SEARCH_TOKENS
}

/// The number of tokens of `tokens`, groups counted with their contents.
pub(crate) fn token_count(tokens: &TokenStream) -> usize {
    tokens
        .clone()
        .into_iter()
        .map(|t| match t {
            TokenTree::Group(g) => 1 + token_count(&g.stream()),
            _ => 1,
        })
        .sum()
}

/// The shared sink types (module items); empty unless they apply.
pub(crate) fn sinks(c: &Ctx) -> TokenStream {
    if !c.fewer_searches {
        return TokenStream::new();
    }
    quote! {
        /// The searches that keep or copy the state at a move (`fewer-searches`): one sink type,
        /// so that the search is compiled once for all of them.
        enum StateSink<'a> {
            /// Stops at the move with this number (from 0) and keeps it applied (the keeper's
            /// first move is the 0th).
            Nth(u64),
            /// Builds the state after each move in `child` and hands it to `visit`, counting
            /// the calls in `visited`. After `visit` breaks, the search runs on without calling
            /// it: a stop would keep the move applied in the searched state.
            Child {
                child: &'a mut State,
                visit: &'a mut dyn FnMut(&mut State) -> ControlFlow<()>,
                visited: &'a mut u64,
                broken: bool,
            },
        }

        impl Sink for StateSink<'_> {
            const KEEP: bool = true;
            const RECORD: bool = false;
            const DERIVED: bool = true;
            const CHILD: bool = true;
            #[inline(always)]
            fn found(&mut self, _path: &[Action]) -> bool {
                false
            }
            #[inline(always)]
            fn found_child(&mut self, st: &State, vertex: Cell, player: PlayerId, node: NodeId) -> bool {
                match self {
                    StateSink::Nth(left) => {
                        if *left == 0 {
                            return true;
                        }
                        *left -= 1;
                        false
                    }
                    StateSink::Child { child, visit, visited, broken } => {
                        if !*broken {
                            build_child(child, st, vertex, player, node);
                            **visited += 1;
                            *broken = visit(child).is_break();
                        }
                        false
                    }
                }
            }
        }

        /// The searches that stream the moves' actions (`fewer-searches`): the visitor of
        /// `visit_moves` and the move-by-move filter of `next_actions`, one sink type.
        enum StreamSink<'a> {
            Visit(&'a mut dyn FnMut(&[Action]) -> ControlFlow<()>),
            Next(::rbg_core::split::NextActionsFilter<'a>),
        }

        impl Sink for StreamSink<'_> {
            const KEEP: bool = false;
            const FILTER: bool = true;
            #[inline(always)]
            fn found(&mut self, path: &[Action]) -> bool {
                match self {
                    StreamSink::Visit(visit) => visit(path).is_break(),
                    StreamSink::Next(filter) => filter.found(path),
                }
            }
            #[inline(always)]
            fn admit(&mut self, position: usize, action: Action) -> bool {
                match self {
                    StreamSink::Visit(_) => true,
                    StreamSink::Next(filter) => filter.admit(position, action),
                }
            }
            #[inline(always)]
            fn resume(&mut self) -> Option<usize> {
                match self {
                    StreamSink::Visit(_) => None,
                    StreamSink::Next(filter) => Some(filter.resume_position()),
                }
            }
        }
    }
}

/// The sink of the keeper's first move (an expression).
pub(crate) fn first_sink(c: &Ctx) -> TokenStream {
    if c.fewer_searches {
        quote!(StateSink::Nth(0))
    } else {
        quote!(FirstSink)
    }
}

/// The sink that stops at move number `n` and keeps it applied (an expression).
pub(crate) fn nth_sink(c: &Ctx, n: TokenStream) -> TokenStream {
    if c.fewer_searches {
        quote!(StateSink::Nth(#n))
    } else {
        quote!(NthSink(#n))
    }
}

/// The sink of `next_actions` over its `prefix` and `out` (an expression).
pub(crate) fn next_actions_sink(c: &Ctx) -> TokenStream {
    let filter = quote!(::rbg_core::split::NextActionsFilter::new(prefix, out));
    if c.fewer_searches {
        quote!(StreamSink::Next(#filter))
    } else {
        quote!(NextActionsSink(#filter))
    }
}

/// The sink of `visit_moves` over its `visit` (an expression): the stream sink only when the
/// visitor is already a `&mut dyn FnMut` (`shared-visitor`).
pub(crate) fn visit_sink(c: &Ctx) -> TokenStream {
    if c.fewer_searches && c.o.shared_visitor {
        quote!(StreamSink::Visit(visit))
    } else {
        quote!(VisitSink(visit))
    }
}

/// The statements of `visit_children` that run the search with the caller's `visit` (in scope
/// as a mutable local) and `child`, returning `Ok(Some(visited))`.
pub(crate) fn visit_children_body(c: &Ctx) -> TokenStream {
    if c.fewer_searches {
        quote! {
            let mut visited = 0;
            let mut sink = StateSink::Child { child, visit: &mut visit, visited: &mut visited, broken: false };
            run(s, sc, &mut sink)?;
            Ok(Some(visited))
        }
    } else {
        quote! {
            let mut sink = ChildSink { child, visit, visited: 0 };
            run(s, sc, &mut sink)?;
            Ok(Some(sink.visited))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::token_count;
    use crate::{generate_source, CompileOptions};

    /// Every sink type a generated module can run the search with.
    const SINKS: [&str; 9] = [
        "ListSink",
        "CountSink",
        "NthSink",
        "FirstSink",
        "ChildSink",
        "VisitSink",
        "NextActionsSink",
        "StateSink",
        "StreamSink",
    ];

    /// The generated code without its header (which names the options).
    fn source(text: &str, options: &CompileOptions) -> String {
        let out = rbg_parser::parse("test.rbg", text.as_bytes());
        let game = out.game.unwrap_or_else(|| panic!("{:?}", out.diagnostics));
        let code = generate_source(&game, "test", options).expect("generates");
        code.replace(&options.fingerprint(), "")
    }

    /// The sink types the code builds a value of (so runs a search with): names outside
    /// comments and the types' own definitions.
    fn sinks_used(code: &str) -> BTreeSet<&'static str> {
        let code: Vec<&str> = code
            .lines()
            .map(str::trim)
            .filter(|l| !l.starts_with("//") && !l.starts_with("struct ") && !l.starts_with("enum "))
            .filter(|l| !l.starts_with("impl"))
            .collect();
        SINKS.into_iter().filter(|name| code.iter().any(|l| l.contains(name))).collect()
    }

    /// A game whose search is large: `alternatives` different moves of eight steps each
    /// (about 1,500 tokens of search code apiece).
    fn large_game(alternatives: usize) -> String {
        let dirs = ["up", "down", "left", "right"];
        let moves: Vec<String> = (0..alternatives)
            .map(|i| {
                let steps: Vec<String> = (0..8)
                    .map(|j| {
                        let dir = dirs[(i >> (2 * (j % 4))) % 4];
                        let (from, to) = if (i + j) % 2 == 0 { ("e", "x") } else { ("x", "e") };
                        format!("{dir} {{{from}}} [{to}]")
                    })
                    .collect();
                format!("({})", steps.join(" "))
            })
            .collect();
        format!(
            "#players = a(1), b(1)\n#pieces = e, x\n#variables =\n\
             #board = rectangle(up, down, left, right, [e, e, e][e, x, e][e, e, e])\n\
             #rules = (->a ({}) ->b (up* + down*) {{x}} [e])*\n",
            moves.join(" + ")
        )
    }

    fn read_game(file: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games").join(file);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// Small games (the bench games of this size) get exactly the code of the switch off: a
    /// search per sink.
    #[test]
    fn small_games_keep_a_search_per_sink() {
        let off = CompileOptions { fewer_searches: false, ..CompileOptions::default() };
        for file in ["breakthrough.rbg", "connect4.rbg", "reversi.rbg", "englishDraughts.rbg"] {
            let text = read_game(file);
            let on = source(&text, &CompileOptions::default());
            assert_eq!(on, source(&text, &off), "{file}");
            // Every sink but the two shared ones.
            let own: BTreeSet<&str> = SINKS[..7].iter().copied().collect();
            assert_eq!(sinks_used(&on), own, "{file}");
        }
    }

    /// A large search is compiled for four sinks with the switch on, for seven with it off.
    #[test]
    fn a_large_search_is_compiled_for_fewer_sinks_only_with_the_switch() {
        let text = large_game(400);
        let on = source(&text, &CompileOptions::default());
        let off = source(&text, &CompileOptions { fewer_searches: false, ..CompileOptions::default() });
        let shared: BTreeSet<&str> = ["ListSink", "CountSink", "StateSink", "StreamSink"].into();
        assert_eq!(sinks_used(&on), shared);
        let own: BTreeSet<&str> =
            ["ListSink", "CountSink", "NthSink", "FirstSink", "ChildSink", "VisitSink", "NextActionsSink"]
                .into();
        assert_eq!(sinks_used(&off), own);
        // Each shared use where the switch off has its own sink.
        for call in [
            "run(s, sc, &mut StateSink::Nth(0))",
            "run(s, sc, &mut StateSink::Nth(n))",
            "run(s, sc, &mut StreamSink::Visit(visit))",
            "StreamSink::Next(::rbg_core::split::NextActionsFilter::new(prefix, out))",
            "StateSink::Child {",
        ] {
            assert!(on.contains(call), "{call}");
        }
    }

    #[test]
    fn tokens_are_counted_inside_groups() {
        let tokens: proc_macro2::TokenStream = "fn f(a: u8) { g(a); }".parse().expect("tokens");
        // `fn`, `f`, the parentheses with `a : u8` (4), the braces with `g`, `(a)` and `;` (5).
        assert_eq!(token_count(&tokens), 11);
    }
}
