#!/usr/bin/env bash
# Writes docs/images/evaluation-report.png: the evaluation report (two variants, three repeats,
# failures, a baseline gate) rendered in Debian's Chromium by test/eval/report-browser.test.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh
THOUGHTLINE_SCREENSHOTS=1 npx vitest run test/eval/report-browser.test.ts
ls -l docs/images/evaluation-report.png
