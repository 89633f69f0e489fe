import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

export const PROJECT_ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(PROJECT_ROOT, 'dist/cli/main.js');
/**
 * The decision-signing keyring CLI processes of this test file use unless told otherwise: none
 * at first (so decisions go unsigned), written by the first `serve` that starts; never the
 * checkout's `.thoughtline/signing-keys.json`.
 */
const SIGNING_KEYS = path.join(PROJECT_ROOT, '.thoughtline/tmp', `signing-keys-${process.pid}-${Date.now()}.json`);

export interface CliProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves once the combined output matches, rejects if the process exits first or time runs out. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
}

/**
 * Environment for a CLI process talking to the suite's dev server, without the developer's own
 * settings: no inherited TEMPORAL_* variable (an API key or TLS would be used on the dev server),
 * an empty temporal.toml instead of theirs, and a keyring of this test file's own.
 */
export function cliEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'THOUGHTLINE_MODEL']) delete env[name];
  env.THOUGHTLINE_SIGNING_KEYS = SIGNING_KEYS;
  for (const name of Object.keys(env)) if (name.startsWith('TEMPORAL_')) delete env[name];
  return {
    ...env,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_NAMESPACE: inject('temporalNamespace'),
    TEMPORAL_CONFIG_FILE: '/dev/null',
    ...extra,
  };
}

/** Runs the compiled CLI (`npm test` builds it first) as its own process. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv): CliProcess {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first (npm test does).`);
  return spawnScript(CLI, args, env);
}

/** Runs a Node script (a CLI, or a copy of it in a temporary project) as its own process, collecting its output. */
export function spawnScript(script: string, args: string[], env: NodeJS.ProcessEnv): CliProcess {
  const child = spawn(process.execPath, [script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  // 'close', not 'exit': the last output may still be on the pipes when the process exits.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => (ended = true));
  const waitFor = async (pattern: RegExp, timeoutMs = 60_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(out)) {
      if (ended) throw new Error(`process exited before printing ${pattern}:\n${out}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { child, output: () => out, waitFor, exited };
}

/** Stdout of a finished CLI run, and its exit code. */
/** Runs the compiled CLI to its end; `input`, when given, is its standard input (else it has none). */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  input?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first (npm test does).`);
  const child = spawn(process.execPath, [CLI, ...args], {
    env,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (input !== undefined) child.stdin!.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  // 'close', not 'exit': a large output may still be arriving on the pipes when the process exits.
  const code = await new Promise<number | null>((resolve) =>
    child.on('close', (exitCode: number | null) => resolve(exitCode)),
  );
  return { code, stdout, stderr };
}
