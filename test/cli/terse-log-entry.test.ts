import { describe, expect, it } from 'vitest';
import { terseLogEntry } from '../../src/cli/reading/terse-log-entry';

const entry = (message: string, meta: Record<string, unknown> = {}) => ({
  level: 'WARN' as const,
  message,
  meta,
  timestampNanos: 0n,
});

describe('terseLogEntry: one line per worker warning', () => {
  it('keeps the activity, the attempt and the error message, not the stack', () => {
    const error = new Error('inventory service is down');
    const line = terseLogEntry(entry('Activity failed', { activityType: 'runTool', attempt: 2, error }));
    expect(line).toBe('[WARN] Activity failed (runTool, attempt 2): inventory service is down');
    expect(line).not.toContain('\n');
    expect(line).not.toContain(error.stack!.split('\n')[1]!.trim());
  });

  it('cuts a long message, folds its lines and drops terminal control sequences', () => {
    const line = terseLogEntry(entry('Activity failed', { error: `x\n\u001b[2J${'y'.repeat(1_000)}` }));
    expect(line.length).toBeLessThanOrEqual(401);
    expect(line).not.toMatch(/[\n\u001b]/);
  });

  it('prints a warning without metadata as its message', () => {
    expect(terseLogEntry(entry('Worker is shutting down'))).toBe('[WARN] Worker is shutting down');
  });
});
