//! The one declaration of the C ABI's functions, and what is derived from it.
//!
//! [`rbg_abi_functions!`](crate::rbg_abi_functions) lists every exported function with its
//! arguments and result. It passes the list to a callback macro, which makes one thing of it:
//!
//! * the exported `extern "C"` shims ([`export_c_abi!`](crate::export_c_abi), in the crate
//!   that exports a reasoner), each calling its body in [`Exports`](crate::Exports);
//! * the loader's table of function pointers and the symbol lookup filling it (`loader.rs`);
//! * [`SYMBOLS`], the exported names in declaration order;
//! * [`ABI_VERSION`], a hash of the signatures (names and types, whitespace ignored), the
//!   sizes of the types that cross the ABI and [`LAYOUT_REVISION`](crate::abi::LAYOUT_REVISION).
//!
//! Adding a function is one line here plus its two bodies: the export side (a method of
//! `Exports`) and the calling side (where the loader's [`LibGame`](crate::LibGame) uses it).
//! The version changes by itself, so a library built before the change is refused.
//!
//! Types are written by their bare names; every callback expands where `c_void`, `Action` and
//! the `Abi*` types of [`crate::abi`] are in scope.

/// The exported functions: `rbg_abi_version` first (its signature never changes: a loader
/// calls it before anything else), then the rest in the order the loader looks them up.
///
/// `rbg_abi_functions!(path::to::callback [extra tokens])` expands to
/// `path::to::callback! { [extra tokens] fn name(arg: Type, ...) -> Result; ... }`.
#[doc(hidden)]
#[macro_export]
macro_rules! rbg_abi_functions {
    ($($callback:ident)::+ [$($extra:tt)*]) => {
        $($callback)::+ ! { [$($extra)*]
            fn rbg_abi_version() -> u32;
            fn rbg_game_info(out: *mut u8, cap: usize) -> usize;
            fn rbg_scratch_new() -> *mut c_void;
            fn rbg_scratch_free(sc: *mut c_void);
            fn rbg_state_initial() -> *mut c_void;
            fn rbg_state_clone(s: *const c_void) -> *mut c_void;
            fn rbg_state_copy(dst: *mut c_void, src: *const c_void);
            fn rbg_state_free(s: *mut c_void);
            fn rbg_state_eq(a: *const c_void, b: *const c_void) -> u32;
            fn rbg_state_debug(s: *const c_void, out: *mut u8, cap: usize) -> usize;
            fn rbg_current_player(s: *const c_void) -> u32;
            fn rbg_current_vertex(s: *const c_void) -> u32;
            fn rbg_rules_state(s: *const c_void) -> u32;
            fn rbg_piece(s: *const c_void, vertex: u32) -> u32;
            fn rbg_variable(s: *const c_void, var: u64) -> i64;
            fn rbg_score(s: *const c_void, player: u32) -> i64;
            fn rbg_legal_moves(s: *mut c_void, sc: *mut c_void, out: *mut AbiMoves) -> AbiStatus;
            fn rbg_last_moves(sc: *mut c_void, out: *mut AbiMoves) -> AbiStatus;
            fn rbg_next_actions(
                s: *mut c_void,
                sc: *mut c_void,
                prefix: *const Action,
                prefix_len: usize,
                visit: AbiVisitor,
                ctx: *mut c_void
            ) -> AbiStatus;
            fn rbg_visit_moves(
                s: *mut c_void,
                sc: *mut c_void,
                visit: AbiVisitor,
                ctx: *mut c_void,
                stopped: *mut u32
            ) -> AbiStatus;
            fn rbg_apply_move(s: *mut c_void, m: *const Action, len: usize) -> AbiStatus;
            fn rbg_keeper_step(s: *mut c_void, sc: *mut c_void, stepped: *mut u32) -> AbiStatus;
            fn rbg_has_legal_move(s: *mut c_void, sc: *mut c_void, has: *mut u32) -> AbiStatus;
            fn rbg_complete_keeper(
                s: *mut c_void,
                sc: *mut c_void,
                limit: u64,
                player_to_move: *mut u32
            ) -> AbiStatus;
            fn rbg_monotonic_classes() -> u32;
            fn rbg_monotonic_class(s: *const c_void) -> i64;
            fn rbg_is_still_legal(s: *const c_void, m: *const Action, len: usize) -> u32;
            fn rbg_state_encode(s: *const c_void, out: *mut u8, cap: usize, len: *mut usize) -> AbiStatus;
            fn rbg_state_decode(
                bytes: *const u8,
                len: usize,
                out: *mut *mut c_void,
                msg: *mut u8,
                msg_cap: usize,
                msg_len: *mut usize
            ) -> AbiStatus;
            fn rbg_random_playout(
                s: *mut c_void,
                sc: *mut c_void,
                rng: *mut u64,
                limits: *const AbiPlayoutLimits,
                out: *mut AbiPlayoutOutcome
            ) -> AbiStatus;
            fn rbg_perft_subtree(
                s: *mut c_void,
                sc: *mut c_void,
                depth: u32,
                opts: *const AbiPerftOptions,
                out: *mut AbiPerftCounts
            ) -> AbiStatus;
        }
    };
}

/// The callback that writes the signatures as text (names and types; argument names do not
/// matter to the ABI) and the names as a list.
macro_rules! signatures {
    ([] $(fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)?;)*) => {
        /// The declared signatures as text, hashed into [`ABI_VERSION`].
        pub(crate) const SIGNATURES: &str =
            concat!($(stringify!($name), "(", $(stringify!($ty), ",",)* ")", $("->", stringify!($ret),)? ";",)*);
        /// The names of the exported functions, in declaration order.
        pub const SYMBOLS: &[&str] = &[$(stringify!($name)),*];
    };
}

crate::rbg_abi_functions!(signatures []);

/// The version of the interface: [`signature_hash`] of the declaration, the sizes of the types
/// that cross it and [`LAYOUT_REVISION`](crate::abi::LAYOUT_REVISION). A loader refuses a
/// library that returns another value from `rbg_abi_version`.
pub const ABI_VERSION: u32 = {
    let mut h = signature_hash(SIGNATURES);
    h = fnv_u64(h, crate::abi::LAYOUT_REVISION as u64);
    let mut i = 0;
    while i < crate::abi::LAYOUT_SIZES.len() {
        h = fnv_u64(h, crate::abi::LAYOUT_SIZES[i] as u64);
        i += 1;
    }
    (h ^ (h >> 32)) as u32
};

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// 64-bit FNV-1a of `text` without its ASCII whitespace, so that how a compiler version spaces
/// `stringify!`'s output cannot change the version.
pub const fn signature_hash(text: &str) -> u64 {
    let bytes = text.as_bytes();
    let mut h = FNV_OFFSET;
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_whitespace() {
            h = (h ^ bytes[i] as u64).wrapping_mul(FNV_PRIME);
        }
        i += 1;
    }
    h
}

/// Continues an FNV-1a hash with the little-endian bytes of `x`.
const fn fnv_u64(mut h: u64, x: u64) -> u64 {
    let bytes = x.to_le_bytes();
    let mut i = 0;
    while i < bytes.len() {
        h = (h ^ bytes[i] as u64).wrapping_mul(FNV_PRIME);
        i += 1;
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_is_declared_once_and_the_version_function_first() {
        assert_eq!(SYMBOLS[0], "rbg_abi_version");
        let mut names = SYMBOLS.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), SYMBOLS.len());
        assert!(SYMBOLS.iter().all(|s| s.starts_with("rbg_")));
        // Names, types and results are in the hashed text; argument names are not.
        assert!(SIGNATURES.contains("rbg_piece"));
        assert!(SIGNATURES.contains("AbiPerftCounts"));
        assert!(!SIGNATURES.contains("player_to_move"));
    }

    #[test]
    fn the_signature_hash_sees_types_but_not_spacing() {
        let a = signature_hash("rbg_piece(*const c_void,u32,)->u32;");
        assert_eq!(a, signature_hash("rbg_piece( * const c_void , u32 , ) -> u32 ;\n"));
        assert_ne!(a, signature_hash("rbg_piece(*const c_void,u64,)->u32;"));
        assert_ne!(a, signature_hash("rbg_piece(*mut c_void,u32,)->u32;"));
        // FNV-1a's published test vector: "a" hashes to 0xaf63dc4c8601ec8c.
        assert_eq!(signature_hash("a"), 0xaf63_dc4c_8601_ec8c);
    }
}
