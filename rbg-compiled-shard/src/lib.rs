//! Half of the corpus games compiled by rbg-compiler (every second game in the corpus order)
//! and the unoptimised baselines, for rbg-compiled-tests, whose build script writes this
//! crate's modules too and whose registry names them. See that crate's `build.rs`.

#![forbid(unsafe_code)]

include!(concat!(env!("OUT_DIR"), "/games.rs"));
