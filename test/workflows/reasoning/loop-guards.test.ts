/**
 * Smarter loop guards (seed 001 §4.3) on the real dev server: near-identical calls count as
 * repeats, A-B-A-B cycles stall, and a call identical to one that failed is not run again.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { say, useTool } from '../../../src/activities/models/scripted-model';
import { defineTool } from '../../../src/tools/define-tool';
import { toolResultOf } from '../../helpers/chain-helpers';
import { runScripted } from '../../helpers/run-scripted';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const call = (name: string, input: Record<string, unknown>, id: string) => ({
  content: [say(`Trying ${name} for ${JSON.stringify(input)}.`), useTool(name, input, id)],
});

describe('loop guards', () => {
  it('counts near-identical calls (case, spaces) as the same call', async () => {
    const { result, log } = await runScripted(env, {
      input: { task: 'Look up Alpha', model: SCRIPTED_MODEL },
      script: [
        call('lookup', { key: 'Alpha' }, 'toolu_1'),
        call('lookup', { key: ' alpha ' }, 'toolu_2'),
        call('lookup', { key: 'ALPHA' }, 'toolu_3'),
        { content: [say('Enough.'), useTool('finish', { result: 'alpha is 50' })] },
      ],
    });
    // The third near-identical call gets the warning instead of running.
    expect(log.calls.map((c) => c.args)).toEqual([{ key: 'Alpha' }, { key: ' alpha ' }]);
    expect(toolResultOf(result.chain.steps, 'toolu_3')?.error).toContain('3 times in a row');
  });

  it('counts a call like the last one (the same words in another order) as a repeat; a different number is progress', async () => {
    const queries: string[] = [];
    const search = defineTool({
      name: 'search',
      description: 'Searches the web',
      input: z.object({ query: z.string() }),
      execute: ({ query }) => {
        queries.push(query);
        return `results for ${query}`;
      },
    });
    const { result } = await runScripted(env, {
      input: { task: 'What is the weather in Paris?', model: SCRIPTED_MODEL, stallThreshold: 2 },
      tools: [search],
      script: [
        call('search', { query: 'weather in Paris' }, 'toolu_1'),
        call('search', { query: 'Paris weather' }, 'toolu_2'),
        call('search', { query: 'Paris weather in 3 days' }, 'toolu_3'),
        { content: [say('Enough.'), useTool('finish', { result: 'sunny' })] },
      ],
    });
    // The second is the first again in other words: not run, and the model is told so.
    expect(queries).toEqual(['weather in Paris', 'Paris weather in 3 days']);
    const warning = toolResultOf(result.chain.steps, 'toolu_2')?.error;
    expect(warning).toContain('a call like this');
    expect(warning).toContain('2 times in a row');
    expect(toolResultOf(result.chain.steps, 'toolu_3')?.success).toBe(true);
    expect(result.terminationReason).toBe('success');
  });

  it('warns on an A-B-A-B cycle and stalls when the agent goes round again', async () => {
    const { result, log } = await runScripted(env, {
      input: { task: 'Reconcile alpha and beta', model: SCRIPTED_MODEL },
      script: [
        call('lookup', { key: 'alpha' }, 'toolu_a1'),
        call('lookup', { key: 'beta' }, 'toolu_b1'),
        call('lookup', { key: 'alpha' }, 'toolu_a2'),
        call('lookup', { key: 'beta' }, 'toolu_b2'),
        call('lookup', { key: 'alpha' }, 'toolu_a3'),
        { content: [say('I went in circles; alpha is 50 and beta is 40.')] },
      ],
    });
    expect(log.calls).toHaveLength(3);
    expect(toolResultOf(result.chain.steps, 'toolu_b2')?.error).toContain('gone round the same 2 turns of calls twice');
    expect(toolResultOf(result.chain.steps, 'toolu_a3')?.error).toBe(
      'Not run: the run stopped because it was stalled.',
    );
    expect(result.terminationReason).toBe('stalled');
    expect(JSON.stringify(result.chain.steps)).toContain('it went round the same 2 turns of calls twice');
  });

  it('does not run a call identical to one that failed: the observation points to the failure', async () => {
    const { result, log } = await runScripted(env, {
      input: { task: 'Read the database', model: SCRIPTED_MODEL },
      script: [
        call('always_fails', {}, 'toolu_f1'),
        call('lookup', { key: 'alpha' }, 'toolu_l1'),
        call('always_fails', {}, 'toolu_f2'),
        { content: [say('The database is down.'), useTool('finish', { result: 'alpha is 50; the database is down' })] },
      ],
    });
    // Two attempts of the first call (its retry policy), none of the repeat.
    expect(log.calls.filter((c) => c.tool === 'always_fails')).toHaveLength(2);
    const first = result.chain.steps.find((s) => s.type === 'tool_result' && s.toolResult.correlationId === 'toolu_f1');
    const repeat = toolResultOf(result.chain.steps, 'toolu_f2');
    expect(repeat?.success).toBe(false);
    expect(repeat?.error).toContain(`already failed at step ${first?.stepNumber}`);
    expect(repeat?.error).toContain('database unreachable');
    expect(result.terminationReason).toBe('success');
  });
});
