/**
 * Confidence (seed 001 §7, seed 002) on the real dev server: asked for in the prompt, read from
 * thoughts, `finish` and a text answer, and a stop rule that asks a person about a weak answer.
 */
import { describe, expect, it } from 'vitest';
import { setTimeout as wait } from 'node:timers/promises';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import type { ReasoningStep } from '../../../src/domain';
import { resolveStallUpdate, statusQuery } from '../../../src/workflows/messages';
import { runScripted } from '../../helpers/run-scripted';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { testTools } from '../../helpers/test-tools';

const env = useTestEnv();

const thinkingConfidences = (steps: readonly ReasoningStep[]) =>
  steps.flatMap((s) => (s.type === 'thinking' && s.confidence !== undefined ? [[s.thought, s.confidence]] : []));
const synthesisOf = (steps: readonly ReasoningStep[]) => [...steps].reverse().find((s) => s.type === 'synthesis');

describe('confidence', () => {
  it('native: asked for in the prompt, read from a thought and from finish', async () => {
    const { result, model } = await runScripted(env, {
      input: { task: 'What is alpha?', model: SCRIPTED_MODEL, askConfidence: true },
      script: [
        { content: [say('Alpha must be looked up.\nConfidence: 0.6'), useTool('lookup', { key: 'alpha' })] },
        { content: [say('The tool says 50.'), useTool('finish', { result: 'alpha is 50', confidence: 0.9 })] },
      ],
    });
    expect(model.calls[0]!.system).toContain('Confidence: <0 to 1>');
    const finish = model.calls[0]!.tools.find((t) => t.name === 'finish');
    expect(finish?.inputSchema).toMatchObject({ properties: { confidence: { type: 'number' } } });
    expect(thinkingConfidences(result.chain.steps)).toEqual([['Alpha must be looked up.', 0.6]]);
    expect(synthesisOf(result.chain.steps)).toMatchObject({
      synthesis: { conclusion: 'alpha is 50', confidence: 0.9 },
    });
  });

  it('text ReAct: a Confidence line after the thought and after the Final Answer (a percentage too)', async () => {
    const { result, model } = await runScripted(env, {
      input: { task: 'What is alpha?', model: SCRIPTED_MODEL, strategy: 'react-text', askConfidence: true },
      script: [
        {
          content: [say('Thought: I need alpha.\nConfidence: 0.5\nAction: lookup\nAction Input: {"key": "alpha"}')],
        },
        { content: [say('Thought: I have it.\nFinal Answer: alpha is 50\nConfidence: 85%')] },
      ],
    });
    expect(model.calls[0]!.system).toContain('Confidence: <a number from 0 (a guess) to 1 (certain)>');
    expect(thinkingConfidences(result.chain.steps)).toEqual([['I need alpha.', 0.5]]);
    expect(result.finalAnswer).toBe('alpha is 50');
    expect(synthesisOf(result.chain.steps)).toMatchObject({ synthesis: { confidence: 0.85 } });
  });

  it('leaves finish as it was when the run uses no confidence', async () => {
    const { model } = await runScripted(env, {
      input: { task: 'Say done', model: SCRIPTED_MODEL },
      script: [{ content: [useTool('finish', { result: 'done' })] }],
    });
    const finish = model.calls[0]!.tools.find((t) => t.name === 'finish');
    expect(Object.keys((finish?.inputSchema as { properties: object }).properties)).toEqual(['result']);
    expect(model.calls[0]!.system).not.toContain('Confidence');
  });

  it('confirmBelowConfidence: a weak answer waits for a person, who sends it back; a confident one ends the run', async () => {
    const model = createScriptedModel([
      {
        content: [
          say('Probably 50.'),
          useTool('finish', { result: 'alpha is probably 50', confidence: 0.4 }, 'toolu_weak'),
        ],
      },
      { content: [say('Checking, as asked.'), useTool('lookup', { key: 'alpha' })] },
      { content: [say('Confirmed.'), useTool('finish', { result: 'alpha is 50', confidence: 0.95 })] },
    ]);
    const { tools, log } = testTools();
    const h = await createHarness(env, { tools, models: { scripted: model } });
    const outcome = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        task: 'What is alpha?',
        model: SCRIPTED_MODEL,
        confirmBelowConfidence: 0.7,
      });
      let status = await handle.query(statusQuery);
      for (const deadline = Date.now() + 20_000; status.waitingFor === undefined && Date.now() < deadline;) {
        await wait(100);
        status = await handle.query(statusQuery);
      }
      await handle.executeUpdate(resolveStallUpdate, {
        args: [{ continue: true, by: 'alice', note: 'check with the tool' }],
      });
      return { waitingFor: status.waitingFor, result: await handle.result() };
    });
    model.verify();
    expect(outcome.waitingFor).toContain('0.4');
    expect(log.calls).toHaveLength(1);
    expect(JSON.stringify(model.calls[1]!.messages.at(-1))).toContain('A person did not accept this answer yet');
    expect(JSON.stringify(model.calls[1]!.messages.at(-1))).toContain('check with the tool');
    expect(outcome.result).toMatchObject({ terminationReason: 'success', finalAnswer: 'alpha is 50' });
    expect(JSON.stringify(outcome.result.chain.steps)).toContain(
      'A person (alice) sent the answer back: check with the tool.',
    );
  });

  it('confirmBelowConfidence: a person may accept the weak answer as it is', async () => {
    const model = createScriptedModel([
      { content: [say('A guess.'), useTool('finish', { result: 'alpha is about 50', confidence: 0.3 })] },
    ]);
    const h = await createHarness(env, { tools: testTools().tools, models: { scripted: model } });
    const result = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        task: 'What is alpha?',
        model: SCRIPTED_MODEL,
        confirmBelowConfidence: 0.7,
      });
      for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
        if ((await handle.query(statusQuery)).waitingFor !== undefined) break;
        await wait(100);
      }
      await handle.executeUpdate(resolveStallUpdate, { args: [{ continue: false, by: 'bob' }] });
      return handle.result();
    });
    model.verify();
    expect(result).toMatchObject({ terminationReason: 'success', finalAnswer: 'alpha is about 50' });
    expect(JSON.stringify(result.chain.steps)).toContain('A person (bob) accepted the low-confidence answer.');
  });
});
