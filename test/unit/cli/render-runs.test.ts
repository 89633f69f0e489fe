import { describe, expect, it } from 'vitest';
import type { RunRow } from '../../../src/cli/reading/list-runs';
import { durationText, renderRuns } from '../../../src/cli/render/render-runs';

const row = (over: Partial<RunRow>): RunRow => ({
  runId: 'run-1',
  agentName: 'support',
  state: 'completed',
  task: 'Weather?',
  startedAt: '2026-11-29T01:02:03.000Z',
  ...over,
});

describe('thoughtline runs as a table', () => {
  it('says how long a run took in the unit that reads at a glance', () => {
    expect(durationText(850)).toBe('850 ms');
    expect(durationText(12_400)).toBe('12.4 s');
    expect(durationText(185_000)).toBe('3 min 05 s');
    expect(durationText(7_620_000)).toBe('2 h 07 min');
  });

  it('shows how each run went: ending, time taken, iterations, spend and the model that answered', () => {
    const table = renderRuns(
      [
        row({
          ending: { state: 'completed', terminationReason: 'success', label: 'completed · success', summary: '' },
          durationMs: 4_200,
          iterations: 3,
          tokens: 1_234,
          costUsd: 0.0123,
          model: 'offline-model',
        }),
        row({ runId: 'run-2', state: 'running', waiting: 'waiting_approval' }),
      ],
      true,
    );
    const [head, done, open] = table.split('\n');
    expect(head).toMatch(/^RUN +AGENT +STATE +ENDING +TOOK +ITER +TOKENS +COST +MODEL +STARTED \(UTC\)$/);
    expect(done).toMatch(
      /^run-1 +support +completed +success +4\.2 s +3 +1,234 +\$0\.0123 +offline-model +2026-11-29 01:02:03$/,
    );
    // A running run has no time taken or model yet: a dash, not a guess.
    expect(open).toMatch(/^run-2 +support +running +waiting: waiting_approval +- +- +- +- +- +2026-11-29 01:02:03$/);
  });

  it("leaves tokens and cost out of the end user's view", () => {
    const table = renderRuns([row({ tokens: 10, costUsd: 0.5, model: 'm' })], false);
    expect(table).not.toMatch(/TOKENS|COST|\$/);
    expect(table.split('\n')[0]).toMatch(/^RUN +AGENT +STATE +ENDING +TOOK +ITER +MODEL +STARTED/);
  });
});
