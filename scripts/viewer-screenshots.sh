#!/usr/bin/env bash
# Writes docs/images/viewer-timeline.png, viewer-usage.png and viewer-search.png: the chain store's
# pages (a run's timeline, usage charts, search) over real runs and a SQLite store, rendered in
# Debian's Chromium by test/viewer/store-pages-browser.test.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh
THOUGHTLINE_SCREENSHOTS=1 npx vitest run test/viewer/store-pages-browser.test.ts
ls -l docs/images/viewer-timeline.png docs/images/viewer-usage.png docs/images/viewer-search.png
