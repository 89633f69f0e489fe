import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../helpers/cli-process';

/** Each mistake is refused before the CLI talks to any server: exit 2, the reason, and the pointer to --help. */
const usageMistake = async (
  args: string[],
  message: string | RegExp,
  extraEnv: Record<string, string> = {},
): Promise<void> => {
  const { code, stdout, stderr } = await runCli(args, cliEnv(extraEnv));
  expect(code, `${args.join(' ')}\n${stderr}`).toBe(2);
  if (typeof message === 'string') expect(stderr).toContain(`thoughtline: ${message}\n`);
  else expect(stderr).toMatch(message);
  expect(stderr).toContain('Run "thoughtline --help" for usage.');
  expect(stdout).toBe('');
};

describe('help and version, through the CLI', () => {
  it('--version prints the package version, help and help <command> print the help; exit 0', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
      version: string;
    };
    const env = cliEnv({});
    expect(await runCli(['--version'], env)).toEqual({ code: 0, stdout: `thoughtline ${version}\n`, stderr: '' });
    const help = await runCli(['help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('thoughtline help [<command>]');
    const status = await runCli(['help', 'status'], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^Usage:\n  thoughtline status <run-id>/);
    expect(status.stdout).not.toContain('thoughtline chain');
    expect((await runCli(['status', '--help'], env)).stdout).toBe(status.stdout);
  });
});

describe('the CLI refuses usage mistakes with exit code 2 and says what was meant', () => {
  it('a typo in an option or a command gets a did-you-mean', async () => {
    await usageMistake(['status', 'agent-1', '--josn'], 'unknown option --josn; did you mean --json?');
    await usageMistake(['stauts', 'agent-1'], 'unknown command "stauts"; did you mean "status"?');
  });

  it('extra arguments and options the command does not take are refused, not ignored', async () => {
    await usageMistake(['status', 'agent-1', 'extra'], '"status" takes <run-id>; unexpected "extra".');
    await usageMistake(
      ['cancel', 'agent-1', '--json'],
      '"cancel" does not take --json (versions, tools, run, schedule, eval, chain, status, runs, tree, diff, fork, import, memory, cache, store, search, usage do); "cancel" takes --reason, --hard.',
    );
  });

  it('usage needs a tenant and a readable range of at most 366 days, and a store', async () => {
    await usageMistake(['usage', '--since', '7d'], '"usage" needs --tenant T: the tenant whose runs to count.');
    await usageMistake(
      ['usage', '--tenant', 'acme'],
      '"usage" needs --since: a span like 7d or 12h, or an ISO time or day.',
    );
    await usageMistake(
      ['usage', '--tenant', 'acme', '--since', 'last week'],
      /--since: "since" must be a span like 7d or 12h/,
    );
    await usageMistake(
      ['usage', '--tenant', 'acme', '--since', '367d'],
      '--since: A usage report covers at most 366 days; narrow since and until.',
    );
    await usageMistake(
      ['usage', '--tenant', 'acme', '--since', '2026-11-02', '--until', '2026-11-01'],
      '--since: "since" must be before "until".',
    );
    await usageMistake(
      ['usage', '--tenant', 'acme', '--since', '7d'],
      /^thoughtline: usage reads the chain store, and there is none here/,
      {
        THOUGHTLINE_STORE: 'off',
      },
    );
  });

  it('bad option values are usage mistakes too (they exited 1)', async () => {
    await usageMistake(['status', 'agent-1', '--role', 'boss'], /--role: Unknown viewer role "boss"/);
    await usageMistake(
      ['run', 'A task', '--template', 'nope'],
      '--template must be one of debug_bug, implement_feature, refactor_code.',
    );
    await usageMistake(
      ['reject', 'agent-1', '--yes'],
      '"reject" needs --reason TEXT: the agent reads it to decide what to do instead.',
    );
  });

  it('an --agents file naming a tool the embedded worker does not serve is refused before the run starts', async () => {
    // A queue no worker polls, so the run would go to this process's own worker, whose tools are known.
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agents-')), 'agents.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ researcher: { description: 'Finds facts', tools: ['get_weather', 'web_search'] } }),
    );
    await usageMistake(
      ['run', 'Research the weather', '--agents', file],
      `the --agents file: "researcher" names the tool "web_search", which this run's worker does not serve. Known tools: get_weather, save_report; agents in the file: researcher.`,
      { THOUGHTLINE_TASK_QUEUE: `agents-check-${randomUUID()}` },
    );
  });

  it('--help is accepted by every command and documents --allow-questions', async () => {
    const { code, stdout } = await runCli(['run', '--help'], cliEnv({}));
    expect(code).toBe(0);
    expect(stdout).toContain('--allow-questions');
    expect(stdout).toContain(
      'Exit codes: 0 success, 1 the agent ended another way or the command failed, 2 a usage mistake,\n130 Ctrl-C while run followed its run.',
    );
  });
});
