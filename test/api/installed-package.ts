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
