import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { ensureDebianProgram } from '../helpers/debian-package';
import launch from '../../scripts/headless-chromium.json';

/**
 * Debian's Chromium under Playwright, headless, with a fresh profile. The machine's network is
 * closed: without these flags Chromium stalls on first-run, sync and component updates.
 */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const executablePath = ensureDebianProgram('chromium');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...launch.options,
    colorScheme: 'light', // the JSON's, as Playwright's literal type
    executablePath,
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
