#!/usr/bin/env node
/**
 * The `thoughtline` command's first file: it checks the Node it runs on before anything that needs
 * Node 22 loads (node:sqlite, code_run's sandbox). On an older Node it re-runs the command on a
 * newer one: THOUGHTLINE_NODE when set; else one installed under `.thoughtline/node/<version>` in
 * the working directory or a folder above it, or above this package (scripts/ensure-node.sh in a
 * checkout); else one in the per-user cache (`$XDG_CACHE_HOME/thoughtline/node`, by default
 * `~/.cache/thoughtline/node`), which it installs there from the npm registry the first time,
 * saying so in one line. When it cannot, it says in one line what to run and exits 2.
 * It must parse and run on old Node: CommonJS, no syntax or API newer than Node 16, no `node:`
 * specifiers, nothing of the package loaded first.
 */
import { spawn, spawnSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';

/** package.json's `engines.node` says what the package loads on (20.3, Temporal's); the CLI runs on this. */
const MINIMUM_NODE = { major: 22, minor: 13 };
/** The Node installed when none is found: scripts/ensure-node.sh's default (a unit test keeps them equal). */
const INSTALL_VERSION = process.env.THOUGHTLINE_NODE_VERSION || '22.23.3';
/** Set on the re-run command: a Node found there that is still too old must not loop. */
const RERUN_MARK = 'THOUGHTLINE_NODE_RERUN';
/** The npm package holding this platform's Node binary (what the registry's `node` package installs). */
const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;
const NEEDS = `needs Node ${MINIMUM_NODE.major}.${MINIMUM_NODE.minor} or newer`;

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

/** `<root>/<version>/node_modules/node-<platform>-<arch>/bin/node`: ensure-node.sh's layout, and the cache's. */
function nodeIn(root: string, version: string): string {
  return path.join(root, version, 'node_modules', NODE_PACKAGE, 'bin', 'node');
}

/** The Node binaries installed in `root`, newest version first; none when the folder is missing. */
function nodesIn(root: string): string[] {
  let versions: string[] = [];
  try {
    versions = fs.readdirSync(root).filter(isNewEnough).sort(newestFirst);
  } catch {
    // No installs here.
  }
  return versions.map((version) => nodeIn(root, version)).filter((node) => fs.existsSync(node));
}

/** The Node binaries in `<dir>/.thoughtline/node` for `start` and every folder above it, nearest first. */
function checkoutNodes(start: string): string[] {
  const found: string[] = [];
  let dir = path.resolve(start);
  for (;;) {
    found.push(...nodesIn(path.join(dir, '.thoughtline', 'node')));
    const parent = path.dirname(dir);
    if (parent === dir) return found;
    dir = parent;
  }
}

/** The per-user cache this bin installs Node into: a user's, not a project's, so every project shares it. */
function cacheRoot(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'thoughtline', 'node');
}

function refuse(what: string): never {
  process.stderr.write(`thoughtline: ${NEEDS} and ${what}\n`);
  process.exit(2);
}

/** npm's arguments that install Node into `prefix`, as ensure-node.sh runs them: the binary only, no script. */
function installArgs(prefix: string): string[] {
  return ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--ignore-scripts', '--no-audit'].concat([
    '--no-fund',
    '--loglevel=error',
    `${NODE_PACKAGE}@${INSTALL_VERSION}`,
  ]);
}

/** Why npm did not leave a Node in `staging`, or '' when it did. */
function npmInstall(staging: string): string {
  fs.mkdirSync(staging, { recursive: true });
  const npm = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', installArgs(staging), {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (npm.error) return (npm.error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no npm on PATH' : npm.error.message;
  if (npm.status !== 0) return (npm.stderr || '').split('\n').filter(Boolean)[0] || `npm exited ${npm.status}`;
  return fs.existsSync(path.join(staging, 'node_modules', NODE_PACKAGE, 'bin', 'node'))
    ? ''
    : `npm left no ${NODE_PACKAGE}`;
}

/**
 * Installs Node INSTALL_VERSION into the cache; its path. One line on stderr says so, ended when
 * the install is: on a failure it goes on with the command to run, and the bin exits 2. npm installs
 * into a folder of this process's own, renamed into place when whole, so a second command started
 * meanwhile never runs a half-written Node.
 */
function installNode(): string {
  const root = cacheRoot();
  const target = nodeIn(root, INSTALL_VERSION);
  const command = `npm install --prefix ${path.join(root, INSTALL_VERSION)} --ignore-scripts ${NODE_PACKAGE}@${INSTALL_VERSION}`;
  if (process.env.THOUGHTLINE_NO_NODE_INSTALL) {
    refuse(
      `this is Node ${process.versions.node}, and THOUGHTLINE_NO_NODE_INSTALL is set: run \`${command}\`, ` +
        'or set THOUGHTLINE_NODE to a Node 22.13+ binary',
    );
  }
  process.stderr.write(
    `thoughtline: this is Node ${process.versions.node} and thoughtline ${NEEDS}: installing Node ${INSTALL_VERSION} ` +
      `from the npm registry into ${root} (once)...`,
  );
  const staging = path.join(root, `.${INSTALL_VERSION}-${process.pid}`);
  let why: string;
  try {
    why = npmInstall(staging);
    if (!why) fs.renameSync(staging, path.join(root, INSTALL_VERSION));
  } catch (error) {
    // A rename that lost a race to another command's install still leaves a whole Node in place.
    why = fs.existsSync(target) ? '' : (error as Error).message;
  }
  fs.rmSync(staging, { recursive: true, force: true });
  if (why || !fs.existsSync(target)) {
    process.stderr.write(
      ` failed (${(why || 'no node after the install').replace(/\s+/g, ' ')}): run \`${command}\`, ` +
        'or install Node 22.13+ from https://nodejs.org, or set THOUGHTLINE_NODE to one\n',
    );
    process.exit(2);
  }
  process.stderr.write(' done\n');
  return target;
}

/** The Node to re-run on: THOUGHTLINE_NODE, else the nearest checkout install, else the cache's (installed if need be). */
function newerNode(): string {
  if (process.env.THOUGHTLINE_NODE) return process.env.THOUGHTLINE_NODE;
  const found = checkoutNodes(process.cwd()).concat(checkoutNodes(__dirname), nodesIn(cacheRoot()));
  return found.length > 0 ? found[0]! : installNode();
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
  child.on('error', (error) =>
    refuse(`${node} does not run (${error.message}): set THOUGHTLINE_NODE to a Node 22.13+ binary`),
  );
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
} else if (process.env[RERUN_MARK]) {
  refuse(`${process.execPath} is Node ${process.versions.node}: set THOUGHTLINE_NODE to a Node 22.13+ binary`);
} else {
  rerunOn(newerNode());
}
