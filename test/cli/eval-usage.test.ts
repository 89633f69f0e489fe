import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../helpers/cli-process';
import { evaluation, unit } from '../eval/report-fixture';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-eval-usage-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string): string => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};

/** Each mistake is refused before the CLI talks to any server: exit 2, the reason, and the pointer to --help. */
async function usageMistake(args: string[], expected: RegExp): Promise<void> {
  const { code, stdout, stderr } = await runCli(['eval', ...args], cliEnv({}));
  expect(code, stderr).toBe(2);
  expect(stderr).toMatch(expected);
  expect(stderr).toContain('Run "thoughtline --help" for usage.');
  expect(stderr).not.toMatch(/started evaluation|Temporal server/);
  expect(stdout).toBe('');
}

describe('thoughtline eval refuses mistakes with exit code 2 before it starts anything', () => {
  const good = write('loop.jsonl', '{"id":"a","task":"Weather in Paris?"}\n');

  it('a dataset with problems, each on its line', async () => {
    const bad = write(
      'bad.jsonl',
      '{"id":"a","task":"One"}\n{"id":"b","task":"Two","expect":{"answer":{"match":"fuzzy"}}}\n',
    );
    await usageMistake([bad], /thoughtline: the dataset has problems:\nbad\.jsonl:2: expect\.answer\.match: /);
  });

  it('a baseline of another dataset, a baseline that is not a result, a bad option value', async () => {
    const other = write('baseline.json', JSON.stringify(evaluation([unit('a', 'v', 0, true)])));
    await usageMistake(
      [good, '--baseline', other],
      /the baseline ran dataset loop \(sha256 aaaaaaaaaaaa…\), this evaluation loop .*--baseline-any-dataset/,
    );
    await usageMistake(
      [good, '--baseline', write('notes.txt', 'not JSON')],
      /--baseline .*notes\.txt: not a readable JSON file/,
    );
    await usageMistake(
      [good, '--baseline', good],
      /--baseline .*loop\.jsonl: not an evaluation's result\.json \(schemaVersion: /,
    );
    await usageMistake([good, '--repeat', '0'], /--repeat takes a positive whole number up to 100, not "0"\./);
  });
});
