import type { CriterionSummary, VariantSummary } from '../../domain/evaluation/stats/evaluation-summary';
import { codeText, markdownText as md, urlText } from './markdown-text';
import { count, duration, estimateText, percent, usd } from './report-format';
import { failingUnits, MAX_LISTED_FAILURES, variantDescription, type ReportInput } from './report-input';
import { runLinks } from './report-links';
import { timeTargetRows } from './time-target-text';
import { counted } from '../../domain/text/counted';

/**
 * The evaluation as markdown: the gate's verdict, the success criteria per variant, per-scorer
 * means, pass@k, cost and latency, and every failing case with its reasons and how to open its
 * chain. Everything taken from the result is escaped (markdownText).
 */
export function renderMarkdownReport(input: ReportInput): string {
  const { result, summary, gate } = input;
  const out: string[] = [
    `# Evaluation ${md(result.name)}`,
    '',
    `Dataset **${md(result.dataset.name)}** (sha256 \`${md(result.dataset.sha256.slice(0, 16))}\`): ${counted(summary.cases, 'case')} × ${counted(summary.variants.length, 'variant')} × ${counted(summary.repeat, 'repeat')}. ` +
      `Status **${result.status}**, ${md(result.startedAt)} to ${md(result.endedAt)}; spent ${usd(result.spent.costUsd)} and ${count(result.spent.tokens)} tokens.` +
      (result.judge ? ` Judge: ${md(`${result.judge.provider}/${result.judge.model}`)}.` : ''),
    '',
  ];
  if (gate) {
    out.push(`## Regression gate: ${gate.passed ? 'passed' : 'FAILED'}`, '');
    if (gate.regressions.length === 0)
      out.push(`No regression against the baseline (one-sided tests at α = ${gate.alpha}).`);
    for (const r of gate.regressions) out.push(`- ${md(r.why)}`);
    for (const note of gate.notes) out.push(`- Note: ${md(note)}`);
    out.push('');
  }
  out.push('## Success criteria', '', ...criteriaTable(summary.variants), '');
  out.push(
    'Values with their 95% intervals; a criterion is met on its value. Not measured: no case produced that score. ' +
      'Times: p50 and p95 of the runs the model itself answered (replayed cases left out), met when the p95 is under the target; the gate never reads them.',
    '',
  );
  for (const v of summary.variants) out.push(...variantSection(v, variantDescription(result, v.variant)));
  out.push(...failures(input));
  return `${out.join('\n')}\n`;
}

function criteriaTable(variants: readonly VariantSummary[]): string[] {
  if (variants.length === 0) return ['No variant ran.'];
  const header = `| Criterion | Target | ${variants.map((v) => md(v.variant)).join(' | ')} |`;
  const rule = `|---|---|${variants.map(() => '---|').join('')}`;
  const rows = variants[0]!.criteria.map((c, i) => {
    const cells = variants.map((v) => criterionCell(v.criteria[i]!));
    return `| ${c.label} | ${targetText(c)} | ${cells.join(' | ')} |`;
  });
  const times = timeTargetRows(variants).map(
    (r) => `| ${r.label} | ${r.target} | ${r.cells.map((c) => md(c.text)).join(' | ')} |`,
  );
  return [header, rule, ...rows, ...times];
}

export const targetText = (c: CriterionSummary): string =>
  c.id === 'iteration_share' ? `< ${c.target.value * 100}% of max` : `${c.target.op} ${c.target.value * 100}%`;

export const statusMark = (c: CriterionSummary): string =>
  c.status === 'met' ? 'met' : c.status === 'not_met' ? 'NOT MET' : 'not measured';

function criterionCell(c: CriterionSummary): string {
  if (!c.estimate) return statusMark(c);
  return `${estimateText(c.estimate)} ${statusMark(c)}`;
}

function variantSection(v: VariantSummary, description: string): string[] {
  const u = v.units;
  const out = [
    `## Variant ${md(v.variant)}${description ? ` (${md(description)})` : ''}`,
    '',
    `${counted(u.total, 'unit')}: ${u.scored} scored, ${u.failed} failed, ${u.skipped} skipped; ${u.passed} passed every score. ` +
      `Pass rate ${estimateText(v.passRate)} of the units that ran.`,
    '',
  ];
  if (v.scorers.length > 0) {
    out.push('| Scorer | Mean [95% interval] | Passed |', '|---|---|---|');
    for (const s of v.scorers)
      out.push(
        `| ${md(s.scorer)} | ${estimateText(s.mean, true)} | ${s.passed}/${s.passRate.n} (${percent(s.passRate.value)}) |`,
      );
    out.push('');
  }
  if (v.byTag.length > 0) {
    out.push('| Tag | Pass rate [95% interval] | Runs |', '|---|---|---|');
    for (const t of v.byTag) out.push(`| ${md(t.tag)} | ${estimateText(t.passRate)} | ${t.passRate.n} |`);
    out.push('');
  }
  if (v.passAtK.length > 1) {
    out.push(
      `pass@k: ${v.passAtK.map((p) => `pass@${p.k} ${percent(p.value)}`).join(', ')} (mean pass rate ${estimateText(v.passRate)}).`,
      '',
    );
  }
  const latency = v.latencyMs
    ? `latency p50 ${duration(v.latencyMs.p50)}, p90 ${duration(v.latencyMs.p90)}, p95 ${duration(v.latencyMs.p95)}`
    : 'no latency measured';
  out.push(
    `Per case: ${usd(v.costUsd.perCase)}, ${count(v.tokens.perCase)} tokens; ${latency}. Total ${usd(v.costUsd.total)}, ${count(v.tokens.total)} tokens.`,
    '',
  );
  return out;
}

function failures({ result, viewerBase }: ReportInput): string[] {
  const failing = failingUnits(result);
  if (failing.length === 0) return ['## Failing cases', '', 'None: every unit that ran passed.', ''];
  const out = ['## Failing cases', ''];
  if (!viewerBase)
    out.push(
      'Viewer links are paths: open them on your `thoughtline serve` address (or set THOUGHTLINE_SERVER_URL).',
      '',
    );
  for (const u of failing.slice(0, MAX_LISTED_FAILURES)) {
    const links = runLinks(u.workflowId, viewerBase);
    out.push(
      `### ${md(u.caseId)} · ${md(u.variant)} · run ${u.repeat + 1} of ${result.repeat}`,
      '',
      `${u.status === 'failed' ? 'The run failed' : `Ended ${u.terminationReason ?? 'unknown'}`} after ${u.iterations}${u.maxIterations ? ` of ${u.maxIterations}` : ''} iterations, ${duration(u.latencyMs)}, ${usd(u.costUsd)}.` +
        (u.note ? ` ${md(u.note)}` : ''),
      '',
      ...u.scores.filter((s) => !s.passed).map((s) => `- **${md(s.scorer)}** (${s.value.toFixed(2)}): ${md(s.why)}`),
      `- Chain: \`${codeText(links.chain)}\` · viewer: ${links.viewerIsUrl ? `<${urlText(links.viewer)}>` : `\`${codeText(links.viewer)}\``}`,
      '',
    );
  }
  if (failing.length > MAX_LISTED_FAILURES)
    out.push(`… and ${failing.length - MAX_LISTED_FAILURES} more failing units in result.json.`, '');
  return out;
}
