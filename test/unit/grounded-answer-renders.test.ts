import { describe, expect, it } from 'vitest';
import { buildAuditReport, renderAuditMarkdown } from '../../src/audit';
import { renderStep, renderSummary } from '../../src/cli/render/render-step';
import { renderSubAgentOutcome } from '../../src/cli/render/render-sub-agent';
import type { AgentResult, ReasoningChain, ReasoningStep } from '../../src/domain';
import { renderStepMarkdown } from '../../src/domain/chain/render-chain-markdown';
import { reactTrace } from '../../src/domain/chain/react-trace';
import { STEP_TIME, stepOf } from '../helpers/chain-helpers';

// eslint-disable-next-line no-control-regex
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');
/** Undoes CommonMark's backslash escapes: what a renderer shows of escaped text. */
const shown = (md: string): string => md.replace(/\\([!-/:-@[-`{-~])/g, '$1');

const observation = [
  stepOf(1, {
    type: 'tool_call',
    toolCall: { toolType: 'external', toolName: 'weather', arguments: {}, correlationId: 'c1' },
  }),
  stepOf(2, {
    type: 'tool_result',
    toolResult: { correlationId: 'c1', success: true, result: { t: 31 }, durationMs: 4 },
  }),
];
const answer = (synthesis: Record<string, unknown>, n = 3): ReasoningStep =>
  stepOf(n, { type: 'synthesis', synthesis });

const STALLED = answer({
  sources: [],
  conclusion: 'The weather in Paris is indeed very hot and sunny.',
  grounding: 'ungrounded',
  terminationReason: 'stalled',
});
const UNSUPPORTED = answer({
  sources: [],
  conclusion: 'The weather in Paris is quite unusual.',
  grounding: 'unsupported',
  terminationReason: 'success',
});
const PARTIAL = answer({
  sources: ['s2'],
  conclusion: 'It is 31 °C so far.',
  grounding: 'grounded',
  terminationReason: 'max_iterations',
});
const GROUNDED = answer({
  sources: ['s2'],
  conclusion: 'It is 31 °C.',
  grounding: 'grounded',
  terminationReason: 'success',
  confidence: 0.85,
});
const OLD = answer({ sources: [], conclusion: 'Recorded before answers were judged.' });
const PARTLY = answer({
  sources: ['s2'],
  conclusion: 'It is 31 °C in Paris, 35 °C in Lyon.',
  grounding: 'partly_grounded',
  terminationReason: 'success',
  claimCheck: {
    method: 'rules',
    claims: [
      { kind: 'number', text: '31 °C', value: '304.15 K', at: 6, supportedBy: 's2' },
      { kind: 'number', text: '35 °C', value: '308.15 K', at: 22 },
      { kind: 'entity', text: 'Lyon', value: 'lyon', at: 31 },
      { kind: 'entity', text: 'Paris', value: 'paris', at: 15, given: 'task' },
    ],
    unsupported: ['35 °C', 'Lyon'],
  },
});

const chainOf = (steps: ReasoningStep[]): ReasoningChain => ({
  schemaVersion: 1,
  chainId: 'wf-1',
  agentName: 'a',
  task: 'Weather in Paris?',
  startedAt: STEP_TIME,
  completedAt: STEP_TIME,
  status: 'completed',
  steps,
});
const resultOf = (steps: ReasoningStep[], fields: Partial<AgentResult>): AgentResult => ({
  success: (fields.terminationReason ?? 'success') === 'success',
  finalAnswer: (steps.at(-1) as Extract<ReasoningStep, { type: 'synthesis' }>).synthesis.conclusion,
  terminationReason: 'success',
  chain: chainOf(steps),
  usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
  costUsd: 0,
  iterations: 2,
  modelCalls: 2,
  toolCalls: 1,
  formatErrors: 0,
  cachedCalls: 0,
  continuations: 0,
  executionTimeMs: 10,
  ...fields,
});

describe('the terminal never titles an answer without a tool result behind it "Final answer"', () => {
  it('labels each kind of answer step', () => {
    expect(plain(renderStep(STALLED))).toMatch(/^ {2}3 Ungrounded summary \(stalled\)\n +The weather in Paris/);
    expect(plain(renderStep(STALLED))).not.toContain('Final answer');
    expect(plain(renderStep(UNSUPPORTED))).toContain('Answer, no tool result behind it');
    expect(plain(renderStep(UNSUPPORTED))).not.toContain('Final answer');
    expect(plain(renderStep(PARTIAL))).toContain('Partial answer (max_iterations)');
    expect(plain(renderStep(PARTIAL))).not.toContain('Final answer');
    expect(plain(renderStep(GROUNDED))).toBe('  3 Final answer It is 31 °C. (confidence 85%)');
    // A chain recorded before answers were judged renders as it always did.
    expect(plain(renderStep(OLD))).toBe('  3 Final answer Recorded before answers were judged.');
  });

  it('titles a partly grounded answer so and names its unsupported claims, in the step and the summary', () => {
    expect(plain(renderStep(PARTLY))).toMatch(
      /^ {2}3 Answer, partly grounded\n +It is 31 °C in Paris, 35 °C in Lyon\.\n +unsupported: 35 °C, Lyon$/,
    );
    const summary = plain(
      renderSummary(
        resultOf([...observation, PARTLY], {
          grounding: 'partly_grounded',
          answerSources: ['s2'],
          unsupportedClaims: ['35 °C', 'Lyon'],
        }),
      ),
    );
    expect(summary).toContain('Answer: Answer, partly grounded: tool results in steps 2; unsupported: 35 °C, Lyon');
    const child = renderSubAgentOutcome({
      callId: 'c',
      agentName: 'researcher',
      workflowId: 'wf-1/researcher-2',
      status: 'completed',
      terminationReason: 'success',
      budget: { maxIterations: 3 },
      grounding: 'partly_grounded',
      unsupportedClaims: ['35 °C'],
    });
    expect(child).toContain('researcher success, partly grounded answer (unsupported: 35 °C)');
  });

  it('shows a thought’s confidence', () => {
    expect(plain(renderStep(stepOf(1, { type: 'thinking', thought: 'Look it up', confidence: 0.3 })))).toBe(
      '  1 Thought      Look it up (confidence 30%)',
    );
  });

  it('says in the run summary what stands behind the answer', () => {
    const stalled = plain(
      renderSummary(resultOf([STALLED], { terminationReason: 'stalled', grounding: 'ungrounded', answerSources: [] })),
    );
    expect(stalled).toContain('Answer: Ungrounded summary (stalled): no tool result behind it');
    const grounded = plain(
      renderSummary(
        resultOf([...observation, GROUNDED], { grounding: 'grounded', answerSources: ['s2'], confidence: 0.85 }),
      ),
    );
    expect(grounded).toContain('Answer: grounded: tool results in steps 2 (confidence 85%)');
    expect(plain(renderSummary(resultOf([OLD], {})))).not.toContain('Answer:');
    const noAnswer = resultOf([STALLED], { terminationReason: 'error', grounding: 'ungrounded', finalAnswer: '' });
    expect(plain(renderSummary(noAnswer))).not.toContain('Answer:');
  });

  it('marks a sub-agent whose answer had nothing behind it', () => {
    const line = renderSubAgentOutcome({
      callId: 'c',
      agentName: 'researcher',
      workflowId: 'wf-1/researcher-2',
      status: 'completed',
      terminationReason: 'success',
      budget: { maxIterations: 3 },
      grounding: 'unsupported',
    });
    expect(line).toContain('researcher success, unsupported answer');
  });
});

describe('the markdown views label answers the same way', () => {
  it('a sub-agent result whose answer had nothing behind it', () => {
    const result = stepOf(4, {
      type: 'tool_result',
      toolResult: {
        correlationId: 'c',
        success: false,
        result: 'Paris, France, 2023.',
        error: 'Sub-agent researcher did not finish its task (it stopped: stalled).',
        durationMs: 9,
        subAgent: {
          callId: 'c',
          agentName: 'researcher',
          workflowId: 'wf-1/researcher-3',
          status: 'failed',
          terminationReason: 'stalled',
          budget: { maxIterations: 3 },
          steps: 12,
          grounding: 'ungrounded',
        },
      },
    });
    expect(shown(renderStepMarkdown(result))).toContain(
      '**Sub-agent** researcher stalled, ungrounded answer (12 steps)',
    );
  });

  it('chain markdown', () => {
    expect(shown(renderStepMarkdown(STALLED))).toBe(
      '3. **Ungrounded summary (stalled)** The weather in Paris is indeed very hot and sunny. _(no tool result behind it)_',
    );
    expect(shown(renderStepMarkdown(UNSUPPORTED))).toContain('**Answer, no tool result behind it**');
    expect(shown(renderStepMarkdown(PARTIAL))).toContain('**Partial answer (max_iterations)**');
    expect(shown(renderStepMarkdown(GROUNDED))).toBe('3. **Final answer** It is 31 °C. (confidence 85%)');
    expect(shown(renderStepMarkdown(OLD))).toBe('3. **Answer** Recorded before answers were judged.');
    expect(shown(renderStepMarkdown(PARTLY))).toBe(
      '3. **Answer, partly grounded** It is 31 °C in Paris, 35 °C in Lyon. _(unsupported: 35 °C, Lyon)_',
    );
  });

  it('ReAct trace: the answer action names what nothing supports', () => {
    const trace = reactTrace(chainOf([...observation, PARTLY]));
    expect(trace.at(-1)).toMatchObject({
      action: 'Answer, partly grounded (unsupported: 35 °C, Lyon)',
      observation: 'It is 31 °C in Paris, 35 °C in Lyon.',
    });
  });

  it('audit export of a partly grounded answer: the line names the claims, a table says what stands behind each', () => {
    const steps = [...observation, PARTLY];
    const report = buildAuditReport({
      workflowId: 'wf-1',
      runIds: ['r1'],
      chain: chainOf(steps),
      result: resultOf(steps, {
        grounding: 'partly_grounded',
        answerSources: ['s2'],
        unsupportedClaims: ['35 °C', 'Lyon'],
      }),
      exportedAt: STEP_TIME,
    });
    expect(report.outcome).toMatchObject({ grounding: 'partly_grounded', unsupportedClaims: ['35 °C', 'Lyon'] });
    const md = shown(renderAuditMarkdown(report));
    expect(md).toContain('## Answer, partly grounded');
    expect(md).toContain(
      '_Partly grounded: tool results in step 2 stand behind part of it; nothing supports 35 °C, Lyon._',
    );
    expect(md).toContain('| 31 °C | number | step 2 |');
    expect(md).toContain('| 35 °C | number | **unsupported** |');
    expect(md).toContain('| Paris | entity | given by the task |');
  });

  it('audit export: a claim the judge model decided says so in the table', () => {
    const judged = answer({
      sources: ['s2'],
      conclusion: 'It is 31 °C, about 88 °F; 35 °C tomorrow.',
      grounding: 'partly_grounded',
      terminationReason: 'success',
      claimCheck: {
        method: 'rules+judge',
        claims: [
          { kind: 'number', text: '31 °C', value: '304.15 K', at: 6, supportedBy: 's2' },
          { kind: 'number', text: '88 °F', value: '304.26 K', at: 19, supportedBy: 's2', judgedBy: 'judge-model' },
          { kind: 'number', text: '35 °C', value: '308.15 K', at: 26 },
        ],
        unsupported: ['35 °C'],
      },
    });
    const steps = [...observation, judged];
    const report = buildAuditReport({
      workflowId: 'wf-1',
      runIds: ['r1'],
      chain: chainOf(steps),
      result: resultOf(steps, { grounding: 'partly_grounded', answerSources: ['s2'], unsupportedClaims: ['35 °C'] }),
      exportedAt: STEP_TIME,
    });
    const md = shown(renderAuditMarkdown(report));
    expect(md).toContain('| 31 °C | number | step 2 |');
    expect(md).toContain('| 88 °F | number | step 2 (judged by judge-model) |');
  });

  it('audit export: heading, chain line and the JSON outcome', () => {
    const steps = [STALLED];
    const report = buildAuditReport({
      workflowId: 'wf-1',
      runIds: ['r1'],
      chain: chainOf(steps),
      result: resultOf(steps, { terminationReason: 'stalled', grounding: 'ungrounded', answerSources: [] }),
      exportedAt: STEP_TIME,
    });
    expect(report.outcome).toMatchObject({ state: 'finished', grounding: 'ungrounded', answerSources: [] });
    const md = renderAuditMarkdown(report);
    expect(md).not.toContain('## Final answer');
    expect(md).toContain('## Ungrounded summary (stalled)');
    expect(md).toContain('_Ungrounded: the run ended stalled and no tool result stands behind this summary._');
    expect(md).toContain(
      '[UNGROUNDED SUMMARY (STALLED)] "The weather in Paris is indeed very hot and sunny." (no tool result behind it)',
    );

    const backed = [...observation, GROUNDED];
    const ok = renderAuditMarkdown(
      buildAuditReport({
        workflowId: 'wf-1',
        runIds: ['r1'],
        chain: chainOf(backed),
        result: resultOf(backed, { grounding: 'grounded', answerSources: ['s2'], confidence: 0.85 }),
        exportedAt: STEP_TIME,
      }),
    );
    expect(ok).toContain('## Final answer');
    expect(ok).toContain('_Grounded: tool results in step 2 stand behind it (confidence 85%)._');
  });
});
