import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { criteriaText, renderHtmlReport, renderMarkdownReport, runLinks, writeReports } from '../../src/eval/report';
import { EvaluationResult } from '../../src/domain/evaluation';
import { compareWithBaseline } from '../../src/domain/evaluation/gate';
import { summariseEvaluation } from '../../src/domain/evaluation/stats';
import { HOSTILE_WHY, realisticEvaluation, unit, evaluation } from './report-fixture';

const result = EvaluationResult.parse(realisticEvaluation());
const summary = summariseEvaluation(result);

describe('the markdown report', () => {
  const markdown = renderMarkdownReport({ result, summary });

  it('has the criteria table per variant, with values, intervals and verdicts', () => {
    expect(markdown).toContain('| Criterion | Target | stand-in-a | local |');
    const completion = markdown.split('\n').find((l) => l.startsWith('| Task completion |'))!;
    // claude: 24 of 24 ended success; local: 3 broken + 1 skipped of 24 → 20/24 = 83.3%.
    expect(completion).toMatch(
      /^\| Task completion \| > 80% \| 100\.0% \[86\.2–100\.0\] met \| 83\.3% \[\d+\.\d–\d+\.\d\] met \|$/,
    );
    const termination = markdown.split('\n').find((l) => l.startsWith('| Termination accuracy |'))!;
    expect(termination).toContain('NOT MET');
    expect(markdown).toMatch(/\| Reasoning coherence \| >= 90% \| 9\d\.\d% \[/);
  });

  it('lists per-scorer means, pass@k, cost and latency per variant', () => {
    expect(markdown).toContain('## Variant local (scripted/stand-in-b, strategy react-text)');
    expect(markdown).toMatch(/\| answer\\_match \| 0\.\d\d \[0\.\d\d–\d\.\d\d\] \| 21\/23 \(91\.3%\) \|/);
    expect(markdown).toMatch(/pass@k: pass@1 \d+\.\d%, pass@2 \d+\.\d%, pass@3 \d+\.\d%/);
    expect(markdown).toMatch(/Per case: \$0\.\d{4}, [\d,]+ tokens; latency p50 [\d.]+ s, p90 [\d.]+ s, p95 [\d.]+ s\./);
  });

  it('breaks the pass rate down by case tag', () => {
    const local = markdown.slice(markdown.indexOf('## Variant local'));
    expect(local).toMatch(/\| weather \| 66\.7% \[\d+\.\d–\d+\.\d\] \| 6 \|/);
    expect(local).toMatch(/\| delegation \| 0\.0% \[0\.0–\d+\.\d\] \| 3 \|/);
  });

  it('lists each failing case with its whys, its chain command and its viewer path, the hostile why escaped', () => {
    expect(markdown).toContain('### sub-agent · local · run 1 of 3');
    expect(markdown).toContain('- **termination\\_accuracy** (0.00): ended max\\_iterations; expected success');
    expect(markdown).toContain(
      '- Chain: `thoughtline chain eval-loop-3f9a21c4/sub-agent/local/0` · viewer: `/#/runs/eval-loop-3f9a21c4%2Fsub-agent%2Flocal%2F0`',
    );
    expect(markdown).not.toContain('<script>');
    expect(markdown).not.toContain('<img');
    expect(markdown).toContain('&lt;script&gt;');
    expect(markdown).toContain('\\| \\*\\*bold\\*\\* \\[link\\](javascript:1)');
    // Passing units are not listed.
    expect(markdown).not.toContain('### weather-single');
  });

  it('links the viewer with a base, and shows the gate with its whys', () => {
    const baseline = evaluation(
      result.cases.map((c) => unit(c.id, 'local', 0, true)),
      { dataset: result.dataset },
    );
    const gate = compareWithBaseline(baseline, result);
    const withGate = renderMarkdownReport({ result, summary, gate, viewerBase: 'http://127.0.0.1:8080/' });
    expect(withGate).toContain('## Regression gate: FAILED');
    expect(withGate).toContain('- local: case sub-agent passed its one run in the baseline and fails all 3 runs now');
    expect(withGate).toContain('viewer: <http://127.0.0.1:8080/#/runs/eval-loop-3f9a21c4%2Fsub-agent%2Flocal%2F0>');
    expect(runLinks('a/b', 'https://x.example/')).toEqual({
      chain: 'thoughtline chain a/b',
      viewer: 'https://x.example/#/runs/a%2Fb',
      viewerIsUrl: true,
    });
  });
});

describe('the HTML report', () => {
  const html = renderHtmlReport({ result, summary, viewerBase: 'http://127.0.0.1:8080' });

  it('is self-contained: no script, no external asset, a CSP that allows only its stylesheet by hash', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<(img|link|iframe|object|embed)\b/i);
    expect(html).not.toMatch(/<[a-z][^>]*\b(src|srcset|href)="(?!http:\/\/127)/i);
    expect(html).not.toMatch(/ style="/);
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'none'; base-uri 'none'; form-action 'none'">/,
    );
  });

  it('escapes everything from the data', () => {
    expect(html).toContain('&lt;/td&gt;&lt;/svg&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;');
    expect(html).not.toContain(HOSTILE_WHY);
  });

  it('draws the three charts: bars with whiskers per variant, a point per variant, a dot per scored run', () => {
    expect(html.match(/<svg /g)).toHaveLength(3);
    const bars = html.match(/<rect class="bar"/g)!.length;
    // pass rate + termination_accuracy, answer_match, recovery, judge: 5 measures × 2 variants.
    expect(bars).toBe(10);
    expect(html.match(/<circle class="point"/g)).toHaveLength(2);
    expect(html.match(/<circle class="dot"/g)).toHaveLength(47); // 48 units, one skipped
    expect(html).toContain('<title id="chart-scores-title">');
  });

  it('has the criteria table and links failing runs to the viewer', () => {
    expect(html).toMatch(/<td class="not_met" title="from termination_accuracy">/);
    expect(html).toContain('<a href="http://127.0.0.1:8080/#/runs/eval-loop-3f9a21c4%2Fsub-agent%2Flocal%2F0">');
    expect(html).toContain('<code>thoughtline chain eval-loop-3f9a21c4/sub-agent/local/0</code>');
  });

  it('writeReports writes the result, the markdown and the HTML', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-report-'));
    try {
      const written = writeReports(path.join(dir, 'out'), { result, summary });
      expect(EvaluationResult.parse(JSON.parse(fs.readFileSync(written.result, 'utf8')))).toEqual(result);
      expect(fs.readFileSync(written.markdown, 'utf8')).toMatch(/^# Evaluation loop\n/);
      expect(fs.readFileSync(written.html, 'utf8')).toMatch(/^<!doctype html>/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the criteria for a terminal', () => {
  it('is a table with a column per variant, aligned, and the pass rate last', () => {
    const lines = criteriaText(summary).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Criterion +Target +stand-in-a +local$/);
    expect(lines[1]).toMatch(/^-+  -+  -+  -+$/);
    expect(lines[3]).toMatch(
      /^Termination accuracy +>= 95% +100\.0% \[86\.2–100\.0\] met +87\.0% \[67\.9–95\.5\] NOT MET$/,
    );
    expect(lines[lines.length - 1]).toMatch(
      /^Pass rate \(units that ran\) +100\.0% \[86\.2–100\.0\] +78\.3% \[58\.1–90\.3\]$/,
    );
    // Every row's third column starts under its header.
    const at = lines[0]!.indexOf('stand-in-a');
    for (const line of lines.slice(2)) expect([line[at - 1], /\S/.test(line[at]!)]).toEqual([' ', true]);
  });
});
