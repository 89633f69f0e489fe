import { Connection } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { isReachable, startTestServer } from '../../src/dev-server';
import { SEARCH_ATTRIBUTES } from '../../src/domain/run/search-attributes';

describe('startTestServer', () => {
  it('serves an in-memory namespace with the search attributes, and stop() tears it down', async () => {
    const server = await startTestServer({ log: () => {} });
    try {
      expect(server.address).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(server.namespace).toBe('default');
      const connection = await Connection.connect({ address: server.address });
      try {
        const { customAttributes } = await connection.operatorService.listSearchAttributes({
          namespace: server.namespace,
        });
        expect(Object.keys(customAttributes ?? {})).toEqual(
          expect.arrayContaining(SEARCH_ATTRIBUTES.map((a) => a.name)),
        );
      } finally {
        await connection.close();
      }
    } finally {
      await server.stop();
    }
    expect(await isReachable(server.address)).toBe(false);
  }, 180_000);
});
