import { COMMAND_GROUPS, type CommandSpec } from './command-line';

/** Where the commands' summaries start in the top-level help. */
const SUMMARY_COLUMN = 24;

/** `thoughtline`, `thoughtline --help`, `thoughtline help`: the commands by group, one line each. */
export function topLevelHelp(commands: readonly CommandSpec[]): string {
  // One line for usage and where help is, so the list of commands stays within 40 lines.
  const lines = [
    'Usage: thoughtline <command> [options]; thoughtline help [<command>] (or <command> --help); --version',
  ];
  for (const group of COMMAND_GROUPS) {
    lines.push(`${group}:`);
    for (const c of commands.filter((c) => c.group === group))
      lines.push(`  ${c.name.padEnd(SUMMARY_COLUMN - 2)}${c.summary}`);
  }
  return `${lines.join('\n')}\n`;
}
