import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, helpOf, topHelp } from '../../src/cli/commands';
import { parseCommandLine, withSubcommands } from '../../src/cli/spec/command-line';
import { UsageError } from '../../src/cli/spec/usage-error';
import { cliEnv, runCli } from '../helpers/cli-process';

/** A documented example as the shell would split it: words, with '…' and "…" quoting. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3]!);
  return words;
}

/** Every `--name` a help text mentions. */
const mentioned = (help: string): Set<string> => new Set([...help.matchAll(/--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!));

describe('every command, walked from the table that parses it', () => {
  it('CMD --help asks for its help, which lists every option the parser accepts and names no other', () => {
    const problems: string[] = [];
    // In process, from the same table the built CLI reads (its wiring: the tests below, and
    // `serve --help` there); a CLI process per command would cost 30 starts of the whole CLI.
    for (const command of COMMANDS) {
      for (const flag of ['--help', '-h'])
        expect(parseCommandLine([command.name, flag], COMMANDS)).toEqual({
          kind: 'help',
          exitCode: 0,
          command: command.name,
        });
      const stdout = helpOf(command.name);
      const accepted = new Set([...Object.keys(command.options), 'help']);
      const rows = new Set([...stdout.matchAll(/^ {2}(?:-[a-z], )?--([a-z][a-z0-9-]*)/gm)].map((m) => m[1]!));
      for (const name of accepted) if (!rows.has(name)) problems.push(`${command.name}: --${name} has no row`);
      for (const name of mentioned(stdout))
        if (!accepted.has(name)) problems.push(`${command.name}: its help names --${name}, which it does not take`);
      // Defaults and variables as read, across the line a long one wraps at.
      const flat = stdout.replace(/\s+/g, ' ');
      for (const option of Object.values(command.options)) {
        if (option.env && !flat.includes(option.env)) problems.push(`${command.name}: env ${option.env} not shown`);
        if (option.default && !flat.includes(`default: ${option.default}`))
          problems.push(`${command.name}: default ${option.default} not shown`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('each documented example parses without a usage error', () => {
    const refused: string[] = [];
    for (const command of COMMANDS) {
      expect(command.examples.length, command.name).toBeGreaterThan(0);
      for (const example of command.examples) {
        const [program, ...argv] = shellWords(example);
        expect(program).toBe('thoughtline');
        expect(argv[0]).toBe(command.name);
        try {
          const parsed = parseCommandLine(argv, COMMANDS);
          expect(parsed.kind).toBe('command');
        } catch (err) {
          if (!(err instanceof UsageError)) throw err;
          refused.push(`${example}: ${err.message}`);
        }
      }
    }
    expect(refused).toEqual([]);
  });

  it("every path an example or a missing argument's hint names sits in a folder this repository has", () => {
    // A file an example writes (eval add's dataset) need not exist; its folder must, or the example misleads.
    const root = path.join(__dirname, '../..');
    const missing: string[] = [];
    for (const command of withSubcommands(COMMANDS)) {
      const lines = [...command.examples, ...command.args.flatMap((a) => (a.needs ? [a.needs] : []))];
      for (const line of lines)
        for (const word of shellWords(line).filter((w) => /^[\w.-]+(\/[\w.-]+)+$/.test(w)))
          if (!fs.existsSync(path.join(root, path.dirname(word)))) missing.push(`${command.name}: ${word}`);
    }
    expect(missing).toEqual([]);
  });

  it('the top-level help names every command exactly once, by group, in at most 44 lines', () => {
    const help = topHelp();
    // One line a command: schedule and raise-budget (issue 67) made it 42, runs (issue 80) 43, diff (issue 82) 44.
    expect(help.trimEnd().split('\n').length).toBeLessThanOrEqual(44);
    const listed = [...help.matchAll(/^ {2}([a-z][a-z0-9-]*) /gm)].map((m) => m[1]!);
    expect([...listed].sort()).toEqual(COMMANDS.map((c) => c.name).sort());
    for (const group of [
      'Run and watch',
      'People in the loop',
      'Serve and protocols',
      'Store and audit',
      'Evaluation',
      'Operations',
    ])
      expect(help).toContain(`\n${group}:\n`);
  });
});

describe('help, version and completions through the built CLI', () => {
  /** Each shell's completion script, printed once for the file: a CLI process per shell, not per test. */
  const scripts = new Map<string, ReturnType<typeof runCli>>();
  const completion = (shell: string): ReturnType<typeof runCli> => {
    if (!scripts.has(shell)) scripts.set(shell, runCli(['completion', shell], cliEnv({})));
    return scripts.get(shell)!;
  };

  it('thoughtline, --help and help print the grouped help; help <command> is <command> --help', async () => {
    const env = cliEnv({});
    const bare = await runCli([], env);
    expect(bare).toEqual({ code: 2, stdout: topHelp(), stderr: '' });
    expect(await runCli(['--help'], env)).toEqual({ code: 0, stdout: topHelp(), stderr: '' });
    expect(await runCli(['help'], env)).toEqual({ code: 0, stdout: topHelp(), stderr: '' });
    const run = await runCli(['help', 'run'], env);
    expect(run).toEqual({ code: 0, stdout: helpOf('run'), stderr: '' });
    expect(run.stdout).not.toContain('thoughtline serve');
    expect(run.stdout.split('\n').length).toBeLessThan(60);
    expect(await runCli(['serve', '--help'], env)).toEqual({ code: 0, stdout: helpOf('serve'), stderr: '' });
  });

  it('--version prints the version in package.json', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
      version: string;
    };
    expect(await runCli(['--version'], cliEnv({}))).toEqual({
      code: 0,
      stdout: `thoughtline ${version}\n`,
      stderr: '',
    });
  });

  it('help <unknown> is a usage error with a did-you-mean (exit 2)', async () => {
    const { code, stdout, stderr } = await runCli(['help', 'sreve'], cliEnv({}));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('thoughtline: unknown command "sreve"; did you mean "serve"?');
  });

  it('completion bash and zsh name every command and its options; another shell is refused', async () => {
    for (const shell of ['bash', 'zsh']) {
      const { code, stdout } = await completion(shell);
      expect(code).toBe(0);
      for (const command of COMMANDS) {
        expect(stdout, `${shell}: ${command.name}`).toMatch(new RegExp(`(^|[\\s'"])${command.name}[):\\s]`, 'm'));
        for (const option of Object.keys(command.options)) expect(stdout).toContain(`--${option}`);
      }
    }
    expect((await completion('bash')).stdout).toContain(
      'complete -o default -o bashdefault -F _thoughtline thoughtline',
    );
    expect((await completion('zsh')).stdout).toMatch(/^#compdef thoughtline/);
    const fish = await runCli(['completion', 'fish'], cliEnv({}));
    expect(fish.code).toBe(2);
    expect(fish.stderr).toContain('completion takes bash or zsh, not "fish".');
  });

  it('the bash script loads in bash and completes a command and its options', async () => {
    const { stdout } = await completion('bash');
    const { execFileSync } = await import('node:child_process');
    const probe = `${stdout}
COMP_WORDS=(thoughtline sta); COMP_CWORD=1; _thoughtline; echo "\${COMPREPLY[@]}"
COMP_WORDS=(thoughtline status agent-1 --j); COMP_CWORD=3; _thoughtline; echo "\${COMPREPLY[@]}"`;
    const out = execFileSync('bash', ['-c', probe], { encoding: 'utf8' }).split('\n');
    expect(out[0]).toBe('status');
    expect(out[1]).toBe('--json');
  });
});
