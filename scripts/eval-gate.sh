#!/usr/bin/env bash
# The loop's own regression gate (CI runs it): the project's dataset, eval/loop.jsonl, on the offline
# model (no API key, deterministic), compared with eval/baselines/loop-offline.json; exits 1 when a
# case that passed there fails now, or a criterion drops significantly. A dev server this script had
# to start is stopped again. After a deliberate change to the loop or the dataset, refresh the
# baseline: run `bash scripts/eval-gate.sh --baseline-any-dataset` (it may exit 1: that is the change),
# read the report, then `cp .thoughtline/eval/loop/result.json eval/baselines/loop-offline.json`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh >/dev/null
source scripts/stop-own-dev-server.sh
node scripts/build-if-stale.cjs
env -u ANTHROPIC_API_KEY node dist/cli/main.js eval eval/loop.jsonl --tools eval/loop-tools.cjs \
  --baseline eval/baselines/loop-offline.json --out .thoughtline/eval/loop "$@"
