import { describe, expect, it } from 'vitest';
import { resultContent } from '../../../src/mcp-server/run-result-content';
import { TASK_STATE, taskStateOf } from '../../../src/server/a2a/tasks/task-of-snapshot';
import { runEnding, type EndingSource } from '../../../src/domain/run/run-ending';

/** Temporal's own endings, without a result: each protocol must read them by the ending's tone alike. */
const SOURCES: Array<[EndingSource, 'completed' | 'canceled' | 'failed']> = [
  [{ execution: 'terminated', failure: 'by ops' }, 'canceled'],
  [{ execution: 'cancelled' }, 'canceled'],
  [{ execution: 'failed', failure: 'boom' }, 'failed'],
  [{ execution: 'timed_out' }, 'failed'],
];

describe('the protocols map an ending by its tone, all alike', () => {
  it.each(SOURCES)('%j: A2A %s, and an MCP error result exactly when it failed', (source, a2a) => {
    const ending = runEnding(source);
    expect(taskStateOf(ending)).toBe(TASK_STATE[a2a]);
    expect(resultContent('r1', ending).isError === true).toBe(a2a === 'failed');
  });
});
