import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readStoredPage } from '../../src/client/store/read-stored-chain';
import { behindWhileUnsettled } from '../../src/server/chain-store/behind-while-unsettled';
import { openChainStore } from '../../src/store/open-chain-store';
import { runUpdateOf, sampleChain } from '../store/store-test-chains';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-unsettled-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('behindWhileUnsettled: the store as serve reads it while the projection still has work for a run', () => {
  it('reads an unsettled run as behind (so reads go to Temporal) and a settled one as stored', async () => {
    const store = (await openChainStore({ kind: 'sqlite', file: path.join(dir, 'store.sqlite') }))!;
    const chain = sampleChain('run-unsettled');
    await store.putRun(runUpdateOf(chain));
    await store.putSteps(chain.chainId, chain.steps);
    const pending = new Set([chain.chainId]);
    const readable = behindWhileUnsettled(store, (runId) => pending.has(runId));

    expect((await readable.head(chain.chainId))?.run.behindSince).toEqual(expect.any(String));
    expect((await readable.run(chain.chainId))?.behindSince).toEqual(expect.any(String));
    expect(await readStoredPage(readable, chain.chainId, 'developer')).toBeUndefined();

    pending.delete(chain.chainId);
    expect((await readable.head(chain.chainId))?.run.behindSince).toBeUndefined();
    const page = await readStoredPage(readable, chain.chainId, 'developer');
    expect(page?.chain.steps.length).toBeGreaterThan(0);
    // Every other method is the store's own, bound to it.
    expect(readable.kind).toBe('sqlite');
    expect(await readable.runIds({ limit: 10 })).toEqual([chain.chainId]);
    await readable.close();
  });
});
