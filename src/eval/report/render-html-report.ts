import { createHash } from 'node:crypto';
import type { CriterionSummary, VariantSummary } from '../../domain/evaluation/stats/evaluation-summary';
import { costQualityChart } from './charts/cost-quality-chart';
import { latencyChart } from './charts/latency-chart';
import { scoreChart } from './charts/score-chart';
import { escapeHtml as h } from './html-escape';
import { count, duration, estimateText, percent, usd } from './report-format';
import { failingUnits, MAX_LISTED_FAILURES, variantDescription, type ReportInput } from './report-input';
import { runLinks } from './report-links';
import { REPORT_CSS } from './report-style';
import { statusMark, targetText } from './render-markdown-report';
import { timeTargetRows } from './time-target-text';
import { counted } from '../../domain/text/counted';

/**
 * The evaluation as one self-contained HTML file: inline CSS, inline SVG charts drawn here, no
 * script, no external asset. Everything from the result is escaped, and a CSP meta tag allows
 * nothing but the one stylesheet (by hash), so hostile text in a case can neither run nor load.
 */
export function renderHtmlReport(input: ReportInput): string {
  const { result, summary, gate } = input;
  const styleHash = createHash('sha256').update(REPORT_CSS).digest('base64');
  const csp = `default-src 'none'; style-src 'sha256-${styleHash}'; img-src 'none'; base-uri 'none'; form-action 'none'`;
  const body = [
    `<h1>Evaluation ${h(result.name)}</h1>`,
    `<p class="meta">Dataset <strong>${h(result.dataset.name)}</strong> (sha256 <code>${h(result.dataset.sha256.slice(0, 16))}</code>): ` +
      `${counted(summary.cases, 'case')} × ${counted(summary.variants.length, 'variant')} × ${counted(summary.repeat, 'repeat')}. Status <strong>${h(result.status)}</strong>, ` +
      `${h(result.startedAt)} to ${h(result.endedAt)}; spent ${usd(result.spent.costUsd)} and ${count(result.spent.tokens)} tokens.` +
      (result.judge ? ` Judge: ${h(`${result.judge.provider}/${result.judge.model}`)}.` : '') +
      '</p>',
  ];
  if (gate) {
    body.push(
      `<section class="gate ${gate.passed ? 'passed' : 'failed'}" id="gate"><h2>Regression gate: ${gate.passed ? 'passed' : 'FAILED'}</h2><ul>`,
      ...gate.regressions.map((r) => `<li>${h(r.why)}</li>`),
      ...gate.notes.map((n) => `<li class="meta">Note: ${h(n)}</li>`),
      gate.regressions.length === 0
        ? `<li>No regression against the baseline (one-sided tests at α = ${gate.alpha}).</li>`
        : '',
      '</ul></section>',
    );
  }
  body.push('<h2>Success criteria</h2>', criteriaTable(summary.variants));
  body.push(
    '<p class="meta">Values with their 95% intervals; a criterion is met on its value. Not measured: no case produced that score.</p>',
  );
  if (summary.variants.length > 0)
    body.push(
      '<h2>Charts</h2><div class="charts">',
      figure(scoreChart(summary.variants), 'Pass rate and mean score per scorer; whiskers: 95% intervals.'),
      figure(costQualityChart(summary.variants), 'Cost per case against pass rate; whiskers: 95% intervals.'),
      figure(latencyChart(summary.variants, result.results), 'Latency of every scored run; marks: p50, p90, p95.'),
      '</div>',
    );
  for (const v of summary.variants) body.push(variantSection(v, variantDescription(result, v.variant)));
  body.push(failures(input));
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Evaluation ${h(result.name)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head><body><main>',
    ...body,
    '</main></body></html>',
    '',
  ].join('\n');
}

const figure = (svg: string, caption: string): string =>
  `<figure>${svg}<figcaption>${h(caption)}</figcaption></figure>`;

function criteriaTable(variants: readonly VariantSummary[]): string {
  if (variants.length === 0) return '<p>No variant ran.</p>';
  const head = `<tr><th>Criterion</th><th>Target</th>${variants.map((v) => `<th>${h(v.variant)}</th>`).join('')}</tr>`;
  const rows = variants[0]!.criteria.map((c, i) => {
    const cells = variants.map((v) => criterionCell(v.criteria[i]!)).join('');
    return `<tr><td>${h(c.label)}</td><td>${h(targetText(c))}</td>${cells}</tr>`;
  });
  const times = timeTargetRows(variants).map((r) => {
    const cells = r.cells.map((c) => `<td class="${c.status}" title="${h(r.source)}">${h(c.text)}</td>`).join('');
    return `<tr><td>${h(r.label)}</td><td>${h(r.target)}</td>${cells}</tr>`;
  });
  return `<table id="criteria">${head}${rows.join('')}${times.join('')}</table>`;
}

function criterionCell(c: CriterionSummary): string {
  const value = c.estimate ? `${estimateText(c.estimate)} ` : '';
  return `<td class="${c.status}" title="${h(`from ${c.source}`)}">${h(value)}${h(statusMark(c))}</td>`;
}

function variantSection(v: VariantSummary, description: string): string {
  const u = v.units;
  const out = [
    `<h2>Variant ${h(v.variant)}${description ? ` <span class="meta">(${h(description)})</span>` : ''}</h2>`,
    `<p>${u.total} units: ${u.scored} scored, ${u.failed} failed, ${u.skipped} skipped; ${u.passed} passed every score. Pass rate ${h(estimateText(v.passRate))} of the units that ran.</p>`,
  ];
  if (v.scorers.length > 0)
    out.push(
      '<table><tr><th>Scorer</th><th>Mean [95% interval]</th><th>Passed</th></tr>',
      ...v.scorers.map(
        (s) =>
          `<tr><td>${h(s.scorer)}</td><td>${h(estimateText(s.mean, true))}</td><td>${s.passed}/${s.passRate.n} (${percent(s.passRate.value)})</td></tr>`,
      ),
      '</table>',
    );
  if (v.byTag.length > 0)
    out.push(
      '<table><tr><th>Tag</th><th>Pass rate [95% interval]</th><th>Runs</th></tr>',
      ...v.byTag.map(
        (t) => `<tr><td>${h(t.tag)}</td><td>${h(estimateText(t.passRate))}</td><td>${t.passRate.n}</td></tr>`,
      ),
      '</table>',
    );
  if (v.passAtK.length > 1)
    out.push(`<p>pass@k: ${v.passAtK.map((p) => `pass@${p.k} ${percent(p.value)}`).join(', ')}.</p>`);
  const latency = v.latencyMs
    ? `latency p50 ${duration(v.latencyMs.p50)}, p90 ${duration(v.latencyMs.p90)}, p95 ${duration(v.latencyMs.p95)}`
    : 'no latency measured';
  out.push(
    `<p>Per case: ${usd(v.costUsd.perCase)}, ${count(v.tokens.perCase)} tokens; ${latency}. Total ${usd(v.costUsd.total)}, ${count(v.tokens.total)} tokens.</p>`,
  );
  return out.join('\n');
}

function failures({ result, viewerBase }: ReportInput): string {
  const failing = failingUnits(result);
  if (failing.length === 0) return '<h2>Failing cases</h2><p>None: every unit that ran passed.</p>';
  const out = ['<h2 id="failures">Failing cases</h2>'];
  if (!viewerBase)
    out.push(
      '<p class="meta">Viewer links are paths: open them on your <code>thoughtline serve</code> address (or set THOUGHTLINE_SERVER_URL).</p>',
    );
  for (const u of failing.slice(0, MAX_LISTED_FAILURES)) {
    const links = runLinks(u.workflowId, viewerBase);
    const viewer =
      links.viewerIsUrl && /^https?:\/\//i.test(links.viewer)
        ? `<a href="${h(links.viewer)}">${h(links.viewer)}</a>`
        : `<code>${h(links.viewer)}</code>`;
    out.push(
      `<div class="failure"><h3>${h(u.caseId)} · ${h(u.variant)} · run ${u.repeat + 1} of ${result.repeat}</h3>`,
      `<p>${u.status === 'failed' ? 'The run failed' : `Ended ${h(u.terminationReason ?? 'unknown')}`} after ${u.iterations}${u.maxIterations ? ` of ${u.maxIterations}` : ''} iterations, ${duration(u.latencyMs)}, ${usd(u.costUsd)}.${u.note ? ` ${h(u.note)}` : ''}</p>`,
      '<ul>',
      ...u.scores
        .filter((s) => !s.passed)
        .map((s) => `<li><strong>${h(s.scorer)}</strong> (${s.value.toFixed(2)}): ${h(s.why)}</li>`),
      `<li>Chain: <code>${h(links.chain)}</code> · viewer: ${viewer}</li>`,
      '</ul></div>',
    );
  }
  if (failing.length > MAX_LISTED_FAILURES)
    out.push(`<p>… and ${failing.length - MAX_LISTED_FAILURES} more failing units in result.json.</p>`);
  return out.join('\n');
}
