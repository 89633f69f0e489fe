import { ChainBuilder } from '../../src/workflows/core/chain/chain-builder';

/** A ChainBuilder for chain `wf-1` of agent `a`: its clock ticks one second a call from 2026-01-01, its ids are id-1, id-2, … */
export function testChainBuilder(): ChainBuilder {
  let t = 0;
  let id = 0;
  return new ChainBuilder(
    { now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, t++)).toISOString(), newId: () => `id-${++id}` },
    { chainId: 'wf-1', agentName: 'a', task: 'task' },
  );
}
