import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentResult } from '../../src/domain';
import { cliEnv, runCli, spawnCli, type CliProcess } from '../helpers/cli-process';

const TOOLS = path.join(__dirname, 'fixtures/order-tools.cjs');
const env = () => cliEnv({ THOUGHTLINE_TASK_QUEUE: `offline-cli-${randomUUID()}` });
let queue: NodeJS.ProcessEnv;
let worker: CliProcess | undefined;

beforeAll(async () => {
  queue = env();
  worker = spawnCli(['worker', '--tools', TOOLS], queue);
  await worker.waitFor(/worker polling task queue/);
});
afterAll(async () => {
  worker?.child.kill('SIGTERM');
  await worker?.exited;
});

/** `thoughtline run TASK --json --no-worker` against the worker above; the AgentResult it printed. */
async function run(task: string): Promise<AgentResult> {
  const out = await runCli(['run', task, '--json', '--no-worker'], queue);
  expect(out.stdout, out.stderr).not.toBe('');
  return AgentResult.parse(JSON.parse(out.stdout));
}

describe('no API key: `thoughtline worker --tools FILE` and `thoughtline run`', () => {
  it('calls the user’s tool for a task about it and ends with its result quoted', async () => {
    const result = await run('What is the status of order A-1234?');
    expect(result).toMatchObject({ success: true, terminationReason: 'success', toolCalls: 1 });
    expect(result.finalAnswer).toMatch(/^\[offline model\]/);
    expect(result.finalAnswer).toContain('lookup_order({"order_id":"A-1234"}) returned');
    expect(result.finalAnswer).toContain('shipped on 3 May');
    expect(worker!.output()).toContain('runs use the offline model');
  });

  it('ends an off-topic task as a failure with the reason', async () => {
    const result = await run('Write me a poem about the sea.');
    expect(result).toMatchObject({ success: false, terminationReason: 'failure', toolCalls: 0 });
    expect(result.finalAnswer).toContain('No tool fits');
  });
});
