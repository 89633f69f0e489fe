import { describe, expect, it } from 'vitest';
import { buildIdOf, packageVersion, resolveVersion } from '../../src/deployment';

describe('a worker build id', () => {
  it('is the package version and a hash of the workflow bundle: the same code the same id, any change another', () => {
    const code = 'export async function agentWorkflow() {}';
    expect(buildIdOf('0.1.0', code)).toMatch(/^0\.1\.0-[0-9a-f]{12}$/);
    expect(buildIdOf('0.1.0', code)).toBe(buildIdOf('0.1.0', code));
    expect(buildIdOf('0.1.0', `${code} `)).not.toBe(buildIdOf('0.1.0', code));
    expect(buildIdOf('0.2.0', code)).not.toBe(buildIdOf('0.1.0', code));
  });

  it('pins runs by default, and a build id given is used as it is', () => {
    const v = resolveVersion({ name: 'thoughtline' }, { code: 'x' });
    expect(v.buildId).toBe(buildIdOf(packageVersion(), 'x'));
    expect(v.options).toEqual({
      useWorkerVersioning: true,
      version: { deploymentName: 'thoughtline', buildId: v.buildId },
      defaultVersioningBehavior: 'PINNED',
    });
    expect(resolveVersion({ name: 'q', buildId: 'release-7' }, { code: 'x' }).buildId).toBe('release-7');
  });
});
