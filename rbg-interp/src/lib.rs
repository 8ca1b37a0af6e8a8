//! rbg-interp
