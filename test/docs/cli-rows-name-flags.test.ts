import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands';
import type { CommandSpec } from '../../src/cli/spec/command-line';
import { ROOT } from './doc-snippets';

/**
 * docs/cli.md's commands table against the option specs `--help` is printed from (read in
 * process, nothing spawned): every flag a command takes is named in its row, in its
 * "### `name` options" section, or in the notes under the table where those name the command.
 */
const CLI_MD = fs.readFileSync(path.join(ROOT, 'docs/cli.md'), 'utf8');

function sectionOf(markdown: string, heading: RegExp): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => heading.test(line));
  if (start < 0) return '';
  const end = lines.findIndex((line, i) => i > start && /^#{1,3} /.test(line));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/** The table rows whose first cell names the command (`npx thoughtline NAME …` or a later `` `NAME …` ``). */
const rowsOf = (table: string[], name: string): string[] =>
  table.filter((row) => {
    const firstCell = row.split(/(?<!\\)\|/)[1] ?? '';
    return new RegExp(`\`(npx thoughtline )?${name}[\\s\`]`).test(firstCell);
  });

/** The flags of `command` that docs/cli.md (as `markdown`) does not name where a reader of its row looks. */
function unnamedFlags(markdown: string, command: CommandSpec): string[] {
  const commands = sectionOf(markdown, /^## Commands$/);
  const table = commands.split('\n').filter((line) => line.startsWith('| `'));
  const notes = commands
    .split(/\n\s*\n/)
    .filter((paragraph) => !paragraph.startsWith('|') && paragraph.includes(`\`${command.name}\``));
  const places = [
    ...rowsOf(table, command.name),
    sectionOf(markdown, new RegExp(`^### \`${command.name}\` options$`)),
    ...notes,
  ].join('\n');
  return Object.keys(command.options)
    .filter((flag) => !new RegExp(`--${flag}(?![\\w-])`).test(places))
    .map((flag) => `${command.name} --${flag}`);
}

describe('docs/cli.md', () => {
  it('names, for each command, every flag its --help lists', () => {
    expect(COMMANDS.flatMap((command) => unnamedFlags(CLI_MD, command))).toEqual([]);
  });

  it('would catch a flag missing from a row (negative control)', () => {
    const serve = COMMANDS.find((c) => c.name === 'serve')!;
    const without = CLI_MD.replace(' [--triggers FILE]', '').replace(/`--triggers FILE`/g, '');
    expect(unnamedFlags(without, serve)).toEqual(['serve --triggers']);
  });
});
