//! rbg-runner
