import type { StreamResponse, TaskPushNotificationConfig } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { describe, expect, it } from 'vitest';
import { loadA2aSdk } from '../../src/server/a2a/a2a-sdk';
import { pushNotificationsTo, type TaskEvents } from '../../src/server/a2a/push/push-notifications';
import type { Identity } from '../../src/server/auth/identity';
import { hostAllowList } from '../../src/tools/builtin/http/host-allow-list';
import { eventually } from '../server/server-harness';

const ada: Identity = { id: 'ada', roles: [], tenant: 'acme', via: 'token' };
const bob: Identity = { id: 'bob', roles: [], tenant: 'acme', via: 'token' };
/** Everyone is who they were: this file tests the caps, not the roles. */
const same = async (identity: Identity): Promise<Identity> => identity;

const config = (id: string): TaskPushNotificationConfig => ({
  tenant: '',
  id,
  taskId: '',
  url: 'http://127.0.0.1:9/hook',
  token: '',
  authentication: undefined,
});

/** A task that sends nothing until its follower stops. */
const quiet: TaskEvents = (abort) => ({
  async *[Symbol.asyncIterator](): AsyncGenerator<StreamResponse> {
    await new Promise<void>((resolve) => abort.addEventListener('abort', () => resolve(), { once: true }));
  },
});

/** A task whose events fail at once (the run cannot be read any more). */
const failing: TaskEvents = () => ({
  async *[Symbol.asyncIterator](): AsyncGenerator<StreamResponse> {
    throw new Error('the run cannot be read');
  },
});

describe('A2A push configs are bounded per person and freed when their follower stops', () => {
  it('refuses a person past their cap on any task, not another person; a delete makes room', async () => {
    const sdk = await loadA2aSdk();
    const push = pushNotificationsTo(sdk, hostAllowList(['127.0.0.1']), () => {}, same, { perPerson: 3 });
    try {
      for (const task of ['t1', 't2', 't3']) await push.create(ada, task, config(`c-${task}`), quiet);
      await expect(push.create(ada, 't4', config('c-t4'), quiet)).rejects.toMatchObject({
        name: 'RequestMalformedError',
        message: expect.stringContaining('the most one person may'),
      });
      // Replacing one of their own configs is not a new one.
      await expect(push.create(ada, 't1', config('c-t1'), quiet)).resolves.toMatchObject({ id: 'c-t1' });
      await expect(push.create(bob, 't4', config('c-bob'), quiet)).resolves.toMatchObject({ id: 'c-bob' });
      await push.delete(ada, 't2', 'c-t2');
      await expect(push.create(ada, 't4', config('c-t4'), quiet)).resolves.toMatchObject({ id: 'c-t4' });
    } finally {
      await push.close();
    }
  });

  it('a follower whose events fail frees its configs, and the person may subscribe again', async () => {
    const sdk = await loadA2aSdk();
    const logs: string[] = [];
    const push = pushNotificationsTo(sdk, hostAllowList(['127.0.0.1']), (l) => logs.push(l), same, {
      perPerson: 1,
    });
    try {
      await push.create(ada, 'gone', config('c-gone'), failing);
      await eventually('the failed config freed', async () => (push.list(ada, 'gone').length === 0 ? true : undefined));
      expect(logs.join('\n')).toContain('the run cannot be read');
      await expect(push.create(ada, 'next', config('c-next'), quiet)).resolves.toMatchObject({ id: 'c-next' });
    } finally {
      await push.close();
    }
  });
});
