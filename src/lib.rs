//! Umbrella package of the rbg-rs workspace: holds the shared examples and benchmarks.

#![forbid(unsafe_code)]
