import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../../src/activities/models/anthropic/anthropic-provider';
import { useTool } from '../../../src/activities/models/scripted-model';
import { renderStep } from '../../../src/cli/render/render-step';
import type { AgentResult, ReasoningStep } from '../../../src/domain';
import { startFakeMessagesServer, text, type FakeRequestBody, type ScriptEntry } from '../../../src/testing';
import { resultStep } from '../../helpers/chain-helpers';
import { suiteReplayOptions } from '../../helpers/replay-runtime';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const JUDGE = { provider: 'anthropic', model: 'claude-haiku-4-5' } as const;
// eslint-disable-next-line no-control-regex
const plain = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');

/** The judge's prompt as the fake Messages server received it over HTTP. */
function promptOf(body: FakeRequestBody): string {
  return JSON.stringify(body.messages[0]?.content);
}

/**
 * A run that looks alpha up (50) and answers with one claim the rules find (50), one they cannot
 * (100: twice alpha, a conclusion) and one invented (40 km), with the judge (if any) served by
 * the fake Messages server over real HTTP.
 */
async function judgedRun(
  judgeReplies: ScriptEntry[],
  judged = true,
  extra: Record<string, unknown> = {},
): Promise<{ result: AgentResult; prompts: string[]; lookup: string }> {
  const server = await startFakeMessagesServer({ script: judgeReplies });
  try {
    const anthropic = createAnthropicProvider({ baseURL: server.baseUrl, apiKey: 'sk-ant-test' });
    const { result } = await runScripted(env, {
      script: [
        { content: [useTool('lookup', { key: 'alpha' }, 'toolu_a')] },
        {
          content: [
            useTool('finish', { result: 'alpha is 50, so twice alpha is 100 and beta is 40 km.' }, 'toolu_done'),
          ],
        },
      ],
      input: {
        task: 'Find alpha, twice alpha and beta.',
        ...(judged ? { grounding: { judge: JUDGE } } : {}),
        ...extra,
      },
      models: { anthropic },
    });
    server.verify();
    const prompts = server.requests.map((r) => promptOf(r.body as FakeRequestBody));
    return { result, prompts, lookup: resultStep(result.chain.steps, 'toolu_a')!.stepId };
  } finally {
    await server.close();
  }
}

function synthesisOf(result: AgentResult): Extract<ReasoningStep, { type: 'synthesis' }>['synthesis'] {
  const last = result.chain.steps.at(-1);
  if (last?.type !== 'synthesis') throw new Error(`the chain ends with ${last?.type ?? 'nothing'}`);
  return last.synthesis;
}

function judgeThought(result: AgentResult): string | undefined {
  const step = result.chain.steps.find((s) => s.type === 'thinking' && s.thought.startsWith('Claim judge'));
  return step?.type === 'thinking' ? step.thought : undefined;
}

/** The lookup step's id, as the judge's prompt names it. */
const lookupIn = (body: FakeRequestBody): string =>
  /step \\"([^"\\]+)\\", lookup/.exec(promptOf(body))?.[1] ?? 'missing';

/** The judge supports claim 2 (100) on the lookup step, with a reason that restates its result. */
const supportOnLookup: ScriptEntry = (body) =>
  text(
    JSON.stringify({
      verdicts: [{ claim: 2, verdict: 'supported', step: lookupIn(body), why: 'alpha is 50, twice is 100' }],
    }),
  );

describe('the claim judge (grounding.judge) on the dev server', () => {
  it("shows its step no wider than the results it cites: a hidden lookup's reasons are the auditor's", async () => {
    const hidden = await judgedRun([supportOnLookup], true, { visibilityByTool: { lookup: { level: 'hidden' } } });
    expect(judgeThought(hidden.result)).toContain('"100" rests on step');
    const step = (r: AgentResult) =>
      r.chain.steps.find((s) => s.type === 'thinking' && s.thought.startsWith('Claim judge'));
    expect(step(hidden.result)?.visibility.level).toBe('hidden');
    const open = await judgedRun([supportOnLookup]);
    expect(step(open.result)?.visibility.level).toBe('full');
  }, 120_000);

  it('reads every claim with the rules’ verdicts, promotes, demotes and adds, refuses a step that is none, is a visible paid step, and replays', async () => {
    // Claim 2 (100) supported on the lookup, claim 3 (40 km) on a step that does not exist, and a
    // statement the rules did not list contradicted by the lookup.
    const reply: ScriptEntry = (body) =>
      text(
        JSON.stringify({
          verdicts: [
            { claim: 2, verdict: 'supported', step: lookupIn(body), why: 'twice 50' },
            { claim: 3, verdict: 'supported', step: 'step-that-is-not-there', why: 'guess' },
            { text: 'beta is 40 km', verdict: 'contradicted', step: lookupIn(body), why: 'no beta there' },
            { text: 'gamma is 7', verdict: 'supported', step: lookupIn(body) },
          ],
        }),
        { usage: { input_tokens: 300, output_tokens: 40 } },
      );
    const { result, prompts, lookup } = await judgedRun([reply]);
    // One call: every claim the rules found with their verdict, and the observation they might rest on.
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain(`1. \\"50\\" (number): supported by step \\"${lookup}\\"`);
    expect(prompts[0]).toContain('2. \\"100\\" (number): unsupported');
    expect(prompts[0]).toContain('3. \\"40 km\\" (number): unsupported');
    expect(prompts[0]).toContain(`step \\"${lookup}\\", lookup`);
    expect(result).toMatchObject({
      success: true,
      grounding: 'contradicted',
      contradictedClaims: ['beta is 40 km'],
      unsupportedClaims: ['40 km'],
    });
    expect(synthesisOf(result).claimCheck).toEqual({
      method: 'rules+judge',
      claims: [
        { kind: 'number', text: '50', value: '50', at: 9, supportedBy: lookup },
        { kind: 'number', text: '100', value: '100', at: 31, supportedBy: lookup, judgedBy: 'claude-haiku-4-5' },
        {
          kind: 'statement',
          text: 'beta is 40 km',
          value: 'beta is 40 km',
          at: 39,
          contradictedBy: lookup,
          judgedBy: 'claude-haiku-4-5',
        },
        { kind: 'number', text: '40 km', value: '40000 m', at: 47 },
      ],
      unsupported: ['40 km'],
      contradicted: ['beta is 40 km'],
    });
    const looked = resultStep(result.chain.steps, 'toolu_a')!.stepNumber;
    expect(judgeThought(result)).toBe(
      `Claim judge (claude-haiku-4-5): "100" rests on step ${looked} (twice 50); "40 km" keeps its verdict: "step-that-is-not-there" is not an observation of this run; "beta is 40 km" is contradicted by step ${looked} (no beta there); "gamma is 7" refused: the answer does not say it; contradicted: beta is 40 km; unsupported: 40 km.`,
    );
    // The judge's call is an llm step pair of its own, with its tokens and cost in the run's ledger.
    const judgeCall = result.chain.steps.find(
      (s) => s.type === 'tool_call' && s.toolCall.toolType === 'llm' && s.toolCall.toolName === 'claude-haiku-4-5',
    );
    expect(judgeCall?.type === 'tool_call' && judgeCall.toolCall.arguments).toMatchObject({
      note: 'claim judge',
      purpose: 'verdict',
    });
    const judgeResult = result.chain.steps.find((s) => s.type === 'tool_result' && s.model === 'claude-haiku-4-5');
    expect(judgeResult?.usage).toMatchObject({ inputTokens: 300, outputTokens: 40 });
    expect(judgeResult?.costUsd).toBeGreaterThan(0);
    expect(result.modelCalls).toBe(3);
    expect(plain(renderStep(result.chain.steps.at(-1)!))).toContain('contradicted: beta is 40 km; unsupported: 40 km');

    const history = await env.client.workflow.getHandle(result.chain.chainId).fetchHistory();
    await expect(Worker.runReplayHistory(suiteReplayOptions(), history, result.chain.chainId)).resolves.toBeUndefined();
  }, 120_000);

  it('an unreadable reply keeps the rules’ judgement and says so; no judge asks nothing', async () => {
    const { result } = await judgedRun([text('Both claims look fine to me.')]);
    expect(result).toMatchObject({ grounding: 'partly_grounded', unsupportedClaims: ['100', '40 km'] });
    expect(synthesisOf(result).claimCheck?.method).toBe('rules');
    expect(judgeThought(result)).toMatch(
      /^Claim judge \(claude-haiku-4-5\): reply unreadable \(the reply holds no JSON object\); the rules' judgement stands\.$/,
    );

    // Without the option: the rules alone, and the server is asked nothing (verify() fails on any request).
    const { result: rules, prompts } = await judgedRun([], false);
    expect(prompts).toEqual([]);
    expect(rules).toMatchObject({ grounding: 'partly_grounded', unsupportedClaims: ['100', '40 km'], modelCalls: 2 });
    expect(judgeThought(rules)).toBeUndefined();
  }, 120_000);
});
