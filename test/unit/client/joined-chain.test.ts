import { describe, expect, it } from 'vitest';
import { joinedChain } from '../../../src/client/chain/joined-chain';
import { chainPage, queryPage, type ChainPage, type ReasoningChain } from '../../../src/domain';
import { ChainBuilder } from '../../../src/workflows/core/chain/chain-builder';
import { chainTail } from '../../../src/workflows/run/handover/chain-tail';
import { testChainBuilder } from '../../helpers/test-chain-builder';

const full = { level: 'full' } as const;

/** One chain of `n` thinking steps, handed over after every 4 steps with a 2-step tail: the chain each Temporal run ends with. */
function runsOf(n: number): Map<string, ReasoningChain> {
  const runs = new Map<string, ReasoningChain>();
  let builder = testChainBuilder();
  let run = 1;
  for (let i = 1; i <= n; i++) {
    builder.thinking(`step ${i}`, full);
    if (i % 4 === 0 && i < n) {
      runs.set(`run-${run}`, builder.snapshot());
      const carried = chainTail(builder.snapshot(), `run-${run}`, {
        steps: 2,
        decidedApprovals: 1,
        subAgents: 1,
      }).chain;
      builder = new ChainBuilder({ now: () => 't', newId: () => `r${run}-${i}` }, { restore: carried });
      run++;
    }
  }
  runs.set('latest', builder.snapshot());
  return runs;
}

function reader(runs: Map<string, ReasoningChain>, log: string[]) {
  return async (runId: string, page: ChainPage | undefined) => {
    log.push(runId);
    return chainPage(runs.get(runId)!, page);
  };
}

describe('joinedChain: a long run read across its Temporal runs', () => {
  const runs = runsOf(13);
  const latest = runs.get('latest')!;

  it('joins every run into steps 1…N, once each', async () => {
    const log: string[] = [];
    const whole = await joinedChain(latest, reader(runs, log));
    expect(whole.steps.map((s) => s.stepNumber)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    expect(whole.steps.map((s) => (s.type === 'thinking' ? s.thought : ''))).toEqual(
      Array.from({ length: 13 }, (_, i) => `step ${i + 1}`),
    );
    expect(whole.earlier).toBeUndefined();
    expect(log).toEqual(['run-3', 'run-2', 'run-1']);
  });

  it('reads only as far back as a page needs', async () => {
    const log: string[] = [];
    // The latest run carries steps 11… (handed over at 12 with a tail of two).
    const page = { afterStep: 10, limit: 2 };
    const part = await joinedChain(chainPage(latest, page), reader(runs, log), page);
    expect(part.steps.map((s) => s.stepNumber)).toEqual([11, 12]);
    expect(log).toEqual([]);
    const early = await joinedChain(chainPage(latest, { afterStep: 5, limit: 3 }), reader(runs, log), {
      afterStep: 5,
      limit: 3,
    });
    expect(early.steps.map((s) => s.stepNumber)).toEqual([6, 7, 8]);
    expect(log).toEqual(['run-3', 'run-2']);
  });

  it('stops at a run gone from the server: the steps after it, and which are missing', async () => {
    const log: string[] = [];
    const gone = reader(runs, log);
    const read = async (runId: string, page: ChainPage | undefined) =>
      runId === 'run-2' ? undefined : gone(runId, page);
    const whole = await joinedChain(latest, read);
    // run-3 left steps 7…10 and points to run-2 for 1…6 (each hands over at 4 steps with a tail of 2).
    expect(whole.unavailable).toEqual({ runId: 'run-2', throughStep: 6 });
    expect(whole.steps.map((s) => s.stepNumber)).toEqual([7, 8, 9, 10, 11, 12, 13]);
    expect(log).toEqual(['run-3']);
    // A page inside what is gone gives the first steps there are, and says so; one after it needs no walk.
    const early = await joinedChain(chainPage(latest, { afterStep: 2, limit: 3 }), read, { afterStep: 2, limit: 3 });
    expect(early).toMatchObject({ unavailable: { runId: 'run-2', throughStep: 6 } });
    expect(early.steps.map((s) => s.stepNumber)).toEqual([7, 8, 9]);
    const late = await joinedChain(chainPage(latest, { afterStep: 10 }), read, { afterStep: 10 });
    expect(late.unavailable).toBeUndefined();
  });

  it('refuses an earlier chain that points forward instead of looping', async () => {
    const looped = new Map(runs);
    looped.set('run-2', { ...runs.get('run-2')!, earlier: { runId: 'run-3', throughStep: 20 } });
    await expect(joinedChain(latest, reader(looped, []))).rejects.toThrow(/points forward/);
  });
});

describe('queryPage: the chain query reads a page strictly', () => {
  it('takes nothing as the whole chain, and exactly afterStep and limit', () => {
    expect(queryPage(undefined)).toBeUndefined();
    expect(queryPage(null)).toBeUndefined();
    expect(queryPage({ afterStep: 0, limit: 5_000 })).toEqual({ afterStep: 0, limit: 5_000 });
  });

  it.each([
    ['a string', 'x', /must be an object/],
    ['an array', [1], /must be an object/],
    ['an unknown key', { from: 1 }, /has no "from"/],
    ['a fraction', { afterStep: 1.5 }, /afterStep must be a whole number/],
    ['a negative step', { afterStep: -1 }, /afterStep must be a whole number from 0/],
    ['a zero limit', { limit: 0 }, /limit must be a whole number from 1 to 5000/],
    ['an oversized limit', { limit: 5_001 }, /limit must be a whole number from 1 to 5000/],
    ['a text limit', { limit: '3' }, /limit must be a whole number/],
  ])('refuses %s', (_, value, message) => {
    expect(() => queryPage(value)).toThrow(message);
  });
});
