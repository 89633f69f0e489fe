import { parseArgs } from 'node:util';
import { didYouMean } from './did-you-mean';
import { UsageError } from './usage-error';

/** One option: how it parses, and what its help says (the help is written from these fields alone). */
export interface OptionSpec {
  type: 'boolean' | 'string';
  short?: string;
  multiple?: boolean;
  /** What a string option's value is called in help: FILE, N, URL. */
  value?: string;
  /** What the option does, in a line or two. */
  help: string;
  /** The value used when the option is not given, as help shows it. */
  default?: string;
  /** The environment variable read when the option is not given. */
  env?: string;
}

/** The groups of the top-level help, in the order it lists them. */
export const COMMAND_GROUPS = [
  'Run and watch',
  'People in the loop',
  'Serve and protocols',
  'Store and audit',
  'Evaluation',
  'Operations',
] as const;
export type CommandGroup = (typeof COMMAND_GROUPS)[number];

/** A positional argument: its name in messages, and what a missing one is said to be (absent: optional). */
export interface ArgSpec {
  name: string;
  needs?: string;
}

/** One command of the table: its arguments, the only options it takes, its help, and what it does. */
export interface CommandSpec {
  name: string;
  group: CommandGroup;
  /** Its line in the top-level help. */
  summary: string;
  /** The paragraph under its usage in `CMD --help`. */
  description: string;
  /** Usage lines after `thoughtline ` when one line written from args and options does not say it (subcommands). */
  usage?: readonly string[];
  /** Whole command lines (`thoughtline …`); a test parses each one. */
  examples: readonly string[];
  args: readonly ArgSpec[];
  options: Readonly<Record<string, OptionSpec>>;
  /**
   * Words people type meaning this command (`list` for `runs`): an unknown command that is one of
   * them is refused with this one suggested. Never accepted in its place: one name per command.
   */
  suggestedFor?: readonly string[];
  /** Added to the message when there are too many arguments, e.g. "put the task in quotes". */
  extraArgsHint?: string;
  /**
   * Commands under this one, each named `<this> <word>` (`eval add`): `thoughtline eval add …`
   * parses against that spec alone and `eval add --help` shows its own help.
   */
  subcommands?: readonly CommandSpec[];
  /** Resolves to the process's exit code. */
  run(line: CommandLine): Promise<number>;
}

/** What a command reads from its command line, already checked against its spec. */
export interface CommandLine {
  args: string[];
  flag(name: string): boolean;
  text(name: string): string | undefined;
  texts(name: string): string[] | undefined;
}

/** `help` names a command for `thoughtline help <command>` and `<command> --help`; none: the whole text. */
export type Parsed =
  | { kind: 'help'; exitCode: number; command?: string }
  | { kind: 'version' }
  | { kind: 'command'; command: CommandSpec; line: CommandLine };

export const HELP_OPTION = {
  help: { type: 'boolean', short: 'h', help: "this command's help" },
} as const satisfies Record<string, OptionSpec>;

/**
 * Reads argv against the command table: the command comes first, then its arguments and options
 * in any order. Anything the command does not take is a UsageError that names the closest
 * command or option; nothing is ignored.
 */
export function parseCommandLine(argv: readonly string[], commands: readonly CommandSpec[]): Parsed {
  const [verb, ...rest] = argv;
  if (verb === undefined) return { kind: 'help', exitCode: 2 };
  if (verb === '--help' || verb === '-h') return { kind: 'help', exitCode: 0 };
  if (verb === '--version' || verb === '-v') {
    if (rest.length > 0) throw new UsageError(`--version takes nothing after it; got "${rest[0]}".`);
    return { kind: 'version' };
  }
  if (verb === 'help') return helpFor(rest, commands);
  if (verb.startsWith('-'))
    throw new UsageError(
      `the command comes first and its options after it, e.g. thoughtline status <run-id> --json; got "${verb}" first.`,
    );
  const top = findCommand(verb, commands);
  const sub = top.subcommands?.find((s) => s.name === `${verb} ${rest[0]}`);
  return sub ? parseCommand(sub, rest.slice(1), commands) : parseCommand(top, rest, commands);
}

/** One command's arguments and options, after its name. */
function parseCommand(command: CommandSpec, rest: readonly string[], commands: readonly CommandSpec[]): Parsed {
  const options = parseArgsOptions({ ...command.options, ...HELP_OPTION });
  refuseUnknownOptions(rest, command, commands);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...rest], allowPositionals: true, strict: true, options });
  } catch (err) {
    // Node's own words for the rest (a missing value, a value given to a flag).
    if ((err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError((err as Error).message);
    throw err;
  }
  const { values, positionals } = parsed;
  if (values['help'] === true) return { kind: 'help', exitCode: 0, command: command.name };
  checkArgCount(command, positionals);
  return {
    kind: 'command',
    command,
    line: {
      args: positionals,
      flag: (name) => values[name] === true,
      text: (name) => (typeof values[name] === 'string' ? (values[name] as string) : undefined),
      texts: (name) => (Array.isArray(values[name]) ? (values[name] as string[]) : undefined),
    },
  };
}

/** Node's parseArgs takes only how each option parses, not its help. */
function parseArgsOptions(
  options: Readonly<Record<string, OptionSpec>>,
): Record<string, { type: 'boolean' | 'string'; short?: string; multiple?: boolean }> {
  return Object.fromEntries(
    Object.entries(options).map(([name, o]) => [
      name,
      { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) },
    ]),
  );
}

/** Every command with the subcommands under it (`eval`, `eval add`). */
export const withSubcommands = (commands: readonly CommandSpec[]): CommandSpec[] =>
  commands.flatMap((c) => [c, ...(c.subcommands ?? [])]);

export function findCommand(name: string, commands: readonly CommandSpec[]): CommandSpec {
  const command = withSubcommands(commands).find((c) => c.name === name);
  if (command) return command;
  const near =
    didYouMean(
      name,
      commands.map((c) => c.name),
    ) ?? commands.find((c) => c.suggestedFor?.includes(name))?.name;
  throw new UsageError(`unknown command "${name}"${near ? `; did you mean "${near}"?` : '.'}`);
}

/** `help` alone, or `help <command>` for a command of the table (a typo gets its did-you-mean). */
function helpFor(rest: readonly string[], commands: readonly CommandSpec[]): Parsed {
  const sub = rest.length === 2 ? `${rest[0]} ${rest[1]}` : undefined;
  if (sub !== undefined && withSubcommands(commands).some((c) => c.name === sub))
    return { kind: 'help', exitCode: 0, command: sub };
  if (rest.length > 1) throw new UsageError(`"help" takes one command at most; unexpected "${rest[1]}".`);
  const [name] = rest;
  if (name === undefined || name === '--help' || name === '-h') return { kind: 'help', exitCode: 0 };
  return { kind: 'help', exitCode: 0, command: findCommand(name, commands).name };
}

/** Checks each option token before Node's parser sees it, to say what was probably meant. */
function refuseUnknownOptions(tokens: readonly string[], command: CommandSpec, commands: readonly CommandSpec[]): void {
  const options: Record<string, OptionSpec> = { ...command.options, ...HELP_OPTION };
  const shorts = new Set(Object.values(options).flatMap((o) => (o.short ? [o.short] : [])));
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token === '--') return;
    if (token.startsWith('--')) {
      const name = token.slice(2).split('=')[0]!;
      const spec = options[name];
      if (!spec) throw new UsageError(unknownOptionText(name, command, commands));
      // The next token is this option's value, whatever it looks like.
      if (spec.type === 'string' && !token.includes('=')) i++;
    } else if (token.startsWith('-') && token.length > 1) {
      const unknown = [...token.slice(1)].find((c) => !shorts.has(c));
      if (unknown !== undefined)
        throw new UsageError(`unknown option -${unknown} for "${command.name}"; ${takesText(command)}.`);
    }
  }
}

function unknownOptionText(name: string, command: CommandSpec, commands: readonly CommandSpec[]): string {
  const own = Object.keys(command.options);
  const near = didYouMean(name, own);
  if (near) return `unknown option --${name}; did you mean --${near}?`;
  const elsewhere = commands.filter((c) => Object.hasOwn(c.options, name)).map((c) => c.name);
  if (elsewhere.length)
    return `"${command.name}" does not take --${name} (${elsewhere.join(', ')} ${elsewhere.length === 1 ? 'does' : 'do'}); ${takesText(command)}.`;
  return `unknown option --${name}; ${takesText(command)}.`;
}

const takesText = (command: CommandSpec): string => {
  const own = Object.keys(command.options);
  return own.length
    ? `"${command.name}" takes ${own.map((o) => `--${o}`).join(', ')}`
    : `"${command.name}" takes no options`;
};

function checkArgCount(command: CommandSpec, positionals: readonly string[]): void {
  const missing = command.args.find((a, i) => a.needs !== undefined && positionals[i] === undefined);
  if (missing) throw new UsageError(`"${command.name}" needs ${missing.needs}.`);
  if (positionals.length > command.args.length) {
    const extra = positionals
      .slice(command.args.length)
      .map((p) => `"${p}"`)
      .join(' ');
    const takes =
      command.args.length === 0 ? 'takes no arguments' : `takes ${command.args.map((a) => a.name).join(' ')}`;
    throw new UsageError(
      `"${command.name}" ${takes}; unexpected ${extra}${command.extraArgsHint ? ` (${command.extraArgsHint})` : ''}.`,
    );
  }
}
