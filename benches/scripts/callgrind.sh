#!/usr/bin/env bash
# Instruction counts (callgrind) of perft and flat Monte Carlo on the eight bench games, both
# engines. Deterministic on a noisy machine, so two commits can be compared exactly:
#   bash benches/scripts/callgrind.sh > before.txt; (change); bash benches/scripts/callgrind.sh > after.txt
# Prints one line per run: game, engine, task, instructions (Ir).
set -u
cd "$(dirname "$0")/../.."
cargo build --release -q -p rbg-cli
R="${CARGO_TARGET_DIR:-target}/release/rbg"
C="${RBG_CORPUS:-../shared/corpus}"
# Compiled crates are written with `rbg compile` (portable code) and built for plain x86-64 in
# a fresh target directory: the compile cache builds for this CPU, whose newest instructions
# valgrind may not decode.
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
ir() { # the total instruction count of one command under callgrind
  local out; out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>&1
  grep '^summary:' "$out" | awk '{print $2}'; rm -f "$out"
}
compiled_binary() { # build the game's compiled engine and print its binary's path
  "$R" compile "$1" -o "$WORK/$2" >/dev/null 2>&1
  (cd "$WORK" && CARGO_TARGET_DIR="$WORK/target" RUSTFLAGS="-C target-cpu=x86-64" \
    cargo build --release -q --manifest-path "$WORK/$2/Cargo.toml" >/dev/null 2>&1)
  ls -t "$WORK"/target/release/rbg-game-* | grep -v '\.d$' | head -1
}
# game:perft depth:playouts (sized to take 10^8..10^9 instructions)
for spec in breakthrough:4:2000 chess:3:100 connect4:7:2000 englishDraughts:7:500 go:2:5 \
            hex_9x9:3:500 reversi:7:500 amazons:2:20; do
  IFS=: read -r g d n <<<"$spec"
  f="$C/$g.rbg"
  bin=$(compiled_binary "$f" "$g")
  echo "$g interpreter perft-$d $(ir "$R" perft "$f" --depth "$d" --only-last)"
  echo "$g compiled perft-$d $(ir "$bin" perft --depth "$d" --only-last)"
  echo "$g interpreter mc-$n $(ir "$R" mc "$f" --playouts "$n" --seed 7)"
  # The compiled runner's `auto` count-and-replay choice times itself, so its count would
  # depend on the machine's load: both fixed modes instead.
  echo "$g compiled mc-$n-list $(ir "$bin" mc --playouts "$n" --seed 7 --count-replay-from never)"
  echo "$g compiled mc-$n-count $(ir "$bin" mc --playouts "$n" --seed 7 --count-replay-from 0)"
done
