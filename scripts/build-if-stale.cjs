#!/usr/bin/env node
/**
 * `npm run build`, only when dist/ may be older than its inputs: the demo, `dev` and `worker`
 * scripts start in seconds when nothing changed. Stale means the fingerprint of the inputs
 * (path, size and mtime of every file under src/, the tsconfigs, package.json and the lock
 * file) differs from the one stamped by the last successful build, or an output is missing.
 * The compile itself is incremental (tsc --incremental), so a small change rebuilds in seconds.
 * Plain CommonJS with no dependency: it runs before anything is compiled.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const stateDir = path.join(root, '.thoughtline');
const stampFile = path.join(stateDir, 'build-stamp');
const buildInfoFile = path.join(stateDir, 'build.tsbuildinfo');
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];
const OUTPUTS = ['dist/index.js', 'dist/cli/bin.js', 'dist/cli/main.js', 'dist/worker.js'];

/** Every file under `rel` (or `rel` itself), as "path size mtime" lines. Missing inputs count as absent. */
function describe(rel, lines) {
  const abs = path.join(root, rel);
  let stat;
  try {
    stat = fs.statSync(abs);
  } catch {
    lines.push(`${rel} absent`);
    return;
  }
  if (!stat.isDirectory()) {
    lines.push(`${rel} ${stat.size} ${stat.mtimeMs}`);
    return;
  }
  for (const name of fs.readdirSync(abs).sort()) describe(path.join(rel, name), lines);
}

function fingerprint() {
  const lines = [];
  for (const input of INPUTS) describe(input, lines);
  return crypto.createHash('sha256').update(lines.join('\n')).digest('hex');
}

function readStamp() {
  try {
    return fs.readFileSync(stampFile, 'utf8').trim();
  } catch {
    return undefined;
  }
}

// The SQL grammars the workflow bundle reads (tests and `dev` run from src/ too): cheap, rewritten only when changed.
const vendored = spawnSync(process.execPath, [path.join(__dirname, 'vendor-sql-grammars.cjs')], {
  cwd: root,
  stdio: 'inherit',
});
if (vendored.status !== 0) process.exit(vendored.status ?? 1);

const outputsExist = OUTPUTS.every((rel) => fs.existsSync(path.join(root, rel)));
let before = fingerprint();
if (outputsExist && readStamp() === before) process.exit(0);

// Said in one line: a first build on a fresh clone takes a minute or more with nothing else printed.
process.stderr.write(
  `build-if-stale: building dist (${outputsExist ? 'sources changed since the last build' : 'first build'})…\n`,
);
// As `npm run build` does: the preload list follows the workflows' imports (it is under src/, so
// the fingerprint is taken again when it changed).
const generated = spawnSync(process.execPath, [path.join(__dirname, 'generate-preload-list.cjs')], {
  cwd: root,
  stdio: 'inherit',
});
if (generated.status !== 0) process.exit(generated.status ?? 1);
before = fingerprint();

fs.mkdirSync(stateDir, { recursive: true });
// tsc --incremental trusts its build info and never checks that the outputs still exist.
if (!outputsExist) fs.rmSync(buildInfoFile, { force: true });
fs.rmSync(stampFile, { force: true });
const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
const { status } = spawnSync(
  process.execPath,
  [tsc, '-p', 'tsconfig.build.json', '--incremental', '--tsBuildInfoFile', buildInfoFile],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (status !== 0) process.exit(status ?? 1);
// As `npm run build` does: outputs of sources that moved or went are removed (prune-dist.cjs says why).
require('./prune-dist.cjs');
for (const bin of ['bin', 'main']) fs.chmodSync(path.join(root, 'dist', 'cli', `${bin}.js`), 0o755);
// The fingerprint taken before compiling: a file saved during the build makes the next run rebuild.
fs.writeFileSync(stampFile, `${before}\n`);
