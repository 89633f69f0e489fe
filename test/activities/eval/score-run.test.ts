import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../../src/activities/models/anthropic/anthropic-provider';
import { say, useTool } from '../../../src/activities/models/scripted-model';
import { createEvalActivities, type ScoreRunInput, type ScoreRunResult } from '../../../src/activities/eval/score-run';
import { boundedChain, COHERENCE_RUBRIC, MAX_JUDGE_CHAIN_CHARS } from '../../../src/activities/eval/judge-prompt';
import { readJudgeReply } from '../../../src/activities/eval/judge-reply';
import { defineScorer } from '../../../src/eval/define-scorer';
import type { AgentResult } from '../../../src/domain';
import { EvalCase, JudgeSettings } from '../../../src/domain/evaluation';
import type { ScorerInput } from '../../../src/eval/define-scorer';
import { httpError, startFakeMessagesServer, text, type FakeMessagesServer } from '../../../src/testing';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const JUDGE = JudgeSettings.parse({ model: { provider: 'anthropic', model: 'claude-sonnet-4-6', maximumAttempts: 3 } });
const theCase = EvalCase.parse({
  id: 'alpha',
  task: 'What is alpha?',
  expect: { answer: { match: 'contains', value: '20' } },
});

/** One real agent run on the dev server (a lookup, then finish), scored by each test. */
let runId: string;
let agentResult: AgentResult;
beforeAll(async () => {
  const ran = await runScripted(env, {
    input: { task: 'What is alpha?' },
    script: [
      { content: [say('I need the value of alpha.'), useTool('lookup', { key: 'al' })] },
      { content: [say('The lookup said 20.'), useTool('finish', { result: 'alpha is 20' })] },
    ],
  });
  runId = ran.workflowId;
  agentResult = ran.result;
}, 60_000);

let server: FakeMessagesServer;
beforeEach(async () => {
  server = await startFakeMessagesServer();
});
afterEach(async () => {
  await server.close();
});

const seen: ScorerInput[] = [];
const scorers = [
  defineScorer({
    name: 'says_twenty',
    score: ({ facts }) => ({ value: facts.finalAnswer.includes('20'), why: `answer: ${facts.finalAnswer}` }),
  }),
  defineScorer({
    name: 'few_calls',
    score: async (input) => {
      seen.push(input);
      return { value: 0.2, why: `${input.facts.toolCalls.length} tool call(s)` };
    },
  }),
  defineScorer({
    name: 'broken',
    score: () => {
      throw new Error(`scorer bug: ${'x'.repeat(500)}`);
    },
  }),
];

async function scoreRun(input: Partial<ScoreRunInput>, attempt = 1): Promise<ScoreRunResult> {
  const activities = createEvalActivities({
    models: { anthropic: createAnthropicProvider({ apiKey: 'sk-ant-test-key-0123456789', baseURL: server.baseUrl }) },
    scorers,
  });
  const mock = new MockActivityEnvironment({ attempt }, { client: env.client });
  return mock.run(activities.scoreRun, {
    runWorkflowId: runId,
    case: theCase,
    scorers: [],
    loopTools: { finish: 'finish', giveUp: 'give_up' },
    ...input,
  });
}

describe('scoreRun: worker scorers', () => {
  it('reads the run from Temporal; a passing, a failing, a throwing and an unknown scorer each give a score, none fails the activity', async () => {
    const { scores, judge } = await scoreRun({ scorers: ['says_twenty', 'few_calls', 'broken', 'nope'] });
    expect(judge).toBeUndefined();
    expect(scores).toEqual([
      { scorer: 'says_twenty', value: 1, passed: true, why: 'answer: alpha is 20' },
      { scorer: 'few_calls', value: 0.2, passed: false, why: '1 tool call(s)' },
      { scorer: 'broken', value: 0, passed: false, why: expect.stringMatching(/^scorer threw: scorer bug: x+…$/) },
      {
        scorer: 'nope',
        value: 0,
        passed: false,
        why: 'no scorer "nope" on this worker (it has says_twenty, few_calls, broken)',
      },
    ]);
    expect(scores[2]!.why).toHaveLength(200);
    // The scorer saw the case, the facts and the whole result, read from the run's history.
    const input = seen.at(-1)!;
    expect(input.case.id).toBe('alpha');
    expect(input.facts.toolCalls).toMatchObject([{ tool: 'lookup', arguments: { key: 'al' }, success: true }]);
    expect(input.result.chain.chainId).toBe(runId);
    expect(input.result.finalAnswer).toBe(agentResult.finalAnswer);
  });

  it('a scorer returning a value outside [0, 1] is a failed score; defineScorer refuses bad and reserved names', async () => {
    const odd = defineScorer({ name: 'odd', score: () => ({ value: 1.5, why: 'too much' }) });
    const activities = createEvalActivities({ models: {}, scorers: [odd] });
    const mock = new MockActivityEnvironment({}, { client: env.client });
    const { scores } = (await mock.run(activities.scoreRun, {
      runWorkflowId: runId,
      case: theCase,
      scorers: ['odd'],
      loopTools: { finish: 'finish', giveUp: 'give_up' },
    })) as ScoreRunResult;
    expect(scores).toEqual([
      {
        scorer: 'odd',
        value: 0,
        passed: false,
        why: 'scorer returned value 1.5; it must be a number from 0 to 1 or a boolean',
      },
    ]);
    expect(() => defineScorer({ name: 'has space', score: () => ({ value: 1, why: '' }) })).toThrow(/letters, digits/);
    expect(() => defineScorer({ name: 'judge', score: () => ({ value: 1, why: '' }) })).toThrow(/model judge/);
  });

  it('a case naming "judge" without a judge model gets a failed score saying so', async () => {
    const { scores } = await scoreRun({ scorers: ['judge'] });
    expect(scores).toEqual([
      {
        scorer: 'judge',
        value: 0,
        passed: false,
        why: 'the case names "judge" but the evaluation sets no judge model',
      },
    ]);
  });
});

describe('scoreRun: the judge', () => {
  it('sends the pinned model the task, the chain and the rubric; reads its JSON; records prompt and reply', async () => {
    server.append([text('{"score": 0.95, "why": "Each thought leads to its action."}')]);
    const { scores, judge } = await scoreRun({ judge: JUDGE });
    server.verify();
    expect(scores).toEqual([{ scorer: 'judge', value: 0.95, passed: true, why: 'Each thought leads to its action.' }]);
    const body = server.requests[0]!.body as { model: string; system: unknown; messages: Array<{ content: unknown }> };
    expect(body.model).toBe('claude-sonnet-4-6');
    const sent = JSON.stringify(body.messages);
    for (const part of [
      'What is alpha?',
      'Thought: I need the value of alpha.',
      'Action: lookup {\\"key\\":\\"al\\"}',
      'Final answer (success): alpha is 20',
      'Reasoning coherence',
    ])
      expect(sent).toContain(part);
    expect(judge).toMatchObject({
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
      reply: '{"score": 0.95, "why": "Each thought leads to its action."}',
    });
    expect(judge!.prompt).toContain(COHERENCE_RUBRIC);
    expect(judge!.prompt).toContain('Observation: {"key":"al","value":20}');
  });

  it('a custom rubric and pass mark: 0.6 passes at 0.5', async () => {
    server.append([text('```json\n{"score": 0.6, "why": "Mostly on topic."}\n```')]);
    const { scores, judge } = await scoreRun({ judge: { ...JUDGE, rubric: 'Stays on topic.', passAt: 0.5 } });
    expect(scores).toEqual([{ scorer: 'judge', value: 0.6, passed: true, why: 'Mostly on topic.' }]);
    expect(judge!.prompt).toContain('<rubric>\nStays on topic.\n</rubric>');
  });

  it('an unreadable reply is a failed score saying why, with the reply recorded', async () => {
    server.append([text('Looks coherent to me!')]);
    const { scores, judge } = await scoreRun({ judge: JUDGE });
    expect(scores).toEqual([
      { scorer: 'judge', value: 0, passed: false, why: `the judge's reply is not JSON: "Looks coherent to me!"` },
    ]);
    expect(judge!.reply).toBe('Looks coherent to me!');
  });

  it('a non-retryable model failure is a failed score; a retryable one throws for Temporal to retry, until the last attempt', async () => {
    server.append([httpError(400)]);
    const refused = await scoreRun({ judge: JUDGE });
    expect(refused.scores).toEqual([
      { scorer: 'judge', value: 0, passed: false, why: expect.stringMatching(/^the judge's call failed: /) },
    ]);

    server.append([httpError(529)]);
    const retried = await scoreRun({ judge: JUDGE }, 1).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(retried).toBeInstanceOf(ApplicationFailure);
    expect((retried as ApplicationFailure).nonRetryable).toBe(false);

    server.append([httpError(529)]);
    const last = await scoreRun({ judge: JUDGE }, 3);
    expect(last.scores).toMatchObject([{ scorer: 'judge', value: 0, passed: false }]);
    server.verify();
  });
});

describe('the judge prompt and reply reader', () => {
  it('bounds a long chain to its head and tail with a marker', () => {
    const long = { ...agentResult, finalAnswer: `end ${'z'.repeat(40_000)} final-words` };
    const chain = boundedChain(long);
    expect(chain.length).toBeLessThan(MAX_JUDGE_CHAIN_CHARS + 100);
    expect(chain).toMatch(/\[… \d+ characters of the chain left out …\]/);
    expect(chain.slice(0, 2_000)).toContain('Thought: I need the value of alpha.');
    expect(chain.endsWith('final-words')).toBe(true);
  });

  it('reads only an object of exactly score and why, score in [0, 1]', () => {
    expect(readJudgeReply(' {"score": 1, "why": "ok"} ')).toEqual({ score: 1, why: 'ok' });
    expect(readJudgeReply('{"score": 1.2, "why": "ok"}')).toMatchObject({
      unreadable: expect.stringContaining('from 0 to 1'),
    });
    expect(readJudgeReply('{"score": "0.5", "why": "ok"}')).toMatchObject({
      unreadable: expect.stringContaining('"0.5"'),
    });
    expect(readJudgeReply('{"score": 0.5}')).toMatchObject({ unreadable: expect.stringContaining('exactly') });
    expect(readJudgeReply('{"score": 0.5, "why": "ok", "extra": 1}')).toMatchObject({
      unreadable: expect.stringContaining('extra'),
    });
    expect(readJudgeReply('{"score": 0.5, "why": "  "}')).toEqual({ unreadable: 'the judge gave no "why"' });
    expect(readJudgeReply('[0.5]')).toMatchObject({ unreadable: expect.stringContaining('not a JSON object') });
    expect(readJudgeReply('Score: 0.5 {"score": 0.5, "why": "ok"}')).toMatchObject({
      unreadable: expect.stringContaining('not JSON'),
    });
  });
});
