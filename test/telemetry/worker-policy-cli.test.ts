import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../helpers/cli-process';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-worker-policy-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('thoughtline worker --policy', () => {
  it('refuses to start with a policy it cannot read: exit 2 and the reason, before connecting', async () => {
    const bad = path.join(dir, 'bad-policy.yaml');
    // A level that does not exist: the whole policy is refused, never half-applied.
    fs.writeFileSync(bad, 'version: 1\nroles:\n  end_user:\n    steps:\n      thinking: invisible\n');
    const run = await runCli(['worker', '--policy', bad], cliEnv({}));
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`The visibility policy ${bad} cannot be used`);
    expect(run.stderr).toContain('roles.end_user.steps.thinking');
    expect(run.stderr).not.toMatch(/worker polling/);
  });

  it('reads THOUGHTLINE_VISIBILITY_POLICY when --policy is not given: a missing file stops it too', async () => {
    const missing = path.join(dir, 'missing.yaml');
    const run = await runCli(['worker'], cliEnv({ THOUGHTLINE_VISIBILITY_POLICY: missing }));
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`The visibility policy ${missing} cannot be used: it cannot be read`);
  });
});
