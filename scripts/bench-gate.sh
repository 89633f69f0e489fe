#!/usr/bin/env bash
# `npm run bench:gate`: the ratio gate. Runs `npm run bench:peers` at gate sizes (BENCH_GATE=1:
# Thoughtline and the bare Temporal SDK loop, the figures the gate checks, about a minute), then
# checks each figure's ratio Thoughtline / bare loop against its bound
# (bench/side-by-side/ratio-gate.ts). Fails when the bench fails or a ratio is past its bound.
# Results in .thoughtline/bench-gate/ unless BENCH_OUT says otherwise. Run it through
# scripts/on-engines-node.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out="${BENCH_OUT:-.thoughtline/bench-gate/result.json}"
# A result left from an earlier run must not be gated in place of this one.
rm -f "$out"
bench=0
# bench:peers itself builds what is stale and runs the bench at the gate's sizes.
BENCH_GATE=1 BENCH_OUT="$out" npm run --silent bench:peers || bench=$?
node .thoughtline/bench-dist/bench/side-by-side/ratio-gate-cli.js "$out"
exit "$bench"
