import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';

useTestEnv();
const ROOT = path.resolve(__dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-eval-worker-log-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * The loop dataset's case whose tool throws on its first attempt (a plain error, retried): the SDK
 * warns "Activity failed" for it. A typed refusal (ToolError, not retryable) logs no warning at all
 * (test/activities/tool-refusal-log.test.ts).
 */
function flakyToolCase(): string {
  const lines = fs.readFileSync(path.join(ROOT, 'eval/loop.jsonl'), 'utf8').split('\n');
  const line = lines.find((l) => l.includes('"id":"flaky-tool-retried"'));
  if (!line) throw new Error('eval/loop.jsonl has no flaky-tool-retried case');
  return `${line}\n`;
}

describe("thoughtline eval with this process's worker", () => {
  it('keeps the worker\'s expected "Activity failed" warnings out of the progress, in <out>/worker.log', async () => {
    const dataset = path.join(dir, 'flaky.jsonl');
    fs.writeFileSync(dataset, flakyToolCase());
    const out = path.join(dir, 'out');
    const ran = await runCli(
      ['eval', dataset, '--tools', path.join(ROOT, 'eval/loop-tools.cjs'), '--out', out],
      cliEnv({ THOUGHTLINE_TASK_QUEUE: `eval-log-${randomUUID()}` }),
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(fs.existsSync(path.join(out, 'result.json'))).toBe(true);
    expect(ran.stderr).not.toMatch(/Activity failed/);
    const log = fs.readFileSync(path.join(out, 'worker.log'), 'utf8');
    expect(log).toMatch(/Activity failed/);
    expect(ran.stderr).toContain(`worker.log`);
  }, 120_000);
});
