#!/bin/sh
# Regenerates the checked-in parser (src/parser.c, src/grammar.json, src/node-types.json,
# src/tree_sitter/*.h) from grammar.js. Needs the tree-sitter CLI (any JavaScript runtime is
# built in): `cargo install tree-sitter-cli --locked` (0.27.1 was used), or point $TREE_SITTER
# at a tree-sitter binary. Then run `cargo test --release -p tree-sitter-rbg` and commit src/.
# Not run in CI: the tests check the checked-in parser.
set -eu
cd "$(dirname "$0")"
TREE_SITTER=${TREE_SITTER:-tree-sitter}
# ABI 14 keeps the parser loadable by older editors' tree-sitter runtimes as well as new ones.
"$TREE_SITTER" generate --abi 14 grammar.js
echo "regenerated src/ from grammar.js"
