/**
 * The `thoughtline` bin (dist/cli/bin.js) on a Node older than the CLI needs: it re-runs the command
 * on THOUGHTLINE_NODE, else on a Node that scripts/ensure-node.sh installed (.thoughtline/node/<version>,
 * found above the working directory or above the package), else on one in the per-user cache, which
 * it installs there with npm the first time, saying so in one line; when it cannot, it says in one
 * line what to run and exits 2. Run with a real old Node, 16.20.2 from the npm registry (the package
 * ensure-node.sh installs, older), so the bin is also proved to parse and run on Node 16. npm is a
 * stub here that lays out what the registry's package holds (the real install is
 * test/cli/node20-installed-package.test.ts's, in the slow stage).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installTestNode, NODE_PACKAGE } from '../helpers/test-node';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'dist/cli/bin.js');
const OLD_NODE_VERSION = '16.20.2';
const engines = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } })
  .engines.node;

let oldNode: string;
let tmp: string;

/** Makes `<dir>/.thoughtline/node/<version>/…/bin/node` run `node` (as ensure-node.sh lays it out). */
function placeNode(dir: string, version: string, node: string): string {
  const bin = path.join(dir, '.thoughtline/node', version, 'node_modules', NODE_PACKAGE, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.symlinkSync(node, path.join(bin, 'node'));
  return bin;
}

/** A package folder holding the built bin and, as its main.js, a stub that reports where it ran. */
function stubPackage(name: string): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(path.join(dir, 'dist/cli'), { recursive: true });
  fs.copyFileSync(BIN, path.join(dir, 'dist/cli/bin.js'));
  fs.writeFileSync(
    path.join(dir, 'dist/cli/main.js'),
    `process.stdout.write(JSON.stringify({ version: process.version, args: process.argv.slice(2), path: process.env.PATH.split(':')[0] }));
     if (process.argv.includes('--wait')) setInterval(() => {}, 1000); else process.exit(3);`,
  );
  return dir;
}

/** The bin on Node 16, with a per-user cache of its own (`cache`, empty unless a test fills it). */
function runOld(bin: string, args: string[], cwd: string, env: Record<string, string> = {}, cache = 'cache-none') {
  const base: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: path.join(tmp, cache) };
  for (const name of ['THOUGHTLINE_NODE', 'THOUGHTLINE_NODE_VERSION', 'THOUGHTLINE_NO_NODE_INSTALL']) delete base[name];
  return spawnSync(oldNode, [bin, ...args], { cwd, encoding: 'utf8', timeout: 60_000, env: { ...base, ...env } });
}

/**
 * A folder holding an `npm` that logs its arguments to npm.log and, unless `fails`, lays out its
 * `--prefix` as the registry's node-<platform>-<arch> would, its bin/node this test's Node.
 */
function stubNpm(name: string, fails: boolean): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  const install = `prefix=""; prev=""; for a in "$@"; do [ "$prev" = "--prefix" ] && prefix="$a"; prev="$a"; done
mkdir -p "$prefix/node_modules/${NODE_PACKAGE}/bin" && ln -s "${process.execPath}" "$prefix/node_modules/${NODE_PACKAGE}/bin/node"`;
  fs.writeFileSync(
    path.join(dir, 'npm'),
    `#!/bin/sh\necho "$@" >> "${dir}/npm.log"\n${fails ? 'echo "npm error code ENOTFOUND" >&2; echo more >&2; exit 1' : install}\n`,
    { mode: 0o755 },
  );
  return dir;
}

const NEEDS = 'thoughtline: this is Node 16.20.2 and thoughtline needs Node 22.13 or newer: installing Node';

beforeAll(() => {
  oldNode = installTestNode(OLD_NODE_VERSION);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'node-version-bin-'));
}, 300_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the thoughtline bin on an old Node', () => {
  it('uses a real Node 16 (control)', () => {
    expect(execFileSync(oldNode, ['--version'], { encoding: 'utf8' }).trim()).toBe(`v${OLD_NODE_VERSION}`);
  });

  it('states engines Node 20 satisfies, and installs the Node scripts/ensure-node.sh does', () => {
    expect(engines).toBe('>=20.3');
    const ensureNode = fs.readFileSync(path.join(ROOT, 'scripts/ensure-node.sh'), 'utf8');
    const installs = /THOUGHTLINE_NODE_VERSION \|\| '([\d.]+)'/.exec(fs.readFileSync(BIN, 'utf8'))?.[1];
    expect(installs).toMatch(/^22\./);
    expect(ensureNode).toContain(`THOUGHTLINE_NODE_VERSION="\${THOUGHTLINE_NODE_VERSION:-${installs}}"`);
  });

  it('with no Node 22 found, installs one into the per-user cache in one line, re-runs on it, and is silent after', () => {
    const pkg = stubPackage('installs');
    // An install too old to help is passed over.
    placeNode(pkg, '20.1.0', oldNode);
    const npm = stubNpm('npm-ok', false);
    const env = { PATH: `${npm}${path.delimiter}${process.env.PATH}`, THOUGHTLINE_NODE_VERSION: '22.99.0' };
    const first = runOld(path.join(pkg, 'dist/cli/bin.js'), ['run', 'a b'], pkg, env, 'cache-installs');
    const root = path.join(tmp, 'cache-installs/thoughtline/node');
    expect(first.stderr).toBe(`${NEEDS} 22.99.0 from the npm registry into ${root} (once)... done\n`);
    expect(first.status).toBe(3);
    expect(JSON.parse(first.stdout)).toMatchObject({ version: process.version, args: ['run', 'a b'] });
    // ensure-node.sh's npm command, into a folder of its own renamed into place when whole.
    const staging = path.join(root, '.22.99.0-');
    const flags = '--no-save --no-package-lock --ignore-scripts --no-audit --no-fund --loglevel=error';
    const log = fs.readFileSync(path.join(npm, 'npm.log'), 'utf8');
    expect(log.startsWith(`install --prefix ${staging}`)).toBe(true);
    expect(log.slice(`install --prefix ${staging}`.length)).toMatch(
      new RegExp(`^\\d+ ${flags} ${NODE_PACKAGE}@22\\.99\\.0\\n$`),
    );
    expect(fs.readdirSync(root)).toEqual(['22.99.0']);

    const second = runOld(path.join(pkg, 'dist/cli/bin.js'), ['--help'], pkg, env, 'cache-installs');
    expect(second.stderr).toBe('');
    expect(second.status).toBe(3);
    expect(fs.readFileSync(path.join(npm, 'npm.log'), 'utf8').split('\n')).toHaveLength(2); // npm ran once
  });

  it('when npm fails, or the install is turned off, says in one line what to run and exits 2', () => {
    const pkg = stubPackage('refuses');
    const bin = path.join(pkg, 'dist/cli/bin.js');
    const root = path.join(tmp, 'cache-refuses/thoughtline/node');
    const command = `npm install --prefix ${root}/22.23.3 --ignore-scripts ${NODE_PACKAGE}@22.23.3`;
    const npm = stubNpm('npm-fails', true);
    const failed = runOld(
      bin,
      ['--help'],
      pkg,
      { PATH: `${npm}${path.delimiter}${process.env.PATH}` },
      'cache-refuses',
    );
    expect(failed.status).toBe(2);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toBe(
      `${NEEDS} 22.23.3 from the npm registry into ${root} (once)... failed (npm error code ENOTFOUND): ` +
        `run \`${command}\`, or install Node 22.13+ from https://nodejs.org, or set THOUGHTLINE_NODE to one\n`,
    );
    expect(fs.readdirSync(root)).toEqual([]); // nothing half-installed is left

    const off = runOld(bin, ['--help'], pkg, { THOUGHTLINE_NO_NODE_INSTALL: '1' }, 'cache-refuses');
    expect(off.status).toBe(2);
    expect(off.stderr).toBe(
      'thoughtline: needs Node 22.13 or newer and this is Node 16.20.2, and THOUGHTLINE_NO_NODE_INSTALL is set: ' +
        `run \`${command}\`, or set THOUGHTLINE_NODE to a Node 22.13+ binary\n`,
    );
  });

  it('runs on THOUGHTLINE_NODE first, and refuses one that is too old in one line', () => {
    const pkg = stubPackage('named');
    placeNode(pkg, '22.13.0', oldNode); // passed over: THOUGHTLINE_NODE comes first
    const named = runOld(path.join(pkg, 'dist/cli/bin.js'), ['--help'], pkg, { THOUGHTLINE_NODE: process.execPath });
    expect(named.stderr).toBe('');
    expect(JSON.parse(named.stdout)).toMatchObject({ version: process.version });
    const old = runOld(path.join(pkg, 'dist/cli/bin.js'), ['--help'], pkg, { THOUGHTLINE_NODE: oldNode });
    expect(old.status).toBe(2);
    expect(old.stderr).toBe(
      `thoughtline: needs Node 22.13 or newer and ${oldNode} is Node 16.20.2: set THOUGHTLINE_NODE to a Node 22.13+ binary\n`,
    );
  });

  it('re-runs on the newest Node installed above its own package, with its arguments, exit code and PATH', () => {
    const pkg = stubPackage('own-install');
    placeNode(pkg, '22.13.0', oldNode); // older, and a Node 16 behind its name: the newest is taken
    const bin = placeNode(pkg, process.versions.node, process.execPath);
    const elsewhere = fs.mkdtempSync(path.join(tmp, 'cwd-'));
    const { status, stdout, stderr } = runOld(path.join(pkg, 'dist/cli/bin.js'), ['run', '--json', 'a b'], elsewhere);
    expect(stderr).toBe('');
    expect(status).toBe(3);
    expect(JSON.parse(stdout)).toEqual({ version: process.version, args: ['run', '--json', 'a b'], path: bin });
  });

  it('re-runs on a Node installed above the working directory (a project that ran ensure-node.sh)', () => {
    const pkg = stubPackage('from-cwd');
    const project = path.join(tmp, 'project');
    placeNode(project, process.versions.node, process.execPath);
    const cwd = path.join(project, 'src/deep');
    fs.mkdirSync(cwd, { recursive: true });
    const { status, stdout } = runOld(path.join(pkg, 'dist/cli/bin.js'), ['--help'], cwd);
    expect(status).toBe(3);
    expect(JSON.parse(stdout)).toMatchObject({ version: process.version, args: ['--help'] });
  });

  it('passes a SIGTERM on to the command it re-ran, and ends by it', async () => {
    const pkg = stubPackage('signal');
    placeNode(pkg, process.versions.node, process.execPath);
    const parent = spawn(oldNode, [path.join(pkg, 'dist/cli/bin.js'), '--wait'], { cwd: pkg });
    let out = '';
    parent.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await expect.poll(() => out, { timeout: 30_000 }).toContain(process.version);
    const ended = new Promise<NodeJS.Signals | null>((resolve) =>
      parent.on('exit', (_code, signal) => resolve(signal)),
    );
    parent.kill('SIGTERM');
    expect(await ended).toBe('SIGTERM');
  });

  it('runs the built CLI on Node 16 through a Node 22 install: --help works', () => {
    const project = path.join(tmp, 'real');
    placeNode(project, process.versions.node, process.execPath);
    const { status, stdout, stderr } = runOld(BIN, ['--help'], project);
    expect(stderr).not.toMatch(/EBADENGINE|DatabaseSync|SyntaxError/);
    expect(status).toBe(0);
    expect(stdout).toMatch(/Usage:[\s\S]*\n  run  /);
  });
});
