import type { WorkflowInfo } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { createWorkerRunEvents } from '../../src/events/run-event-sinks';
import { RunEvent } from '../../src/domain/run/run-event';

const info = (workflowId: string) => ({ workflowId }) as WorkflowInfo;
const status = (stepNumber: number): RunEvent => ({
  type: 'status',
  runId: 'written-by-the-workflow',
  chainStatus: 'tool_calling',
  stepNumber,
});
const nextTurn = () => new Promise((r) => setImmediate(r));

describe('createWorkerRunEvents', () => {
  it('hands events on after the sink call returns, in order, under the workflow id Temporal ran', async () => {
    const got: RunEvent[] = [];
    const events = createWorkerRunEvents({ publish: (e) => got.push(e) });
    const sink = events.sinks.runEvents.publish;
    expect(sink.callDuringReplay).toBe(false);
    void sink.fn(info('wf-1'), status(1));
    void sink.fn(info('wf-1'), status(2));
    events.onModelDelta({ workflowId: 'wf-1', activityId: '7', attempt: 1, kind: 'text', offset: 0, text: 'Hel' });
    expect(got).toEqual([]);
    await nextTurn();
    expect(got.map((e) => [e.type, e.runId, e.stepNumber])).toEqual([
      ['status', 'wf-1', 1],
      ['status', 'wf-1', 2],
      ['text_delta', 'wf-1', 2],
    ]);
    // A delta carries the run's last position as this worker saw it.
    expect(got[2]).toMatchObject({ chainStatus: 'tool_calling', offset: 0, text: 'Hel' });
  });

  it('a publisher that throws costs only its events; after end a run is forgotten', async () => {
    let calls = 0;
    const events = createWorkerRunEvents({
      publish: () => {
        calls += 1;
        throw new Error('down');
      },
    });
    void events.sinks.runEvents.publish.fn(info('wf-2'), status(3));
    void events.sinks.runEvents.publish.fn(info('wf-2'), {
      type: 'end',
      runId: 'x',
      chainStatus: 'completed',
      stepNumber: 3,
      outcome: 'completed',
    });
    await nextTurn();
    expect([calls, events.dropped()]).toEqual([2, 2]);
    const seen: RunEvent[] = [];
    const fresh = createWorkerRunEvents({ publish: (e) => seen.push(e) });
    void fresh.sinks.runEvents.publish.fn(info('wf-3'), {
      type: 'end',
      runId: 'x',
      chainStatus: 'completed',
      stepNumber: 3,
      outcome: 'completed',
    });
    fresh.onModelDelta({ workflowId: 'wf-3', activityId: '1', attempt: 1, kind: 'text', offset: 0, text: 'late' });
    await nextTurn();
    expect(seen[1]).toMatchObject({ type: 'text_delta', stepNumber: 0, chainStatus: 'thinking' });
  });

  it('turns a tool progress into a tool_progress event of the call step, at the run position, parsing as a RunEvent', async () => {
    const got: RunEvent[] = [];
    const events = createWorkerRunEvents({ publish: (e) => got.push(e) });
    void events.sinks.runEvents.publish.fn(info('wf-5'), status(4));
    events.onToolProgress({
      workflowId: 'wf-5',
      activityId: '3',
      attempt: 2,
      callStepId: 'step-4',
      toolName: 'files_search',
      seq: 1,
      message: 'scanned 1,200 files',
      fraction: 0.4,
    });
    await nextTurn();
    expect(got[1]).toEqual({
      type: 'tool_progress',
      runId: 'wf-5',
      chainStatus: 'tool_calling',
      stepNumber: 4,
      activityId: '3',
      attempt: 2,
      stepId: 'step-4',
      toolName: 'files_search',
      seq: 1,
      message: 'scanned 1,200 files',
      fraction: 0.4,
    });
    expect(RunEvent.safeParse(got[1]).success).toBe(true);
  });

  it("takes a workflow task's events in one call, and drops a payload that is not a list", async () => {
    const got: RunEvent[] = [];
    const events = createWorkerRunEvents({ publish: (e) => got.push(e) });
    const sink = events.sinks.runEvents.publishAll;
    expect(sink.callDuringReplay).toBe(false);
    void sink.fn(info('wf-5'), [
      status(1),
      status(2),
      { type: 'end', runId: 'x', chainStatus: 'completed', stepNumber: 2, outcome: 'completed' },
    ]);
    expect(() => sink.fn(info('wf-5'), 'not a list' as unknown as RunEvent[])).not.toThrow();
    await nextTurn();
    expect(got.map((e) => [e.type, e.runId, e.stepNumber])).toEqual([
      ['status', 'wf-5', 1],
      ['status', 'wf-5', 2],
      ['end', 'wf-5', 2],
    ]);
  });

  it('without a publisher it registers the sink and does nothing', async () => {
    const events = createWorkerRunEvents(undefined);
    expect(() => events.sinks.runEvents.publish.fn(info('wf-4'), status(1))).not.toThrow();
    expect(() => events.sinks.runEvents.publishAll.fn(info('wf-4'), [status(2)])).not.toThrow();
    await nextTurn();
    expect(events.dropped()).toBe(0);
  });
});
