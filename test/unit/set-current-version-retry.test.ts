import type { Client } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { setCurrentVersion } from '../../src/deployment';

/** A client whose two deployment calls answer from the given scripts, counting the set calls. */
function clientAnswering(setAnswers: Array<Error | 'ok'>, current: () => string | undefined) {
  let sets = 0;
  const workflowService = {
    setWorkerDeploymentCurrentVersion: async () => {
      const answer = setAnswers[sets++] ?? 'ok';
      if (answer !== 'ok') throw answer;
      return {};
    },
    describeWorkerDeployment: async () => ({
      workerDeploymentInfo: { routingConfig: { currentDeploymentVersion: { buildId: current() } } },
    }),
  };
  return { client: { options: { namespace: 'default' }, workflowService } as unknown as Client, sets: () => sets };
}

const grpcError = (code: number, message: string) => Object.assign(new Error(message), { code });
const serverRace = () => grpcError(13, 'MultiOperation could not be executed: Update failed');

describe('setCurrentVersion', () => {
  it('tries a call the server failed transiently again, and succeeds', async () => {
    const { client, sets } = clientAnswering([serverRace(), 'ok'], () => undefined);
    await setCurrentVersion(client, 'agents', 'b1', { beforePolling: true });
    expect(sets()).toBe(2);
  });

  it('is done when another replica made the same build current meanwhile', async () => {
    const { client, sets } = clientAnswering([serverRace()], () => 'b1');
    await setCurrentVersion(client, 'agents', 'b1');
    expect(sets()).toBe(1);
  });

  it('gives a refusal that cannot pass by trying again to the caller at once', async () => {
    const { client, sets } = clientAnswering([grpcError(9, 'version has no pollers')], () => undefined);
    await expect(setCurrentVersion(client, 'agents', 'b1')).rejects.toThrow('version has no pollers');
    expect(sets()).toBe(1);
  });

  it('gives up after five attempts with the last error', { timeout: 15_000 }, async () => {
    const { client, sets } = clientAnswering(Array.from({ length: 9 }, serverRace), () => 'another');
    await expect(setCurrentVersion(client, 'agents', 'b1')).rejects.toThrow('MultiOperation');
    expect(sets()).toBe(5);
  });
});
