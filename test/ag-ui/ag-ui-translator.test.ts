import { EventSchemas } from '@ag-ui/core/schemas';
import { describe, expect, it } from 'vitest';
import { AgUiTranslator } from '../../src/server/ag-ui/ag-ui-translator';
import { readAgUiRequest } from '../../src/server/ag-ui/ag-ui-request';
import { decodeInterruptId, encodeInterruptId } from '../../src/server/ag-ui/interrupt-id';
import type { AgentResult } from '../../src/domain';
import type { AnswerGrounding } from '../../src/domain/chain/answer-grounding';
import { runEnding } from '../../src/domain/run/run-ending';
import type { TerminationReason } from '../../src/domain/run/termination';
import { MAX_THREAD_ID_CHARS, MAX_TURN_ID_CHARS } from '../../src/domain/threads/thread-schemas';

const names = { threadId: 'thread-1', runId: 'agui-run-1', workflowId: 'run-1' };
const plan = (done: number) => ({
  version: 1,
  source: 'model',
  completed: done,
  total: 2,
  tasks: [
    { id: 't1', description: 'look', status: done > 0 ? 'completed' : 'pending', dependencies: [], complexity: 'low' },
    { id: 't2', description: 'answer', status: 'pending', dependencies: ['t1'], complexity: 'low' },
  ],
});
const status = (extra: Record<string, unknown>) => ({
  type: 'status',
  stepNumber: 3,
  status: { pendingApprovals: [], ...extra },
});
/** A (viewed) result with only what runEnding reads. */
const result = (reason: TerminationReason, finalAnswer: string, grounding?: AnswerGrounding): AgentResult =>
  ({
    success: reason === 'success',
    terminationReason: reason,
    finalAnswer,
    ...(grounding ? { grounding } : {}),
  }) as AgentResult;
const valid = (events: unknown[]) => {
  for (const e of events) expect(EventSchemas.safeParse(e).success, JSON.stringify(e)).toBe(true);
  return events as Array<Record<string, unknown>>;
};

describe('AG-UI translation', () => {
  it('sends the plan as a STATE_SNAPSHOT, then JSON Patch deltas (status reads and task updates), then nothing when nothing changed', () => {
    const t = new AgUiTranslator(names);
    const first = valid(t.translate('status', status({ plan: plan(0) })));
    expect(first.map((e) => e.type)).toEqual(['RUN_STARTED', 'STATE_SNAPSHOT']);
    expect(first[1]!.snapshot).toEqual({
      plan: {
        version: 1,
        completed: 0,
        total: 2,
        tasks: [
          { id: 't1', description: 'look', status: 'pending', dependencies: [] },
          { id: 't2', description: 'answer', status: 'pending', dependencies: ['t1'] },
        ],
      },
    });
    expect(valid(t.translate('status', status({ plan: plan(1) })))).toEqual([
      {
        type: 'STATE_DELTA',
        delta: [
          { op: 'replace', path: '/plan/completed', value: 1 },
          { op: 'replace', path: '/plan/tasks/0/status', value: 'completed' },
        ],
      },
    ]);
    expect(t.translate('status', status({ plan: plan(1) }))).toEqual([]);
    const update = {
      type: 'step',
      stepNumber: 4,
      step: {
        type: 'tool_call',
        stepId: 's4',
        stepNumber: 4,
        timestamp: 'x',
        iteration: 2,
        visibility: { level: 'full' },
        toolCall: {
          toolType: 'custom',
          toolName: 'update_task',
          arguments: { task_id: 't2', status: 'completed' },
          correlationId: 'u2',
        },
      },
    };
    const events = valid(t.translate('step', update));
    expect(events.at(-1)).toEqual({
      type: 'STATE_DELTA',
      delta: [
        { op: 'replace', path: '/plan/completed', value: 2 },
        { op: 'replace', path: '/plan/tasks/1/status', value: 'completed' },
      ],
    });
  });

  it('finishes with a question interrupt whose id names the run, the call and the step', () => {
    const t = new AgUiTranslator(names);
    const question = { callId: 'q1', question: 'Which city?', askedAt: 'x', expiresAt: '2026-12-01T00:00:00Z' };
    const events = valid(t.translate('status', status({ openQuestion: question })));
    const finished = events.at(-1)!;
    expect(finished).toMatchObject({ type: 'RUN_FINISHED', threadId: 'thread-1', runId: 'agui-run-1' });
    const interrupt = (finished.outcome as { interrupts: Array<{ id: string; message: string }> }).interrupts[0]!;
    expect(interrupt.message).toBe('Which city?');
    expect(decodeInterruptId(interrupt.id)).toEqual({ kind: 'question', runId: 'run-1', callId: 'q1', step: 3 });
    expect(t.done).toBe(true);
    expect(t.translate('end', { outcome: 'completed', ending: runEnding({ result: result('success', 'x') }) })).toEqual(
      [],
    );
  });

  it('ends a failed run with RUN_ERROR and a cancelled one with the cancelled outcome; an open text message is closed first', () => {
    const failed = new AgUiTranslator(names);
    failed.translate('text_delta', { kind: 'text', activityId: '4', attempt: 1, text: 'half' });
    const timedOut = runEnding({ execution: 'timed_out' });
    const ended = valid(failed.translate('end', { outcome: 'timed_out', ending: timedOut }));
    expect(ended.map((e) => e.type)).toEqual(['TEXT_MESSAGE_END', 'RUN_ERROR']);
    expect(ended[1]).toMatchObject({
      code: 'timed_out',
      message: 'timed_out',
      metadata: { thoughtline: { runId: 'run-1', ending: timedOut } },
    });
    const cancelled = new AgUiTranslator(names);
    const stopped = runEnding({ result: result('cancelled', 'so far') });
    expect(valid(cancelled.translate('end', { outcome: 'completed', ending: stopped })).at(-1)).toMatchObject({
      outcome: { type: 'cancelled' },
      result: { state: 'cancelled', answer: 'so far' },
    });
    // An end without its ending is not guessed at: the writer turns the throw into a RUN_ERROR.
    expect(() => new AgUiTranslator(names).translate('end', { outcome: 'completed' })).toThrow(/ending/);
  });
});

describe('AG-UI translation of how a run ends', () => {
  const step = (n: number, body: Record<string, unknown>) => ({
    type: 'step',
    stepNumber: n,
    step: { stepId: `s${n}`, stepNumber: n, timestamp: 'x', iteration: 1, visibility: { level: 'full' }, ...body },
  });
  it('closes a model call left open before the interrupt (the client refuses RUN_FINISHED over an active step)', () => {
    const t = new AgUiTranslator(names);
    t.translate(
      'step',
      step(1, { type: 'tool_call', toolCall: { toolType: 'llm', toolName: 'm', arguments: {}, correlationId: 'c1' } }),
    );
    const approval = {
      callId: 'a1',
      toolName: 'charge',
      argumentsHash: 'h',
      reason: 'always',
      status: 'pending',
      expiresAt: 'e',
    };
    // An approval of a call this stream has not shown waits for the status read (nothing yet).
    expect(t.translate('approval', { type: 'approval', stepNumber: 1, approval })).toEqual([]);
    t.translate(
      'step',
      step(2, {
        type: 'tool_call',
        toolCall: { toolType: 'custom', toolName: 'charge', arguments: {}, correlationId: 'a1' },
      }),
    );
    const events = valid(t.translate('approval', { type: 'approval', stepNumber: 1, approval }));
    expect(events.map((e) => e.type)).toEqual(['STEP_FINISHED', 'RUN_FINISHED']);
    const outcome = events.at(-1)!.outcome as { interrupts: Array<{ id: string }> };
    // The resume point is the call's step (2), not the event's stale one (1).
    expect(decodeInterruptId(outcome.interrupts[0]!.id)).toMatchObject({ kind: 'approval', callId: 'a1', step: 2 });
  });

  it("sends a tool's progress as a CUSTOM event on its tool call, only for a call this stream showed, and a sub-agent's steps as CUSTOM too", () => {
    const t = new AgUiTranslator(names);
    const progress = (stepId: string) => ({
      type: 'tool_progress',
      stepNumber: 2,
      stepId,
      toolName: 'scan',
      seq: 3,
      message: 'scanned 300 files',
      fraction: 0.6,
    });
    // A call this stream has not shown (hidden from this view, or not landed yet) says nothing.
    expect(t.translate('tool_progress', progress('s2'))).toEqual([expect.objectContaining({ type: 'RUN_STARTED' })]);
    t.translate(
      'step',
      step(2, {
        type: 'tool_call',
        toolCall: { toolType: 'custom', toolName: 'scan', arguments: {}, correlationId: 'k1' },
      }),
    );
    expect(valid(t.translate('tool_progress', progress('s2')))).toEqual([
      {
        type: 'CUSTOM',
        name: 'thoughtline.tool_progress',
        value: { toolCallId: 'k1', toolName: 'scan', seq: 3, message: 'scanned 300 files', fraction: 0.6 },
      },
    ]);
    const child = { workflowId: 'run-1/researcher-3', agentName: 'researcher' };
    const childStep = { stepId: 'c1', stepNumber: 1, type: 'thinking', thought: 'Looking.' };
    expect(valid(t.translate('sub_agent_step', { type: 'sub_agent_step', subAgent: child, step: childStep }))).toEqual([
      { type: 'CUSTOM', name: 'thoughtline.sub_agent_step', value: { subAgent: child, step: childStep } },
    ]);
  });

  it('finishes a stop at a limit with its partial answer, and reports a give-up as RUN_ERROR with its reason', () => {
    const limit = new AgUiTranslator(names);
    const budget = runEnding({ result: result('cost_budget', 'alpha is 50', 'grounded') });
    expect(valid(limit.translate('end', { outcome: 'completed', ending: budget })).at(-1)).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: { type: 'success' },
      result: {
        label: 'cost_budget',
        tone: 'limit',
        answer: 'alpha is 50',
        answerTitle: 'Partial answer (cost_budget)',
      },
    });
    const t = new AgUiTranslator(names);
    t.translate(
      'step',
      step(2, {
        type: 'synthesis',
        synthesis: { sources: [], conclusion: 'I could not.', terminationReason: 'failure' },
      }),
    );
    const gaveUp = runEnding({ result: result('failure', 'I could not.') });
    const events = valid(t.translate('end', { outcome: 'completed', ending: gaveUp }));
    expect(events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'failure', message: 'failure: I could not.' });
  });
});

describe('interrupt ids and AG-UI requests', () => {
  it('reads only ids this server wrote', () => {
    const ref = { kind: 'approval', runId: 'r', callId: 'c', argumentsHash: 'h', step: 2 } as const;
    expect(decodeInterruptId(encodeInterruptId(ref))).toEqual(ref);
    expect(decodeInterruptId('not-ours')).toBeUndefined();
    expect(decodeInterruptId(Buffer.from('{"kind":"approval"}').toString('base64url'))).toBeUndefined();
    expect(decodeInterruptId('x'.repeat(5_000))).toBeUndefined();
  });

  it('takes a thread id and run id at their limits and refuses one character more, with a 400 naming the field', () => {
    const body = (threadId: string, runId: string) => ({
      threadId,
      runId,
      messages: [{ id: 'm', role: 'user', content: 'hi' }],
      tools: [],
      context: [],
    });
    const atLimit = readAgUiRequest(body('t'.repeat(MAX_THREAD_ID_CHARS), 'r'.repeat(MAX_TURN_ID_CHARS)));
    expect(atLimit).toMatchObject({ kind: 'turn', text: 'hi' });
    expect(() => readAgUiRequest(body('t'.repeat(MAX_THREAD_ID_CHARS + 1), 'r'))).toThrow(/threadId must be/);
    expect(() => readAgUiRequest(body('t', 'r'.repeat(MAX_TURN_ID_CHARS + 1)))).toThrow(/runId must be/);
    const parts = readAgUiRequest({
      ...body('t', 'r'),
      messages: [
        {
          id: 'm',
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
      ],
    });
    expect(parts).toMatchObject({ text: 'a\nb' });
  });
});
