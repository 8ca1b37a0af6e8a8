#!/usr/bin/env bash
# Interpreter against compiled engine side by side (see docs/results.md), in one run on one machine:
# interpreter vs compiled perft (`rbg bench --depth`) at the rbggamemanager depths, compiled
# perft at the rbg2cpp depths, and 5 s of flat Monte Carlo per engine (`rbg bench --seconds`).
# Usage: bash benches/scripts/run.sh > run-$(date +%F).txt
set -u
cd "$(dirname "$0")/../.."
cargo build --release -q -p rbg-cli
R="${CARGO_TARGET_DIR:-target}/release/rbg"
C="${RBG_CORPUS:-../shared/corpus}"
for gd in breakthrough:6 chess:5 connect4:9 englishDraughts:9 go:3 hex_9x9:4 reversi:9 amazons:2; do
  g=${gd%:*}; d=${gd#*:}
  echo "=== $g perft depth $d"; $R bench "$C/$g.rbg" --depth "$d" 2>&1 | grep -v "Compiling\|Updating\|Locking\|building\|Finished"
done
for gd in chess:6 connect4:10 englishDraughts:11 reversi:11; do
  g=${gd%:*}; d=${gd#*:}
  echo "=== $g compiled perft depth $d"; $R perft --engine compiled "$C/$g.rbg" --depth "$d" --json 2>&1 | tail -1
done
for g in breakthrough chess connect4 englishDraughts go hex_9x9 reversi amazons; do
  echo "=== $g mc 5s"; $R bench "$C/$g.rbg" --seconds 5 2>&1 | grep -v "Compiling\|Updating\|Locking\|building\|Finished"
done
