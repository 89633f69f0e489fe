import { createHash } from 'node:crypto';
import { escapeHtml as h } from '../../src/eval/report/html-escape';
import { count, duration } from '../../src/eval/report/report-format';
import { REPORT_CSS } from '../../src/eval/report/report-style';
import { clock, cpuChart, ENDING_LABEL, latencyChart, openChart, rssChart, runsChart } from './soak-charts';
import type { SoakEnding, SoakReport } from './soak-report-types';

type Totals = SoakReport['totals'];

/** The checks that must be zero for the soak to pass, with the words the page uses for each. */
const ZERO_CHECKS: ReadonlyArray<[Exclude<keyof Totals, 'ended'>, string]> = [
  ['lost', 'runs lost'],
  ['unexpectedEndings', 'unexpected endings'],
  ['duplicateEffects', 'side effects applied twice'],
  ['strangerRuns', 'runs nobody asked for (a start made twice)'],
  ['missingEffects', 'side effects missing'],
  ['watcherMissed', 'events a watcher missed'],
  ['watcherRepeated', 'events a watcher saw twice'],
];

const table = (head: readonly string[], rows: readonly string[]): string =>
  `<table><thead><tr>${head.map((c) => `<th>${h(c)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;

/** A row of cells already escaped or built from numbers; `cls` marks a verdict cell. */
const row = (...cells: Array<string | { text: string; cls: string }>): string =>
  `<tr>${cells.map((c) => (typeof c === 'string' ? `<td>${c}</td>` : `<td class="${c.cls}">${h(c.text)}</td>`)).join('')}</tr>`;

const verdict = (ok: boolean, pass = 'pass', fail = 'fail') => ({
  text: ok ? pass : fail,
  cls: ok ? 'met' : 'not_met',
});

function header(report: SoakReport): string {
  const s = report.settings;
  return (
    `<h1>Soak: ${h(`${s.minutes} minutes at ${s.runsPerMinute} runs a minute`)}</h1>` +
    `<p class="meta">${h(`Commit ${report.commit}, started ${report.startedAt}, on ${report.machine}.`)}</p>` +
    `<p class="meta">${h(
      `${s.runsPerMinute} runs a minute from the steady arrivals (schedules and triggers besides), ${s.watchers} watchers; ` +
        `memory may grow ${s.memoryBoundPct}% past its level after the first ${s.settleMinutes} minutes.`,
    )}</p>`
  );
}

function problems(report: SoakReport): string {
  const passed = report.problems.length === 0;
  const items = passed ? '<li>none</li>' : report.problems.map((p) => `<li>${h(p)}</li>`).join('');
  return `<section class="gate ${passed ? 'passed' : 'failed'}" id="problems"><h2>Problems: ${passed ? 'none, the soak passed' : `${report.problems.length}, the soak FAILED`}</h2><ul>${items}</ul></section>`;
}

function totals(t: Totals): string {
  const ended = (Object.keys(ENDING_LABEL) as SoakEnding[])
    .filter((e) => t.ended[e] !== undefined)
    .map((e) => row(h(`ended ${ENDING_LABEL[e]}`), count(t.ended[e]!), ''));
  const checks = ZERO_CHECKS.map(([key, label]) => row(h(label), count(t[key]), verdict(t[key] === 0)));
  return table(
    ['', 'runs', 'must be 0'],
    [
      row('started', count(t.started), ''),
      ...ended,
      row('watchers followed to the end', count(t.watchersFollowed), ''),
      ...checks,
    ],
  );
}

const perRun = (p: SoakReport['perRun']): string =>
  table(
    ['store rows', 'store bytes', 'history bytes', 'history events'],
    [row(p.storeRows.toFixed(1), count(p.storeBytes), count(p.historyBytes), p.historyEvents.toFixed(1))],
  );

const memory = (report: SoakReport): string =>
  report.memory.length === 0
    ? '<p>No process ran past the settling period.</p>'
    : table(
        ['process', 'settled (MB)', 'last (MB)', 'growth', `within ${report.settings.memoryBoundPct}%`],
        report.memory.map((m) =>
          row(
            h(m.process),
            m.settledMb.toFixed(0),
            m.lastMb.toFixed(0),
            `${m.growthPct.toFixed(1)}%`,
            verdict(m.withinBound, 'yes', 'no'),
          ),
        ),
      );

const faults = (report: SoakReport): string =>
  report.faults.length === 0
    ? '<p>No fault was injected.</p>'
    : table(
        ['at', 'kind', 'detail', 'healed in (its probe run finished)'],
        [...report.faults]
          .sort((a, b) => a.atS - b.atS)
          .map((f) =>
            row(
              h(clock(f.atS)),
              h(f.kind),
              h(f.detail),
              f.healedMs === undefined ? { text: 'never healed', cls: 'not_met' } : h(duration(f.healedMs)),
            ),
          ),
      );

const figure = (svg: string, caption: string): string =>
  `<figure>${svg}<figcaption>${h(caption)}</figcaption></figure>`;

function charts(report: SoakReport): string {
  const marks = 'Dashed red lines: the faults, by kind.';
  return [
    '<h2>Over time</h2><div class="charts">',
    figure(runsChart(report), `Runs started and ended each minute. ${marks}`),
    figure(
      latencyChart(report),
      `Start request to first step, and to the run's end, per minute; a gap is a minute no run reached that point. ${marks}`,
    ),
    figure(
      rssChart(report),
      `Resident memory at each minute's end; a gap is a minute the process was not running. ${marks}`,
    ),
    figure(cpuChart(report), `CPU over each minute, in per cent of one core. ${marks}`),
    figure(openChart(report), `Runs open at each minute's end. ${marks}`),
    '</div>',
  ].join('\n');
}

/**
 * The soak report as one self-contained HTML file: inline CSS, inline SVG, no script, no external
 * resource. Every string from the report is escaped, and the CSP allows only the one stylesheet
 * (by hash), so hostile text in a fault's detail or a problem can neither run nor load anything.
 */
export function soakReportHtml(report: SoakReport): string {
  const styleHash = createHash('sha256').update(REPORT_CSS).digest('base64');
  const csp = `default-src 'none'; style-src 'sha256-${styleHash}'; img-src 'none'; base-uri 'none'; form-action 'none'`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${h(`Thoughtline soak ${report.commit} ${report.startedAt}`)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head><body><main>',
    header(report),
    problems(report),
    '<h2>Totals</h2>',
    totals(report.totals),
    '<h2>What an ended run leaves behind (average)</h2>',
    perRun(report.perRun),
    '<h2>Memory after settling</h2>',
    memory(report),
    '<h2>Faults</h2>',
    faults(report),
    charts(report),
    '</main></body></html>',
    '',
  ].join('\n');
}
