import { randomUUID } from 'node:crypto';
import { msToTs } from '@temporalio/common/lib/time';
import { describe, expect, it } from 'vitest';
import { ensureSearchAttributes } from '../../src/client/search-attributes-setup';
import { SEARCH_ATTRIBUTES } from '../../src/shared';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();

describe('ensureSearchAttributes', () => {
  it('registers what a namespace lacks, then finds nothing to do', async () => {
    const namespace = `sa-${randomUUID().slice(0, 8)}`;
    await env.client.connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs('1 day'),
    });
    expect(await ensureSearchAttributes(env.client, namespace)).toEqual(SEARCH_ATTRIBUTES.map((a) => a.name));
    const listed = await env.client.connection.operatorService.listSearchAttributes({ namespace });
    expect(Object.keys(listed.customAttributes ?? {})).toEqual(
      expect.arrayContaining(SEARCH_ATTRIBUTES.map((a) => a.name)),
    );
    expect(await ensureSearchAttributes(env.client, namespace)).toEqual([]);
  });
});
