#!/usr/bin/env bash
# Writes docs/images/evaluation-report.png from a real evaluation, never from test data: the loop's
# dataset (eval/loop.jsonl) on the offline model (no API key, deterministic; its variant named
# offline-model), three repeats, gated against a first run of the same, and that report.html
# screenshotted in Debian's Chromium (scripts/screenshot-report.cjs). About a minute and a half.
# Honours TEMPORAL_ADDRESS; a dev server this script had to start is stopped again.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh >/dev/null
pidfile=.thoughtline/temporal-server.pid
running() { [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; }
started_here=1
if [ -n "${TEMPORAL_ADDRESS:-}" ] || running; then started_here=0; fi
stop_started() { if [ "$started_here" = 1 ] && running; then kill "$(cat "$pidfile")"; fi; }
trap stop_started EXIT
node scripts/build-if-stale.cjs
out=.thoughtline/eval/docs-image
rm -rf "$out"
evaluate() {
  env -u ANTHROPIC_API_KEY node dist/cli/main.js eval eval/loop.jsonl --tools eval/loop-tools.cjs \
    --model offline-model --repeat 3 "$@"
}
evaluate --out "$out/baseline" >/dev/null
evaluate --baseline "$out/baseline/result.json" --out "$out/report"
bash scripts/ensure-debian-package.sh chromium chromium
node scripts/screenshot-report.cjs "$out/report" docs/images/evaluation-report.png "$(command -v chromium)" \
  'thoughtline eval eval/loop.jsonl --tools eval/loop-tools.cjs --model offline-model --repeat 3 --baseline <a first run of the same>, no API key' 
ls -l docs/images/evaluation-report.png
