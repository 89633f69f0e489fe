import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { caseWorkflowId, type CaseResult } from '../../../src/domain/evaluation';
import { evaluationProgressQuery } from '../../../src/workflows/eval/eval-messages';
import { scoringWorkflowId } from '../../../src/workflows/eval/evaluation-case-workflow';
import { SKIPPED_BUDGET, SKIPPED_CANCELLED } from '../../../src/workflows/eval/unit-plan';
import { pollFor } from '../../helpers/approval-helpers';
import { useTestEnv } from '../../helpers/temporal-env';
import { slowTool, testTools } from '../../helpers/test-tools';
import {
  CALL_COST_USD,
  childStarts,
  evalHarness,
  evalModel,
  evaluation,
  historyText,
  mostChildrenAtOnce,
  startInput,
  variant,
} from './eval-harness';

const env = useTestEnv();

const unitKey = (r: Pick<CaseResult, 'caseId' | 'variant' | 'repeat'>) => `${r.caseId}/${r.variant}/${r.repeat}`;

describe.concurrent('evaluationWorkflow', () => {
  it('runs cases × variants × repeats under the concurrency cap: one child start and one result per unit; a failing run is a failed result', async () => {
    const model = evalModel();
    const h = await evalHarness(env, { tools: testTools().tools, models: { scripted: model } });
    const input = evaluation({
      cases: [
        { id: 'lookup-alpha', task: 'lookup alpha', tags: ['tools'] },
        { id: 'direct', task: 'answer directly', context: 'Background first.' },
        // AgentInput refuses maxIterations 0: the agent run itself fails.
        { id: 'broken-input', task: 'never runs', input: { maxIterations: 0 } },
      ],
      variants: [variant('a'), variant('b')],
      repeat: 2,
      concurrency: 2,
    });
    const { workflowId, result, progress } = await h.worker.runUntil(async () => {
      const started = await h.start(input);
      const result = await started.result();
      const progress = await env.client.workflow.getHandle(started.workflowId).query(evaluationProgressQuery);
      return { workflowId: started.workflowId, result, progress };
    });

    expect(result).toMatchObject({ schemaVersion: 1, status: 'completed', repeat: 2, name: 'test evaluation' });
    expect(result.cases).toEqual([
      { id: 'lookup-alpha', tags: ['tools'] },
      { id: 'direct', tags: [] },
      { id: 'broken-input', tags: [] },
    ]);
    // Every unit exactly once, repeat by repeat, with the agent run's derived id.
    const expected = [0, 1].flatMap((r) =>
      ['lookup-alpha', 'direct', 'broken-input'].flatMap((c) => ['a', 'b'].map((v) => `${c}/${v}/${r}`)),
    );
    expect(result.results.map(unitKey)).toEqual(expected);
    for (const r of result.results)
      expect(r.workflowId).toBe(caseWorkflowId(workflowId, { id: r.caseId }, r.variant, r.repeat));

    const lookup = result.results.filter((r) => r.caseId === 'lookup-alpha');
    for (const r of lookup)
      expect(r).toMatchObject({
        status: 'scored',
        passed: true,
        terminationReason: 'success',
        toolCalls: 1,
        costUsd: 2 * CALL_COST_USD,
        tokens: 240,
        scores: [
          { scorer: 'termination_accuracy', value: 1, passed: true },
          { scorer: 'coherence', value: 1, passed: true },
        ],
      });
    for (const r of result.results.filter((x) => x.caseId === 'direct'))
      expect(r).toMatchObject({ status: 'scored', passed: true, toolCalls: 0, costUsd: CALL_COST_USD });
    for (const r of result.results.filter((x) => x.caseId === 'broken-input')) {
      expect(r).toMatchObject({ status: 'failed', passed: false, scores: [] });
      expect(r.note).toMatch(/^the run failed: InvalidAgentInput/);
    }
    expect(result.spent.costUsd).toBeCloseTo(4 * 2 * CALL_COST_USD + 4 * CALL_COST_USD);
    expect(progress).toEqual({ total: 12, done: 12, running: 0, skipped: 0, passed: 8, spent: result.spent });

    // The evaluation's history: one child start per unit, never more than two at once, no AgentResult in it.
    const starts = await childStarts(env.client, workflowId);
    expect(starts).toHaveLength(12);
    expect(new Set(starts)).toEqual(new Set(result.results.map((r) => scoringWorkflowId(r.workflowId))));
    expect(await mostChildrenAtOnce(env.client, workflowId)).toBe(2);
    expect(await historyText(env.client, workflowId)).not.toContain('finalAnswer');

    // Each agent run: its variant's model, the context before the task, a summary naming the unit.
    expect(model.log).toContain('model-a:lookup alpha');
    expect(model.log).toContain('model-b:lookup alpha');
    const directRun = caseWorkflowId(workflowId, { id: 'direct' }, 'b', 1);
    expect(await startInput(env.client, directRun)).toMatchObject({
      task: 'Context:\nBackground first.\n\nTask:\nanswer directly',
      model: { provider: 'scripted', model: 'model-b' },
    });
    const description = await env.client.workflow.getHandle(directRun).describe();
    expect(await description.staticSummary()).toBe('eval test evaluation · case direct · variant b · repeat 2/2');
  });

  it('stops starting units once the budget is spent: each run gets its share as its own cost budget, the rest are skipped', async () => {
    const h = await evalHarness(env, { tools: testTools().tools, models: { scripted: evalModel() } });
    const input = evaluation({
      cases: ['one', 'two', 'three', 'four'].map((id) => ({ id, task: `answer ${id}` })),
      variants: [variant('a')],
      concurrency: 1,
      budget: { costUsd: 2 * CALL_COST_USD },
    });
    const { workflowId, result } = await h.worker.runUntil(async () => {
      const started = await h.start(input);
      return { workflowId: started.workflowId, result: await started.result() };
    });
    expect(result.status).toBe('budget_spent');
    expect(result.results.map((r) => [r.caseId, r.status])).toEqual([
      ['one', 'scored'],
      ['two', 'scored'],
      ['three', 'skipped'],
      ['four', 'skipped'],
    ]);
    expect(result.results[2]!.note).toBe(SKIPPED_BUDGET);
    expect(result.spent.costUsd).toBeCloseTo(2 * CALL_COST_USD);
    expect(await childStarts(env.client, workflowId)).toHaveLength(2);
    // The first run could use all of the budget; the second what the first left.
    expect((await startInput(env.client, result.results[0]!.workflowId)).costBudgetUsd).toBeCloseTo(0.02);
    expect((await startInput(env.client, result.results[1]!.workflowId)).costBudgetUsd).toBeCloseTo(0.01);
  });

  it('cancelled mid-way: running units are cancelled and reported, the rest skipped, finished results kept; progress reads live', async () => {
    const events: string[] = [];
    const h = await evalHarness(env, { tools: [slowTool(events)], models: { scripted: evalModel() } });
    const input = evaluation({
      cases: [
        { id: 'quick-a', task: 'answer a' },
        { id: 'slow-b', task: 'slow b' },
        { id: 'slow-c', task: 'slow c' },
        { id: 'quick-d', task: 'answer d' },
      ],
      variants: [variant('a')],
      concurrency: 2,
    });
    const { workflowId, result, during } = await h.worker.runUntil(async () => {
      const started = await h.start(input);
      const handle = env.client.workflow.getHandle(started.workflowId);
      await pollFor(
        'both slow jobs to start',
        () => (events.filter((e) => e === 'started').length === 2 ? true : undefined),
        60_000,
      );
      const during = await handle.query(evaluationProgressQuery);
      await handle.cancel();
      return { workflowId: started.workflowId, result: await started.result(), during };
    });
    expect(during).toMatchObject({ total: 4, done: 1, running: 2, skipped: 0, passed: 1 });
    expect(result.status).toBe('cancelled');
    expect(result.results.map((r) => [r.caseId, r.status])).toEqual([
      ['quick-a', 'scored'],
      ['slow-b', 'failed'],
      ['slow-c', 'failed'],
      ['quick-d', 'skipped'],
    ]);
    expect(result.results[0]!.passed).toBe(true);
    for (const r of result.results.slice(1, 3)) {
      expect(r.note).toMatch(/^the run was cancelled/);
      expect(r.terminationReason).toBe('cancelled');
    }
    expect(result.results[3]!.note).toBe(SKIPPED_CANCELLED);
    expect(events.filter((e) => e === 'aborted')).toHaveLength(2);
    expect(await childStarts(env.client, workflowId)).toHaveLength(3);
  });

  it('past the shard size, runs the units in shard child workflows, one after another, and keeps every result', async () => {
    const h = await evalHarness(env, { tools: testTools().tools, models: { scripted: evalModel() } });
    const input = evaluation({
      cases: ['c1', 'c2', 'c3', 'c4', 'c5'].map((id) => ({ id, task: `answer ${id}` })),
      variants: [variant('a')],
      concurrency: 2,
      budget: { costUsd: 1 },
    });
    const { workflowId, result, progress } = await h.worker.runUntil(async () => {
      const started = await h.start(input, { shardSize: 2 });
      const result = await started.result();
      const progress = await env.client.workflow.getHandle(started.workflowId).query(evaluationProgressQuery);
      return { workflowId: started.workflowId, result, progress };
    });
    expect(result.status).toBe('completed');
    expect(result.results.map((r) => [r.caseId, r.status])).toEqual(
      ['c1', 'c2', 'c3', 'c4', 'c5'].map((c) => [c, 'scored']),
    );
    expect(result.spent.costUsd).toBeCloseTo(5 * CALL_COST_USD);
    expect(progress).toMatchObject({ total: 5, done: 5, running: 0, passed: 5 });
    // The evaluation started three shards and no unit itself; each shard started its own units.
    const shards = await childStarts(env.client, workflowId);
    expect(shards).toEqual([1, 2, 3].map((n) => `${workflowId}/shard-${n}`));
    const perShard = await Promise.all(shards.map((id) => childStarts(env.client, id)));
    expect(perShard.map((s) => s.length)).toEqual([2, 2, 1]);
    expect(perShard.flat()).toEqual(result.results.map((r) => scoringWorkflowId(r.workflowId)));
    // Later shards start with what earlier ones spent: the third unit's grant is the budget less two calls, over two slots.
    expect((await startInput(env.client, result.results[2]!.workflowId)).costBudgetUsd).toBeCloseTo((1 - 0.02) / 2);
  });

  it('cancelled in a shard: the shard winds its units down and reports, later shards are skipped', async () => {
    const events: string[] = [];
    const h = await evalHarness(env, { tools: [slowTool(events)], models: { scripted: evalModel() } });
    const input = evaluation({
      cases: ['answer 1', 'slow 2', 'slow 3', 'answer 4', 'answer 5'].map((task, i) => ({ id: `c${i + 1}`, task })),
      variants: [variant('a')],
      concurrency: 2,
    });
    const { workflowId, result } = await h.worker.runUntil(async () => {
      const started = await h.start(input, { shardSize: 2 });
      await pollFor('the slow job to start', () => (events.includes('started') ? true : undefined), 60_000);
      // The shard answers the progress query for its own units: wait for the quick one to be done.
      const shard = env.client.workflow.getHandle(`${started.workflowId}/shard-1`);
      await pollFor(
        'the quick unit to end',
        async () => ((await shard.query(evaluationProgressQuery)).done === 1 ? true : undefined),
        60_000,
      );
      await env.client.workflow.getHandle(started.workflowId).cancel();
      return { workflowId: started.workflowId, result: await started.result() };
    });
    expect(result.status).toBe('cancelled');
    expect(result.results.map((r) => [r.caseId, r.status])).toEqual([
      ['c1', 'scored'],
      ['c2', 'failed'],
      ['c3', 'skipped'],
      ['c4', 'skipped'],
      ['c5', 'skipped'],
    ]);
    expect(result.results.slice(2).every((r) => r.note === SKIPPED_CANCELLED)).toBe(true);
    expect(await childStarts(env.client, workflowId)).toEqual([`${workflowId}/shard-1`]);
  });

  it('refuses an input that breaks the contract, failing at once and for good', async () => {
    const h = await evalHarness(env, { tools: testTools().tools, models: { scripted: evalModel() } });
    const failure = await h.worker.runUntil(async () => {
      const started = await h.start(evaluation({ cases: [], variants: [variant('a')] }));
      return started.result().then(
        () => undefined,
        (err: unknown) => err,
      );
    });
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const cause = (failure as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect(cause.nonRetryable).toBe(true);
    expect(cause.message).toMatch(/^Invalid evaluation input: /);
    expect(cause.type).toBe('InvalidEvaluationInput');
  });
});
