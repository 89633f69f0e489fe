import { describe, expect, it } from 'vitest';
import { AgentInput, answerLabel, ReasoningChain } from '../../../../src/domain';
import { controlToolNames, judgeAnswer, supportingObservations } from '../../../../src/workflows/core/chain/grounding';
import { testChainBuilder } from '../../../helpers/test-chain-builder';

const full = { level: 'full' as const };
const CONTROL = new Set(['finish', 'give_up']);

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
    expect(judgeAnswer(chain.steps, 'success', CONTROL)).toEqual({ grounding: 'grounded', sources: [ok.stepId] });
    // A non-success ending with observations is still grounded: the views call it partial.
    expect(judgeAnswer(chain.steps, 'max_iterations', CONTROL).grounding).toBe('grounded');
  });

  it('calls a success with no observation unsupported, and every other ending ungrounded', () => {
    const chain = testChainBuilder();
    chain.thinking('The weather in Paris is quite unusual.', full);
    expect(judgeAnswer(chain.steps, 'success', CONTROL)).toEqual({ grounding: 'unsupported', sources: [] });
    for (const reason of ['stalled', 'max_iterations', 'token_budget', 'cost_budget', 'error', 'failure'] as const)
      expect(judgeAnswer(chain.steps, reason, CONTROL)).toEqual({ grounding: 'ungrounded', sources: [] });
  });

  it('does not count model calls, llm tool answers, the finish and give_up calls, or calls not run', () => {
    const chain = testChainBuilder();
    observe(chain, 'reply', { success: true }, { model: 'qwen' });
    observe(chain, 'finish', { success: true });
    observe(chain, 'give_up', { success: true });
    observe(chain, 'weather', { success: true, outcome: 'not_run' });
    observe(chain, 'weather', { success: true, outcome: 'unknown' });
    expect(judgeAnswer(chain.steps, 'stalled', CONTROL)).toEqual({ grounding: 'ungrounded', sources: [] });
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

describe('answerLabel', () => {
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
