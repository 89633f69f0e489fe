import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../../src/tools/define-tool';
import { lastToolResults, waitForPending } from '../../helpers/approval-helpers';
import { callStep, toolResultOf } from '../../helpers/chain-helpers';
import { scheduledActivities } from '../../helpers/history';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

/** Issue 46, tool contracts in a run: validate, alternatives and audit levels, on the dev server. */
const env = useTestEnv();

const use = (id: string, name: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool_use' as const, id, name, input }],
});
const done = { content: [{ type: 'text' as const, text: 'done' }] };

function payTool(ran: number[], extra: { type?: 'database' } = {}, checked: number[] = []): ToolDefinition {
  return defineTool({
    name: 'pay',
    description: 'Pays an amount',
    input: z.object({ amount: z.number() }),
    ...extra,
    validate: ({ amount }) => {
      checked.push(amount);
      return amount > 100 ? `amount ${amount} is above the limit of 100` : undefined;
    },
    execute: ({ amount }) => (ran.push(amount), `paid ${amount}`),
  }) as ToolDefinition;
}

const runTools = async (workflowId: string) =>
  (await scheduledActivities(env.client, workflowId)).map((a) => a.type).filter((t) => t !== 'callModel');

describe('validate', () => {
  it('refuses a call before it runs: a not_run error observation, recorded, never retried', async () => {
    const ran: number[] = [];
    const { result, model, workflowId } = await runScripted(env, {
      script: [use('t1', 'pay', { amount: 500 }), use('t2', 'pay', { amount: 20 }), done],
      input: { task: 'pay' },
      tools: [payTool(ran)],
    });
    expect(ran).toEqual([20]);
    expect(toolResultOf(result.chain.steps, 't1')).toMatchObject({
      success: false,
      outcome: 'not_run',
      error: 'Not run: pay refused these arguments: amount 500 is above the limit of 100',
    });
    expect(lastToolResults(model.calls[1]!.messages)).toEqual([
      expect.objectContaining({ toolUseId: 't1', isError: true, content: expect.stringContaining('above the limit') }),
    ]);
    expect(toolResultOf(result.chain.steps, 't2')).toMatchObject({ success: true, result: 'paid 20' });
    // One activity per call: the refusal came from the first attempt and was not retried.
    expect((await runTools(workflowId)).filter((t) => t !== 'describeTools')).toEqual(['runTool', 'runTool']);
  });

  it('runs before a person is asked to approve: a refused call never waits, an allowed one is not validated twice', async () => {
    const ran: number[] = [];
    const checked: number[] = [];
    const { result, workflowId } = await runScripted(env, {
      script: [use('t1', 'pay', { amount: 500 }), use('t2', 'pay', { amount: 20 }), done],
      input: { task: 'pay' },
      tools: [payTool(ran, { type: 'database' }, checked)],
      during: async ({ h, workflowId: id }) => {
        const [pending] = await waitForPending(h.agents, id);
        expect(pending).toMatchObject({ callId: 't2' });
        await h.agents.decide(id, { callId: 't2', approved: true, by: { id: 'ops', roles: [] } });
      },
    });
    expect(ran).toEqual([20]);
    expect(checked).toEqual([500, 20]);
    expect(result.chain.approvals?.map((a) => [a.callId, a.status])).toEqual([['t2', 'approved']]);
    expect(toolResultOf(result.chain.steps, 't1')).toMatchObject({ success: false, outcome: 'not_run' });
    expect((await runTools(workflowId)).filter((t) => t !== 'describeTools')).toEqual([
      'validateToolCall',
      'validateToolCall',
      'runTool',
    ]);
  });
});

describe('alternatives', () => {
  it("end a failing call's observation, naming only the tools the run has", async () => {
    const rates = defineTool({
      name: 'live_rates',
      description: 'Live exchange rates',
      input: z.object({}),
      retry: { maximumAttempts: 1 },
      alternatives: ['cached_rates', 'not_in_this_run'],
      execute: () => {
        throw new Error('rate service down');
      },
    });
    const cached = defineTool({
      name: 'cached_rates',
      description: 'Cached rates',
      input: z.object({}),
      execute: () => 1,
    });
    const { result, model } = await runScripted(env, {
      script: [use('t1', 'live_rates', {}), done],
      input: { task: 'rates' },
      tools: [rates, cached],
    });
    const [seen] = lastToolResults(model.calls[1]!.messages);
    expect(seen).toMatchObject({ isError: true, content: expect.stringContaining('rate service down') });
    expect(seen!.content).toMatch(/\nInstead, you could try: cached_rates\.$/);
    expect(toolResultOf(result.chain.steps, 't1')?.error).toMatch(/Instead, you could try: cached_rates\.$/);
  });
});

describe('audit levels', () => {
  const secretTool = (auditLevel: 'basic' | 'none') =>
    defineTool({
      name: 'fetch_record',
      description: 'Fetches a private record',
      input: z.object({ patient: z.string() }),
      auditLevel,
      execute: ({ patient }) => `record of ${patient}: blood type AB`,
    });

  it.each(['basic', 'none'] as const)(
    'at %s the chain keeps no arguments or result, and the model still reads the result',
    async (level) => {
      const { result, model } = await runScripted(env, {
        script: [use('t1', 'fetch_record', { patient: 'Jane Roe' }), done],
        input: { task: 'look up' },
        tools: [secretTool(level)],
      });
      const marker = `[not recorded: audit level ${level}]`;
      expect(callStep(result.chain.steps, 't1')?.toolCall.arguments).toEqual({ notRecorded: marker });
      expect(toolResultOf(result.chain.steps, 't1')).toMatchObject({ success: true, result: marker });
      expect(JSON.stringify(result.chain)).not.toContain('Jane Roe');
      expect(JSON.stringify(result.chain)).not.toContain('blood type');
      expect(lastToolResults(model.calls[1]!.messages)[0]?.content).toBe('record of Jane Roe: blood type AB');
      if (level === 'none') expect(toolResultOf(result.chain.steps, 't1')?.durationMs).toBe(0);
    },
  );
});
