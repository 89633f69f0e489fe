#!/usr/bin/env node
/**
 * After `tsc`: deletes what dist/ holds for sources that no longer exist (a moved or deleted file
 * of src/), and any source map an older build made (they named src/ files the package does not
 * ship). tsc never removes outputs, and Node resolves `./commands` to a stale
 * dist/cli/commands.js before the new dist/cli/commands/index.js. Plain CommonJS, no dependency.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');
const src = path.join(root, 'src');
const OUTPUT = /^(.*?)(\.d\.ts\.map|\.d\.ts|\.js\.map|\.js)$/;

/** Whether src/ still has the file `rel` (without extension) was compiled from. */
const hasSource = (rel) => fs.existsSync(path.join(src, `${rel}.ts`));

/** Removes stale outputs under `dir`, then the folder itself when nothing is left in it. */
function prune(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      prune(file);
      continue;
    }
    const match = OUTPUT.exec(path.relative(dist, file));
    // The build makes no .js.map (tsconfig.build.json): one left by an older build would be packed.
    if (match && (!hasSource(match[1]) || match[2] === '.js.map')) fs.rmSync(file);
  }
  if (dir !== dist && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
}

if (fs.existsSync(dist)) prune(dist);
