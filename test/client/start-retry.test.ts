import { randomUUID } from 'node:crypto';
import { Client, ServiceError } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { AgentClient } from '../../src/client/agent-client';
import { messageWithCauses } from '../../src/client/errors/read-error-text';
import { retryUnknownSearchAttribute, type StartRetry } from '../../src/client/start/retry-unknown-search-attribute';
import { ensureSearchAttributes } from '../../src/client/start/search-attributes-setup';
import { isUnknownSearchAttribute, serverErrorAdvice } from '../../src/client/errors/server-error-advice';
import { findOrInstallTestServer } from '../../src/dev-server/install/find-or-install-test-server';
import { AgentAttribute, StatusAttribute } from '../../src/domain';
import { freshNamespace } from '../helpers/fresh-namespace';
import { scriptedInput } from '../helpers/scripted-input';
import { installQuietRuntime, useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();

/** An AgentClient on `namespace` whose runs go to a queue no worker polls, recording each retry of a start. */
function agentsOn(namespace: string): { agents: AgentClient; retries: StartRetry[] } {
  const retries: StartRetry[] = [];
  const agents = new AgentClient({
    client: new Client({ connection: env.client.connection, namespace }),
    taskQueue: `no-worker-${randomUUID()}`,
    onStartRetry: (retry) => retries.push(retry),
  });
  return { agents, retries };
}

describe('a start the server refuses for a search attribute it does not know yet', () => {
  it('is tried again until the attribute is known, and the run then carries it', async () => {
    const namespace = await freshNamespace(env.client, 'retry');
    const { agents, retries } = agentsOn(namespace);
    const starting = agents.start(
      scriptedInput('started while the attributes were being registered', { agentName: 'late' }),
    );
    // Registered by someone else a moment later (docker-compose's job, another CLI), as on a fresh cluster.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await ensureSearchAttributes(env.client, namespace);
    const handle = await starting;
    try {
      expect(retries.length).toBeGreaterThanOrEqual(1);
      expect(retries[0]).toMatchObject({ attempt: 1, attempts: 8, delayMs: 250 });
      expect(retries[0]!.reason).toMatch(
        /^Failed to start Workflow: Namespace retry-\w+ has no mapping defined for search attribute Thoughtline\w+$/,
      );
      const attributes = (await handle.describe()).typedSearchAttributes;
      expect(attributes.get(AgentAttribute)).toBe('late');
      expect(attributes.get(StatusAttribute)).toBe('running');
    } finally {
      await handle.terminate('test over');
    }
  });

  it('gives up after the last pause with the server’s refusal, which says what to do', async () => {
    const namespace = await freshNamespace(env.client, 'retry');
    const client = new Client({ connection: env.client.connection, namespace });
    const retries: StartRetry[] = [];
    const error = await retryUnknownSearchAttribute(
      () =>
        client.workflow.start('agentWorkflow', {
          taskQueue: 'nobody',
          workflowId: `never-${randomUUID()}`,
          typedSearchAttributes: [{ key: StatusAttribute, value: 'started' }],
        }),
      { delaysMs: [50, 100], onRetry: (retry) => retries.push(retry) },
    ).catch((e) => e);
    expect(retries.map((r) => [r.attempt, r.delayMs])).toEqual([
      [1, 50],
      [2, 100],
    ]);
    expect(error).toBeInstanceOf(ServiceError);
    expect(isUnknownSearchAttribute(error)).toBe(true);
    expect(messageWithCauses(error)).toBe(
      `Failed to start Workflow: Namespace ${namespace} has no mapping defined for search attribute ThoughtlineStatus`,
    );
    expect(serverErrorAdvice(error)).toContain(`temporal operator search-attribute list --namespace ${namespace}`);
  });

  it('is not retried when the server refuses the value itself (negative control)', async () => {
    const { agents, retries } = agentsOn(env.client.options.namespace);
    const started = Date.now();
    // The model's name is stored in ThoughtlineModel, whose values the server caps at 2 KB.
    const error = await agents
      .start(
        scriptedInput('a model name too long to index', { model: { provider: 'scripted', model: 'm'.repeat(3000) } }),
      )
      .catch((e) => e);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(retries).toEqual([]);
    expect(isUnknownSearchAttribute(error)).toBe(false);
    expect(messageWithCauses(error)).toBe(
      'Failed to start Workflow: search attribute ThoughtlineModel value size 3002 exceeds size limit 2048',
    );
    expect(serverErrorAdvice(error)).toMatch(/^shorten the value it names/);
  });

  it('is recognised in the other wording servers use too ("search attribute X is not defined", the test server’s)', async () => {
    installQuietRuntime();
    const path = await findOrInstallTestServer({ log: () => {} });
    const testEnv = await TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path } },
    });
    try {
      const retries: StartRetry[] = [];
      const error = await retryUnknownSearchAttribute(
        () =>
          testEnv.client.workflow.start('agentWorkflow', {
            taskQueue: 'nobody',
            workflowId: `never-${randomUUID()}`,
            typedSearchAttributes: [{ key: StatusAttribute, value: 'started' }],
          }),
        { delaysMs: [10], onRetry: (retry) => retries.push(retry) },
      ).catch((e) => e);
      expect(retries).toHaveLength(1);
      expect(messageWithCauses(error)).toBe(
        'Failed to start Workflow: search attribute ThoughtlineStatus is not defined',
      );
      expect(serverErrorAdvice(error)).toMatch(/^the server does not know search attribute ThoughtlineStatus/);
    } finally {
      await testEnv.teardown();
    }
  }, 120_000);
});
