import { describe, expect, it } from 'vitest';
import { soakReportHtml } from '../../bench/soak/soak-report-html';
import { colourOf } from '../../src/eval/report/charts/chart-frame';
import type { SoakReport } from '../../bench/soak/soak-report-types';

/**
 * The soak's HTML page on a hand-built report (bench/soak/soak-report-html.ts): no soak runs here.
 * Three minutes, two faults, a worker replaced by another in the third minute, one failing zero
 * check, and hostile text where the report carries free text.
 */
const HOSTILE = '<script>alert(1)</script>';

function report(): SoakReport {
  return {
    commit: 'abc1234',
    startedAt: '2026-12-01T10:00:00Z',
    machine: 'two cores',
    settings: { minutes: 3, runsPerMinute: 10, watchers: 2, memoryBoundPct: 20, settleMinutes: 1 },
    minutes: [
      {
        minute: 1,
        started: 10,
        ended: { finished: 8 },
        firstStepMs: { p50: 40, p99: 120 },
        endToEndMs: { p50: 900, p99: 2400 },
        open: 2,
        processes: { 'worker-a1': { rssMb: 180, cpuPct: 35 }, postgres: { rssMb: 90, cpuPct: 12 } },
      },
      {
        minute: 2,
        started: 10,
        ended: { finished: 9, cancelled: 1 },
        firstStepMs: { p50: 45, p99: 900 },
        open: 2,
        processes: { 'worker-a1': { rssMb: 185, cpuPct: 40 }, postgres: { rssMb: 92, cpuPct: 14 } },
      },
      {
        minute: 3,
        started: 10,
        ended: { finished: 10 },
        endToEndMs: { p50: 950, p99: 2600 },
        open: 2,
        processes: { 'worker-a2': { rssMb: 170, cpuPct: 30 }, postgres: { rssMb: 93, cpuPct: 13 } },
      },
    ],
    faults: [
      { atS: 130, kind: 'worker_kill', detail: `killed worker-a1 ${HOSTILE}`, probe: 'p0w', healedMs: 4200 },
      { atS: 75, kind: 'postgres_restart', detail: 'restarted postgres', probe: 'p1p' },
    ],
    totals: {
      started: 30,
      ended: { finished: 27, cancelled: 1 },
      lost: 2,
      unexpectedEndings: 0,
      duplicateEffects: 0,
      strangerRuns: 0,
      missingEffects: 0,
      watcherMissed: 0,
      watcherRepeated: 0,
      watchersFollowed: 2,
    },
    perRun: { storeRows: 6.5, storeBytes: 4200, historyBytes: 31000, historyEvents: 48.2 },
    memory: [{ process: 'postgres', settledMb: 90, lastMb: 93, growthPct: 3.3, withinBound: true }],
    problems: [`2 runs lost ${HOSTILE}`],
  };
}

const svgs = (page: string): string[] => page.match(/<svg[\s\S]*?<\/svg>/g) ?? [];
const section = (page: string, heading: string): string => page.split(`<h2>${heading}</h2>`)[1]!.split('<h2>')[0]!;

describe("the soak report's page", () => {
  const page = soakReportHtml(report());

  it('draws one chart each for runs, latency, RSS, CPU and open runs', () => {
    expect(page.match(/<svg/g)).toHaveLength(5);
    expect(svgs(page).map((s) => s.match(/id="([^"]+)"/)![1])).toEqual([
      'chart-runs',
      'chart-latency',
      'chart-rss',
      'chart-cpu',
      'chart-open',
    ]);
  });

  it('lists every fault in its table and marks it on every chart', () => {
    const table = section(page, 'Faults');
    for (const kind of ['worker_kill', 'postgres_restart']) {
      expect(table).toContain(`<td>${kind}</td>`);
      for (const svg of svgs(page)) expect(svg).toMatch(new RegExp(`<g class="fault">[^]*?>${kind}</text></g>`));
    }
    expect(table).toMatch(/<td>1:15<\/td><td>postgres_restart<\/td>.*<td class="not_met">never healed<\/td>/);
    expect(table).toMatch(/<td>2:10<\/td><td>worker_kill<\/td>.*<td>4\.2 s<\/td>/);
  });

  it('shows a zero check that is not zero as failing, and the others as passing', () => {
    const totals = section(page, 'Totals');
    expect(totals).toContain('<tr><td>runs lost</td><td>2</td><td class="not_met">fail</td></tr>');
    expect(totals).toContain('<tr><td>side effects applied twice</td><td>0</td><td class="met">pass</td></tr>');
    expect(totals.match(/class="met">pass/g)).toHaveLength(6);
  });

  it('leaves a gap where a process was not running', () => {
    const rss = svgs(page)[2]!;
    // Colours follow first appearance: worker-a1, postgres, worker-a2. worker-a1 ran minutes 1 and 2 only: one
    // line of two points; worker-a2 ran minute 3 only: a dot.
    const lines = [...rss.matchAll(new RegExp(`<polyline points="([^"]+)"[^>]*stroke="${colourOf(0)}"`, 'g'))];
    expect(lines.map((m) => m[1]!.split(' ').length)).toEqual([2]);
    expect(rss).toMatch(new RegExp(`<circle [^>]*fill="${colourOf(2)}"/>`));
  });

  it('escapes hostile text in a fault detail and in the problems', () => {
    expect(page).not.toContain('<script');
    expect(section(page, 'Faults')).toContain('killed worker-a1 &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('<li>2 runs lost &lt;script&gt;alert(1)&lt;/script&gt;</li>');
  });

  it('says "none" when there is no problem', () => {
    const clean = soakReportHtml({ ...report(), problems: [] });
    expect(clean).toContain('<li>none</li>');
  });
});
