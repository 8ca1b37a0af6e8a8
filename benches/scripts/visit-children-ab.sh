#!/usr/bin/env bash
# Compiled perft with and without --no-visit-children (the compiled engine's children from the
# search), median of 3 runs of the count's own nodes/s, at the reference table's depth.
# Usage: bash benches/scripts/visit-children-ab.sh [GAME:DEPTH ...]  (from the repository root)
set -euo pipefail
corpus=${RBG_CORPUS:-../shared/corpus}
games=${*:-"breakthrough:5 chess:5 connect4:9 reversi:9 foxAndHounds:12 connect6:2 gomoku_standard:3 amazons:2 englishDraughts:10 hex_9x9:4 go:3 yavalath:5 breakthru:6 ticTacToe:9"}
printf '| game | depth | nodes/s on | nodes/s off | on/off |\n|---|---|---|---|---|\n'
for g in $games; do
  name=${g%%:*}; depth=${g##*:}
  file=$(ls "$corpus/$name.rbg" 2>/dev/null || ls "$corpus"/*/"$name.rbg")
  rate() {
    for _ in 1 2 3; do
      ./target/release/rbg perft --engine compiled "$@" "$file" --depth "$depth" --only-last --json 2>/dev/null \
        | python3 -c 'import json,sys; print(json.loads(sys.stdin.read().splitlines()[-1])["nodes_per_s"])'
    done | sort -g | sed -n 2p
  }
  on=$(rate); off=$(rate --no-visit-children)
  python3 -c "print(f'| $name | $depth | {$on/1e6:.1f}M | {$off/1e6:.1f}M | {$on/$off:.2f}x |')"
done
