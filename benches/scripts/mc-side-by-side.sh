#!/usr/bin/env bash
# Flat Monte Carlo playouts/s side by side on core 1 at raised priority: rbg2cpp's flat MC
# driver (test/simulation.cpp, built as compile-time.sh builds it) against `rbg mc FILE
# --engine compiled`, alternating, best of ROUNDS (default 3).
# Usage: bash benches/scripts/mc-side-by-side.sh RBG2CPP_DIR GAME...   (games of $RBG_CORPUS)
# Environment: RBG (default target/release/rbg), RBG_CORPUS (default ../shared/corpus),
# ROUNDS; the compiled engines come from the usual compile cache. Prints CSV: game, our best, rbg2cpp's best, ratio.
set -eu
REF=$(cd "$1" && pwd); shift
RBG=$(realpath "${RBG:-target/release/rbg}")
CORPUS=$(realpath "${RBG_CORPUS:-../shared/corpus}")
ROUNDS=${ROUNDS:-3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
prio() { taskset -c 1 setsid -w bash -c 'echo -15 > /proc/self/autogroup 2>/dev/null; exec "$@"' p "$@"; }
best() { awk -v a="$1" -v b="$2" 'BEGIN{print (b>a)?b:a}'; }
echo "game,ours_best_playouts_per_s,rbg2cpp_best_playouts_per_s,ratio"
for game in "$@"; do
  dir="$WORK/$game"; mkdir -p "$dir"; cd "$dir"
  "$REF/bin/rbg2cpp" -o reasoner "$CORPUS/$game.rbg" > /dev/null
  g++ -Ofast -march=x86-64-v3 -flto -std=c++11 -o sim reasoner.cpp "$REF/test/simulation.cpp" -I. 2>/dev/null
  "$RBG" mc "$CORPUS/$game.rbg" --engine compiled --playouts 10 > /dev/null 2>&1
  # enough playouts for about two seconds of the reference driver
  n=200
  while :; do ms=$(prio ./sim $n | awk '/performed/{print $5}'); [ "$ms" -ge 1500 ] && break; n=$((n * 2)); done
  ours=0; theirs=0
  for _ in $(seq "$ROUNDS"); do
    ms=$(prio ./sim $n | awk '/performed/{print $5}')
    theirs=$(best "$theirs" "$(awk -v n=$n -v t="$ms" 'BEGIN{printf "%.1f", n / (t / 1000)}')")
    ours=$(best "$ours" "$(prio "$RBG" mc "$CORPUS/$game.rbg" --engine compiled --seconds 2 2>/dev/null | awk '/^playouts\/s/{print $2}')")
  done
  echo "$game,$ours,$theirs,$(awk -v a="$ours" -v b="$theirs" 'BEGIN{printf "%.2f", a / b}')"
done
