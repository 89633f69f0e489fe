/**
 * The `thoughtline` bin (dist/cli/bin.js) on a Node older than engines: it re-runs the command on
 * a Node that scripts/ensure-node.sh installed (.thoughtline/node/<version>, found above the
 * working directory or above the package), else says what to do and exits 2. Run with a real old
 * Node, 16.20.2 from the npm registry (the package ensure-node.sh installs, older), so the bin is
 * also proved to parse and run on Node 16.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'dist/cli/bin.js');
const OLD_NODE_VERSION = '16.20.2';
const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;
const engines = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } })
  .engines.node;

let oldNode: string;
let tmp: string;

/** Node 16 from the npm registry, installed once under .thoughtline/test-node (not .thoughtline/node: the bin must not take it). */
function installOldNode(): string {
  const prefix = path.join(ROOT, '.thoughtline/test-node', OLD_NODE_VERSION);
  const node = path.join(prefix, 'node_modules', NODE_PACKAGE, 'bin/node');
  if (!fs.existsSync(node)) {
    fs.mkdirSync(prefix, { recursive: true });
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-save',
        '--no-package-lock',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
      ].concat(['--loglevel=error', `${NODE_PACKAGE}@${OLD_NODE_VERSION}`]),
      { stdio: 'pipe', timeout: 240_000 },
    );
  }
  return node;
}

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

function runOld(bin: string, args: string[], cwd: string) {
  return spawnSync(oldNode, [bin, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
}

beforeAll(() => {
  oldNode = installOldNode();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'node-version-bin-'));
}, 300_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the thoughtline bin on an old Node', () => {
  it('uses a real Node 16 (control)', () => {
    expect(execFileSync(oldNode, ['--version'], { encoding: 'utf8' }).trim()).toBe(`v${OLD_NODE_VERSION}`);
  });

  it('with no Node 22 installed anywhere above, prints one line saying what to run and exits 2', () => {
    const pkg = stubPackage('refuses');
    // An install too old to help is passed over.
    placeNode(pkg, '20.1.0', oldNode);
    const { status, stdout, stderr } = runOld(path.join(pkg, 'dist/cli/bin.js'), ['--help'], pkg);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(engines).toBe('>=22.13');
    expect(stderr).toBe(
      `thoughtline: needs Node 22.13 or newer and this is Node ${OLD_NODE_VERSION}: in a thoughtline checkout run ` +
        '`source scripts/ensure-node.sh` (it installs Node 22 into .thoughtline/node), or install Node 22.13+ from https://nodejs.org.\n',
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
