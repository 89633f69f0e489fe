import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTool } from '../../../src/activities/models/scripted-model';
import { defineTool } from '../../../src/tools/define-tool';
import { chainQuery } from '../../../src/workflows/messages';
import { resultStepOfTool, stepsOfTool, toolResultOfTool } from '../../helpers/chain-helpers';
import { ScriptBook, sharedWorker } from '../../helpers/people-helpers';
import { scriptedInput } from '../../helpers/scripted-input';

/** A value only the auditor may see once its tool narrows the result that holds it. */
const SALARY = 'SAL-8841-QX';

/** Narrows its result to hidden: shown in full by its own and the run's settings. */
const readSalary = defineTool({
  name: 'read_salary',
  description: 'Reads an employee salary',
  input: z.object({ employee: z.string() }),
  effects: 'none',
  execute: ({ employee }, ctx) => {
    ctx.narrowVisibility('hidden');
    return { employee, salary: SALARY };
  },
});
/** Narrows its result to a line of its own. */
const readReview = defineTool({
  name: 'read_review',
  description: 'Reads an employee review',
  input: z.object({ employee: z.string() }),
  execute: ({ employee }, ctx) => {
    ctx.narrowVisibility('summary', `Read the review of ${employee}`);
    return { employee, review: SALARY };
  },
});
/** Asks for summary, which is wider than the run's hidden setting for it: ignored. */
const readBadge = defineTool({
  name: 'read_badge',
  description: 'Reads an employee badge',
  input: z.object({ employee: z.string() }),
  execute: ({ employee }, ctx) => {
    ctx.narrowVisibility('summary', `Read the badge of ${employee}`);
    return { employee, badge: SALARY };
  },
});

/** Narrows its result to hidden and counts its runs: a run caching it may reuse the result. */
const payslipRuns = { count: 0 };
const readPayslip = defineTool({
  name: 'read_payslip',
  description: 'Reads an employee payslip',
  input: z.object({ employee: z.string() }),
  execute: ({ employee }, ctx) => {
    payslipRuns.count += 1;
    ctx.narrowVisibility('hidden');
    return { employee, payslip: SALARY };
  },
});

const book = new ScriptBook();
const shared = sharedWorker(() => [readSalary, readReview, readBadge, readPayslip], book.provider);

describe('a tool narrows its own result', () => {
  it('hides a result the tool narrowed from every view but the auditor’s, never wider than configured', async () => {
    const task = 'narrowing: a tool hides its own result';
    const model = book.script(task, [
      {
        content: [
          useTool('read_salary', { employee: 'ada' }),
          useTool('read_review', { employee: 'ada' }),
          useTool('read_badge', { employee: 'ada' }),
        ],
      },
      // The same call again: reused from the first, and still hidden.
      { content: [useTool('read_salary', { employee: 'ada' })] },
      { content: [useTool('finish', { result: 'done' })] },
    ]);
    const handle = await shared.h.agents.start(
      scriptedInput(task, { visibilityByTool: { read_badge: { level: 'hidden' } } }),
    );
    const result = await handle.result();
    model.verify();

    const raw = result.chain.steps;
    const salaryResults = stepsOfTool(raw, 'read_salary').filter((s) => s.type === 'tool_result');
    expect(salaryResults.map((s) => s.visibility)).toEqual([
      { level: 'hidden', narrowedBy: 'tool' },
      { level: 'hidden', narrowedBy: 'tool' },
    ]);
    expect(resultStepOfTool(raw, 'read_review')?.visibility).toEqual({
      level: 'summary',
      summary: 'Read the review of ada',
      narrowedBy: 'tool',
    });
    // Configured hidden; the tool's wider request changes nothing.
    expect(resultStepOfTool(raw, 'read_badge')?.visibility).toEqual({ level: 'hidden' });

    for (const role of ['end_user', 'developer'] as const) {
      const view = await shared.h.agents.chain(handle.workflowId, role);
      expect(await handle.query(chainQuery, role), `${role}: query and client differ`).toEqual(view);
      // The calls stay at their configured level; only their results are hidden.
      expect(
        stepsOfTool(view.steps, 'read_salary').map((s) => s.type),
        role,
      ).toEqual(['tool_call', 'tool_call']);
      expect(stepsOfTool(view.steps, 'read_badge'), role).toEqual([]);
    }
    // The end user reads the review's line, and the value nowhere.
    const endUser = await shared.h.agents.chain(handle.workflowId, 'end_user');
    expect(JSON.stringify(endUser)).not.toContain(SALARY);
    expect(toolResultOfTool(endUser.steps, 'read_review')?.result).toBe('Read the review of ada');

    const auditor = await shared.h.agents.chain(handle.workflowId, 'auditor');
    expect(toolResultOfTool(auditor.steps, 'read_salary')?.result).toEqual({ employee: 'ada', salary: SALARY });
    expect(toolResultOfTool(auditor.steps, 'read_review')?.result).toEqual({ employee: 'ada', review: SALARY });
  });

  it('keeps the narrowing when a later run reuses the result from the worker’s cache', async () => {
    const cache = { ttlMs: 60_000, tools: ['read_payslip'] };
    const runs = [];
    for (const task of ['narrowing: first cached run', 'narrowing: second cached run']) {
      book.script(task, [
        { content: [useTool('read_payslip', { employee: 'bob' })] },
        { content: [useTool('finish', { result: 'done' })] },
      ]);
      const handle = await shared.h.agents.start(scriptedInput(task, { cache }));
      runs.push({ handle, result: await handle.result() });
    }
    expect(payslipRuns.count).toBe(1);
    const [first, second] = runs.map((r) => resultStepOfTool(r.result.chain.steps, 'read_payslip'));
    expect(first?.cacheHit).toBeUndefined();
    expect(second?.cacheHit).toMatchObject({ kind: 'tool' });
    expect(second?.visibility).toEqual({ level: 'hidden', narrowedBy: 'tool' });
    const endUser = await shared.h.agents.chain(runs[1]!.handle.workflowId, 'end_user');
    expect(JSON.stringify(endUser)).not.toContain(SALARY);
  });
});
