import { describe, expect, it } from 'vitest';
import { renderExperimentReport } from '../../../src/cli/commands/evaluation/eval-report';
import { summariseExperiment, type ExperimentRunReading } from '../../../src/domain/evaluation/experiment-report';

const run = (variant: string, i: number, more: Partial<ExperimentRunReading> = {}): ExperimentRunReading => ({
  workflowId: `agent-${variant}-${i}`,
  variant,
  ended: true,
  success: true,
  costUsd: 0.01,
  tokens: 100,
  latencyMs: 1_000 * (i + 1),
  scores: [],
  ...more,
});

describe('summariseExperiment', () => {
  it('counts per variant: success with Wilson, cost and tokens with t, latency percentiles, scores once per run', () => {
    const runs = [
      ...Array.from({ length: 10 }, (_, i) =>
        run('b', i, { success: i < 8, scores: [{ name: 'accepted', value: i < 6 ? 1 : 0 }] }),
      ),
      run('a', 0, {
        scores: [
          { name: 'csat', value: 4 },
          { name: 'csat', value: 2 },
        ],
      }),
      run('a', 1, { scores: [{ name: 'csat', value: 5 }] }),
      run('a', 2, { ended: false, success: false, costUsd: undefined, latencyMs: undefined }),
    ];
    const report = summariseExperiment('tone', runs, { limit: 1_000, truncated: false });
    expect(report.variants.map((v) => v.variant)).toEqual(['a', 'b']);
    const [a, b] = report.variants;
    expect(a).toMatchObject({ runs: 3, ended: 2, latencyMs: { p50: 1_000, p95: 2_000 } });
    // Two people's csat on one run average to one observation (3); with the other run's 5, a mean of 4.
    expect(a!.scores).toEqual([
      expect.objectContaining({ name: 'csat', runs: 2, mean: expect.objectContaining({ value: 4, n: 2 }) }),
    ]);
    expect(a!.scores[0]!.passRate).toBeUndefined();
    expect(b!.successRate).toMatchObject({ value: 0.8, n: 10, over: 'wilson' });
    expect(b!.successRate!.interval!.low).toBeCloseTo(0.49, 2);
    expect(b!.successRate!.interval!.high).toBeCloseTo(0.943, 2);
    expect(b!.scores[0]).toMatchObject({ name: 'accepted', runs: 10, passRate: { value: 0.6, n: 10 } });
    expect(b!.latencyMs).toEqual({ p50: 5_000, p95: 10_000 });
    expect(b!.costUsd).toMatchObject({ n: 10 });
    expect(b!.costUsd!.value).toBeCloseTo(0.01, 12);
  });

  it('renders a block per variant, and says when nothing is listed yet or the limit cut it short', () => {
    const report = summariseExperiment('tone', [run('a', 0), run('a', 1)], { limit: 2, truncated: true });
    const text = renderExperimentReport(report);
    expect(text).toContain('Experiment tone: 2 runs read (the newest 2; more exist: --limit, --since).');
    expect(text).toContain('a: 2 runs\n  success      100.0% [34.2%–100.0%] (n 2)');
    expect(text).toContain('  latency      p50 1.0 s, p95 2.0 s');
    expect(renderExperimentReport(summariseExperiment('tone', [], { limit: 1_000, truncated: false }))).toContain(
      'No run records this experiment yet',
    );
  });
});
