/**
 * The packed package in a new project on Node 20, as issue 80 found it: installed by Node 20's npm
 * with no engine warning naming thoughtline; `npx thoughtline` installs Node 22 into the per-user
 * cache the first time (one line on stderr), is silent about it the second, and runs `--help` and
 * an offline `run` on it; and the library, loaded on Node 20, refuses what needs Node 22 with its
 * typed errors where it is used. The machine's Node 20 is used when there is one, else Node 20 from
 * the npm registry. A temporary HOME and XDG_CACHE_HOME start the cache empty; npm's own cache stays
 * the user's, so nothing is downloaded twice. Slow (the install): in the slow stage.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv } from '../helpers/cli-process';
import { installPackedPackage, type InstalledPackage } from '../api/installed-package';
import { installTestNode, NODE_PACKAGE } from '../helpers/test-node';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const NODE_20_VERSION = '20.20.2';
/** scripts/ensure-node.sh's version, the one the bin installs. */
const NODE_22_VERSION = /THOUGHTLINE_NODE_VERSION:-([\d.]+)/.exec(
  fs.readFileSync(path.join(ROOT, 'scripts/ensure-node.sh'), 'utf8'),
)![1]!;

let node20: string;
let pkg: InstalledPackage;
let home: string;

/** A Node 20 on PATH other than the checkout's installs, else Node 20 from the npm registry (as ensure-node.sh installs 22). */
function findNode20(): string {
  const onPath = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => dir && !dir.includes(`${path.sep}.thoughtline${path.sep}`))
    .map((dir) => path.join(dir, 'node'))
    .find((node) => {
      try {
        return execFileSync(node, ['--version'], { encoding: 'utf8' }).startsWith('v20.');
      } catch {
        return false;
      }
    });
  if (onPath) return onPath;
  return installTestNode(NODE_20_VERSION);
}

/** The project's environment on Node 20: npm's own cache kept, HOME and the per-user Node cache new. */
function projectEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = cliEnv(extra);
  for (const name of Object.keys(env)) if (/^npm_(config|package)_/i.test(name) && !(name in pkg.env)) delete env[name];
  return {
    ...env,
    PATH: pkg.env.PATH,
    HOME: home,
    XDG_CACHE_HOME: path.join(home, 'cache'),
    npm_config_cache: process.env.npm_config_cache ?? path.join(os.homedir(), '.npm'),
  };
}

/** Lines of stderr that speak of an engine, or in which the bin speaks of Node (the CLI's own lines do not). */
const engineLines = (text: string) => text.split('\n').filter((line) => /EBADENGINE|engine/i.test(line));
const binLines = (text: string) => text.split('\n').filter((line) => /^thoughtline: .*\bNode \d/.test(line));

beforeAll(() => {
  node20 = findNode20();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-home-'));
  pkg = installPackedPackage([], { node: node20, loglevel: 'warn' });
}, 15 * 60_000);
afterAll(() => {
  pkg?.remove();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

describe('the installed package on Node 20', () => {
  it('installs with npm on Node 20 and no engine warning naming thoughtline', () => {
    expect(execFileSync(node20, ['--version'], { encoding: 'utf8' })).toMatch(/^v20\./);
    const warnings = engineLines(pkg.installLog);
    // Dependencies' own engine warnings are another matter (issue 80's install part); ours is gone.
    if (warnings.length > 0) console.log(`engine warnings left from dependencies:\n${warnings.join('\n')}`);
    expect(warnings.filter((line) => /thoughtline/.test(line))).toEqual([]);
  });

  it('installs Node 22 on the first npx thoughtline, saying so in one line, then runs --help on it; silent after', async () => {
    const env = projectEnv();
    const first = await run('npx', ['thoughtline', '--help'], { cwd: pkg.dir, env, timeout: 240_000 });
    expect(first.stdout).toMatch(/Usage:[\s\S]*\n  run  /);
    const cache = path.join(home, 'cache/thoughtline/node');
    expect(binLines(first.stderr)).toEqual([
      `thoughtline: this is Node ${execFileSync(node20, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim()} ` +
        `and thoughtline needs Node 22.13 or newer: installing Node ${NODE_22_VERSION} from the npm registry into ` +
        `${cache} (once)... done`,
    ]);
    expect(engineLines(first.stderr).filter((line) => /thoughtline/.test(line))).toEqual([]);
    expect(fs.existsSync(path.join(cache, NODE_22_VERSION, 'node_modules', NODE_PACKAGE, 'bin/node'))).toBe(true);
    // Only the whole install is left in the cache, no staging folder.
    expect(fs.readdirSync(cache)).toEqual([NODE_22_VERSION]);

    const second = await run('npx', ['thoughtline', '--version'], { cwd: pkg.dir, env, timeout: 60_000 });
    expect(second.stdout.trim()).toBe('thoughtline 0.1.0');
    expect(binLines(second.stderr)).toEqual([]);
  }, 300_000);

  it('runs `npx thoughtline run` offline on the Node it installed', async () => {
    const env = projectEnv({ THOUGHTLINE_TASK_QUEUE: `node20-run-${process.pid}-${Date.now()}` });
    const done = await run('npx', ['thoughtline', 'run', 'Compare the weather in Paris and Tokyo', '--json'], {
      cwd: pkg.dir,
      env,
      timeout: 240_000,
    });
    const result = JSON.parse(done.stdout) as { terminationReason: string; finalAnswer: string };
    expect(result.terminationReason, done.stderr).toBe('success');
    expect(result.finalAnswer).toMatch(/^\[offline model\][\s\S]*Paris[\s\S]*Tokyo/);
    expect(binLines(done.stderr)).toEqual([]);
  }, 300_000);

  it('loads on Node 20, and refuses code_run and node:sqlite with typed errors where they are used', async () => {
    const file = path.join(pkg.dir, 'node22-features.mjs');
    fs.writeFileSync(
      file,
      `import { openChainStore, parseStoreSetting } from 'thoughtline';
       import { createCodeRunTool } from 'thoughtline/tools';
       const caught = async (f) => { try { await f(); return 'no error'; } catch (e) { return { name: e.name, message: e.message }; } };
       console.log(JSON.stringify({
         codeRun: await caught(() => createCodeRunTool({ root: 'code' })),
         store: await caught(() => openChainStore(parseStoreSetting('sqlite:chains.db'))),
       }));`,
    );
    const { stdout } = await run(node20, [file], { cwd: pkg.dir, env: projectEnv(), timeout: 60_000 });
    const { codeRun, store } = JSON.parse(stdout) as Record<'codeRun' | 'store', { name: string; message: string }>;
    expect(codeRun.name).toBe('CodeRunNodeError');
    expect(codeRun.message).toMatch(/needs Node 22\.15 or later .* this worker runs Node 20\./);
    expect(codeRun.message).toContain('~/.cache/thoughtline/node');
    expect(store.name).toBe('NodeSqliteUnavailableError');
    expect(store.message).toMatch(/^The chain store at .*chains\.db needs Node's built-in node:sqlite, in Node 22\.13/);
  });
});
