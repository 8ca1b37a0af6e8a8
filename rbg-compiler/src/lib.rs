//! rbg-compiler
