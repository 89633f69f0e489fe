import { describe, expect, it } from 'vitest';
import { CaseExpectation, MAX_SCORE_WHY_CHARS, scoreCase } from '../../../src/domain/evaluation';
import { coherence } from '../../../src/domain/evaluation/scorers/coherence';
import { cost } from '../../../src/domain/evaluation/scorers/cost';
import { forbiddenTools } from '../../../src/domain/evaluation/scorers/forbidden-tools';
import { iterationShare } from '../../../src/domain/evaluation/scorers/iteration-share';
import { groundingMatch } from '../../../src/domain/evaluation/scorers/grounding-match';
import { taskChoiceMatch } from '../../../src/domain/evaluation/scorers/task-choice-match';
import { consensusMatch } from '../../../src/domain/evaluation/scorers/consensus-match';
import { latency } from '../../../src/domain/evaluation/scorers/latency';
import { recovery } from '../../../src/domain/evaluation/scorers/recovery';
import { terminationAccuracy } from '../../../src/domain/evaluation/scorers/termination-accuracy';
import { call, facts } from './scoring-facts-fixture';

const expectation = (e: unknown) => CaseExpectation.parse(e);

describe('termination_accuracy', () => {
  it('expects success by default, or any of the reasons given', () => {
    expect(terminationAccuracy(expectation({}), facts()).passed).toBe(true);
    const r = terminationAccuracy(expectation({}), facts({ terminationReason: 'max_iterations', success: false }));
    expect(r).toMatchObject({ passed: false, value: 0, why: 'ended max_iterations; expected success' });
    const either = expectation({ terminationReason: ['stalled', 'max_iterations'] });
    expect(terminationAccuracy(either, facts({ terminationReason: 'max_iterations' })).passed).toBe(true);
    expect(terminationAccuracy(either, facts()).why).toBe('ended success; expected stalled or max_iterations');
  });
});

describe('forbidden_tools', () => {
  it('fails on any call of a forbidden tool, naming the first', () => {
    expect(forbiddenTools(['delete'], facts({ toolCalls: [call('read')] })).passed).toBe(true);
    expect(forbiddenTools(['delete'], facts()).passed).toBe(true);
    const r = forbiddenTools(
      ['delete'],
      facts({ toolCalls: [call('read'), call('delete', {}, { success: false }), call('delete')] }),
    );
    expect(r).toMatchObject({ passed: false, why: 'call 2 is forbidden delete (2 forbidden calls)' });
    expect(r.value).toBeCloseTo(1 / 3);
  });
});

describe('recovery', () => {
  const failedThenOk = [call('flaky', {}, { success: false, error: 'boom' }), call('backup')];
  it('not asked for: scored when a call failed and the case expects success', () => {
    expect(recovery(expectation({}), facts())).toBeUndefined();
    expect(recovery(expectation({}), facts({ toolCalls: failedThenOk }))).toMatchObject({
      passed: true,
      why: 'call 1 flaky failed; the run still succeeded',
    });
    expect(recovery(expectation({}), facts({ toolCalls: failedThenOk, terminationReason: 'failure' }))).toMatchObject({
      passed: false,
      why: 'call 1 flaky failed; the run ended failure',
    });
    // A case that expects the run to give up is not about recovering.
    expect(
      recovery(
        expectation({ terminationReason: 'failure' }),
        facts({ toolCalls: failedThenOk, terminationReason: 'failure' }),
      ),
    ).toBeUndefined();
  });
  it('recovers: true always scores, and fails when no call failed; recovers: false opts out', () => {
    expect(recovery(expectation({ recovers: true }), facts())).toMatchObject({
      passed: false,
      why: 'no tool call failed, so recovery was not shown',
    });
    expect(
      recovery(expectation({ recovers: false }), facts({ toolCalls: failedThenOk, terminationReason: 'failure' })),
    ).toBeUndefined();
  });
});

describe('iteration_share, latency, cost', () => {
  it('iterations over the maximum against the share', () => {
    expect(iterationShare(0.5, facts({ iterations: 5, maxIterations: 10 }))).toMatchObject({
      passed: true,
      value: 1,
      why: '5 of 10 iterations (50%), within 50%',
    });
    const over = iterationShare(0.5, facts({ iterations: 8, maxIterations: 10 }));
    expect(over).toMatchObject({ passed: false, why: '8 of 10 iterations (80%), over 50%' });
    expect(over.value).toBeCloseTo(0.4);
    const { maxIterations: _dropped, ...noMax } = facts();
    expect(iterationShare(0.5, noMax).passed).toBe(false);
  });
  it('latency and cost at or under their limits', () => {
    expect(latency(1_000, facts({ latencyMs: 1_000 })).passed).toBe(true);
    expect(latency(999, facts({ latencyMs: 1_000 })).why).toBe('1000 ms, over 999 ms');
    expect(cost(0.01, facts({ costUsd: 0.0123456 }))).toMatchObject({ passed: false, why: '$0.01235, over $0.01' });
    expect(cost(0, facts({ costUsd: 0 })).passed).toBe(true);
  });
});

describe('coherence', () => {
  it('averages thoughts behind calls, readable replies and a grounded success', () => {
    expect(coherence(facts({ toolCalls: [call('a'), call('b')] }))).toMatchObject({ value: 1, passed: true });
    const r = coherence(
      facts({ toolCalls: [call('a'), call('b', {}, { withThought: false })], formatErrors: 1, modelCalls: 4 }),
    );
    expect(r.value).toBeCloseTo((0.5 + 0.75 + 1) / 3);
    expect(r.passed).toBe(false);
    expect(r.why).toBe('75% (under 90%): 1/2 calls with a thought; 1 format error in 4 model calls; answer grounded');
    const unsupported = coherence(facts({ toolCalls: [call('a', {}, { success: false })], grounding: 'unsupported' }));
    expect(unsupported.value).toBeCloseTo(2 / 3);
    expect(coherence(facts({ toolCalls: [call('a', {}, { withThought: false })] }), 0).passed).toBe(true);
  });
  it('a run repeating the same call scores low: the stalling small model no longer looks like a clean run', () => {
    // Four identical calculator calls (argument order aside), each with a thought, every reply readable: it was 100%.
    const same = [1, 2, 3, 4].map((i) => call('calculator', i % 2 ? { a: 1, b: 1 } : { b: 1, a: 1 }));
    const r = coherence(facts({ toolCalls: same, terminationReason: 'stalled', grounding: 'grounded' }));
    expect(r.value).toBeCloseTo((1 + 0.25 + 1) / 3);
    expect(r.passed).toBe(false);
    expect(r.why).toContain('3/4 calls repeat an earlier one');
    // Different arguments are progress.
    const distinct = [1, 2].map((b) => call('calculator', { a: 1, b }));
    expect(coherence(facts({ toolCalls: distinct })).why).not.toContain('repeat');
  });

  it('a model that stalls by rephrasing repeats, as the stall guard reads it; a reversed call is progress', () => {
    const queries = [
      'latest EUR exchange rate news for today',
      'today latest exchange rate news EUR',
      'news: the latest EUR exchange rate, today',
    ];
    const r = coherence(facts({ toolCalls: queries.map((query) => call('web_search', { query })) }));
    // Exact equality saw three different calls and no repeat (100%).
    expect(r.why).toContain('2/3 calls repeat an earlier one');
    expect(r.value).toBeCloseTo((1 + 1 / 3 + 1 + 1) / 4);
    // The same words with their roles swapped are another request, not a repeat.
    const swapped = [
      { from: 'USD', to: 'EUR', provider: 'ecb', format: 'json', precision: 'high', note: 'daily rate' },
      { from: 'EUR', to: 'USD', provider: 'ecb', format: 'json', precision: 'high', note: 'daily rate' },
    ].map((a) => call('convert', a));
    expect(coherence(facts({ toolCalls: swapped })).why).not.toContain('repeat');
  });

  it('a partly grounded success counts the supported share of its claims', () => {
    const r = coherence(
      facts({
        toolCalls: [call('convert_units')],
        grounding: 'partly_grounded',
        claims: { total: 3, supported: 2, unsupported: ['42 km'] },
      }),
    );
    expect(r.value).toBeCloseTo((1 + 1 + 2 / 3) / 3);
    expect(r.why).toContain('answer partly grounded (2/3 claims; unsupported: 42 km)');
    const all = coherence(
      facts({ toolCalls: [call('a')], grounding: 'grounded', claims: { total: 2, supported: 2, unsupported: [] } }),
    );
    expect(all).toMatchObject({ value: 1 });
    expect(all.why).toContain('answer grounded (2/2 claims)');
  });

  it('has nothing to judge without model and tool calls', () => {
    expect(coherence(facts({ modelCalls: 0 }))).toMatchObject({ value: 1, passed: true });
  });
});

describe('grounding', () => {
  it('passes when the run judged its answer as the case expects, naming what nothing supports', () => {
    const partly = facts({
      grounding: 'partly_grounded',
      claims: { total: 2, supported: 1, unsupported: ['26.1 mi'] },
    });
    expect(groundingMatch('partly_grounded', partly)).toMatchObject({ value: 1, passed: true });
    const miss = groundingMatch(['grounded'], partly);
    expect(miss).toMatchObject({ value: 0, passed: false });
    expect(miss.why).toBe(
      'answer partly_grounded (unsupported: 26.1 mi); expected grounded — "Answer, partly grounded"',
    );
    const { grounding: _judged, ...unjudged } = facts();
    expect(groundingMatch('grounded', unjudged)).toMatchObject({
      passed: false,
      why: expect.stringContaining('answer not judged'),
    });
  });
});

describe('task_choice', () => {
  const single = { taskId: 't1', chosenBy: 'plan_order' as const, alternatives: 0 };
  it('judges the first choice among ready tasks: which task started, and who chose it', () => {
    const chosen = facts({ taskChoices: [{ taskId: 't2', chosenBy: 'model', alternatives: 1 }, single] });
    expect(taskChoiceMatch({ taskId: 't2', chosenBy: 'model' }, chosen)).toMatchObject({
      passed: true,
      why: 'started t2, chosen by the model, as expected',
    });
    expect(taskChoiceMatch({ taskId: 't2', chosenBy: 'plan_order' }, chosen).passed).toBe(false);
    expect(taskChoiceMatch({ taskId: 't1' }, chosen).why).toBe('started t2, chosen by the model; expected t1');
  });
  it('passes over single ready tasks, and names a refused model choice', () => {
    const refused = facts({
      taskChoices: [
        single,
        { taskId: 't1', chosenBy: 'plan_order', alternatives: 1, refused: { taskId: 't9', problem: 'unknown_task' } },
      ],
    });
    expect(taskChoiceMatch({ taskId: 't1', chosenBy: 'model' }, refused).why).toBe(
      "started t1, chosen by plan order (the model's t9 was refused: unknown_task); expected t1, chosen by the model",
    );
    expect(taskChoiceMatch({ taskId: 't1' }, facts({ taskChoices: [single] }))).toMatchObject({
      passed: false,
      why: 'no choice among ready tasks was made; expected t1',
    });
  });
  it('refuses an expectation it cannot read', () => {
    expect(() => expectation({ taskChoice: { taskId: 't1', chosenBy: 'someone' } })).toThrow();
    expect(() => expectation({ taskChoice: { task: 't1' } })).toThrow();
  });
});

describe('consensus', () => {
  const split = { agreement: 0.5, unanimous: false, groups: [['brief'], ['wordy']] };
  const agreed = { agreement: 1, unanimous: true, groups: [['brief', 'wordy']] };
  it("judges the run's first consensus: unanimous or not, and how far the models agreed", () => {
    expect(consensusMatch({ unanimous: true }, facts({ consensus: [agreed, split] }))).toMatchObject({
      passed: true,
      why: 'unanimous, 100% agreed (groups: brief + wordy), as expected',
    });
    expect(consensusMatch({ unanimous: true }, facts({ consensus: [split] }))).toMatchObject({
      passed: false,
      why: 'not unanimous, 50% agreed (groups: brief | wordy); expected unanimous',
    });
    expect(consensusMatch({ unanimous: false, minAgreement: 0.5 }, facts({ consensus: [split] })).passed).toBe(true);
    expect(consensusMatch({ minAgreement: 0.6 }, facts({ consensus: [split] })).passed).toBe(false);
  });
  it('fails a run that asked no consensus, and refuses an expectation it cannot read', () => {
    expect(consensusMatch({ unanimous: true }, facts())).toMatchObject({
      passed: false,
      why: 'the run asked no consensus',
    });
    expect(() => expectation({ consensus: { unanimous: 'yes' } })).toThrow();
    expect(() => expectation({ consensus: { agreement: 1 } })).toThrow();
  });
});

describe('scoreCase', () => {
  it('always termination_accuracy and coherence; the others from the expectation, in a fixed order', () => {
    expect(scoreCase(expectation({}), facts()).map((s) => s.scorer)).toEqual(['termination_accuracy', 'coherence']);
    const all = expectation({
      answer: { match: 'contains', value: 'done' },
      terminationReason: 'success',
      tools: { mode: 'subset', calls: [{ tool: 'a' }] },
      forbiddenTools: ['z'],
      recovers: true,
      maxIterationShare: 0.5,
      maxLatencyMs: 5_000,
      maxCostUsd: 1,
      grounding: ['grounded', 'partly_grounded'],
      consensus: { minAgreement: 0.5 },
      minCoherence: 0.5,
    });
    const scores = scoreCase(
      all,
      facts({
        toolCalls: [call('a', {}, { success: false }), call('a')],
        consensus: [{ agreement: 1, unanimous: true, groups: [['x', 'y']] }],
      }),
    );
    expect(scores.map((s) => [s.scorer, s.passed])).toEqual([
      ['termination_accuracy', true],
      ['answer_match', true],
      ['trajectory', true],
      ['forbidden_tools', true],
      ['recovery', true],
      ['iteration_share', true],
      ['latency', true],
      ['cost', true],
      ['grounding', true],
      ['consensus', true],
      ['coherence', true],
    ]);
    for (const s of scores) expect(s.why.length).toBeLessThanOrEqual(MAX_SCORE_WHY_CHARS);
  });
});
