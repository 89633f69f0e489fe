import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/spec/command-line';
import { COMMANDS } from '../../src/cli/commands';
import { helpOf } from '../../src/cli/commands';
import { UsageError } from '../../src/cli/spec/usage-error';

describe('run --strategy', () => {
  it('is a run option, documented in the help', () => {
    const parsed = parseCommandLine(['run', 'a task', '--strategy', 'react-text'], COMMANDS);
    expect(parsed.kind === 'command' && parsed.line.text('strategy')).toBe('react-text');
    expect(helpOf('run')).toContain('--strategy S');
  });

  it('refuses a strategy it does not know before connecting to anything', async () => {
    const parsed = parseCommandLine(['run', 'a task', '--strategy', 'text'], COMMANDS);
    if (parsed.kind !== 'command') throw new Error('not a command');
    const refused = parsed.command.run(parsed.line);
    await expect(refused).rejects.toBeInstanceOf(UsageError);
    await expect(refused).rejects.toThrow('--strategy takes native');
  });
});
