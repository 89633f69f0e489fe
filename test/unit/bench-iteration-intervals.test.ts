import { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { iterationIntervals } from '../../bench/lib/iteration-intervals';

const T = temporal.api.enums.v1.EventType;
const at = (ms: number) => ({ seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 });
const scheduled = (ms: number, name: string) => ({
  eventType: T.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
  eventTime: at(ms),
  activityTaskScheduledEventAttributes: { activityType: { name } },
});

describe('iterationIntervals', () => {
  it('times each iteration from one model call scheduled to the next, ignoring tool calls and other events', () => {
    const history = temporal.api.history.v1.History.fromObject({
      events: [
        { eventType: T.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, eventTime: at(1_000) },
        scheduled(1_010, 'callModel'),
        scheduled(1_220, 'runTool'),
        scheduled(1_250, 'callModel'),
        scheduled(1_470, 'runTool'),
        scheduled(1_515, 'callModel'),
      ],
    });
    expect(iterationIntervals(history)).toEqual([240, 265]);
  });

  it('has no interval for a run with one model call, or none', () => {
    const one = temporal.api.history.v1.History.fromObject({ events: [scheduled(5, 'callModel')] });
    expect(iterationIntervals(one)).toEqual([]);
    expect(iterationIntervals({})).toEqual([]);
  });
});
