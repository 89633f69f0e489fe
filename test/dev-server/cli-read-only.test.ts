import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { isReachable } from '../../src/dev-server';
import { spawnScript } from '../helpers/cli-process';
import { freePortPair, isolatedCli, makeTempDir, ownServerEnv } from './fixtures';

const READ_ONLY = [['status'], ['chain'], ['tree'], ['watch'], ['export', '--format', 'json']];

describe('read-only commands never start a server', () => {
  let root: string;
  let cli: string;
  let marker: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    root = makeTempDir();
    cli = isolatedCli(root);
    marker = path.join(root, 'temporal-was-run');
    // Any attempt to start a server runs this "temporal", which leaves a mark.
    const fake = path.join(root, 'fake-temporal');
    fs.writeFileSync(fake, `#!/bin/sh\ntouch '${marker}'\nexit 1\n`, { mode: 0o755 });
    env = ownServerEnv({ THOUGHTLINE_TEMPORAL_CLI: fake });
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  async function run(
    args: string[],
    extraEnv: Record<string, string> = {},
  ): Promise<{ code: number | null; output: string; ms: number }> {
    const before = Date.now();
    const p = spawnScript(cli, args, { ...env, ...extraEnv });
    const code = await p.exited;
    return { code, output: p.output(), ms: Date.now() - before };
  }

  it('with no local server: each exits 1 within seconds, says how to start one, and runs no temporal', async () => {
    // The default address; a developer's own dev server may be running there.
    const someoneElsesServer = await isReachable('127.0.0.1:7233');
    for (const verb of READ_ONLY) {
      const { code, output, ms } = await run([verb[0]!, 'agent-nowhere', ...verb.slice(1)]);
      expect(code, output).toBe(1);
      expect(ms, output).toBeLessThan(10_000);
      expect(output).not.toContain('starting');
      if (!someoneElsesServer) {
        expect(output).toContain(
          'no Temporal server is running at 127.0.0.1:7233. Start one in another terminal with "npx thoughtline dev"',
        );
      }
    }
    expect(fs.existsSync(marker)).toBe(false);
  }, 90_000);

  it('with TEMPORAL_ADDRESS where nothing listens: exits 1 and points at thoughtline dev', async () => {
    const port = await freePortPair();
    const { code, output, ms } = await run(['status', 'agent-nowhere'], { TEMPORAL_ADDRESS: `127.0.0.1:${port}` });
    expect(code, output).toBe(1);
    expect(ms).toBeLessThan(10_000);
    expect(output).toContain(`TEMPORAL_ADDRESS is set to '127.0.0.1:${port}' but nothing accepts connections there.`);
    expect(output).toContain('"npx thoughtline dev"');
    expect(fs.existsSync(marker)).toBe(false);
  });
});
