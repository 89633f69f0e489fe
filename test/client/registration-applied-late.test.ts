import { randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '../../src/client/agent-client';
import type { StartRetry } from '../../src/client/start/retry-unknown-search-attribute';
import { ensureSearchAttributes } from '../../src/client/start/search-attributes-setup';
import { isUnknownSearchAttribute } from '../../src/client/errors/server-error-advice';
import { AgentAttribute, SEARCH_ATTRIBUTES, StatusAttribute } from '../../src/domain';
import { NAMESPACE_CACHE_REFRESH_MS, startClusterLikeServer } from '../helpers/cluster-like-server';
import { freshNamespace } from '../helpers/fresh-namespace';
import { scriptedInput } from '../helpers/scripted-input';

/*
 * Issue 45's first `thoughtline demo` on a fresh namespace, on a server that applies registrations
 * when its namespace cache refreshes, as a cluster does: registered and listed, yet refused.
 */
let server: TestWorkflowEnvironment;
beforeAll(async () => {
  server = await startClusterLikeServer();
});
afterAll(async () => server?.teardown());

const clientOn = (namespace: string): Client => new Client({ connection: server.connection, namespace });

/** A plain start of a run carrying Thoughtline's attributes: the SDK's own, never tried again. */
const plainStart = (namespace: string) =>
  clientOn(namespace).workflow.start('agentWorkflow', {
    taskQueue: 'nobody',
    workflowId: `plain-${randomUUID()}`,
    typedSearchAttributes: [
      { key: StatusAttribute, value: 'started' },
      { key: AgentAttribute, value: 'plain' },
    ],
  });

const registerWithoutWaiting = (namespace: string) =>
  server.connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(
      SEARCH_ATTRIBUTES.map((a) => [a.name, encodeSearchAttributeIndexedValueType(a.key.type)!]),
    ),
  });

/**
 * A fresh namespace whose attributes are registered and listed, with a plain start just refused
 * for them. Should the cache refresh land between the two calls (a few ms in 12 s), a second
 * namespace is registered after that refresh, so is refused.
 */
async function registeredButRefused(): Promise<{ namespace: string; refusal: unknown }> {
  for (let tries = 0; tries < 2; tries++) {
    const namespace = await freshNamespace(server.client, 'late');
    await registerWithoutWaiting(namespace);
    const refusal = await plainStart(namespace).then(
      async (handle) => void (await handle.terminate('refresh landed in between')),
      (err: unknown) => err,
    );
    if (refusal) return { namespace, refusal };
  }
  throw new Error('two starts straight after registering were both accepted: the server applies registrations at once');
}

// Side by side, each on a fresh namespace of its own: the waits for the server's next refresh overlap.
describe.concurrent(
  `registering search attributes on a server that applies them every ${NAMESPACE_CACHE_REFRESH_MS / 1000} s`,
  () => {
    it('reproduces the defect: the attributes are listed, and a run started then is refused for them', async () => {
      const { namespace, refusal } = await registeredButRefused();
      expect(isUnknownSearchAttribute(refusal)).toBe(true);
      const listed = await server.connection.operatorService.listSearchAttributes({ namespace });
      expect(Object.keys(listed.customAttributes ?? {})).toEqual(
        expect.arrayContaining(SEARCH_ATTRIBUTES.map((a) => a.name)),
      );
    });

    it('ensureSearchAttributes returns only once they are applied: a plain start right after is accepted', async () => {
      const namespace = await freshNamespace(server.client, 'late');
      const started = Date.now();
      await ensureSearchAttributes(clientOn(namespace), namespace);
      const waited = Date.now() - started;
      const handle = await plainStart(namespace);
      try {
        expect((await handle.describe()).typedSearchAttributes.get(AgentAttribute)).toBe('plain');
        expect(waited).toBeLessThan(NAMESPACE_CACHE_REFRESH_MS + 5_000);
      } finally {
        await handle.terminate('test over');
      }
    });

    it('AgentClient.start, refused meanwhile, is tried again until the server applies them', async () => {
      const { namespace } = await registeredButRefused();
      const retries: StartRetry[] = [];
      const agents = new AgentClient({
        client: clientOn(namespace),
        taskQueue: `no-worker-${randomUUID()}`,
        onStartRetry: (retry) => retries.push(retry),
      });
      const handle = await agents.start(scriptedInput('the first demo on a fresh namespace', { agentName: 'demo' }));
      try {
        expect((await handle.describe()).typedSearchAttributes.get(AgentAttribute)).toBe('demo');
        for (const retry of retries)
          expect(retry.reason).toMatch(/has no mapping defined for search attribute Thoughtline/);
      } finally {
        await handle.terminate('test over');
      }
    });
  },
);
