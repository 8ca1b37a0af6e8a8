#!/usr/bin/env bash
# Instruction counts (callgrind) of perft and flat Monte Carlo on the eight bench games, both
# engines: a shorthand for `rbg bench --suite CORPUS --instructions`, whose rbg-bench module
# `instructions` holds the games, the work and the runs. Deterministic on a noisy machine:
#   bash benches/scripts/callgrind.sh --csv before.csv; (change)
#   bash benches/scripts/callgrind.sh --baseline before.csv --markdown after.md
# Further arguments go to `rbg bench` (e.g. --games chess --engines interpreter).
set -eu
cd "$(dirname "$0")/../.."
cargo build --release -q -p rbg-cli
R="${CARGO_TARGET_DIR:-target}/release/rbg"
C="${RBG_CORPUS:-../shared/corpus}"
exec "$R" bench --suite "$C" --instructions "$@"
