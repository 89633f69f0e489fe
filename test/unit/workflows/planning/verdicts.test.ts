import { describe, expect, it } from 'vitest';
import { MAX_LEARNING_CHARS, MAX_RUN_LEARNINGS, MAX_VERDICT_TEXT_CHARS, type Plan } from '../../../../src/domain';
import { goalCheckRefusals } from '../../../../src/workflows/planning/verdicts/goal-check';
import { withLearnings } from '../../../../src/workflows/planning/verdicts/observer';
import { planNote } from '../../../../src/workflows/planning/plans/plan-prompts';
import { readGoalCheckReply, readObserverReply } from '../../../../src/workflows/planning/verdicts/verdict-reader';
import { goalCheckPrompt, observerPrompt } from '../../../../src/workflows/planning/verdicts/verdict-prompts';
import { offlineGoalCheckReply, offlineObserverReply } from '../../../../src/offline/offline-verdicts';
import { testChainBuilder } from '../../../helpers/test-chain-builder';

const plan: Plan = {
  tasks: [
    { id: 't1', description: 'Look it up', dependencies: [], requiredTools: [], status: 'completed', note: 'found 42' },
    { id: 't2', description: 'Write it down', dependencies: ['t1'], requiredTools: [], status: 'in_progress' },
  ],
  source: 'model',
  version: 1,
};

describe('verdict readers', () => {
  it('read the observer JSON bare, fenced or in prose, with defaults for the optional fields', () => {
    expect(readObserverReply('{"success": true, "learned": "x"}')).toEqual({
      ok: true,
      value: { success: true, learned: 'x', unblocked: [], adjustment: '' },
    });
    const fenced = readObserverReply('Here:\n```json\n{"success": false, "unblocked": ["t2"]}\n```');
    expect(fenced.ok && fenced.value).toMatchObject({ success: false, unblocked: ['t2'] });
  });

  it('refuse a reply without JSON, with a wrong type, or past the bounds, saying why', () => {
    expect(readObserverReply('It went fine.')).toEqual({ ok: false, problem: 'the reply holds no JSON object' });
    const wrong = readObserverReply('{"success": "yes"}');
    expect(!wrong.ok && wrong.problem).toMatch(/success/);
    expect(readObserverReply(JSON.stringify({ success: true, learned: 'x'.repeat(MAX_LEARNING_CHARS) })).ok).toBe(true);
    expect(readObserverReply(JSON.stringify({ success: true, learned: 'x'.repeat(MAX_LEARNING_CHARS + 1) })).ok).toBe(
      false,
    );
    expect(readGoalCheckReply('{"met": false, "missing": "the total"}')).toEqual({
      ok: true,
      value: { met: false, missing: 'the total' },
    });
    expect(readGoalCheckReply(JSON.stringify({ met: false, missing: 'm'.repeat(MAX_VERDICT_TEXT_CHARS + 1) })).ok).toBe(
      false,
    );
    expect(readGoalCheckReply('{"missing": ""}').ok).toBe(false);
  });
});

describe('learnings', () => {
  it('keep at most MAX_RUN_LEARNINGS, dropping the oldest, each cut to MAX_LEARNING_CHARS', () => {
    const many = Array.from({ length: MAX_RUN_LEARNINGS + 3 }, (_, i) => ({ text: `fact ${i}` }));
    const kept = withLearnings(undefined, many);
    expect(kept).toHaveLength(MAX_RUN_LEARNINGS);
    expect(kept[0]?.text).toBe('fact 3');
    expect(kept.at(-1)?.text).toBe(`fact ${MAX_RUN_LEARNINGS + 2}`);
    const long = withLearnings([], [{ text: 'y'.repeat(MAX_LEARNING_CHARS + 50) }]);
    expect(long[0]?.text.length).toBe(MAX_LEARNING_CHARS);
    expect(withLearnings([], [{ text: '   ' }])).toEqual([]);
  });

  it('redact secrets before they are kept', () => {
    const [kept] = withLearnings([], [{ text: 'the key is sk-ant-api03-' + 'a'.repeat(90) }]);
    expect(kept?.text).not.toContain('aaaaaaaaaa');
  });

  it('reach the plan note only when there are some (a run without them reads the note as before)', () => {
    const settings = { updateToolName: 'update_task' };
    expect(planNote(plan, settings)).not.toContain('What you have learnt');
    expect(planNote({ ...plan, learnings: [{ text: 'The API pages at 50.' }] }, settings)).toContain(
      'What you have learnt:\n- The API pages at 50.',
    );
  });
});

describe('the offline model answers the verdict prompts', () => {
  it('observer: success from the results, learned from the first result', () => {
    const prompt = observerPrompt('Find it', plan, [
      { name: 'lookup', input: { key: 'q' }, result: 'The answer is 42.', isError: false },
    ]);
    expect(JSON.parse(offlineObserverReply(prompt))).toEqual({
      success: true,
      learned: 'lookup returned: The answer is 42.',
      unblocked: [],
      adjustment: '',
    });
    const failedPrompt = observerPrompt('Find it', undefined, [
      { name: 'lookup', input: {}, result: 'Error: no such key', isError: true },
    ]);
    expect(JSON.parse(offlineObserverReply(failedPrompt))).toMatchObject({ success: false });
    expect(readObserverReply(offlineObserverReply(failedPrompt)).ok).toBe(true);
  });

  it('goal check: met when every task is completed or there is no plan, else the open tasks', () => {
    expect(JSON.parse(offlineGoalCheckReply(goalCheckPrompt('Find it', plan, 'done')))).toEqual({
      met: false,
      missing: 'Open tasks: t2 (Write it down)',
    });
    const done: Plan = { ...plan, tasks: plan.tasks.map((t) => ({ ...t, status: 'completed' })) };
    expect(JSON.parse(offlineGoalCheckReply(goalCheckPrompt('Find it', done, 'done')))).toEqual({
      met: true,
      missing: '',
    });
    expect(JSON.parse(offlineGoalCheckReply(goalCheckPrompt('Find it', undefined, 'done'))).met).toBe(true);
  });
});

describe('goal check refusals', () => {
  it('counts only checks that sent the agent back', () => {
    const chain = testChainBuilder();
    chain.note('goal_check', 'no', { level: 'full' }, undefined, {
      goalCheck: { met: false, missing: 'x', attempt: 1 },
    });
    chain.note('goal_check', 'limit', { level: 'full' });
    chain.note('goal_check', 'yes', { level: 'full' }, undefined, { goalCheck: { met: true, attempt: 2 } });
    expect(goalCheckRefusals(chain.steps)).toBe(1);
  });
});
