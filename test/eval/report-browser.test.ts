import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReports } from '../../src/eval/report';
import { compareWithBaseline } from '../../src/domain/evaluation/gate';
import { summariseEvaluation } from '../../src/domain/evaluation/stats';
import { launchChromium } from '../viewer/headless-chromium';
import { realisticEvaluation } from './report-fixture';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-report-browser-'));
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
const consoleErrors: string[] = [];

beforeAll(async () => {
  const result = realisticEvaluation();
  // The same evaluation from before the local model broke on sub-agents: that case is a stable flip.
  const before = realisticEvaluation();
  const baseline = {
    ...before,
    results: before.results.map((u) =>
      u.variant === 'local' && u.caseId === 'sub-agent'
        ? {
            ...u,
            passed: true,
            terminationReason: 'success' as const,
            iterations: 3,
            scores: u.scores.map((s) => ({ ...s, value: 1, passed: true })),
          }
        : u,
    ),
  };
  const gate = compareWithBaseline(baseline, result);
  const files = writeReports(dir, {
    result,
    summary: summariseEvaluation(result),
    gate,
    viewerBase: 'http://127.0.0.1:8080',
  });
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on('pageerror', (err) => consoleErrors.push(err.message));
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  // Runs before the page's own content; the report has no script of its own to record violations.
  await page.addInitScript({
    content: `window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.violatedDirective + ': ' + e.blockedURI));`,
  });
  await page.goto(`file://${files.html}`);
  await page.waitForLoadState('load');
});

afterAll(async () => {
  await browser?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const violations = (): Promise<string[]> => page.evaluate('[...window.cspViolations]');
const background = (): Promise<string> => page.evaluate('getComputedStyle(document.body).backgroundColor');

describe('the HTML report in Chromium', () => {
  it('draws its three charts with real size: bars, points and dots', async () => {
    const charts = await page.$$eval('svg.chart', (svgs) =>
      svgs.map((svg) => {
        const box = svg.getBoundingClientRect();
        return { id: svg.id, width: box.width, height: box.height };
      }),
    );
    expect(charts.map((c) => c.id)).toEqual(['chart-scores', 'chart-cost-quality', 'chart-latency']);
    for (const chart of charts) {
      expect(chart.width).toBeGreaterThan(300);
      expect(chart.height).toBeGreaterThan(100);
    }
    const sized = (selector: string) =>
      page.$$eval(selector, (els) =>
        els.map((el) => {
          const box = el.getBoundingClientRect();
          return box.width > 0 && box.height > 0;
        }),
      );
    const bars = await sized('rect.bar');
    expect(bars).toHaveLength(10);
    expect(bars.every(Boolean)).toBe(true);
    expect((await sized('circle.point')).filter(Boolean)).toHaveLength(2);
    expect((await sized('circle.dot')).filter(Boolean)).toHaveLength(47);
    // The stylesheet applied (allowed by its hash): the body is not the browser's default serif.
    expect(await background()).toBe('rgb(249, 250, 251)');
  });

  it('shows hostile text as text: nothing runs, nothing loads, the CSP is never violated', async () => {
    expect(await page.$$eval('script, img, iframe, object, embed', (els) => els.length)).toBe(0);
    expect(await page.textContent('body')).toContain(`<script>alert('x')</script><img src=https://example.com/x.png`);
    expect(await page.textContent('#gate')).toContain(
      'local: case sub-agent passed all 3 runs in the baseline and fails all 3 runs now',
    );
    expect(consoleErrors).toEqual([]);
    expect(await violations()).toEqual([]);
  });

  it('the violation listener is live: a stylesheet the CSP does not name is refused and recorded', async () => {
    await page.evaluate(`{
      const style = document.createElement('style');
      style.textContent = 'body { background: red; }';
      document.head.appendChild(style);
    }`);
    await expect.poll(violations).toEqual([expect.stringMatching(/^style-src/)]);
    expect(await background()).toBe('rgb(249, 250, 251)');
  });

  // The docs' picture is never this test data: scripts/eval-report-screenshot.sh takes it of a real offline evaluation.
  it('takes a screenshot of the criteria and the charts', async () => {
    const bottom = await page.$eval('.charts', (el) => el.getBoundingClientRect().bottom);
    const png = await page.screenshot({
      fullPage: true,
      clip: { x: 0, y: 0, width: 1100, height: Math.ceil(bottom) + 24 },
    });
    // A PNG, and more than a blank page's worth of it.
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.length).toBeGreaterThan(40_000);
  });
});
