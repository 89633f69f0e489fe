#!/usr/bin/env node
import { findCommand, parseCommandLine, type CommandSpec, type Parsed } from './spec/command-line';
import { commandHelp } from './spec/command-help';
import { topLevelHelp } from './spec/top-help';
import { COMMAND_FILES } from './commands/command-files';
import { packageVersion } from '../deployment/worker-version';
import { UsageError } from './spec/usage-error';
import { readErrorText } from '../client/errors/read-error-text';
import { serverErrorAdvice } from '../client/errors/server-error-advice';
import { terminalSafe } from './render/terminal-safe';
import { missingRunId, missingRunText } from './render/missing-run-text';

/** Every command: loading them all costs 0.4 s of CPU more than one, so only help and mistakes do. */
const allCommands = (): readonly CommandSpec[] => (require('./commands') as typeof import('./commands')).COMMANDS;

/** The file of the command argv names (commands/command-files.ts), alone; none for help or an unknown name. */
function ownCommand(verb: string | undefined): CommandSpec | undefined {
  if (verb === undefined || !Object.hasOwn(COMMAND_FILES, verb)) return undefined;
  const [file, exportName] = COMMAND_FILES[verb]!;
  return (require(`./commands/${file}`) as Record<string, CommandSpec | undefined>)[exportName];
}

/**
 * Parses against the named command's spec alone (none for `--version`, which needs no command); a
 * mistake is parsed again against every command, so its message can name the commands that do take
 * an option, as it always did.
 */
function parse(argv: readonly string[]): { parsed: Parsed; commands: readonly CommandSpec[] } {
  const own = ownCommand(argv[0]);
  const alone = own ? [own] : [];
  try {
    return { parsed: parseCommandLine(argv, alone), commands: alone };
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
  }
  const commands = allCommands();
  return { parsed: parseCommandLine(argv, commands), commands };
}

/** Returns the process exit code: 0 when the command (and any agent it ran) succeeded, 2 for a usage mistake. */
async function main(argv: string[]): Promise<number> {
  const { parsed, commands } = parse(argv);
  if (parsed.kind === 'help') {
    process.stdout.write(
      parsed.command === undefined ? topLevelHelp(allCommands()) : commandHelp(findCommand(parsed.command, commands)),
    );
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
