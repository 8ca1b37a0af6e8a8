#!/usr/bin/env bash
# Before and after a change, with criterion's saved baselines (kept under target/criterion/):
#
#   bash benches/baseline.sh save [NAME]      # on the commit before the change (NAME: main)
#   bash benches/baseline.sh compare [NAME]   # after it: each bench's change against NAME
#   bash benches/baseline.sh compare NAME -- interp_perft   # only some benches
#
# The benches are perft and flat Monte Carlo of both engines on the eight bench games
# (benches/*.rs). Criterion reports a change with its confidence interval and says whether it
# is beyond noise; on the shared 2-core machine, run both halves in the same session and confirm
# a small change with instruction counts (benches/scripts/callgrind.sh), which do not drift.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { echo "usage: bash benches/baseline.sh save|compare [NAME] [-- BENCH...]" >&2; exit 2; }
[ $# -ge 1 ] || usage
mode=$1; shift
name=main
if [ $# -ge 1 ] && [ "$1" != "--" ]; then name=$1; shift; fi
benches=(interp_perft interp_mc compiled_perft compiled_mc)
if [ $# -ge 1 ]; then
    [ "$1" = "--" ] || usage
    shift
    [ $# -ge 1 ] && benches=("$@")
fi
case $mode in
    save) flag=--save-baseline ;;
    compare) flag=--baseline ;;
    *) usage ;;
esac
args=()
for b in "${benches[@]}"; do args+=(--bench "$b"); done
cargo bench "${args[@]}" -- "$flag" "$name"
