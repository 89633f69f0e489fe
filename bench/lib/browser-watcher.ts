import type { Page } from 'playwright-core';
import { launchChromium } from '../../test/viewer/headless-chromium';

/** What one page saw of one run: latencies in ms, on the machine's one clock. */
export interface BrowserWatch {
  stepMs: number[];
  tokenMs: number[];
  steps: number;
}

export interface BrowserWatcher {
  /** Starts following a run's events in the page, through the viewer's own sse.js. */
  follow(workflowId: string): Promise<void>;
  /** Waits for the run's `end` event, then returns what the page measured. */
  result(timeoutMs: number): Promise<BrowserWatch>;
  close(): Promise<void>;
}

/**
 * A watcher in Debian's Chromium: a page on the server's origin holding the bearer token as the
 * viewer does (sessionStorage), following the event stream with the viewer's `followEvents`
 * (fetch and a stream reader, as the run page does). Each message is timed with the page's
 * Date.now when the parser hands it over: the step's workflow time or the text's write time
 * subtracted from it, as for the node clients.
 */
export async function startBrowserWatcher(serverUrl: string, token: string): Promise<BrowserWatcher> {
  const browser = await launchChromium();
  let page: Page | undefined;
  try {
    page = await browser.context.newPage();
    // Any same-origin page without the viewer's app: the module is imported by hand below.
    await page.goto(`${serverUrl}/v1/openapi.json`);
    await page.evaluate(`sessionStorage.setItem('thoughtline.token', ${JSON.stringify(token)})`);
  } catch (err) {
    await browser.close();
    throw err;
  }
  const open = page;
  return {
    async follow(workflowId) {
      // A string, not a function: compiled to CommonJS, a function's import() would become require().
      await open.evaluate(`(async () => {
        const watch = { steps: 0, stepMs: [], tokenMs: [], ended: false };
        globalThis.__watch = watch;
        const { followEvents } = await import('/viewer/sse.js');
        const openedAt = Date.now();
        followEvents('/v1/runs/' + encodeURIComponent(${JSON.stringify(workflowId)}) + '/events', {
          onEvent: (m) => {
            const now = Date.now();
            if (m.event === 'step') {
              const at = Date.parse(JSON.parse(m.data).step.timestamp);
              watch.steps += 1;
              if (at >= openedAt) watch.stepMs.push(now - at);
            } else if (m.event === 'text_delta') {
              for (const stamp of JSON.parse(m.data).text.matchAll(/⟦(\\d+(?:\\.\\d+)?)⟧/g)) watch.tokenMs.push(now - Number(stamp[1]));
            } else if (m.event === 'end') watch.ended = true;
          },
        });
      })()`);
    },
    async result(timeoutMs) {
      await open.waitForFunction(
        () => (globalThis as unknown as { __watch?: { ended: boolean } }).__watch?.ended === true,
        undefined,
        { timeout: timeoutMs, polling: 200 },
      );
      return open.evaluate(() => {
        const { steps, stepMs, tokenMs } = (globalThis as unknown as { __watch: BrowserWatch }).__watch;
        return { steps, stepMs, tokenMs };
      });
    },
    close: () => browser.close(),
  };
}
