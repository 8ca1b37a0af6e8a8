//! rbg-cli
