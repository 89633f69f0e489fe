#!/usr/bin/env bash
# Regenerates the terminal captures in docs/dashboard.md: test/cli/dashboard-tmux.test.ts runs
# `thoughtline run --plan` in a 100x40 tmux pane (offline model, two slow tools), saves what the
# pane shows at two moments and after Ctrl-C, and this script puts them between the page's
# <!-- capture:NAME --> markers.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh
npm run build --silent
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
DASHBOARD_CAPTURE_DIR="$out" npx vitest run test/cli/dashboard-tmux.test.ts
node - "$out" docs/dashboard.md <<'JS'
const fs = require('fs');
const [dir, page] = process.argv.slice(2);
let text = fs.readFileSync(page, 'utf8');
for (const name of ['first', 'later', 'after-ctrl-c', 'watch-ended']) {
  const capture = fs.readFileSync(`${dir}/${name}.txt`, 'utf8').trimEnd();
  const block = new RegExp(`(<!-- capture:${name} -->)[\\s\\S]*?(<!-- /capture -->)`);
  if (!block.test(text)) throw new Error(`${page} has no <!-- capture:${name} --> block`);
  text = text.replace(block, (_, open, close) => `${open}\n\`\`\`text\n${capture}\n\`\`\`\n${close}`);
}
fs.writeFileSync(page, text);
JS
echo "docs/dashboard.md: captures updated"
