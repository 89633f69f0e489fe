import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import { renderStep, renderSummary } from '../../../src/cli/render/render-step';
import { AgentResult, ReasoningChain, type ReasoningStep } from '../../../src/domain';
import { lastToolResults } from '../../helpers/approval-helpers';
import { resultStep } from '../../helpers/chain-helpers';
import { runScripted } from '../../helpers/run-scripted';
import { modelsByName, scripted } from '../../helpers/sub-agent-helpers';
import { finishWithLastResult } from '../../helpers/sub-agent-scripts';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { testTools } from '../../helpers/test-tools';

const env = useTestEnv();

const task = 'What is the weather in Paris?';
// eslint-disable-next-line no-control-regex
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

/** The chain's last step, which must be the answer. */
function synthesisOf(result: AgentResult): Extract<ReasoningStep, { type: 'synthesis' }>['synthesis'] {
  const last = result.chain.steps.at(-1);
  if (last?.type !== 'synthesis') throw new Error(`the chain ends with ${last?.type ?? 'nothing'}, not the answer`);
  expect(last.synthesis.conclusion).toBe(result.finalAnswer);
  // What the chain records parses with the schema, and the result says the same.
  expect(() => ReasoningChain.parse(result.chain)).not.toThrow();
  expect(result.grounding).toBe(last.synthesis.grounding);
  expect(result.answerSources).toEqual(last.synthesis.sources);
  return last.synthesis;
}

// The three answers a small local model gave (issue 46), and the two endings a tool result backs.
describe('grounded answers (real dev server)', () => {
  it('text ReAct: four unreadable replies, then a summary with nothing behind it, is an ungrounded stalled answer', async () => {
    const bad: ScriptedTurn = { content: [say('Thought: I should check.\nAction: get_weather')] };
    const summary = 'The weather in Paris is indeed very hot and sunny.';
    const { result } = await runScripted(env, {
      script: [bad, bad, bad, bad, { content: [say(summary)] }],
      input: { task, strategy: 'react-text', stallThreshold: 3 },
    });
    expect(result).toMatchObject({
      success: false,
      terminationReason: 'stalled',
      finalAnswer: summary,
      grounding: 'ungrounded',
      answerSources: [],
    });
    expect(synthesisOf(result)).toMatchObject({ grounding: 'ungrounded', terminationReason: 'stalled', sources: [] });
  });

  it('native: an answer with no tool called is a success the views call unsupported', async () => {
    const answer = 'The weather in Paris is quite unusual.';
    const { result, log } = await runScripted(env, { script: [{ content: [say(answer)] }], input: { task } });
    expect(log.calls).toEqual([]);
    expect(result).toMatchObject({ success: true, terminationReason: 'success', grounding: 'unsupported' });
    expect(synthesisOf(result)).toMatchObject({ grounding: 'unsupported', terminationReason: 'success', sources: [] });
  });

  it('a tool-backed answer is grounded on that tool’s result, not on the finish call or a failed call', async () => {
    const { result } = await runScripted(env, {
      script: [
        { content: [useTool('always_fails', {}, 'toolu_f')] },
        { content: [useTool('lookup', { key: 'alpha' }, 'toolu_a')] },
        { content: [useTool('finish', { result: 'alpha is 50' }, 'toolu_done')] },
      ],
      input: { task: 'Find alpha.' },
    });
    const looked = resultStep(result.chain.steps, 'toolu_a')!;
    expect(result).toMatchObject({ success: true, grounding: 'grounded', answerSources: [looked.stepId] });
    expect(synthesisOf(result)).toMatchObject({ grounding: 'grounded', sources: [looked.stepId] });
  });

  it("the answer's confidence reaches the result, and the run summary shows it with what stands behind it", async () => {
    const { result } = await runScripted(env, {
      script: [
        { content: [say('Alpha must be looked up.\nConfidence: 0.6'), useTool('lookup', { key: 'alpha' }, 'toolu_a')] },
        { content: [useTool('finish', { result: 'alpha is 50', confidence: 0.9 }, 'toolu_done')] },
      ],
      input: { task: 'Find alpha.', askConfidence: true },
    });
    expect(result).toMatchObject({ grounding: 'grounded', confidence: 0.9 });
    expect(synthesisOf(result)).toMatchObject({ confidence: 0.9 });
    const looked = resultStep(result.chain.steps, 'toolu_a')!;
    expect(plain(renderSummary(result))).toContain(
      `Answer: grounded: tool results in steps ${looked.stepNumber} (confidence 90%)`,
    );
    expect(plain(renderStep(result.chain.steps.at(-1)!))).toMatch(/ Final answer alpha is 50 \(confidence 90%\)$/);
  });

  it('an invented number after a real tool call is partly grounded, naming the number; the true one stays grounded', async () => {
    const { result } = await runScripted(env, {
      script: [
        { content: [useTool('lookup', { key: 'alpha' }, 'toolu_a')] },
        { content: [useTool('finish', { result: 'alpha is 50 and beta is 40 km.' }, 'toolu_done')] },
      ],
      input: { task: 'Find alpha and beta.' },
    });
    const looked = resultStep(result.chain.steps, 'toolu_a')!;
    expect(result).toMatchObject({
      success: true,
      grounding: 'partly_grounded',
      answerSources: [looked.stepId],
      unsupportedClaims: ['40 km'],
    });
    const synthesis = synthesisOf(result);
    expect(synthesis).toMatchObject({ grounding: 'partly_grounded', terminationReason: 'success' });
    expect(synthesis.claimCheck).toEqual({
      method: 'rules',
      claims: [
        { kind: 'number', text: '50', value: '50', at: 9, supportedBy: looked.stepId },
        { kind: 'number', text: '40 km', value: '40000 m', at: 24 },
      ],
      unsupported: ['40 km'],
    });
    // The terminal titles it so and names the number.
    expect(plain(renderStep(result.chain.steps.at(-1)!))).toMatch(/Answer, partly grounded\n.*\n +unsupported: 40 km$/);
    // The answer the task asked for, with only what the tool said: grounded, each claim on its step.
    const { result: right } = await runScripted(env, {
      script: [
        { content: [useTool('lookup', { key: 'alpha' }, 'toolu_a')] },
        { content: [useTool('finish', { result: 'alpha is 50.' }, 'toolu_done')] },
      ],
      input: { task: 'Find alpha.' },
    });
    expect(right).toMatchObject({ success: true, grounding: 'grounded' });
    expect(right).not.toHaveProperty('unsupportedClaims');
    expect(synthesisOf(right).claimCheck?.claims).toEqual([
      { kind: 'number', text: '50', value: '50', at: 9, supportedBy: resultStep(right.chain.steps, 'toolu_a')!.stepId },
    ]);
  });

  it('max_iterations with an observation gathered is a partial answer grounded on it', async () => {
    const summary = 'So far: alpha is 50; be was not looked up.';
    const { result } = await runScripted(env, {
      script: [
        { content: [useTool('lookup', { key: 'alpha' }, 'toolu_a')] },
        { content: [useTool('lookup', { key: 'be' }, 'toolu_b')] },
        { content: [say(summary)] },
      ],
      input: { task: 'Find alpha and be.', maxIterations: 2 },
    });
    const ids = ['toolu_a', 'toolu_b'].map((id) => resultStep(result.chain.steps, id)!.stepId);
    expect(result).toMatchObject({
      success: false,
      terminationReason: 'max_iterations',
      finalAnswer: summary,
      grounding: 'grounded',
      answerSources: ids,
    });
    expect(synthesisOf(result)).toMatchObject({ grounding: 'grounded', terminationReason: 'max_iterations' });
  });

  it("a sub-agent's ungrounded summary: the parent's observation says so, and it grounds nothing", async () => {
    const lead = createScriptedModel([
      { content: [useTool('weather_agent', { task }, 'call_child')] },
      { content: finishWithLastResult('lead saw: ') },
    ]);
    // The child's only call fails; its iteration limit ends it with a summary nothing stands behind.
    const child = createScriptedModel([
      { content: [useTool('always_fails', {}, 'call_fails')] },
      { content: [say('Paris, France, 2023.')] },
    ]);
    const models = modelsByName({ lead, child });
    const h = await createHarness(env, { tools: testTools().tools, models: { scripted: models } });
    const result = await h.worker.runUntil(async () =>
      (
        await h.agents.start({
          task,
          agentName: 'lead',
          model: scripted('lead'),
          agents: {
            weather_agent: {
              description: 'Finds the weather',
              model: scripted('child'),
              tools: ['always_fails'],
              limits: { maxIterations: 1 },
            },
          },
        })
      ).result(),
    );
    models.verify();

    const observed = resultStep(result.chain.steps, 'call_child')!.toolResult;
    expect(observed).toMatchObject({
      success: false,
      result: 'Paris, France, 2023.',
      subAgent: { terminationReason: 'max_iterations', grounding: 'ungrounded' },
    });
    const [read] = lastToolResults(lead.calls[1]!.messages) as Array<{ content: string }>;
    expect(read!.content).toContain(
      'What it had so far (ungrounded: no tool result of its own stands behind it): Paris, France, 2023.',
    );
    // The lead's answer repeats the child's, but no tool result stands behind either.
    expect(result).toMatchObject({ success: true, grounding: 'unsupported', answerSources: [] });
  });
});
