import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentResult } from '../../src/domain';
import { cliEnv, runCli } from '../helpers/cli-process';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-export-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = cliEnv({ THOUGHTLINE_TASK_QUEUE: `export-${randomUUID()}`, THOUGHTLINE_USER: 'erin' });
const file = (name: string): string => path.join(dir, name);
const isJsonReport = (text: string, id: string): boolean => JSON.parse(text).run?.workflowId === id;

describe('export picks its format from --format, else from the file it writes, against a real server', () => {
  let id: string;
  beforeAll(async () => {
    const run = await runCli(['run', 'Compare the weather in San Francisco and Paris', '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    id = AgentResult.parse(JSON.parse(run.stdout)).chain.chainId;
  }, 120_000);

  it('--out bundle.json writes the JSON report, and stderr says so and where', async () => {
    const out = file('bundle.json');
    const result = await runCli(['export', id, '--out', out], env);
    expect(result.code, result.stderr).toBe(0);
    expect(isJsonReport(fs.readFileSync(out, 'utf8'), id)).toBe(true);
    expect(result.stderr).toMatch(
      new RegExp(`wrote the auditor report of ${id} as JSON \\(final hash sha256:[0-9a-f]+\\) to ${out}\\n`),
    );
    expect(result.stdout).toBe('');
  });

  it('--out report.md and --out report.markdown write markdown; with no --out, markdown goes to stdout', async () => {
    for (const name of ['report.md', 'report.MARKDOWN']) {
      const result = await runCli(['export', id, '--out', file(name)], env);
      expect(result.code, result.stderr).toBe(0);
      expect(fs.readFileSync(file(name), 'utf8')).toMatch(/^# Audit report: Compare the weather/);
      expect(result.stderr).toContain(`as markdown (final hash`);
      expect(result.stderr).toContain(`to ${file(name)}\n`);
    }
    const toStdout = await runCli(['export', id], env);
    expect(toStdout.code, toStdout.stderr).toBe(0);
    expect(toStdout.stdout).toMatch(/^# Audit report: Compare the weather/);
    expect(toStdout.stderr).toMatch(/as markdown \(final hash sha256:[0-9a-f]+\) to stdout\n/);
  });

  it('an explicit --format wins over an extension that names no format', async () => {
    const out = file('report.txt');
    const result = await runCli(['export', id, '--format', 'json', '--out', out], env);
    expect(result.code, result.stderr).toBe(0);
    expect(isJsonReport(fs.readFileSync(out, 'utf8'), id)).toBe(true);
    expect(result.stderr).toContain(`as JSON (final hash`);
  });

  it('--query with --out runs.json writes the JSON audit bundle', async () => {
    const out = file('runs.json');
    const result = await runCli(['export', '--query', `WorkflowId = '${id}'`, '--out', out], env);
    expect(result.code, result.stderr).toBe(0);
    const bundle = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(bundle.kind).toBe('thoughtline-audit-bundle');
    expect(bundle.reports.map((r: { run: { workflowId: string } }) => r.run.workflowId)).toEqual([id]);
    expect(result.stderr).toContain(`reports of 1 run matching the query as a JSON audit bundle to ${out}\n`);
  });

  it('refuses, with exit 2 and nothing written, an extension it cannot map and a --format the file contradicts', async () => {
    const refusals: Array<[string[], string]> = [
      [
        ['--out', file('report.txt')],
        `--out ${file('report.txt')}: ".txt" names no format; name the file .json (JSON) or .md (markdown), or add --format json|md.`,
      ],
      [
        ['--out', file('report')],
        `--out ${file('report')}: a name without an extension names no format; name the file .json (JSON) or .md (markdown), or add --format json|md.`,
      ],
      [
        ['--format', 'md', '--out', file('clash.json')],
        `--format md writes markdown, but --out ${file('clash.json')} names a .json file; drop --format, or name the file .md.`,
      ],
      [
        ['--format', 'json', '--out', file('clash.md')],
        `--format json writes JSON, but --out ${file('clash.md')} names a .md file; drop --format, or name the file .json.`,
      ],
      [['--format', 'html'], '--format takes json or md.'],
    ];
    fs.rmSync(file('report.txt'), { force: true });
    for (const [args, message] of refusals) {
      const result = await runCli(['export', id, ...args], env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(`thoughtline: ${message}\n`);
      expect(result.stderr).toContain('Run "thoughtline --help" for usage.');
      expect(result.stdout).toBe('');
    }
    for (const name of ['report.txt', 'report', 'clash.json', 'clash.md'])
      expect(fs.existsSync(file(name)), name).toBe(false);
  });
});
