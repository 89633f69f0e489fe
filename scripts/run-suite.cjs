#!/usr/bin/env node
/**
 * `npm test`'s suite after the build: the type check runs in the background at a lower priority
 * while vitest runs, so the first file's line comes within a minute instead of after a silent
 * type check (1-2 min on a fresh clone). Vitest's output is unchanged; the type check's errors,
 * if any, are printed after it, and either failing fails the command. Arguments go to vitest.
 * Plain CommonJS with no dependency, like build-if-stale.cjs.
 */
'use strict';
const { spawn } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const bin = (pkg, rel) => path.join(path.dirname(require.resolve(`${pkg}/package.json`, { paths: [root] })), rel);
const say = (line) => process.stderr.write(`[suite] ${line}\n`);

const checkStarted = Date.now();
say('type check running in the background (tsc, at low priority; its result comes after the tests)');
const check = spawn(
  process.execPath,
  [
    bin('typescript', 'bin/tsc'),
    '-p',
    'tsconfig.json',
    '--noEmit',
    '--incremental',
    '--tsBuildInfoFile',
    '.thoughtline/typecheck.tsbuildinfo',
  ],
  { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
);
// Tests wait on servers and child processes much of the time; the check takes the CPU they leave.
try {
  os.setPriority(check.pid, 10);
} catch {
  // Not allowed here: it runs at the same priority.
}
let checkOutput = '';
check.stdout.on('data', (chunk) => (checkOutput += chunk));
check.stderr.on('data', (chunk) => (checkOutput += chunk));
const checked = new Promise((resolve) => {
  check.on('error', (err) => resolve({ code: 1, error: err }));
  check.on('close', (code, signal) => resolve({ code: code ?? 1, signal }));
});

const vitest = spawn(process.execPath, [bin('vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
const tested = new Promise((resolve) => vitest.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));

// Ctrl-C reaches both from the terminal; a SIGTERM or SIGHUP sent to this process alone is passed on.
for (const signal of ['SIGTERM', 'SIGHUP'])
  process.on(signal, () => {
    vitest.kill(signal);
    check.kill(signal);
  });
process.on('SIGINT', () => undefined);

(async () => {
  const testCode = await tested;
  let done = false;
  const waiting = setTimeout(() => !done && say('waiting for the type check to finish…'), 1_000);
  const { code, signal, error } = await checked;
  done = true;
  clearTimeout(waiting);
  const seconds = Math.round((Date.now() - checkStarted) / 1000);
  if (code === 0) say(`type check passed (${seconds} s)`);
  else {
    process.stderr.write(checkOutput);
    say(
      `type check failed (${error ? error.message : signal ? `killed by ${signal}` : `tsc exited ${code}`}, ${seconds} s)`,
    );
  }
  process.exit(testCode !== 0 ? testCode : code === 0 ? 0 : 1);
})();
