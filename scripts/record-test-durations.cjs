#!/usr/bin/env node
/**
 * Writes test/sequencing/file-durations.json from vitest's own cache of the last runs (each file's
 * duration, in seconds): the order the suites start files in on a clean clone, longest first
 * (test/sequencing/longest-first.mts says why). Run it after `npm test` and `npm run test:slow`.
 * Files under two seconds are left out: where they fall in the order hardly matters.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const cacheDir = path.join(root, 'node_modules', '.vite', 'vitest');
const out = path.join(root, 'test', 'sequencing', 'file-durations.json');
const durations = {};
for (const dir of fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir) : []) {
  const file = path.join(cacheDir, dir, 'results.json');
  if (!fs.existsSync(file)) continue;
  for (const [key, result] of JSON.parse(fs.readFileSync(file, 'utf8')).results) {
    const testFile = key.slice(key.indexOf(':') + 1);
    if (result.duration >= 2_000 && fs.existsSync(path.join(root, testFile)))
      durations[testFile] = Math.round(result.duration / 1_000);
  }
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
fs.writeFileSync(out, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} files' durations written to ${path.relative(root, out)}`);
