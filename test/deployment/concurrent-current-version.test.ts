import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { listVersions, setCurrentVersion } from '../../src/deployment';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();

describe('setCurrentVersion from several workers at once', () => {
  // Replicas of one build start together and each makes its version current before it polls. The
  // server serialises those calls through the deployment's own workflow, and concurrent ones were
  // refused ("MultiOperation could not be executed: Update failed"), which ended a worker at start.
  it('succeeds for every caller, and the build is current once', { timeout: 90_000 }, async () => {
    const deployment = `replicas-${randomUUID()}`;
    const buildId = `build-${randomUUID().slice(0, 8)}`;
    const calls = Array.from({ length: 4 }, () =>
      setCurrentVersion(env.client, deployment, buildId, { beforePolling: true }),
    );
    const settled = await Promise.allSettled(calls);
    expect(settled.filter((s) => s.status === 'rejected')).toEqual([]);
    const versions = await listVersions(env.client, deployment);
    expect(versions.filter((v) => v.status === 'current').map((v) => v.buildId)).toEqual([buildId]);
  });
});
