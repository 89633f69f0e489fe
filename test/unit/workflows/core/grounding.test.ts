import { describe, expect, it } from 'vitest';
import { AgentInput, answerLabel, ReasoningChain } from '../../../../src/domain';
import { controlToolNames, judgeAnswer, supportingObservations } from '../../../../src/workflows/core/chain/grounding';
import { testChainBuilder } from '../../../helpers/test-chain-builder';

const full = { level: 'full' as const };
const CONTROL = new Set(['finish', 'give_up']);
/** An answer that states nothing checkable. */
const NO_CLAIMS = { answer: 'done', given: [] };

/** A call of type `toolType` and its successful result `value`. */
function observeValue(
  chain: ReturnType<typeof testChainBuilder>,
  toolName: string,
  value: unknown,
  toolType: 'external' | 'llm' | 'sub_agent' = 'external',
  subAgent?: { grounding: 'grounded' | 'partly_grounded'; unsupportedClaims?: string[] },
) {
  const id = chain.newId();
  chain.toolCall({ toolType, toolName, arguments: {}, correlationId: id }, full);
  const child = subAgent
    ? {
        subAgent: {
          callId: id,
          agentName: toolName,
          workflowId: `w/${toolName}`,
          status: 'completed' as const,
          budget: { maxIterations: 3 },
          ...subAgent,
        },
      }
    : {};
  return chain.toolResult({ correlationId: id, success: true, result: value, durationMs: 1, ...child }, full);
}

/** A call and its result, as the loop records them. */
function observe(
  chain: ReturnType<typeof testChainBuilder>,
  toolName: string,
  result: { success: boolean; cachedFrom?: string; outcome?: 'done' | 'not_run' | 'unknown' | 'cancelled' },
  extra: { model?: string; grounding?: 'grounded' | 'unsupported' | 'ungrounded' } = {},
) {
  const id = chain.newId();
  chain.toolCall({ toolType: 'external', toolName, arguments: {}, correlationId: id }, full);
  const subAgent = extra.grounding
    ? {
        subAgent: {
          callId: id,
          agentName: toolName,
          workflowId: `w/${toolName}`,
          status: 'completed' as const,
          budget: { maxIterations: 3 },
          grounding: extra.grounding,
        },
      }
    : {};
  return chain.toolResult(
    {
      correlationId: id,
      success: result.success,
      result: result.success ? { ok: 1 } : null,
      durationMs: 1,
      ...(result.success ? {} : { error: 'boom' }),
      ...(result.cachedFrom ? { cachedFrom: result.cachedFrom } : {}),
      ...(result.outcome ? { outcome: result.outcome } : {}),
      ...subAgent,
    },
    full,
    extra.model ? { model: extra.model } : undefined,
  );
}

describe('judgeAnswer', () => {
  it('calls an answer with a successful tool observation behind it grounded, naming that step', () => {
    const chain = testChainBuilder();
    const ok = observe(chain, 'weather', { success: true });
    observe(chain, 'weather', { success: false });
    expect(judgeAnswer(chain.steps, 'success', CONTROL, NO_CLAIMS)).toEqual({
      grounding: 'grounded',
      sources: [ok.stepId],
    });
    // A non-success ending with observations is still grounded: the views call it partial.
    expect(judgeAnswer(chain.steps, 'max_iterations', CONTROL, NO_CLAIMS).grounding).toBe('grounded');
  });

  it('calls a success with no observation unsupported, and every other ending ungrounded', () => {
    const chain = testChainBuilder();
    chain.thinking('The weather in Paris is quite unusual.', full);
    expect(judgeAnswer(chain.steps, 'success', CONTROL, NO_CLAIMS)).toEqual({ grounding: 'unsupported', sources: [] });
    for (const reason of ['stalled', 'max_iterations', 'token_budget', 'cost_budget', 'error', 'failure'] as const)
      expect(judgeAnswer(chain.steps, reason, CONTROL, NO_CLAIMS)).toEqual({ grounding: 'ungrounded', sources: [] });
  });

  it('does not count model calls, llm tool answers, the finish and give_up calls, or calls not run', () => {
    const chain = testChainBuilder();
    observe(chain, 'reply', { success: true }, { model: 'qwen' });
    observe(chain, 'finish', { success: true });
    observe(chain, 'give_up', { success: true });
    observe(chain, 'weather', { success: true, outcome: 'not_run' });
    observe(chain, 'weather', { success: true, outcome: 'unknown' });
    expect(judgeAnswer(chain.steps, 'stalled', CONTROL, NO_CLAIMS)).toEqual({ grounding: 'ungrounded', sources: [] });
    const done = observe(chain, 'weather', { success: true, outcome: 'done' });
    expect(supportingObservations(chain.steps, CONTROL)).toEqual([done.stepId]);
  });

  it('counts a cached result as the observation it reused, once', () => {
    const chain = testChainBuilder();
    const first = observe(chain, 'weather', { success: true });
    observe(chain, 'weather', { success: true, cachedFrom: first.stepId });
    expect(supportingObservations(chain.steps, CONTROL)).toEqual([first.stepId]);
    // The original left behind by a handover: the cached step names it still.
    const tail = chain.steps.slice(2);
    expect(supportingObservations(tail, CONTROL)).toEqual([first.stepId]);
  });

  it('leaves out a sub-agent whose own answer had no tool result behind it', () => {
    const chain = testChainBuilder();
    observe(chain, 'researcher', { success: true }, { grounding: 'unsupported' });
    expect(supportingObservations(chain.steps, CONTROL)).toEqual([]);
    const backed = observe(chain, 'analyst', { success: true }, { grounding: 'grounded' });
    expect(supportingObservations(chain.steps, CONTROL)).toEqual([backed.stepId]);
  });

  it('counts a person’s answer to the question tool, but not the plan’s update tool', () => {
    const input = AgentInput.parse({
      task: 't',
      agentName: 'a',
      allowQuestions: true,
      planning: {},
    });
    const control = controlToolNames(input);
    expect(control.has(input.finishToolName)).toBe(true);
    expect(control.has(input.giveUpToolName)).toBe(true);
    expect(control.has(input.planning!.updateToolName)).toBe(true);
    expect(control.has(input.questionToolName)).toBe(false);
  });

  it('records a judged synthesis that the chain schema accepts, and old syntheses still parse', () => {
    const chain = testChainBuilder();
    chain.synthesis(
      {
        sources: [],
        conclusion: 'Paris, France, 2023.',
        grounding: 'ungrounded',
        terminationReason: 'stalled',
        confidence: 0.4,
      },
      full,
    );
    chain.synthesis({ sources: [], conclusion: 'old' }, full);
    expect(() => ReasoningChain.parse(chain.snapshot())).not.toThrow();
  });
});

describe('judgeAnswer: the claims of the answer', () => {
  const converted = { value: 5, from: 'km', to: 'mi', converted: 3.107 };

  it('an invented figure after a real tool call is partly grounded, naming it (it was "grounded")', () => {
    const chain = testChainBuilder();
    const step = observeValue(chain, 'convert_units', converted);
    const answer = '5 km is 3.107 mi, so the 42 km route is 26.1 mi.';
    const judged = judgeAnswer(chain.steps, 'success', CONTROL, { answer, given: [] });
    expect(judged).toMatchObject({ grounding: 'partly_grounded', sources: [step.stepId] });
    expect(judged.claimCheck?.unsupported).toEqual(['42 km', '26.1 mi']);
    expect(judged.claimCheck?.claims.map((c) => c.supportedBy ?? null)).toEqual([step.stepId, step.stepId, null, null]);
    // The same figures, rounded, and the task's own: grounded.
    const rounded = judgeAnswer(chain.steps, 'success', CONTROL, {
      answer: 'About 3.11 miles for the 42 km route.',
      given: [{ given: 'task', value: 'How far is 5 km in miles, on a 42 km route?' }],
    });
    expect(rounded.grounding).toBe('grounded');
    expect(rounded.claimCheck?.claims.map((c) => c.supportedBy ?? c.given)).toEqual([step.stepId, 'task']);
  });

  it('a partial answer with an invented figure is partly grounded too; without claims a tool-backed answer stays grounded', () => {
    const chain = testChainBuilder();
    observeValue(chain, 'convert_units', converted);
    expect(judgeAnswer(chain.steps, 'max_iterations', CONTROL, { answer: 'So far: 9 mi.', given: [] }).grounding).toBe(
      'partly_grounded',
    );
    expect(judgeAnswer(chain.steps, 'success', CONTROL, { answer: 'it is done', given: [] })).toEqual({
      grounding: 'grounded',
      sources: [chain.steps[1]!.stepId],
    });
  });

  it('models agreeing is no observation: a consensus result (an llm call without a model mark) grounds nothing', () => {
    const chain = testChainBuilder();
    observeValue(chain, 'ask_model', { agreement: 1, unanimous: true, answers: { fast: '42' } }, 'llm');
    expect(supportingObservations(chain.steps, CONTROL)).toEqual([]);
    expect(judgeAnswer(chain.steps, 'success', CONTROL, { answer: '42', given: [] }).grounding).toBe('unsupported');
  });

  it('a partly grounded sub-agent is an observation, but not for the claims it could not support', () => {
    const chain = testChainBuilder();
    const child = observeValue(chain, 'weather_agent', 'Paris is 21 °C, Lyon 35 °C.', 'sub_agent', {
      grounding: 'partly_grounded',
      unsupportedClaims: ['35 °C'],
    });
    expect(supportingObservations(chain.steps, CONTROL)).toEqual([child.stepId]);
    const judged = judgeAnswer(chain.steps, 'success', CONTROL, { answer: 'Paris 21 °C, Lyon 35 °C.', given: [] });
    expect(judged.grounding).toBe('partly_grounded');
    expect(judged.claimCheck?.unsupported).toEqual(['35 °C (Lyon)']);
  });
});

describe('answerLabel', () => {
  it('titles a partly grounded answer so, whatever the ending', () => {
    expect(answerLabel({ grounding: 'partly_grounded', terminationReason: 'success' })).toEqual({
      kind: 'partly',
      title: 'Answer, partly grounded',
    });
    expect(answerLabel({ grounding: 'partly_grounded', terminationReason: 'stalled' })?.title).toBe(
      'Partial answer (stalled), partly grounded',
    );
  });

  it('titles only a grounded success "Final answer"', () => {
    expect(answerLabel({ grounding: 'grounded', terminationReason: 'success' })?.title).toBe('Final answer');
    expect(answerLabel({ grounding: 'grounded', terminationReason: 'max_iterations' })?.title).toBe(
      'Partial answer (max_iterations)',
    );
    expect(answerLabel({ grounding: 'unsupported', terminationReason: 'success' })?.title).toBe(
      'Answer, no tool result behind it',
    );
    expect(answerLabel({ grounding: 'ungrounded', terminationReason: 'stalled' })?.title).toBe(
      'Ungrounded summary (stalled)',
    );
    expect(answerLabel({})).toBeUndefined();
  });
});
