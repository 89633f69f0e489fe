/** A paused budget through the protocol doors: A2A's input-required task and AG-UI's interrupt, both ways. */
import { EventSchemas } from '@ag-ui/core/schemas';
import type { Message } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { describe, expect, it } from 'vitest';
import type { AgentStatus, BudgetPause } from '../../src/domain';
import { raiseOf } from '../../src/server/a2a/tasks/message-input';
import { inputOf } from '../../src/server/a2a/tasks/run-snapshot';
import { statusOf } from '../../src/server/a2a/tasks/task-of-snapshot';
import { readAgUiRequest } from '../../src/server/ag-ui/ag-ui-request';
import { AgUiTranslator } from '../../src/server/ag-ui/ag-ui-translator';
import { decodeInterruptId, encodeInterruptId } from '../../src/server/ag-ui/interrupt-id';

const pause: BudgetPause = {
  pauseId: 'token_budget@2026-11-27T10:00:00.000Z',
  reason: 'token_budget',
  message: 'Token budget: 4900 of 5000 tokens spent.',
  spent: { tokens: 4900, costUsd: 0.02, iterations: 3, modelCalls: 3, tools: [{ name: 'lookup', calls: 2 }] },
  budgets: { tokenBudget: 5000, maxIterations: 10 },
  pausedAt: '2026-11-27T10:00:00.000Z',
  expiresAt: '2026-11-28T10:00:00.000Z',
  raiserRoles: ['finance'],
};
const status = { pendingApprovals: [], budgetPause: pause, costUsd: 0.02, usage: {} } as unknown as AgentStatus;

const part = (content: NonNullable<Message['parts'][number]['content']>) => ({
  content,
  metadata: undefined,
  filename: '',
  mediaType: '',
});
const message = (parts: Message['parts']): Message => ({
  messageId: 'm-1',
  contextId: '',
  taskId: '',
  role: 1,
  parts,
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

describe('A2A: a paused budget is an input-required task', () => {
  it('says what it waits for, with the pause as data', () => {
    const input = inputOf(status);
    expect(input).toEqual({ kind: 'budget', pause });
    const task = statusOf({ state: 'input-required', runId: 'run-1', status, input: input! });
    const parts = task.message!.parts.map((p) => p.content);
    expect(parts[0]).toMatchObject({
      $case: 'text',
      value: expect.stringContaining('Paused at its budget: Token budget'),
    });
    expect(parts[1]).toMatchObject({
      $case: 'data',
      value: expect.objectContaining({ kind: 'budget', reason: 'token_budget' }),
    });
    expect(task.message!.messageId).toContain('budget-2026-11-27T10:00:00.000Z');
  });

  it('reads a reply as a raise (data part) or a stop (text); anything else raises nothing', () => {
    const data = (value: Record<string, unknown>) => message([part({ $case: 'data', value } as never)]);
    expect(raiseOf(data({ tokens: 50_000, note: 'ok' }))).toEqual({ tokens: 50_000, note: 'ok' });
    expect(raiseOf(message([part({ $case: 'text', value: 'Stop.' })]))).toEqual({ stop: true });
    expect(raiseOf(data({ tokens: 0 }))).toBeUndefined();
    expect(raiseOf(data({ tokens: 100_000_001 }))).toBeUndefined();
    expect(raiseOf(data({ tokens: 5, by: 'ceo' }))).toBeUndefined();
    expect(raiseOf(message([part({ $case: 'text', value: 'raise it a lot' })]))).toBeUndefined();
  });
});

describe('AG-UI: a paused budget is an interrupt', () => {
  it('finishes the stream with a budget interrupt naming the run, the pause and the step', () => {
    const t = new AgUiTranslator({ threadId: 'thread-1', runId: 'agui-run-1', workflowId: 'run-1' });
    const events = t.translate('status', { type: 'status', stepNumber: 7, status }) as Array<Record<string, unknown>>;
    for (const e of events) expect(EventSchemas.safeParse(e).success, JSON.stringify(e)).toBe(true);
    const finished = events.at(-1)!;
    const [interrupt] = (finished.outcome as { interrupts: Array<{ id: string; reason: string; message: string }> })
      .interrupts;
    expect(interrupt).toMatchObject({ reason: 'budget', message: pause.message });
    expect(decodeInterruptId(interrupt!.id)).toEqual({
      kind: 'budget',
      runId: 'run-1',
      pausedAt: pause.pausedAt,
      step: 7,
    });
  });

  it('reads a resume as a raise, a cancelled interrupt as a stop, and refuses a payload it cannot read', () => {
    const id = encodeInterruptId({ kind: 'budget', runId: 'thread-1-turn-1', pausedAt: pause.pausedAt, step: 7 });
    const resume = (entry: Record<string, unknown>) =>
      readAgUiRequest({
        threadId: 'thread-1',
        runId: 'r-2',
        messages: [],
        tools: [],
        context: [],
        state: {},
        forwardedProps: {},
        resume: [{ interruptId: id, ...entry }],
      });
    expect(resume({ status: 'resolved', payload: { tokens: 10_000 } })).toMatchObject({
      kind: 'resume',
      answers: [{ approved: true, raise: { tokens: 10_000 } }],
    });
    expect(resume({ status: 'cancelled' })).toMatchObject({ answers: [{ raise: { stop: true } }] });
    expect(() => resume({ status: 'resolved', payload: { tokens: -1 } })).toThrow(/Answer a paused budget/);
  });
});
