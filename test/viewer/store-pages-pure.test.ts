import { describe, expect, it } from 'vitest';
import { viewerModule } from './viewer-module';

interface LaidBar {
  kind: string;
  text: string;
  open: boolean;
  x: number;
  y: number;
  width: number;
}
interface ChartLayoutModule {
  niceTicks(max: number, count?: number, options?: { integer?: boolean }): number[];
  timelineLayout(
    timeline: unknown,
    options?: { width?: number },
  ): { bars: LaidBar[]; ticks: { x: number; label: string }[] };
  daysBetween(from: string, to: string): string[];
  usageSeries(report: unknown): {
    days: { key: string; runs: number; tokens: number; costUsd: number }[];
    agents: { key: string; runs: number; tokens: number; costUsd: number }[];
  };
  barChartLayout(
    items: { key: string; runs: number }[],
    metric: string,
    options?: { width?: number; height?: number },
  ): { bars: { value: number; height: number; label?: string }[]; ticks: { label: string }[] };
}
interface NoticeModule {
  sourceLine(response: unknown): string | undefined;
}
interface ChainToolsModule {
  chainFilterQuery(values: Record<string, unknown>): Record<string, string> | undefined;
}
interface SearchModule {
  searchQuery(values: Record<string, string>): Record<string, string>;
}

describe('chart layout', () => {
  it('picks round ticks that reach the maximum', async () => {
    const { niceTicks } = await viewerModule<ChartLayoutModule>('chart-layout.js');
    expect(niceTicks(2_100, 6)).toEqual([0, 500, 1_000, 1_500, 2_000, 2_500]);
    expect(niceTicks(0)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(2, 4, { integer: true })).toEqual([0, 1, 2]);
  });

  it('lays a timeline out by lane and scale, drawing an open bar to the end', async () => {
    const { timelineLayout } = await viewerModule<ChartLayoutModule>('chart-layout.js');
    const layout = timelineLayout(
      {
        totalMs: 2_000,
        lanes: 2,
        bars: [
          { kind: 'tool', label: 'search', stepNumber: 3, startMs: 1_000, endMs: 1_500, lane: 0 },
          { kind: 'tool', label: 'fetch', stepNumber: 4, startMs: 1_000, lane: 1 },
        ],
      },
      { width: 416 },
    );
    const [search, fetch] = layout.bars;
    expect(search).toMatchObject({ text: 'search · 500 ms', open: false, x: 208, width: 92 });
    expect(fetch).toMatchObject({ text: 'fetch · open', open: true, x: 208, width: 184 });
    expect(fetch!.y).toBeGreaterThan(search!.y);
    expect(layout.ticks.at(-1)).toMatchObject({ label: '2.0 s', x: 392 });
  });

  it('sums usage per day (every day of the range) and per agent', async () => {
    const { usageSeries, daysBetween } = await viewerModule<ChartLayoutModule>('chart-layout.js');
    expect(daysBetween('2026-11-01T00:00:00Z', '2026-11-03T23:59:59Z')).toEqual([
      '2026-11-01',
      '2026-11-02',
      '2026-11-03',
    ]);
    const row = (day: string, agentName: string, runs: number, costUsd: number) => ({
      day,
      agentName,
      runs,
      steps: 1,
      inputTokens: 100 * runs,
      outputTokens: 10 * runs,
      costUsd,
    });
    const { days, agents } = usageSeries({
      from: '2026-11-01T00:00:00Z',
      to: '2026-11-03T00:00:00Z',
      rows: [row('2026-11-01', 'b', 2, 0.5), row('2026-11-01', 'a', 1, 0.25), row('2026-11-03', 'a', 3, 1)],
    });
    expect(days).toEqual([
      { key: '2026-11-01', runs: 3, tokens: 330, costUsd: 0.75 },
      { key: '2026-11-02', runs: 0, tokens: 0, costUsd: 0 },
      { key: '2026-11-03', runs: 3, tokens: 330, costUsd: 1 },
    ]);
    expect(agents).toEqual([
      { key: 'a', runs: 4, tokens: 440, costUsd: 1.25 },
      { key: 'b', runs: 2, tokens: 220, costUsd: 0.5 },
    ]);
  });

  it('scales bar heights to the top tick and thins the labels', async () => {
    const { barChartLayout } = await viewerModule<ChartLayoutModule>('chart-layout.js');
    const items = Array.from({ length: 30 }, (_, i) => ({ key: `d${i}`, runs: i === 0 ? 10 : 5 }));
    const layout = barChartLayout(items, 'runs', { height: 136 });
    expect(layout.ticks.map((t) => t.label)).toEqual(['0', '5', '10']);
    expect(layout.bars[0]!.height).toBe(100);
    expect(layout.bars[1]!.height).toBe(50);
    expect(layout.bars.filter((b) => b.label).length).toBeLessThanOrEqual(12);
  });
});

describe('store notices and queries', () => {
  it('says when a chain is read from the store only or the store is unavailable, and nothing otherwise', async () => {
    const { sourceLine } = await viewerModule<NoticeModule>('store-notices.js');
    expect(sourceLine({ source: 'store', storeOnly: true })).toMatch(/chain store only/);
    expect(sourceLine({ source: 'temporal', storeUnavailable: 'database down' })).toMatch(
      /unavailable \(database down\)/,
    );
    expect(sourceLine({ source: 'store' })).toBeUndefined();
    expect(
      sourceLine({
        source: 'store',
        storeOnly: true,
        imported: {
          finalHash: 'sha256:9b0e',
          anchor: 'trusted_key',
          keyId: 'audit-2026',
          importedBy: 'carol',
          importedAt: '2026-11-27T07:00:00.000Z',
        },
      }),
    ).toBe(
      'Imported from a sealed export (final hash sha256:9b0e, signed by audit-2026) by carol on 2026-11-27; Temporal does not hold this run.',
    );
  });

  it("builds the chain route's filter query, leaving out what is not set", async () => {
    const { chainFilterQuery } = await viewerModule<ChainToolsModule>('chain-tools.js');
    expect(chainFilterQuery({})).toBeUndefined();
    expect(chainFilterQuery({ types: ['thinking', 'tool_call', 'tool_result', 'synthesis'] })).toBeUndefined();
    expect(
      chainFilterQuery({
        types: ['tool_result', 'tool_call'],
        tool: ' lookup ',
        text: 'x',
        from: '2026-11-26T10:00:00Z',
      }),
    ).toEqual({
      types: 'tool_call,tool_result',
      tool: 'lookup',
      text: 'x',
      from: '2026-11-26T10:00:00.000Z',
    });
  });

  it('turns the search form into the search query', async () => {
    const { searchQuery } = await viewerModule<SearchModule>('search-page.js');
    expect(
      searchQuery({ agent: ' a ', text: '', minCostUsd: '0.5', startedAfter: '2026-11-26T10:00:00Z', state: '' }),
    ).toEqual({
      agent: 'a',
      minCostUsd: '0.5',
      startedAfter: '2026-11-26T10:00:00.000Z',
    });
  });
});
