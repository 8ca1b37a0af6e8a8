#!/usr/bin/env bash
# Compile time side by side: the first `rbg moves FILE --engine compiled` (generation plus
# `cargo build --lib` into a compile cache whose dependencies are already built) against the
# reference compiler, rbg2cpp generating the C++ reasoner plus g++ building it with its
# Makefile's benchmark flags. The two run alternately per game (odd games ours first, even games
# the reference first) at raised priority, each under /usr/bin/time: wall and user+sys CPU seconds.
#
#   bash benches/scripts/compile-time.sh RBG2CPP_DIR [GAME ...]  > compile-time.csv
#
# (The figures of docs/results.md came from rbg2cpp as bundled in the RBG project's repository
# marekesz/rbg, commit a1c5472, built with its Makefile.)
#
# RBG2CPP_DIR is a built rbg2cpp checkout (bin/rbg2cpp, test/simulation.cpp); `-` measures ours
# alone. GAMEs are corpus names (`chess`, `nsplit/amazons_nsplit`); none: every corpus game, the
# smallest file first. Environment: RBG_CORPUS (default ../shared/corpus), RBG (the `rbg`
# binary; default: built here with cargo), REF_CXXFLAGS (default: the Makefile's
# SIMULATIONS_FLAGS with -march=x86-64-v3), CACHE (the compile cache; default: a new one, its
# dependencies built first by a game outside the corpus). Raising the priority needs root
# (autogroup nice -15); without it the runs keep the default priority. See docs/results.md.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 RBG2CPP_DIR|- [GAME ...]" >&2; exit 2; }
REF_DIR="$1"; shift
cd "$(dirname "$0")/../.."
ROOT="$PWD"
CORPUS="$(cd "${RBG_CORPUS:-../shared/corpus}" && pwd)"
if [ -z "${RBG:-}" ]; then
    cargo build --release -q -p rbg-cli
    RBG="$ROOT/${CARGO_TARGET_DIR:-target}/release/rbg"
fi
# The Makefile's COMMON_CFLAGS (its simulate/perft targets) with -march=x86-64-v3 for native.
REF_CXXFLAGS="${REF_CXXFLAGS:--Wall -Wextra -Wpedantic -Ofast -march=x86-64-v3 -flto -std=c++11}"
CACHE="${CACHE:-$(mktemp -d /tmp/rbg-compile-time-cache.XXXXXX)}"
WORK="$(mktemp -d /tmp/rbg-compile-time-work.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

# Runs "$@" at raised priority under /usr/bin/time; prints "wall cpu status".
timed() {
    local t="$WORK/time" status=ok
    /usr/bin/time -f '%e %U %S' -o "$t" setsid -w bash -c \
        'echo -15 > /proc/self/autogroup 2>/dev/null; exec "$@"' prio "$@" \
        > "$WORK/out" 2>&1 || status=failed
    # A failing command makes time(1) write a status line first: the figures are the last line.
    tail -n 1 "$t" | awk -v s="$status" '{ printf "%.2f %.2f %s\n", $1, $2 + $3, s }'
}

ours() {
    RBG_CACHE_DIR="$CACHE" timed "$RBG" moves "$1" --engine compiled
}

reference() {
    local dir="$WORK/ref"
    rm -rf "$dir" && mkdir -p "$dir"
    cp "$REF_DIR/test/simulation.cpp" "$dir/"
    # shellcheck disable=SC2086 # the flags are words
    (cd "$dir" && timed sh -c "'$REF_DIR/bin/rbg2cpp' -o reasoner '$1' \
        && g++ $REF_CXXFLAGS -c -o reasoner.o reasoner.cpp \
        && g++ $REF_CXXFLAGS -o test reasoner.o simulation.cpp")
}

if [ $# -eq 0 ]; then
    set -- $(cd "$CORPUS" && find . -name '*.rbg' -printf '%s %P\n' | sort -n | awk '{ sub(/\.rbg$/, "", $2); print $2 }')
fi

# The cache's dependencies are built once, by a game outside the corpus, so every corpus game
# below is a first build with warm dependencies (the issue's "dependencies already built").
# A reused CACHE loses its game entries (not target/ nor the vendored sources): each game's
# crate is then written again and rebuilt, its dependencies staying built.
find "$CACHE" -mindepth 1 -maxdepth 1 -type d ! -name target ! -name 'vendor-*' -exec rm -rf {} +
# (games/ticTacToe.rbg differs from the corpus file, so its cache entry is another one.)
RBG_CACHE_DIR="$CACHE" "$RBG" moves "$ROOT/games/ticTacToe.rbg" --engine compiled > /dev/null

echo "game,ours_wall_s,ours_cpu_s,ours_status,rbg2cpp_wall_s,rbg2cpp_cpu_s,rbg2cpp_status"
i=0
for game in "$@"; do
    file="$CORPUS/$game.rbg"
    i=$((i + 1))
    if [ "$REF_DIR" = - ]; then
        o=$(ours "$file"); r="- - skipped"
    elif [ $((i % 2)) -eq 1 ]; then
        o=$(ours "$file"); r=$(reference "$file")
    else
        r=$(reference "$file"); o=$(ours "$file")
    fi
    read -r ow oc os <<< "$o"
    read -r rw rc rs <<< "$r"
    echo "$game,$ow,$oc,$os,$rw,$rc,$rs"
done
