import { ServiceError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { AgentClient } from '../../../src/client/agent-client';
import { NoWorkerError } from '../../../src/client/follow/no-worker-error';
import { withQueryDeadline } from '../../../src/client/follow/query-deadline';

/** Just what withQueryDeadline uses of a client: the deadline scope and the run's task queue. */
const agents = {
  client: { connection: { withDeadline: <T>(_deadline: number, fn: () => Promise<T>) => fn() } },
  getHandle: () => ({ describe: async () => ({ taskQueue: 'q' }) }),
} as unknown as AgentClient;
const where = { workflowId: 'run-1', configuredQueue: 'q' };
const DEADLINE_MS = 200;

/** A read that fails with `err` after `ms`. */
const failingAfter = (ms: number, err: Error) => () =>
  new Promise<never>((_, reject) => setTimeout(() => reject(err), ms));

describe('withQueryDeadline: which failures mean nobody answered', () => {
  it('a gRPC DEADLINE_EXCEEDED, at any time, says no worker answered', async () => {
    const deadline = Object.assign(new Error('Deadline exceeded'), { code: 4 });
    await expect(
      withQueryDeadline(
        agents,
        where,
        failingAfter(0, new ServiceError('Failed to query Workflow', { cause: deadline })),
        DEADLINE_MS,
      ),
    ).rejects.toThrow(NoWorkerError);
  });

  it("the server's own failure in the deadline's last tenth says no worker answered; earlier it is itself", async () => {
    const late = withQueryDeadline(
      agents,
      where,
      failingAfter(DEADLINE_MS, new ServiceError('Failed to query Workflow')),
      DEADLINE_MS,
    );
    await expect(late).rejects.toThrow(/no worker answered for run run-1 within 0.2 s/);
    const early = withQueryDeadline(
      agents,
      where,
      failingAfter(0, new ServiceError('Failed to query Workflow')),
      DEADLINE_MS,
    );
    await expect(early).rejects.toThrow(/^Failed to query Workflow$/);
  });

  it('a local error stays itself, however late', async () => {
    await expect(
      withQueryDeadline(agents, where, failingAfter(DEADLINE_MS, new TypeError('bad payload')), DEADLINE_MS),
    ).rejects.toThrow(TypeError);
  });
});
