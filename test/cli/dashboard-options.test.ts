import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/spec/command-line';
import { COMMANDS } from '../../src/cli/commands';
import { helpOf } from '../../src/cli/commands';

describe('the dashboard options', () => {
  it('run takes --no-dashboard and watch takes --dashboard, both documented in the help', () => {
    const run = parseCommandLine(['run', 'a task', '--no-dashboard'], COMMANDS);
    expect(run.kind === 'command' && run.line.flag('no-dashboard')).toBe(true);
    const watch = parseCommandLine(['watch', 'agent-1', '--dashboard'], COMMANDS);
    expect(watch.kind === 'command' && watch.line.flag('dashboard')).toBe(true);
    expect(helpOf('run')).toContain('--no-dashboard');
    expect(helpOf('watch')).toMatch(/watch <run-id>[\s\S]*--dashboard/);
  });

  it("watch refuses --no-dashboard, which is run's: one name per option", () => {
    expect(() => parseCommandLine(['watch', 'agent-1', '--no-dashboard'], COMMANDS)).toThrow(
      '"watch" does not take --no-dashboard (run does); "watch" takes --dashboard, --policy.',
    );
  });
});
