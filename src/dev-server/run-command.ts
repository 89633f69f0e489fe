import { spawn } from 'node:child_process';

export interface CommandResult {
  /** Null when the process could not be started or was killed by a signal. */
  exitCode: number | null;
  /** Last few KB of stdout and stderr interleaved, for error messages. */
  output: string;
  /** Set when spawning failed, e.g. 'ENOENT' for a command that is not installed. */
  spawnError?: string;
}

const KEEP_CHARS = 4000;

/** Runs a command to completion without a shell; never rejects. */
export function runCommand(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<CommandResult> {
  return new Promise((resolve) => {
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-KEEP_CHARS);
    };
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', (err: NodeJS.ErrnoException) =>
      resolve({ exitCode: null, output, spawnError: err.code ?? err.message }),
    );
    child.once('close', (code) => resolve({ exitCode: code, output }));
  });
}

/** One-line reason for a failed command, for logs and error lists. */
export function describeFailure(command: string, result: CommandResult): string {
  if (result.spawnError === 'ENOENT') return `'${command}' is not installed`;
  if (result.spawnError) return `'${command}' could not start (${result.spawnError})`;
  const lastLines = result.output.trim().split('\n').slice(-3).join(' | ');
  return `'${command}' exited with ${result.exitCode ?? 'a signal'}${lastLines ? `: ${lastLines}` : ''}`;
}
