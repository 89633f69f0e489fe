import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { errorText } from './figure';

/** The one line of JSON a peer prints (bench/peers contract). */
export const PeerReport = z.object({
  name: z.string(),
  version: z.string(),
  iterationsPerRun: z.number().int().positive(),
  runs: z.number().int().positive(),
  perIterationMs: z.array(z.number().nonnegative()).min(1),
});
export type PeerReport = z.infer<typeof PeerReport>;

export type PeerOutcome =
  | { name: string; ok: true; report: PeerReport; wallMs: number }
  | { name: string; ok: false; stage: 'missing' | 'install' | 'run' | 'output'; error: string };

const INSTALL_TIMEOUT_MS = 600_000;

function run(
  cmd: string,
  args: readonly string[],
  opts: { cwd: string; timeoutMs: number; label: string; env?: NodeJS.ProcessEnv },
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // SIGKILL at the timeout: a peer stuck in a loop may ignore SIGTERM.
    execFile(
      cmd,
      args,
      { cwd: opts.cwd, env: opts.env, timeout: opts.timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (!err) return resolve({ stdout, stderr });
        const { killed, code } = err as { killed?: boolean; code?: number | string };
        const how = killed ? `was killed after ${opts.timeoutMs} ms` : `failed (exit code ${code ?? 'unknown'})`;
        const last = stderr.trimEnd().split('\n').pop();
        reject(new Error(`${opts.label} ${how}${last ? `: ${last}` : ''}\n${tail(stderr)}`));
      },
    );
  });
}

const tail = (text: string, lines = 12): string => text.trimEnd().split('\n').slice(-lines).join('\n');

/** Written into node_modules after an install: the hash of the lock it installed. */
const INSTALLED_LOCK = '.installed-lock-sha256';

/**
 * Installs the peers' own packages: `npm ci` when a lockfile exists, else `npm install`. Skipped
 * when node_modules holds what the current lock names (a lock changed since, by a pull or a new
 * engine, installs again). Returns an error text instead of throwing.
 */
export async function installPeers(dir: string, log: (line: string) => void): Promise<string | undefined> {
  if (!fs.existsSync(path.join(dir, 'package.json'))) return `no package.json in ${dir}`;
  const lock = path.join(dir, 'package-lock.json');
  const stamp = path.join(dir, 'node_modules', INSTALLED_LOCK);
  const lockHash = fs.existsSync(lock) ? createHash('sha256').update(fs.readFileSync(lock)).digest('hex') : undefined;
  const installed = fs.existsSync(stamp) ? fs.readFileSync(stamp, 'utf8').trim() : undefined;
  if (fs.existsSync(path.join(dir, 'node_modules')) && (lockHash === undefined || installed === lockHash))
    return undefined;
  const verb = lockHash ? 'ci' : 'install';
  log(`installing the peers' packages: npm ${verb} --prefix ${dir}`);
  const scripted = scriptedPackages(dir);
  const env = {
    ...process.env,
    ...Object.fromEntries(scripted.map((name) => [localPrebuildsVar(name), PREBUILDS_DIR])),
  };
  try {
    await run('npm', [verb, '--prefix', dir, '--no-audit', '--no-fund'], {
      cwd: dir,
      env,
      timeoutMs: INSTALL_TIMEOUT_MS,
      label: `npm ${verb}`,
    });
    await keepPrebuilds(dir, scripted).catch((err) => log(`the native builds were not kept: ${errorText(err)}`));
    if (lockHash) fs.writeFileSync(stamp, `${lockHash}\n`);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * The peers' native builds, kept per user across installs (as npm keeps its tarballs) for
 * prebuild-install, which looks in a package's local-prebuilds folder before downloading. Offline
 * (github.com unreachable) every clean install compiled better-sqlite3's SQLite from source, 47 s
 * of a core. Named as prebuild-install names a download (version, Node ABI, platform, arch), so a
 * build for another Node is never picked up; prebuild-install loads what it unpacks, and compiles
 * as before when that fails.
 */
const PREBUILDS_DIR = path.join(
  process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'),
  'thoughtline',
  'prebuilds',
);

/** The packages whose install scripts npm runs (package.json's allowScripts). */
function scriptedPackages(dir: string): string[] {
  const { allowScripts = {} } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    allowScripts?: Record<string, boolean>;
  };
  return Object.keys(allowScripts).filter((name) => allowScripts[name]);
}

/** The variable prebuild-install reads for a package's local-prebuilds folder (its util.js). */
const localPrebuildsVar = (name: string): string =>
  `npm_config_${name.replace(/[^a-zA-Z0-9]/g, '_').replace(/^_/, '')}_local_prebuilds`;

/** Keeps each prebuild-install package's compiled addons as a local prebuild, once this Node loads them. */
async function keepPrebuilds(dir: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const packageDir = path.join(dir, 'node_modules', name);
    const release = path.join(packageDir, 'build', 'Release');
    if (!fs.existsSync(release)) continue;
    const { version, scripts } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
      version: string;
      scripts?: { install?: string };
    };
    if (!scripts?.install?.includes('prebuild-install')) continue;
    const base = name.replace(/^@[^/]+\//, '');
    const file = path.join(
      PREBUILDS_DIR,
      `${base}-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`,
    );
    if (fs.existsSync(file)) continue;
    // Only the addons (not a test's SQLite extension): prebuild-install loads the last .node it unpacks.
    const addons = fs.readdirSync(release).filter((f) => f.endsWith('.node') && loads(path.join(release, f)));
    if (addons.length === 0) continue;
    fs.mkdirSync(PREBUILDS_DIR, { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    const entries = addons.map((f) => path.posix.join('build', 'Release', f));
    await promisify(execFile)('tar', ['-czf', partial, '-C', packageDir, ...entries]);
    fs.renameSync(partial, file);
  }
}

/** Whether this Node loads `file` as an addon (built for its ABI). */
function loads(file: string): boolean {
  try {
    process.dlopen({ exports: {} }, file);
    return true;
  } catch {
    return false;
  }
}

/** Runs one peer as a child process and parses its report; never throws. */
export async function runPeer(
  dir: string,
  name: string,
  args: { iterations: number; runs: number; address: string; namespace: string },
  timeoutMs: number,
): Promise<PeerOutcome> {
  const script = path.join(dir, `${name}.mjs`);
  if (!fs.existsSync(script)) return { name, ok: false, stage: 'missing', error: `${script} does not exist` };
  const argv = [
    script,
    '--iterations',
    String(args.iterations),
    '--runs',
    String(args.runs),
    '--address',
    args.address,
    '--namespace',
    args.namespace,
  ];
  const started = Date.now();
  let stdout: string;
  try {
    ({ stdout } = await run(process.execPath, argv, { cwd: dir, timeoutMs, label: `${name}.mjs` }));
  } catch (err) {
    return { name, ok: false, stage: 'run', error: err instanceof Error ? err.message : String(err) };
  }
  // The contract is one line of JSON; tolerate log lines before it.
  const line = stdout
    .trimEnd()
    .split('\n')
    .reverse()
    .find((l) => l.trimStart().startsWith('{'));
  try {
    const report = PeerReport.parse(JSON.parse(line ?? ''));
    return { name, ok: true, report, wallMs: Date.now() - started };
  } catch (err) {
    return {
      name,
      ok: false,
      stage: 'output',
      error: `unreadable report (${errorText(err)}); stdout ended with:\n${tail(stdout, 5)}`,
    };
  }
}
