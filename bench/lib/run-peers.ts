import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
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
  opts: { cwd: string; timeoutMs: number; label: string },
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // SIGKILL at the timeout: a peer stuck in a loop may ignore SIGTERM.
    execFile(
      cmd,
      args,
      { cwd: opts.cwd, timeout: opts.timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 },
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
  try {
    await run('npm', [verb, '--prefix', dir, '--no-audit', '--no-fund'], {
      cwd: dir,
      timeoutMs: INSTALL_TIMEOUT_MS,
      label: `npm ${verb}`,
    });
    if (lockHash) fs.writeFileSync(stamp, `${lockHash}\n`);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
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
