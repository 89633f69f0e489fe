import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModelProvider } from '../../../src/activities';
import { createScriptedModel, say, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import type { AgentResult, ModelReply } from '../../../src/domain';
import { defineTool } from '../../../src/tools/define-tool';
import { cancelSignal } from '../../../src/workflows/messages';
import { openCallSteps, toolResultOfTool } from '../../helpers/chain-helpers';
import { scriptedInput } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { slowTool } from '../../helpers/test-tools';

const env = useTestEnv();

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A model whose first call takes 20 s unless cancelled; later calls come from the script. */
function slowFirstCall(rest: ScriptedTurn[]): ModelProvider & { aborted: () => boolean } {
  const script = createScriptedModel(rest);
  let calls = 0;
  let aborted = false;
  return {
    name: 'scripted',
    aborted: () => aborted,
    complete: async (request, signal, hooks) => {
      if (++calls > 1) return script.complete(request, signal, hooks);
      return new Promise<ModelReply>((_resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('not cancelled in time')), 20_000);
        signal.addEventListener('abort', () => (clearTimeout(timer), (aborted = true), reject(signal.reason)));
      });
    },
  };
}

/** Starts a run, waits until `ready`, cancels it `how`, and returns the result with the time it took. */
async function cancelDuring(
  deps: Parameters<typeof createHarness>[1],
  ready: () => boolean,
  how: 'signal' | 'temporal',
): Promise<{ result: AgentResult; ms: number }> {
  const h = await createHarness(env, deps);
  return h.worker.runUntil(async () => {
    const handle = await h.agents.start(scriptedInput('Do the long job'));
    while (!ready()) await wait(25);
    await wait(200);
    const started = Date.now();
    if (how === 'signal') await handle.signal(cancelSignal, { reason: 'changed my mind', by: 'alice' });
    else await handle.cancel();
    const result = await handle.result();
    return { result, ms: Date.now() - started };
  });
}

// The call under way would take 20 s: returning well before that shows the run did not wait for it.
// How fast it returns (seed 002: under 2 s) is figure 13 in bench/, not a timed test.
const WELL_BEFORE_THE_CALL_ENDS_MS = 10_000;

describe('cancellation returns `cancelled` with the chain so far, without waiting for the call under way', () => {
  for (const how of ['signal', 'temporal'] as const) {
    it(`by ${how} during a model call: the call is aborted and marked cancelled`, async () => {
      const model = slowFirstCall([]);
      let requested = false;
      const probe: ModelProvider = {
        name: 'scripted',
        complete: (r, s, h) => ((requested = true), model.complete(r, s, h)),
      };
      const { result, ms } = await cancelDuring({ tools: [], models: { scripted: probe } }, () => requested, how);
      expect(ms).toBeLessThan(WELL_BEFORE_THE_CALL_ENDS_MS);
      expect(model.aborted()).toBe(true);
      expect(result).toMatchObject({ success: false, terminationReason: 'cancelled', modelCalls: 1 });
      const llm = result.chain.steps.find((s) => s.type === 'tool_result' && s.model !== undefined);
      expect(llm).toMatchObject({ toolResult: { success: false, outcome: 'cancelled' } });
      expect(openCallSteps(result.chain.steps)).toEqual([]);
      expect(result.chain.steps.at(-1)?.type).toBe('synthesis');
      if (how === 'signal')
        expect(
          result.chain.steps.some((s) => s.type === 'thinking' && s.thought.includes('changed my mind, by alice')),
        ).toBe(true);
    });

    it(`by ${how} during a slow tool: the tool gets its cancellation and the chain says it stopped`, async () => {
      const events: string[] = [];
      const model = createScriptedModel([{ content: [say('Starting the job.'), useTool('slow_job', {})] }]);
      const { result, ms } = await cancelDuring(
        { tools: [slowTool(events)], models: { scripted: model } },
        () => events.includes('started'),
        how,
      );
      expect(ms).toBeLessThan(WELL_BEFORE_THE_CALL_ENDS_MS);
      expect(events).toEqual(['started', 'aborted']);
      expect(result).toMatchObject({ terminationReason: 'cancelled', toolCalls: 1 });
      expect(toolResultOfTool(result.chain.steps, 'slow_job')).toMatchObject({ success: false, outcome: 'cancelled' });
      expect(result.finalAnswer).toContain('cancelled');
      expect(openCallSteps(result.chain.steps)).toEqual([]);
    });
  }

  it('a tool that ignores cancellation is reported as outcome unknown, and the run still returns', async () => {
    const events: string[] = [];
    const model = createScriptedModel([{ content: [useTool('slow_job', {})] }]);
    const { result, ms } = await cancelDuring(
      { tools: [slowTool(events, { honoursCancel: false, ms: 4_000 })], models: { scripted: model } },
      () => events.includes('started'),
      'temporal',
    );
    // The tool ignores its cancellation and runs 4 s: the run returns without waiting for it.
    expect(ms).toBeLessThan(3_900);
    expect(result.terminationReason).toBe('cancelled');
    expect(toolResultOfTool(result.chain.steps, 'slow_job')).toMatchObject({
      success: false,
      outcome: 'unknown',
      error: expect.stringContaining('may or may not have taken effect'),
    });
  });

  it('a cancel signal between steps lets the model summarise, and a second signal changes nothing', async () => {
    const model = createScriptedModel([
      { content: [useTool('lookup', { key: 'a' })] },
      { content: [say('Summary: looked up a (10); stopped on request.')] },
    ]);
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks up a key',
      input: z.object({ key: z.string() }),
      execute: async ({ key }) => {
        await wait(600); // the signal lands while this runs; the step finishes within the grace period
        return { key, value: 10 };
      },
    });
    const h = await createHarness(env, { tools: [lookup], models: { scripted: model } });
    const result = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ ...scriptedInput('Look things up'), cancelGraceMs: 5_000 });
      while (model.calls.length === 0) await wait(25);
      await handle.signal(cancelSignal, { reason: 'enough' });
      await handle.signal(cancelSignal, { reason: 'again' });
      return handle.result();
    });
    model.verify();
    expect(result).toMatchObject({
      terminationReason: 'cancelled',
      finalAnswer: 'Summary: looked up a (10); stopped on request.',
      toolCalls: 1,
    });
    expect(toolResultOfTool(result.chain.steps, 'lookup')).toMatchObject({
      success: true,
      result: { key: 'a', value: 10 },
    });
    // The summary call had no tools and was told why.
    const last = model.calls[1]!;
    expect(last.toolChoice).toBe('none');
    expect(JSON.stringify(last.messages.at(-1))).toContain('cancelled (enough)');
    expect(
      result.chain.steps.filter((s) => s.type === 'thinking' && s.thought.startsWith('Cancel requested')),
    ).toHaveLength(1);
  });
});
