import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/dev-server/probes/free-port';
import { cliEnv, runCli, spawnCli } from '../helpers/cli-process';
import { HIDE_THINKING_FROM_END_USERS } from './policy-fixture';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-serve-policy-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = cliEnv({ THOUGHTLINE_STORE: 'off', THOUGHTLINE_TOKENS: path.join(dir, 'tokens.json') });

describe('thoughtline serve --policy', () => {
  it('refuses to start (exit 2, the reason) on a policy it cannot read, from the flag or the environment', async () => {
    const missing = path.join(dir, 'missing.yaml');
    const bad = path.join(dir, 'bad.yaml');
    fs.writeFileSync(bad, 'version: 1\nroles:\n  end_user:\n    steps:\n      thinking: invisible\n');
    const byFlag = await runCli(['serve', '--port', String(await freePort()), '--policy', missing], env);
    expect(byFlag.code).toBe(2);
    expect(byFlag.stderr).toContain(`The visibility policy ${missing} cannot be used: it cannot be read`);
    expect(byFlag.stderr).not.toContain('serving');
    const byEnv = await runCli(['serve', '--port', String(await freePort())], {
      ...env,
      THOUGHTLINE_VISIBILITY_POLICY: bad,
    });
    expect(byEnv.code).toBe(2);
    expect(byEnv.stderr).toContain(`The visibility policy ${bad} cannot be used: roles.end_user.steps.thinking`);
  });

  it('serves with a policy it can read, and says which', async () => {
    const good = path.join(dir, 'good.yaml');
    fs.writeFileSync(good, HIDE_THINKING_FROM_END_USERS);
    const serve = spawnCli(['serve', '--port', String(await freePort()), '--policy', good], {
      ...env,
      THOUGHTLINE_DEPLOYMENT: 'eu-prod',
    });
    try {
      await serve.waitFor(new RegExp(`applying the visibility policy ${good} \\(deployment eu-prod\\)`), 60_000);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });
});
