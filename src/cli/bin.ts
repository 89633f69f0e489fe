#!/usr/bin/env node
/**
 * The `thoughtline` command's first file: it checks the Node it runs on before anything that needs
 * Node 22 loads (node:sqlite, the Temporal SDK's engines). On an older Node it re-runs the command
 * on a Node that scripts/ensure-node.sh installed (.thoughtline/node/<version> in the working
 * directory or a folder above it, or above this package), so a second terminal needs no `source`;
 * with none, it says what to do and exits 2. It must parse and run on old Node: CommonJS, no
 * syntax or API newer than Node 16, no `node:` specifiers, nothing of the package loaded first.
 */
import { spawn } from 'child_process';
import fs from 'fs';
import path from 'path';

/** package.json's `engines.node` (>= 22.13): the bin test checks the refusal names it. */
const MINIMUM_NODE = { major: 22, minor: 13 };
/** Set on the re-run command: a Node found there that is still too old must not loop. */
const RERUN_MARK = 'THOUGHTLINE_NODE_RERUN';

function versionOf(text: string): [number, number, number] {
  const parts = text.replace(/^v/, '').split('.');
  return [Number(parts[0]) || 0, Number(parts[1]) || 0, Number(parts[2]) || 0];
}

function isNewEnough(version: string): boolean {
  const [major, minor] = versionOf(version);
  return major > MINIMUM_NODE.major || (major === MINIMUM_NODE.major && minor >= MINIMUM_NODE.minor);
}

function newestFirst(a: string, b: string): number {
  const x = versionOf(a);
  const y = versionOf(b);
  return y[0] - x[0] || y[1] - x[1] || y[2] - x[2];
}

/**
 * The Node binaries ensure-node.sh installed in `<dir>/.thoughtline/node/<version>` for `start`
 * and every folder above it, nearest folder first, newest version first within a folder.
 */
function installedNodes(start: string): string[] {
  const found: string[] = [];
  let dir = path.resolve(start);
  for (;;) {
    const root = path.join(dir, '.thoughtline', 'node');
    let versions: string[] = [];
    try {
      versions = fs.readdirSync(root).filter(isNewEnough).sort(newestFirst);
    } catch {
      // No installs here.
    }
    for (const version of versions) {
      const node = path.join(root, version, 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node');
      if (fs.existsSync(node)) found.push(node);
    }
    const parent = path.dirname(dir);
    if (parent === dir) return found;
    dir = parent;
  }
}

function refuse(): never {
  process.stderr.write(
    `thoughtline: needs Node ${MINIMUM_NODE.major}.${MINIMUM_NODE.minor} or newer and this is Node ${process.versions.node}: ` +
      'in a thoughtline checkout run `source scripts/ensure-node.sh` (it installs Node 22 into .thoughtline/node), ' +
      'or install Node 22.13+ from https://nodejs.org.\n',
  );
  process.exit(2);
}

/**
 * Runs this same command on `node`, its own stdio, and ends as it ends (its exit code, or its
 * signal). Ctrl-C reaches both processes from the terminal: this one waits for the command to end.
 * A SIGTERM or SIGHUP sent to this process alone is passed on.
 */
function rerunOn(node: string): void {
  const env: NodeJS.ProcessEnv = {};
  for (const key of Object.keys(process.env)) env[key] = process.env[key];
  env[RERUN_MARK] = '1';
  env.PATH = path.dirname(node) + path.delimiter + (process.env.PATH || '');
  const child = spawn(node, process.execArgv.concat([__filename], process.argv.slice(2)), { stdio: 'inherit', env });
  const ignore = (): void => undefined;
  const pass = (signal: NodeJS.Signals) => (): void => {
    child.kill(signal);
  };
  process.on('SIGINT', ignore);
  process.on('SIGTERM', pass('SIGTERM'));
  process.on('SIGHUP', pass('SIGHUP'));
  child.on('error', () => refuse());
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code === null ? 1 : code);
  });
}

if (isNewEnough(process.versions.node)) {
  // Node's on-disk compile cache (NODE_COMPILE_CACHE, else the OS temp folder): the next start
  // skips compiling the CLI's modules (1.7 s -> 1.0 s for `--help` on 2 cores).
  const nodeModule = require('module') as { enableCompileCache?: () => unknown };
  nodeModule.enableCompileCache?.();
  require('./main');
} else {
  const nodes = process.env[RERUN_MARK] ? [] : installedNodes(process.cwd()).concat(installedNodes(__dirname));
  if (nodes.length === 0) refuse();
  rerunOn(nodes[0]!);
}
