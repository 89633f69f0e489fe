import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium } from '../test/viewer/headless-chromium';
import { createTokenFileAuthenticator } from '../src/server/auth/token-file-authenticator';
import { addToken } from '../src/server/auth/token-file-store';
import { createServer } from '../src/server/create-server';
import { registerViewerRoute } from '../src/server/routes/viewer-route';
import { benchRun, createBenchModel } from './lib/bench-model';
import type { BenchConfig } from './lib/bench-config';
import type { BenchContext } from './lib/bench-context';
import { benchTool } from './lib/bench-tools';
import { BENCH_MODEL, withBenchWorker } from './lib/bench-worker';
import { measurement, type FigureBody } from './lib/figure';
import { median, p95, summarise } from './lib/stats';
import { runLimitMs, within } from './lib/within';

/** The bound on opening a long run's page. */
const OPEN_TARGET = { op: '<', value: 1_000 } as const;

/** The short run opened beside the long one: the demo's length. */
const SHORT = 3;

/** What one load of the page saw, on the page's own clock (ms from the navigation's start). */
interface Load {
  openMs: number;
  cards: number;
  steps: number;
}

/**
 * Figure 16: how fast a long run's page opens. One run of many iterations (1,000 at full size)
 * on the bench worker; `serve`'s server with the viewer in front of it; Debian's Chromium opens
 * the run's page again and again. "Open" is the moment the page shows the run's latest iteration
 * cards (their waterfalls drawn) and the answer on top, timed from the navigation's start by the
 * page itself: the sign-in check, the status and the latest page of the chain included.
 */
export async function measureRunPage(ctx: BenchContext, config: BenchConfig): Promise<FigureBody> {
  const { iterations, loads } = config.runPage;
  ctx.log(`runpage: one run of ${iterations} iterations, then its page opened ${loads + 1} times in Chromium`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-run-page-'));
  const tokens = path.join(dir, 'tokens.json');
  const token = addToken(tokens, { id: 'bench-reader', roles: ['developer'] });
  try {
    return await withBenchWorker(ctx, { model: createBenchModel(), tools: [benchTool(200)] }, async (agents) => {
      const finished = async (n: number) => {
        const handle = await agents.start({ ...benchRun({ iterations: n }), model: BENCH_MODEL, maxIterations: n + 2 });
        const result = await within(handle.result(), runLimitMs(n), `run ${handle.workflowId}`);
        if (result.terminationReason !== 'success' || result.toolCalls !== n)
          throw new Error(
            `run ${handle.workflowId} ended ${result.terminationReason} after ${result.toolCalls} tool calls`,
          );
        return { workflowId: handle.workflowId, result };
      };
      const long = await finished(iterations);
      // The same page of a short run: what opening any page costs, against which the long run's is read.
      const short = await finished(SHORT);
      const server = await createServer({
        agents,
        auth: createTokenFileAuthenticator({ file: tokens }),
        port: 0,
        // The repository's viewer/ folder (the compiled bench lives elsewhere), as figure 3b serves it.
        extend: (app) => registerViewerRoute(app, path.resolve('viewer')),
      });
      const browser = await launchChromium();
      try {
        const urlOf = (workflowId: string) =>
          `${server.url}/#token=${encodeURIComponent(token)}&/runs/${encodeURIComponent(workflowId)}`;
        const open = async (url: string): Promise<Load> => {
          const page = await browser.context.newPage();
          try {
            await page.goto(url);
            const seen = await page.waitForFunction(
              () => {
                type Doc = { querySelector(q: string): unknown; querySelectorAll(q: string): { length: number } };
                const doc = (globalThis as unknown as { document: Doc }).document;
                const cards = doc.querySelectorAll('.chain > .steps > section.iteration');
                const drawn = doc.querySelector('.chain > .steps > section.iteration:last-child svg.iteration-chart');
                if (!drawn || !doc.querySelector('.ending .marked-answer')) return undefined;
                return {
                  openMs: performance.now(),
                  cards: cards.length,
                  steps: doc.querySelectorAll('.steps .step').length,
                };
              },
              undefined,
              { polling: 'raf', timeout: 60_000 },
            );
            return (await seen.jsonValue()) as Load;
          } finally {
            await page.close();
          }
        };
        // The first load fills Chromium's cache and the server's: reported apart.
        /** The two reads the page waits on (the status, then the chain's latest page), over HTTP from here. */
        const reads = async (workflowId: string, steps: number): Promise<number> => {
          const started = performance.now();
          const get = async (url: string) => {
            const response = await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
            if (!response.ok) throw new Error(`${url}: ${response.status}`);
            await response.arrayBuffer();
          };
          const run = `/v1/runs/${encodeURIComponent(workflowId)}`;
          await get(run);
          await get(`${run}/chain?afterStep=${Math.max(0, steps - 50)}&limit=50`);
          return performance.now() - started;
        };
        const cold = await open(urlOf(long.workflowId));
        // Alternated, so neither run's loads sit in a quieter stretch of the machine.
        const warm: Load[] = [];
        const shortLoads: Load[] = [];
        for (let i = 0; i < loads; i += 1) {
          warm.push(await open(urlOf(long.workflowId)));
          shortLoads.push(await open(urlOf(short.workflowId)));
        }
        const apiLong: number[] = [];
        const apiShort: number[] = [];
        for (let i = 0; i < loads; i += 1) {
          apiLong.push(await reads(long.workflowId, long.result.chain.steps.length));
          apiShort.push(await reads(short.workflowId, short.result.chain.steps.length));
        }
        const samples = warm.map((l) => l.openMs);
        const shortSamples = shortLoads.map((l) => l.openMs);
        return {
          measurements: [
            measurement(`${iterations}-iteration run's page open, first load (cold cache)`, cold.openMs, 'ms'),
            measurement(`${iterations}-iteration run's page open p50 (${loads} loads)`, median(samples), 'ms'),
            measurement(`${iterations}-iteration run's page open p95 (${loads} loads)`, p95(samples), 'ms', {
              target: OPEN_TARGET,
            }),
            measurement(`a ${SHORT}-iteration run's page open p50 (${loads} loads)`, median(shortSamples), 'ms'),
            measurement(
              `ratio p50, ${iterations}-iteration / ${SHORT}-iteration page`,
              median(samples) / median(shortSamples),
              'x',
            ),
            measurement(
              `its API reads (status, then the chain's latest page), p50, ${iterations} / ${SHORT} iterations`,
              median(apiLong),
              'ms',
              { note: `${SHORT}-iteration run: ${median(apiShort).toFixed(0)} ms` },
            ),
            measurement('iteration cards drawn on open', warm[0]?.cards, 'cards'),
            measurement('steps drawn on open (the latest page; earlier ones on scroll)', warm[0]?.steps, 'steps'),
          ],
          details: {
            iterations,
            steps: long.result.chain.steps.length,
            continuations: long.result.continuations,
            short: { iterations: SHORT, summary: summarise(shortSamples), samplesMs: shortSamples },
            apiReads: { long: summarise(apiLong), short: summarise(apiShort) },
            cold,
            warm: summarise(samples),
            samplesMs: samples,
            how: 'createServer with the viewer (token file, no store) in front of the bench worker; Chromium (test/viewer/headless-chromium) opens #/runs/<id> in a new tab each time; the page reports performance.now() at the first animation frame where the last iteration card has its waterfall and the answer is on top',
          },
        };
      } finally {
        await browser.close();
        await server.close();
      }
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
