import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

export interface InstalledPackage {
  /** A new project outside the checkout, with the packed tarball installed in its node_modules. */
  dir: string;
  packageDir: string;
  packageJson: { exports: Record<string, string | { types: string; default: string }>; bin: Record<string, string> };
  /** Environment for npm and npx in `dir`: this Node first on PATH, none of the npm settings of a parent `npm run`. */
  env: NodeJS.ProcessEnv;
  /** npm's stderr from the install (at `loglevel`): its warnings, EBADENGINE among them. */
  installLog: string;
  remove(): void;
}

export interface InstallOptions {
  /** The Node npm installs with (first on PATH in `env`); default this process's. */
  node?: string;
  /** npm's loglevel for the install: 'warn' shows engine warnings; default 'error'. */
  loglevel?: 'error' | 'warn';
}

/**
 * The package as a user gets it: `npm pack` of the checkout (its `prepare` rebuilds dist/ when
 * stale), then, in a new project under the OS's temporary folder (outside the checkout, so none of
 * its devDependencies resolve), `npm install <tarball> ...extra` from the registry through npm's
 * cache, as README's "Your first agent" does. `extra` is what the user installs next to it.
 */
export function installPackedPackage(extra: readonly string[], options: InstallOptions = {}): InstalledPackage {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-installed-'));
  // Packed on this process's Node (its prepare script builds), installed on `options.node`.
  const env = npmEnv(process.execPath);
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, env, encoding: 'utf8' }),
  ) as Array<{ filename: string }>;
  const tarball = path.join(dir, packed!.filename);
  const project = path.join(dir, 'my-agent');
  fs.mkdirSync(project);
  fs.writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'my-agent', version: '1.0.0', private: true, type: 'module' }),
  );
  const installEnv = npmEnv(options.node ?? process.execPath);
  const loglevel = `--loglevel=${options.loglevel ?? 'error'}`;
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', loglevel, tarball, ...extra], {
    cwd: project,
    env: installEnv,
    encoding: 'utf8',
    timeout: 15 * 60_000,
  });
  if (install.status !== 0) throw new Error(`npm install failed (${install.status}): ${install.stderr}`);
  const packageDir = path.join(project, 'node_modules/thoughtline');
  const packageJson = JSON.parse(
    fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'),
  ) as InstalledPackage['packageJson'];
  return {
    dir: project,
    packageDir,
    packageJson,
    env: installEnv,
    installLog: install.stderr,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The floor a user's project carries anyway: a new project beside the package's (same npm cache)
 * with only Temporal's client, worker, workflow and activity at the pinned version, the Anthropic
 * SDK and zod at the ranges package.json uses. Its node_modules' size is what the package's
 * default install is measured against.
 */
export function installFloorProject(): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-floor-'));
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const at = (name: string) => `${name}@${pkg.dependencies[name]}`;
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'floor', version: '1.0.0', private: true }));
  const floor = ['client', 'worker', 'workflow', 'activity'].map((p) => at(`@temporalio/${p}`));
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', ...floor, at('@anthropic-ai/sdk'), at('zod')],
    {
      cwd: dir,
      env: npmEnv(process.execPath),
      stdio: 'pipe',
      timeout: 15 * 60_000,
    },
  );
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Bytes on disk under `dir` (as `du` counts them: allocated blocks); `nested: false` leaves its packages' node_modules out. */
export function diskUsage(dir: string, { nested = true } = {}): number {
  let bytes = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop()!;
    const stat = fs.lstatSync(current);
    bytes += stat.blocks * 512;
    if (!stat.isDirectory()) continue;
    for (const name of fs.readdirSync(current))
      if (nested || name !== 'node_modules') stack.push(path.join(current, name));
  }
  return bytes;
}

/**
 * Bytes on disk of `name` and of every package it brings, in `project` (read from npm's hidden
 * lock, node_modules/.package-lock.json): what installing `name` alone would have added, however
 * much else the project installed beside it. Optional peers are not followed; required ones are.
 */
export function installedWeight(project: string, name: string): number {
  type Entry = {
    dependencies?: Record<string, string>;
    optionalDependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  };
  const lock = (
    JSON.parse(fs.readFileSync(path.join(project, 'node_modules/.package-lock.json'), 'utf8')) as {
      packages: Record<string, Entry>;
    }
  ).packages;
  // Node's lookup: the nearest node_modules/<dep> from the dependent's folder upwards.
  const resolve = (from: string, dep: string): string | undefined => {
    for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
      const key = `${dir ? `${dir}/` : ''}node_modules/${dep}`;
      if (lock[key]) return key;
      if (!dir) return undefined;
    }
  };
  const seen = new Set<string>();
  const stack = [resolve('', name)!];
  while (stack.length > 0) {
    const key = stack.pop()!;
    if (seen.has(key)) continue;
    seen.add(key);
    const entry = lock[key]!;
    const required = Object.keys(entry.peerDependencies ?? {}).filter(
      (p) => !entry.peerDependenciesMeta?.[p]?.optional,
    );
    for (const dep of [...Object.keys({ ...entry.dependencies, ...entry.optionalDependencies }), ...required]) {
      const found = resolve(key, dep);
      if (found) stack.push(found);
    }
  }
  return [...seen].reduce((sum, key) => sum + diskUsage(path.join(project, key), { nested: false }), 0);
}

/**
 * `node` first on PATH (the CLI wants 22.13), and no `npm_config_*` a parent `npm run`
 * set (its local prefix is the checkout) but the cache and registry. node-gyp's header folder
 * (ensure-node.sh) stays, so a native build in the install never downloads headers.
 */
function npmEnv(node: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    const lower = name.toLowerCase();
    if (lower.startsWith('npm_config_') && !['npm_config_cache', 'npm_config_registry'].includes(lower)) continue;
    if (lower.startsWith('npm_package_') && lower !== 'npm_package_config_node_gyp_nodedir') continue;
    env[name] = value;
  }
  env.PATH = `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}`;
  return env;
}
