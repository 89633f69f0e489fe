import { describe, expect, it } from 'vitest';
import { parseCommandLine, type CommandSpec } from '../../src/cli/spec/command-line';
import { COMMANDS, helpOf, topHelp } from '../../src/cli/commands';
import { didYouMean, editDistance } from '../../src/cli/spec/did-you-mean';
import { UsageError } from '../../src/cli/spec/usage-error';

const parse = (...argv: string[]) => parseCommandLine(argv, COMMANDS);
const refusal = (...argv: string[]): string => {
  try {
    parse(...argv);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
};

describe('did you mean', () => {
  it('counts a swap of two letters as one edit', () => {
    expect(editDistance('josn', 'json')).toBe(1);
    expect(editDistance('stauts', 'status')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('finds the near name, and nothing when none is near', () => {
    expect(didYouMean('josn', ['json', 'role'])).toBe('json');
    expect(didYouMean('max-iteration', ['model', 'max-iterations'])).toBe('max-iterations');
    expect(didYouMean('js', ['json'])).toBe('json');
    expect(didYouMean('x', ['json', 'role'])).toBeUndefined();
    expect(
      didYouMean(
        'frobnicate',
        COMMANDS.map((c) => c.name),
      ),
    ).toBeUndefined();
  });
});

describe('the command line, read against the command table', () => {
  it('suggests the option and the command meant', () => {
    expect(refusal('status', 'agent-1', '--josn')).toBe('unknown option --josn; did you mean --json?');
    expect(refusal('run', 'a task', '--max-iteration', '3')).toBe(
      'unknown option --max-iteration; did you mean --max-iterations?',
    );
    expect(refusal('stauts', 'agent-1')).toBe('unknown command "stauts"; did you mean "status"?');
    expect(refusal('frobnicate')).toBe('unknown command "frobnicate".');
  });

  it('refuses options that another command takes, saying which does and what this one takes', () => {
    expect(refusal('cancel', 'agent-1', '--json')).toBe(
      '"cancel" does not take --json (versions, tools, run, schedule, eval, chain, status, runs, tree, diff, fork, import, memory, cache, store, search, usage do); "cancel" takes --reason, --hard.',
    );
    expect(refusal('approve', 'agent-1', '--reason', 'r')).toMatch(
      /^"approve" does not take --reason \(reject, cancel, search do\); "approve" takes --note, --mark-done, --result, --yes, --as, --roles, --signing-keys\.$/,
    );
    expect(refusal('dev', '--tools', 'x.js')).toBe(
      '"dev" does not take --tools (worker, serve, mcp-server, tools, eval, fork do); "dev" takes --port.',
    );
    expect(refusal('status', 'agent-1', '-z')).toBe('unknown option -z for "status"; "status" takes --json, --role.');
  });

  it('refuses extra arguments and names the missing one', () => {
    expect(refusal('status', 'agent-1', 'extra')).toBe('"status" takes <run-id>; unexpected "extra".');
    expect(refusal('run', 'Compare', 'Paris', 'and', 'Tokyo')).toBe(
      '"run" takes "<task>"; unexpected "Paris" "and" "Tokyo" (put the task in quotes).',
    );
    expect(refusal('dev', 'now')).toBe('"dev" takes no arguments; unexpected "now".');
    expect(refusal('usage', 'acme')).toBe('"usage" takes no arguments; unexpected "acme".');
    expect(refusal('steer', 'agent-1')).toMatch(/^"steer" needs the instruction/);
    expect(refusal('chain')).toBe('"chain" needs a run id (the agent-… id run printed).');
  });

  it("turns Node's parser errors into usage errors; a value that starts with a dash goes after =", () => {
    expect(refusal('run', 'task', '--model')).toMatch(/--model/);
    expect(refusal('status', 'agent-1', '--json=yes')).toMatch(/--json/);
    expect(refusal('cancel', 'agent-1', '--reason', '--hard is not wanted')).toMatch(/--reason=-XYZ/);
    const parsed = parse('cancel', 'agent-1', '--reason=--hard is not wanted');
    expect(parsed.kind === 'command' && parsed.line.text('reason')).toBe('--hard is not wanted');
  });

  it('reads what each command takes: approve its optional call id, run --allow-questions, codec-server repeated origins', () => {
    const approve = parse('approve', 'agent-1', 'toolu_1', '-y', '--as', 'alice');
    expect(
      approve.kind === 'command' && [approve.line.args, approve.line.flag('yes'), approve.line.text('as')],
    ).toEqual([['agent-1', 'toolu_1'], true, 'alice']);
    const run = parse('run', 'Ask me', '--allow-questions', '--plan');
    expect(
      run.kind === 'command' && [run.line.flag('allow-questions'), run.line.flag('plan'), run.line.flag('json')],
    ).toEqual([true, true, false]);
    const codec = parse('codec-server', '--cors-origin', 'http://a', '--cors-origin', 'http://b');
    expect(codec.kind === 'command' && codec.line.texts('cors-origin')).toEqual(['http://a', 'http://b']);
  });

  it('prints help for --help anywhere (exit 0) and for nothing at all (exit 2)', () => {
    expect(parse('--help')).toEqual({ kind: 'help', exitCode: 0 });
    expect(parse('status', '--help')).toEqual({ kind: 'help', exitCode: 0, command: 'status' });
    expect(parse()).toEqual({ kind: 'help', exitCode: 2 });
  });

  it('takes help, help <command>, --version and -v, and names the command a typo meant', () => {
    expect(parse('help')).toEqual({ kind: 'help', exitCode: 0 });
    expect(parse('help', 'status')).toEqual({ kind: 'help', exitCode: 0, command: 'status' });
    expect(parse('--version')).toEqual({ kind: 'version' });
    expect(parse('-v')).toEqual({ kind: 'version' });
    expect(refusal('help', 'stauts')).toBe('unknown command "stauts"; did you mean "status"?');
    expect(refusal('help', 'status', 'run')).toBe('"help" takes one command at most; unexpected "run".');
    expect(refusal('--version', 'status')).toBe('--version takes nothing after it; got "status".');
  });

  it("one command's help is that command's alone, with what a run id is when it takes one", () => {
    const status = helpOf('status');
    expect(status).toContain('thoughtline status <run-id> [--json]');
    expect(status).toContain("in a role's view (default");
    expect(status).toContain("A <run-id> is the agent-… id that run prints: Temporal's workflow id");
    expect(status).not.toContain('thoughtline chain');
    expect(helpOf('reject')).toContain('thoughtline reject <run-id> [callId]');
    expect(helpOf('approve')).toContain('Approve a call awaiting approval');
    expect(helpOf('store')).toContain('thoughtline store check');
    expect(helpOf('dev')).not.toContain('<run-id>');
    // Every command of the table has its help, and the top-level help names it.
    expect(COMMANDS.filter((c) => !helpOf(c.name).includes(`thoughtline ${c.name}`)).map((c) => c.name)).toEqual([]);
    expect(COMMANDS.filter((c) => !topHelp().includes(`  ${c.name} `)).map((c) => c.name)).toEqual([]);
  });

  it("each command's help names every option that command takes", () => {
    const missing = COMMANDS.flatMap((c: CommandSpec) =>
      Object.keys(c.options)
        .filter((o) => !helpOf(c.name).includes(`--${o}`))
        .map((o) => `${c.name} --${o}`),
    );
    expect(missing).toEqual([]);
  });
});
