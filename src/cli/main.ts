#!/usr/bin/env node
import { parseCommandLine } from './spec/command-line';
import { COMMANDS, helpOf, topHelp } from './commands';
import { packageVersion } from '../deployment/worker-version';
import { UsageError } from './spec/usage-error';
import { readErrorText } from '../client/errors/read-error-text';
import { serverErrorAdvice } from '../client/errors/server-error-advice';
import { terminalSafe } from './render/terminal-safe';
import { missingRunId, missingRunText } from './render/missing-run-text';

/** Returns the process exit code: 0 when the command (and any agent it ran) succeeded, 2 for a usage mistake. */
async function main(argv: string[]): Promise<number> {
  const parsed = parseCommandLine(argv, COMMANDS);
  if (parsed.kind === 'help') {
    process.stdout.write(parsed.command === undefined ? topHelp() : helpOf(parsed.command));
    return parsed.exitCode;
  }
  if (parsed.kind === 'version') {
    process.stdout.write(`thoughtline ${packageVersion()}\n`);
    return 0;
  }
  return parsed.command.run(parsed.line);
}

/**
 * What a failure prints, without a stack: a missing run in one line naming it, else its message
 * with the causes it wraps, then, for a server's refusal, what to do.
 */
function failureLines(err: unknown): string[] {
  const missing = missingRunId(err);
  if (missing !== undefined) return [`thoughtline: ${missingRunText(missing)}`];
  const advice = serverErrorAdvice(err);
  return [`thoughtline: ${readErrorText(err)}`, ...(advice ? [`thoughtline: what to do: ${advice}`] : [])];
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const usage = err instanceof UsageError;
    // A failure's message can quote a tool's or a model's text.
    for (const line of failureLines(err)) console.error(terminalSafe(line));
    if (usage) console.error('Run "thoughtline --help" for usage.');
    process.exit(usage ? 2 : 1);
  },
);
