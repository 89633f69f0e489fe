import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, helpOf, topHelp } from '../../src/cli/commands';
import { COMMAND_FILES } from '../../src/cli/commands/command-files';
import { parseCommandLine } from '../../src/cli/spec/command-line';
import { PROJECT_ROOT } from '../helpers/cli-process';

const CLI_COMMANDS = path.join(PROJECT_ROOT, 'dist/cli/commands') + path.sep;

/**
 * Runs the built CLI's main.js with `args` in a process that reports, on exit, which of dist's
 * command files it loaded (as paths under dist/cli/commands).
 */
function cliLoading(args: string[]): { stdout: string; stderr: string; status: number | null; loaded: string[] } {
  const code = `
    process.argv.splice(1, 0, 'main');
    process.on('exit', () => process.stderr.write('\\nLOADED ' + JSON.stringify(Object.keys(require.cache)
      .filter((f) => f.startsWith(${JSON.stringify(CLI_COMMANDS)})).map((f) => f.slice(${CLI_COMMANDS.length})))));
    require(${JSON.stringify(path.join(PROJECT_ROOT, 'dist/cli/main.js'))});`;
  const result = spawnSync(process.execPath, ['-e', code, '--', ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  const [stderr, loaded] = result.stderr.split('\nLOADED ');
  return { stdout: result.stdout, stderr: stderr!, status: result.status, loaded: JSON.parse(loaded ?? '[]') };
}

describe('each command loads from its own file', () => {
  it('names every command of the table, by the file and export that define it', async () => {
    const top = COMMANDS.filter((c) => c.name !== 'completion');
    expect(Object.keys(COMMAND_FILES)).toEqual(top.map((c) => c.name));
    for (const command of top) {
      const [file, exportName] = COMMAND_FILES[command.name]!;
      const module = (await import(`../../src/cli/commands/${file}`)) as Record<string, unknown>;
      expect(module[exportName], command.name).toBe(command);
    }
  });

  it("a command's help loads that command's file alone and says what the table says", () => {
    const { stdout, status, loaded } = cliLoading(['status', '--help']);
    expect(status).toBe(0);
    expect(stdout).toBe(helpOf('status'));
    expect(loaded.filter((f) => !f.startsWith('command-files.'))).toEqual(['run-and-watch/status.js']);
  });

  it('a mistake is told against every command, as the whole table tells it', () => {
    const { stderr, status, loaded } = cliLoading(['status', 'agent-1', '--model', 'x']);
    let expected = '';
    try {
      parseCommandLine(['status', 'agent-1', '--model', 'x'], COMMANDS);
    } catch (err) {
      expected = (err as Error).message;
    }
    // The commands that take --model are named: status's spec alone could not name them.
    expect(expected).toMatch(/"status" does not take --model \(demo, .*run/);
    expect(stderr).toContain(`thoughtline: ${expected}`);
    expect(status).toBe(2);
    expect(loaded).toContain('index.js');
  });

  it('--version loads no command at all', () => {
    const { stdout, status, loaded } = cliLoading(['--version']);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^thoughtline \d+\.\d+\.\d+/);
    expect(loaded.filter((f) => !f.startsWith('command-files.'))).toEqual([]);
  });

  it('the top-level help still lists every command', () => {
    const { stdout, status } = cliLoading(['--help']);
    expect(status).toBe(0);
    expect(stdout).toBe(topHelp());
  });
});
