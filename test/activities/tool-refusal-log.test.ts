import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { AgentClient } from '../../src/client/agent-client';
import { PROJECT_ROOT, spawnScript, type CliProcess } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-refusal-log-'));
let worker: CliProcess | undefined;
afterAll(async () => {
  worker?.child.kill('SIGTERM');
  await worker?.exited;
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A worker as README's first agent writes one (the package's createAgentWorker, the SDK's default
 * logger at INFO on stderr), whose tool refuses once on purpose and then fails unexpectedly.
 */
const WORKER = `
const { createAgentWorker, createScriptedModel, defineTool, NativeConnection, say, ToolError, useTool } = require(${JSON.stringify(path.join(PROJECT_ROOT, 'dist/index.js'))});
const { z } = require('zod');
const refuser = defineTool({
  name: 'refund',
  description: 'Refunds an order.',
  input: z.object({ order: z.string() }),
  retry: { maximumAttempts: 1 },
  execute: async ({ order }) => {
    if (order === 'A-1') throw new ToolError('order A-1 was refunded already', { retryable: false });
    throw new Error('the refunds service is down');
  },
});
const model = createScriptedModel([
  { content: [say('A-1 first.'), useTool('refund', { order: 'A-1' })] },
  { content: [say('Then B-2.'), useTool('refund', { order: 'B-2' })] },
  { content: [say('Both tried.'), useTool('finish', { result: 'done' })] },
]);
(async () => {
  const connection = await NativeConnection.connect({ address: process.env.ADDRESS });
  const worker = await createAgentWorker({
    connection,
    namespace: process.env.NAMESPACE,
    taskQueue: process.env.QUEUE,
    tools: [refuser],
    models: { scripted: model },
    workflowBundle: { codePath: process.env.BUNDLE },
  });
  console.error('worker ready');
  process.on('SIGTERM', () => worker.shutdown());
  await worker.run();
  await connection.close();
})();
`;

describe("a worker's log of a tool's refusal", () => {
  it('is one line with its kind and message, no stack; an unexpected failure keeps its stack', async () => {
    const script = path.join(dir, 'worker.cjs');
    fs.writeFileSync(script, WORKER);
    const taskQueue = `refusal-log-${randomUUID()}`;
    worker = spawnScript(script, [], {
      ...process.env,
      // Resolves zod from the checkout, as an installed project resolves its own.
      NODE_PATH: path.join(PROJECT_ROOT, 'node_modules'),
      ADDRESS: inject('temporalAddress'),
      NAMESPACE: inject('temporalNamespace'),
      QUEUE: taskQueue,
      BUNDLE: inject('workflowBundlePath'),
    });
    await worker.waitFor(/worker ready/);
    const agents = new AgentClient({ client: env.client, taskQueue });
    const handle = await agents.start({ task: 'Refund A-1 and B-2', model: { provider: 'scripted', model: 'm' } });
    const result = await handle.result();
    expect(result.finalAnswer).toBe('done');
    await worker.waitFor(/the refunds service is down/);

    const log = worker.output();
    const refusal = log.split('\n').filter((line) => line.includes('order A-1 was refunded already'));
    expect(refusal, log).toHaveLength(1);
    expect(refusal[0]).toMatch(
      new RegExp(
        `\\[INFO\\] Tool refund refused the call \\(ToolRefused, run ${handle.workflowId}\\): order A-1 was refunded already$`,
      ),
    );
    // Nothing of the refusal's stack: no frames of the package's files, compiled or not.
    const beforeFailure = log.slice(0, log.indexOf('the refunds service is down'));
    expect(beforeFailure).not.toMatch(/^\s+at /m);
    expect(beforeFailure).not.toMatch(/\.ts:\d+/);
    // The unexpected failure is a warning with the stack of the tool's own `execute`.
    const after = log.slice(log.indexOf('the refunds service is down'));
    expect(log).toMatch(/\[WARN\] Activity failed/);
    expect(after).toContain(script);
  }, 60_000);
});
