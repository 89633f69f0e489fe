import { describe, expect, it } from 'vitest';
import { loadExpandedChain } from '../../src/client/chain/expanded-chain';
import { ReasoningChain } from '../../src/domain/chain/chain';
import { lensChain } from '../unit/visibility/lens-chain';

/** The lens chain, whose sub-agent result points to wf-lens/sub-1, and that child (no children). */
const child = ReasoningChain.parse({ ...lensChain(), chainId: 'wf-lens/sub-1', subAgents: [], steps: [] });
const read = async (id: string) => (id === 'wf-lens' ? lensChain() : child);

describe('expanded chains under a policy', () => {
  it("open a run's sub-agents' chains only where the policy shows them in full", async () => {
    const open = await loadExpandedChain('wf-lens', read);
    expect(Object.keys(open.subAgents)).toEqual(['wf-lens/sub-1']);
    const closed = await loadExpandedChain('wf-lens', read, (chain) => chain.chainId !== 'wf-lens');
    expect(closed.subAgents).toEqual({});
  });
});
