import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS, helpOf } from '../../src/cli/commands';
import { EVAL_ADD_COMMAND } from '../../src/cli/commands/evaluation/eval-add';
import { parseCommandLine } from '../../src/cli/spec/command-line';
import { UsageError } from '../../src/cli/spec/usage-error';
import { cliEnv, runCli } from '../helpers/cli-process';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-eval-add-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The command line `eval add` would run with, parsed as the CLI parses it. */
function parsed(...argv: string[]) {
  const line = parseCommandLine(argv, COMMANDS);
  if (line.kind !== 'command') throw new Error(`parsed as ${line.kind}`);
  return line;
}

describe('eval add: a command under eval, with its own spec, parser and help', () => {
  it('parses as "eval add" with its own options; eval itself does not take them', () => {
    const line = parsed('eval', 'add', 'prod.jsonl', '--from-run', 'agent-1', '--from-run', 'agent-2');
    expect(line.command.name).toBe('eval add');
    expect(line.line.args).toEqual(['prod.jsonl']);
    expect(line.line.texts('from-run')).toEqual(['agent-1', 'agent-2']);
    expect(parsed('eval', 'prod.jsonl').command.name).toBe('eval');
    expect(() => parseCommandLine(['eval', 'prod.jsonl', '--from-run', 'agent-1'], COMMANDS)).toThrow(UsageError);
    expect(() => parseCommandLine(['eval', 'add', 'prod.jsonl', '--repeat', '3'], COMMANDS)).toThrow(
      /"eval add" does not take --repeat \(eval does\)/,
    );
  });

  it('eval add --help, help eval add: its usage and every option; eval --help names it', () => {
    for (const argv of [
      ['eval', 'add', '--help'],
      ['help', 'eval', 'add'],
    ])
      expect(parseCommandLine(argv, COMMANDS)).toEqual({ kind: 'help', exitCode: 0, command: 'eval add' });
    const help = helpOf('eval add');
    expect(help).toContain('thoughtline eval add <dataset>');
    for (const option of Object.keys(EVAL_ADD_COMMAND.options)) expect(help).toMatch(new RegExp(`^  --${option}`, 'm'));
    expect(help).toContain('env: THOUGHTLINE_VISIBILITY_POLICY');
    expect(helpOf('eval')).toMatch(/^ {2}thoughtline eval add\s+make cases of ended runs/m);
    expect(helpOf('eval')).not.toContain('--from-run');
    for (const example of EVAL_ADD_COMMAND.examples) {
      const words = [...example.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(1);
      expect(parsed(...words).command.name, example).toBe('eval add');
    }
  });

  it('bash completes its options after "eval add", and eval\'s own after "eval"', async () => {
    const { stdout } = await runCli(['completion', 'bash'], cliEnv({}));
    const { execFileSync } = await import('node:child_process');
    const probe = `${stdout}
COMP_WORDS=(thoughtline eval add prod.jsonl --from); COMP_CWORD=4; _thoughtline; echo "\${COMPREPLY[@]}"
COMP_WORDS=(thoughtline eval prod.jsonl --rep); COMP_CWORD=3; _thoughtline; echo "\${COMPREPLY[@]}"`;
    const out = execFileSync('bash', ['-c', probe], { encoding: 'utf8' }).split('\n');
    expect(out[0]).toBe('--from-run --from-search');
    expect(out[1]).toBe('--repeat');
  });

  it('refuses mistakes with exit 2 before it connects to anything', async () => {
    const env = cliEnv({ TEMPORAL_ADDRESS: '127.0.0.1:1' });
    const cases: Array<[string[], RegExp]> = [
      [['prod.jsonl'], /give --from-run ID \(repeatable\) or --from-search QUERY/],
      [['prod.jsonl', '--from-run', 'a', '--from-run', 'a'], /--from-run names a run twice/],
      [['prod.jsonl', '--from-run', 'a', '--limit', '5'], /--limit and --tenant go with --from-search/],
      [['prod.jsonl', '--from-search', 'refund', '--limit', '101'], /--limit: /],
      [['prod.yaml', '--from-run', 'a'], /cases from runs are appended to a \.jsonl/],
    ];
    for (const [args, expected] of cases) {
      const { code, stderr } = await runCli(
        ['eval', 'add', ...args.map((a) => (a.startsWith('prod') ? path.join(dir, a) : a))],
        env,
      );
      expect(code, stderr).toBe(2);
      expect(stderr).toMatch(expected);
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
