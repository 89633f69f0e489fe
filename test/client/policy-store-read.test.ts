import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lensOfPolicy } from '../../src/client/runs/run-lens';
import { readStoredPage } from '../../src/client/store/read-stored-chain';
import { searchStore } from '../../src/client/store/search-store';
import { viewChain } from '../../src/domain/chain/chain-view';
import type { ViewerRole } from '../../src/domain/identity/people';
import { RunSearch } from '../../src/domain/store';
import { VisibilityPolicy } from '../../src/domain/visibility/visibility-policy';
import { openChainStore } from '../../src/store/open-chain-store';
import { runUpdateOf } from '../store/store-test-chains';
import { ACCOUNT, lensChain, numbers } from '../unit/visibility/lens-chain';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-policy-store-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Charge results hidden (a rule by tool: a plain lookup's result must still show), acme's accounts masked, thinking hidden for end users. */
const loaded = {
  path: 'inline',
  policy: VisibilityPolicy.parse({
    version: 1,
    platform: { tools: { charge: { result: 'hidden' } } },
    roles: { end_user: { steps: { thinking: 'hidden' } } },
    tenants: { acme: { sensitiveFields: { lookup: ['account'] } } },
  }),
};

async function storeWithChain() {
  const store = (await openChainStore({
    kind: 'sqlite',
    file: path.join(root, `${Date.now()}-${Math.random()}.sqlite`),
  }))!;
  const chain = lensChain();
  await store.putRun(runUpdateOf(chain));
  await store.putSteps(chain.chainId, chain.steps);
  return { store, chain };
}

describe('store reads with a visibility policy', () => {
  for (const role of ['end_user', 'developer', 'auditor'] as ViewerRole[])
    it(`page as viewChain does with the run's lens (${role})`, async () => {
      const { store, chain } = await storeWithChain();
      try {
        const lensOf = lensOfPolicy(loaded);
        const lens = lensOf({ agentName: chain.agentName, tenant: 'acme' }, role);
        const expected = viewChain(chain, role, lens);
        const page = await readStoredPage(store, chain.chainId, role, { lens: lensOf });
        expect(page).toBeDefined();
        expect(numbers(page!.chain)).toEqual(numbers(expected));
        expect(page!.chain.steps).toEqual(expected.steps);
        expect(page!.chain.view?.hiddenSteps).toBe(expected.view?.hiddenSteps);
        expect(page!.totalSteps).toBe(expected.steps.length);
        // The lookup's result (its plain call left out of the stored facts) shows; the charge's does not.
        expect(numbers(page!.chain)).toContain(6);
        expect(numbers(page!.chain)).not.toContain(9);
        if (role !== 'auditor') expect(JSON.stringify(page!.chain)).not.toContain(ACCOUNT);
        // A page of two still counts the whole chain's steps.
        const first = await readStoredPage(store, chain.chainId, role, { lens: lensOf, limit: 2 });
        expect(first!.chain.steps).toEqual(expected.steps.slice(0, 2));
        expect(first!.totalSteps).toBe(expected.steps.length);
      } finally {
        await store.close();
      }
    });

  it('find no run by a text only the policy hides', async () => {
    const { store } = await storeWithChain();
    try {
      const scope = { tenant: 'acme', role: 'end_user' as const };
      const withoutPolicy = await searchStore(store, RunSearch.parse({ text: 'look the customer up' }), scope);
      expect(withoutPolicy.hits).toHaveLength(1);
      const withPolicy = await searchStore(
        store,
        RunSearch.parse({ text: 'look the customer up' }),
        scope,
        lensOfPolicy(loaded),
      );
      expect(withPolicy.hits).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
