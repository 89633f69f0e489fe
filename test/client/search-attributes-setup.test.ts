import { randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { describe, expect, it } from 'vitest';
import { AgentClient } from '../../src/client/agent-client';
import { ensureSearchAttributes } from '../../src/client/start/search-attributes-setup';
import { SearchAttributesNotVisibleError } from '../../src/dev-server/probes/search-attributes-not-visible-error';
import { waitForSearchAttributes } from '../../src/dev-server/probes/wait-for-search-attributes';
import { AgentAttribute, SEARCH_ATTRIBUTES } from '../../src/domain';
import { freshNamespace } from '../helpers/fresh-namespace';
import { scriptedInput } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();
const ALL = SEARCH_ATTRIBUTES.map((a) => a.name);

async function listed(client: Client, namespace: string): Promise<Record<string, unknown>> {
  return (await client.connection.operatorService.listSearchAttributes({ namespace })).customAttributes ?? {};
}

describe('ensureSearchAttributes', () => {
  it('registers what a namespace lacks, then finds nothing to do', async () => {
    const namespace = await freshNamespace(env.client, 'sa');
    expect(await ensureSearchAttributes(env.client, namespace)).toEqual(ALL);
    expect(Object.keys(await listed(env.client, namespace))).toEqual(expect.arrayContaining(ALL));
    expect(await ensureSearchAttributes(env.client, namespace)).toEqual([]);
  });

  it('returns only once the server lists every attribute with its type, and a run starts at once, untried again', async () => {
    const namespace = await freshNamespace(env.client, 'sa');
    await ensureSearchAttributes(env.client, namespace);
    // Read straight after it returned, before anything else asks the server.
    const types = await listed(env.client, namespace);
    for (const a of SEARCH_ATTRIBUTES)
      expect(types[a.name], a.name).toBe(encodeSearchAttributeIndexedValueType(a.key.type));

    const retries: unknown[] = [];
    const agents = new AgentClient({
      client: new Client({ connection: env.client.connection, namespace }),
      taskQueue: `no-worker-${randomUUID()}`,
      onStartRetry: (retry) => retries.push(retry),
    });
    const handle = await agents.start(scriptedInput('first run on a fresh namespace', { agentName: 'first' }));
    try {
      expect(retries).toEqual([]);
      expect((await handle.describe()).typedSearchAttributes.get(AgentAttribute)).toBe('first');
    } finally {
      await handle.terminate('test over');
    }
  });

  it('names the namespace it could not read, with the server’s words', async () => {
    const error = await ensureSearchAttributes(env.client, `missing-${randomUUID().slice(0, 8)}`).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/^could not read the search attributes of namespace 'missing-/);
    expect(error.cause.details).toMatch(/Namespace missing-\w+ is not found/);
  });
});

describe('waitForSearchAttributes', () => {
  it('waits for attributes registered while it waits, and returns once the server lists them', async () => {
    const namespace = await freshNamespace(env.client, 'sa');
    const waiting = waitForSearchAttributes(env.client.connection, namespace, ALL, { timeoutMs: 20_000 }).then(() =>
      Date.now(),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const registeringAt = Date.now();
    await env.client.connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(
        SEARCH_ATTRIBUTES.map((a) => [a.name, encodeSearchAttributeIndexedValueType(a.key.type)!]),
      ),
    });
    const registeredAt = Date.now();
    const returnedAt = await waiting;
    // Not before the registration (it was polling all along), and soon after it: its pauses stay short.
    expect(returnedAt).toBeGreaterThanOrEqual(registeringAt);
    expect(returnedAt - registeredAt).toBeLessThan(10_000);
    expect(Object.keys(await listed(env.client, namespace))).toEqual(expect.arrayContaining(ALL));
  });

  it('gives up after its timeout with a typed error naming what is not listed and how to check', async () => {
    const namespace = await freshNamespace(env.client, 'sa');
    const started = Date.now();
    const error = await waitForSearchAttributes(env.client.connection, namespace, ['ThoughtlineStatus'], {
      timeoutMs: 800,
    }).catch((e) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(SearchAttributesNotVisibleError);
    expect(error.missing).toEqual(['ThoughtlineStatus']);
    expect(error.message).toContain(`temporal operator search-attribute list --namespace ${namespace}`);
  });
});
