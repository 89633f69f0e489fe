import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { ensureDebianProgram } from '../helpers/debian-package';

/**
 * Debian's Chromium under Playwright, headless, with a fresh profile. The machine's network is
 * closed: without these flags Chromium stalls on first-run, sync and component updates.
 */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const executablePath = ensureDebianProgram('chromium');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1100, height: 900 },
    colorScheme: 'light',
    timeout: 60_000,
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
