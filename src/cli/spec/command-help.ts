import { HELP_OPTION, type CommandSpec, type OptionSpec } from './command-line';

/** Where help wraps its text; the option column starts at OPTION_COLUMN. */
const WIDTH = 100;
const OPTION_COLUMN = 26;

/** What a run id is, under the help of every command that takes one. */
export const RUN_ID_NOTE =
  "A <run-id> is the agent-… id that run prints: Temporal's workflow id, /v1's runId, A2A's and MCP's task id.";

/** The end of every command's help. */
export const HELP_FOOTER = `Temporal: TEMPORAL_ADDRESS (default 127.0.0.1:7233), TEMPORAL_NAMESPACE, THOUGHTLINE_TASK_QUEUE,
TEMPORAL_PROFILE and Temporal's own TLS and API-key variables (docs/operations.md).
Exit codes: 0 success, 1 the agent ended another way or the command failed, 2 a usage mistake,
130 Ctrl-C while run followed its run.
`;

/** Words of `text` in lines of at most `width - indent` characters, each line indented. */
export function wrap(text: string, indent: number, width = WIDTH): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => ' '.repeat(indent) + l);
}

/** `--name VALUE` (`-y, --yes` with a short form), as the options table and usage lines show it. */
export const optionName = (name: string, o: OptionSpec): string =>
  `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`;

/** The option's help with its default, its environment variable, and "repeatable". */
export function optionText(o: OptionSpec): string {
  const notes = [
    ...(o.default !== undefined ? [`default: ${o.default}`] : []),
    ...(o.env !== undefined ? [`env: ${o.env}`] : []),
    ...(o.multiple ? ['repeatable'] : []),
  ];
  return notes.length ? `${o.help} (${notes.join('; ')})` : o.help;
}

/** `thoughtline status <run-id> [--json] [--role ROLE]`, or `[options]` when that runs past the width. */
export function usageLines(command: CommandSpec): string[] {
  if (command.usage) return command.usage.map((u) => `thoughtline ${u}`);
  const head = ['thoughtline', command.name, ...command.args.map((a) => a.name)].join(' ');
  const inline = Object.entries(command.options).map(
    ([name, o]) => `[--${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}]`,
  );
  const whole = [head, ...inline].join(' ');
  return [inline.length === 0 ? head : whole.length + 2 <= WIDTH ? whole : `${head} [options]`];
}

function optionRows(options: Readonly<Record<string, OptionSpec>>): string[] {
  return Object.entries(options).flatMap(([name, o]) => {
    const left = `  ${optionName(name, o)}`;
    const [first = '', ...rest] = wrap(optionText(o), OPTION_COLUMN);
    const head = left.length + 2 <= OPTION_COLUMN ? [left.padEnd(OPTION_COLUMN) + first.trimStart()] : [left, first];
    return [...head, ...rest];
  });
}

/** The commands under this one, a line each: their own help is `thoughtline <name> --help`. */
function subcommandRows(command: CommandSpec): string[] {
  if (!command.subcommands?.length) return [];
  const rows = command.subcommands.map((s) => `  ${`thoughtline ${s.name}`.padEnd(OPTION_COLUMN)}${s.summary}`);
  return ['', 'Commands under it (each has its own --help):', ...rows];
}

/** `thoughtline CMD --help` and `thoughtline help CMD`: usage, what it does, every option, examples. */
export function commandHelp(command: CommandSpec): string {
  const takesRunId =
    command.args.some((a) => a.name === '<run-id>') || command.usage?.some((u) => u.includes('<run-id>'));
  return [
    'Usage:',
    ...usageLines(command).map((l) => `  ${l}`),
    '',
    ...wrap(command.description, 0),
    ...(takesRunId ? wrap(RUN_ID_NOTE, 0) : []),
    ...subcommandRows(command),
    '',
    'Options:',
    ...optionRows({ ...command.options, ...HELP_OPTION }),
    '',
    command.examples.length === 1 ? 'Example:' : 'Examples:',
    ...command.examples.map((e) => `  ${e}`),
    '',
    HELP_FOOTER,
  ].join('\n');
}
