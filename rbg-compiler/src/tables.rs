//! Static tables of the generated code: the board's neighbour table, deterministic shift tables,
//! branching (fan) shift tables in CSR form, and precomputed vertex sets.
//!
//! Every per-cell table has a row for the off-board sentinel cell that maps to the sentinel (or
//! to `false`), so a chain of shifts that left the board stays off it and a single check at the
//! next use of the cell suffices (design notes 2.9). With `u8` cells the tables have 256 rows
//! and indexing them needs no bounds check.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use rbg_automaton::{FanTableId, NONE};

use crate::ctx::Ctx;
use crate::layout::Uint;
use crate::packed;

pub(crate) fn lit(v: u64) -> Literal {
    Literal::u64_unsuffixed(v)
}

/// A cell value for a table entry: the vertex, or the sentinel for [`NONE`].
fn cell_entry(c: &Ctx, v: u32) -> Literal {
    lit(if v == NONE { c.l.off() } else { v as u64 })
}

/// The value of a cell entry in a packed table: the vertex, or the sentinel for [`NONE`] or a
/// missing entry.
fn cell_value(c: &Ctx, v: Option<u32>) -> u64 {
    match v {
        Some(w) if w != NONE => w as u64,
        _ => c.l.off(),
    }
}

pub(crate) fn all(c: &Ctx) -> TokenStream {
    let mut out = if c.l.packed { packed::decoder() } else { TokenStream::new() };
    out.extend(neighbours(c));
    for t in 0..c.p.det_tables().len() {
        out.extend(det_table(c, t));
    }
    for t in 0..c.p.fan_tables().len() {
        out.extend(fan_table(c, t));
    }
    for s in 0..c.p.cell_sets().len() {
        out.extend(cell_set(c, s));
    }
    out
}

fn neighbours(c: &Ctx) -> TokenStream {
    let b = c.p.board();
    let cell = c.l.cell.tokens();
    let rows = c.l.cell_rows;
    let labels = b.labels() as usize;
    let off = lit(c.l.off());
    let label_names = c.labels.iter().enumerate().map(|(i, id)| {
        let doc = format!("Column of edge label `{}` in [`NEIGHBOURS`].", c.g.board.labels[i]);
        let i = lit(i as u64);
        quote!(#[doc = #doc] pub const #id: usize = #i;)
    });
    let rows_lit = lit(rows as u64);
    let labels_lit = lit(labels as u64);
    if c.l.packed {
        let values = (0..rows).flat_map(|v| {
            (0..labels).map(move |l| {
                let w = if v < c.l.vertices { b.neighbour(v as u32, l as u32) } else { NONE };
                if w == NONE {
                    c.l.off()
                } else {
                    w as u64
                }
            })
        });
        let text = packed::pack(values, labels);
        return quote! {
            #(#label_names)*
            /// The board: `NEIGHBOURS[cell][label]` is the cell reached by that edge label, or the
            /// off-board sentinel [`OFF`]. Packed (a large board), decoded on first use.
            pub static NEIGHBOURS: ::std::sync::LazyLock<Box<[[#cell; #labels_lit]]>> =
                ::std::sync::LazyLock::new(|| {
                    let flat = unpack(#text, #labels_lit);
                    (0..#rows_lit)
                        .map(|v| ::core::array::from_fn(|l| flat.get(v * #labels_lit + l).map_or(OFF, |&x| x as #cell)))
                        .collect()
                });
        };
    }
    let row_tokens = (0..rows).map(|v| {
        let entries = (0..labels).map(|l| {
            if v < c.l.vertices {
                cell_entry(c, b.neighbour(v as u32, l as u32))
            } else {
                off.clone()
            }
        });
        quote!([#(#entries),*])
    });
    quote! {
        #(#label_names)*
        /// The board: `NEIGHBOURS[cell][label]` is the cell reached by that edge label, or the
        /// off-board sentinel [`OFF`].
        pub static NEIGHBOURS: [[#cell; #labels_lit]; #rows_lit] = [#(#row_tokens),*];
    }
}

fn det_table(c: &Ctx, t: usize) -> TokenStream {
    let table = &c.p.det_tables()[t];
    let cell = c.l.cell.tokens();
    let name = format_ident!("TABLE_{}", t);
    if c.l.packed {
        let values =
            (0..c.l.cell_rows).map(|v| cell_value(c, table.get(v).copied().filter(|_| v < c.l.vertices)));
        let column = packed::column(&name, &cell, values, c.l.cell_rows, quote!(x as #cell), quote!(OFF));
        return quote! {
            /// A deterministic shift table: the one cell a shift-only expression leads to.
            #column
        };
    }
    let entries = (0..c.l.cell_rows).map(|v| match table.get(v) {
        Some(&w) if v < c.l.vertices => cell_entry(c, w),
        _ => lit(c.l.off()),
    });
    let rows = lit(c.l.cell_rows as u64);
    quote! {
        /// A deterministic shift table: the one cell a shift-only expression leads to.
        static #name: [#cell; #rows] = [#(#entries),*];
    }
}

fn fan_table(c: &Ctx, t: usize) -> TokenStream {
    let table = &c.p.fan_tables()[t];
    let cell = c.l.cell.tokens();
    if table.covers_all_vertices() {
        // Iterated as the range of all vertices; no storage.
        return TokenStream::new();
    }
    if table.is_uniform() {
        let name = format_ident!("FAN_{}_ROW", t);
        if c.l.packed {
            let values = table.row(0).iter().map(|&w| cell_value(c, Some(w)));
            let len = table.row(0).len();
            let column = packed::column(&name, &cell, values, len, quote!(x as #cell), quote!(OFF));
            return quote! {
                /// A branching shift table whose row is the same for every cell.
                #column
            };
        }
        let row = table.row(0).iter().map(|&w| cell_entry(c, w));
        let len = lit(table.row(0).len() as u64);
        return quote! {
            /// A branching shift table whose row is the same for every cell.
            static #name: [#cell; #len] = [#(#row),*];
        };
    }
    let index = Ord::max(Uint::for_max(table.targets().len() as u64).unwrap_or(Uint::U32), Uint::U16);
    let start_name = format_ident!("FAN_{}_START", t);
    let target_name = format_ident!("FAN_{}_TARGETS", t);
    if c.l.packed {
        let index_t = index.tokens();
        // Rows are stored in vertex order, so the start of row v+1 is the end of row v.
        let mut starts = Vec::with_capacity(c.l.cell_rows + 1);
        let mut end = 0u64;
        for v in 0..c.l.cell_rows {
            if v < c.l.vertices {
                let (s, e) = table.row_span(v as u32);
                starts.push(s as u64);
                end = e as u64;
            } else {
                starts.push(end);
            }
        }
        starts.push(end);
        let rows = starts.len();
        // A missing start is the end of the table, so a missing row reads as empty.
        let end = lit(end);
        let start = packed::column(&start_name, &index_t, starts, rows, quote!(x as #index_t), quote!(#end));
        let values = table.targets().iter().map(|&w| cell_value(c, Some(w)));
        let targets = packed::column(
            &target_name,
            &cell,
            values,
            table.targets().len(),
            quote!(x as #cell),
            quote!(OFF),
        );
        return quote! {
            /// A branching shift table in CSR form: the cells reachable from cell `v` are
            /// `TARGETS[START[v]..START[v + 1]]`, ascending. Packed (a large board).
            #start
            #targets
        };
    }
    let targets: Vec<Literal> = table.targets().iter().map(|&w| cell_entry(c, w)).collect();
    // Rows are stored in vertex order, so the start of row v+1 is the end of row v.
    let mut starts = Vec::with_capacity(c.l.cell_rows + 1);
    let mut end = 0u64;
    for v in 0..c.l.cell_rows {
        if v < c.l.vertices {
            let (s, e) = table.row_span(v as u32);
            starts.push(lit(s as u64));
            end = e as u64;
        } else {
            starts.push(lit(end));
        }
    }
    starts.push(lit(end));
    let index_t = index.tokens();
    let rows = lit(c.l.cell_rows as u64 + 1);
    let len = lit(targets.len() as u64);
    quote! {
        /// A branching shift table in CSR form: the cells reachable from cell `v` are
        /// `TARGETS[START[v]..START[v + 1]]`, ascending.
        static #start_name: [#index_t; #rows] = [#(#starts),*];
        static #target_name: [#cell; #len] = [#(#targets),*];
    }
}

fn cell_set(c: &Ctx, s: usize) -> TokenStream {
    let set = &c.p.cell_sets()[s];
    let name = format_ident!("SET_{}", s);
    if c.l.packed {
        let values = (0..c.l.cell_rows).map(|v| u64::from(v < c.l.vertices && set.contains(v as u32)));
        let column =
            packed::column(&name, &quote!(bool), values, c.l.cell_rows, quote!(x != 0), quote!(false));
        return quote! {
            /// A precomputed shift-only pattern: the cells where it holds.
            #column
        };
    }
    let entries = (0..c.l.cell_rows).map(|v| v < c.l.vertices && set.contains(v as u32));
    let rows = lit(c.l.cell_rows as u64);
    quote! {
        /// A precomputed shift-only pattern: the cells where it holds.
        static #name: [bool; #rows] = [#(#entries),*];
    }
}

/// Tokens iterating the row of fan table `t` at cell `v` (an expression yielding cells).
pub(crate) fn fan_row(c: &Ctx, t: FanTableId, v: &TokenStream) -> TokenStream {
    let table = c.p.fan_table(t);
    let t = t.get();
    let cell = c.l.cell.tokens();
    if table.covers_all_vertices() {
        let n = lit(c.l.vertices as u64);
        return quote!((0..#n as #cell));
    }
    if table.is_uniform() {
        let name = format_ident!("FAN_{}_ROW", t);
        return quote!(#name.iter().copied());
    }
    let start = format_ident!("FAN_{}_START", t);
    let targets = format_ident!("FAN_{}_TARGETS", t);
    quote!(#targets[#start[#v as usize] as usize..#start[#v as usize + 1] as usize].iter().copied())
}
