import { randomUUID } from 'node:crypto';
import type { StreamResponse, TaskPushNotificationConfig } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import type { HostAllowList } from '../../tools/builtin/http/host-allow-list';
import type { Identity } from '../auth/identity';
import type { A2aSdk } from './a2a-sdk';
import { postWebhook, webhookRefusal } from './webhook-post';

/** Configs one task holds at most, and the server in all. */
export const MAX_PUSH_CONFIGS_PER_TASK = 10;
export const MAX_PUSH_CONFIGS = 10_000;
const MAX_URL_CHARS = 2_000;
const MAX_SECRET_CHARS = 1_000;

/** The push-notification configs of tasks, and their delivery. */
export interface PushNotifications {
  /** Whether the cards advertise push notifications. */
  readonly enabled: boolean;
  /** The config a SendMessage carried, for the task it started or answered. */
  register(
    identity: Identity,
    runId: string,
    config: TaskPushNotificationConfig | undefined,
    events: TaskEvents,
  ): Promise<void>;
  create(
    identity: Identity,
    runId: string,
    config: TaskPushNotificationConfig,
    events: TaskEvents,
  ): Promise<TaskPushNotificationConfig>;
  get(identity: Identity, runId: string, id: string): Promise<TaskPushNotificationConfig>;
  list(identity: Identity, runId: string): TaskPushNotificationConfig[];
  delete(identity: Identity, runId: string, id: string): Promise<void>;
  close(): Promise<void>;
}

/** The task's events from now on (the task, then its updates), as a stream would send them; ends with the task or `abort`. */
export type TaskEvents = (abort: AbortSignal) => AsyncIterable<StreamResponse>;

const ownerKey = (identity: Identity): string => `${identity.tenant ?? ''}\u0000${identity.id}`;

/** Without an allow-list for webhooks: every push method answers the protocol's "not supported". */
export function pushNotificationsOff(errors: A2aSdk['errors']): PushNotifications {
  const refuse = (): never => {
    throw new errors.PushNotificationNotSupportedError(
      'Push notifications are off on this server: its operator sets THOUGHTLINE_A2A_PUSH_ALLOW to the webhook hosts allowed.',
    );
  };
  return {
    enabled: false,
    register: async (_identity, _runId, config) => {
      if (config) refuse();
    },
    create: async () => refuse(),
    get: async () => refuse(),
    list: () => refuse(),
    delete: async () => refuse(),
    close: async () => {},
  };
}

interface Stored {
  owner: string;
  config: TaskPushNotificationConfig;
}

/**
 * Push notifications to allow-listed webhooks. Configs live in this server instance's memory,
 * per task and per person (another person of the tenant neither sees nor changes them); a server
 * that restarts forgets them, and a client sets them again (docs/a2a.md). While a task has
 * configs, one follower per task reads its events from the event hub and POSTs each, as the
 * SDK's own sender does (`StreamResponse` JSON, the token in `X-A2A-Notification-Token`, the
 * authentication as `Authorization`), once, best effort: a failed delivery is logged, not retried.
 */
export function pushNotificationsTo(sdk: A2aSdk, allow: HostAllowList, log: (line: string) => void): PushNotifications {
  const { errors } = sdk;
  const byTask = new Map<string, Map<string, Stored>>();
  const followers = new Map<string, AbortController>();
  let total = 0;

  const notFound = (): Error =>
    new errors.TaskNotFoundError('No push notification config with this id for you on this task.');

  const follow = (runId: string, events: TaskEvents): void => {
    if (followers.has(runId)) return;
    const abort = new AbortController();
    followers.set(runId, abort);
    void (async () => {
      try {
        for await (const event of events(abort.signal)) {
          const configs = [...(byTask.get(runId)?.values() ?? [])];
          if (configs.length === 0) break;
          const body = JSON.stringify(sdk.core.StreamResponse.toJSON(event));
          await Promise.all(configs.map(({ config }) => deliver(runId, config, body)));
        }
        // The task ended (or its configs went): it sends nothing more, so its configs are dropped.
        if (!abort.signal.aborted) forget(runId);
      } catch (err) {
        log(`A2A push for ${runId}: the task's events stopped (${err instanceof Error ? err.message : String(err)})`);
      } finally {
        if (followers.get(runId) === abort) followers.delete(runId);
      }
    })();
  };

  const forget = (runId: string): void => {
    total -= byTask.get(runId)?.size ?? 0;
    byTask.delete(runId);
  };

  const deliver = async (runId: string, config: TaskPushNotificationConfig, body: string): Promise<void> => {
    const headers: Record<string, string> = { 'content-type': 'application/a2a+json' };
    if (config.token) headers['x-a2a-notification-token'] = config.token;
    if (config.authentication?.scheme && config.authentication.credentials)
      headers.authorization = `${config.authentication.scheme} ${config.authentication.credentials}`;
    try {
      const status = await postWebhook(config.url, allow, headers, body);
      if (status >= 300) log(`A2A push for ${runId} to ${new URL(config.url).host}: answered ${status}`);
    } catch (err) {
      log(`A2A push for ${runId} to ${new URL(config.url).host}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  const create = async (
    identity: Identity,
    runId: string,
    config: TaskPushNotificationConfig,
    events: TaskEvents,
  ): Promise<TaskPushNotificationConfig> => {
    const url = config.url ?? '';
    if (url.length === 0 || url.length > MAX_URL_CHARS)
      throw new errors.RequestMalformedError(`A push config needs a webhook url of 1 to ${MAX_URL_CHARS} characters.`);
    const refusal = webhookRefusal(url, allow);
    if (refusal) throw new errors.RequestMalformedError(refusal);
    const secrets = [config.token, config.authentication?.credentials, config.authentication?.scheme];
    if (secrets.some((s) => (s ?? '').length > MAX_SECRET_CHARS))
      throw new errors.RequestMalformedError(
        `A push config's token and credentials are at most ${MAX_SECRET_CHARS} characters.`,
      );
    const id = config.id || randomUUID();
    if (id.length > 200) throw new errors.RequestMalformedError('A push config id is at most 200 characters.');
    const configs = byTask.get(runId) ?? new Map<string, Stored>();
    const replacing = configs.get(id);
    if (replacing && replacing.owner !== ownerKey(identity))
      throw new errors.RequestMalformedError(
        'Another person holds a push config with this id on this task; choose another id.',
      );
    if (!replacing && (configs.size >= MAX_PUSH_CONFIGS_PER_TASK || total >= MAX_PUSH_CONFIGS))
      throw new errors.RequestMalformedError(
        `Too many push configs (${MAX_PUSH_CONFIGS_PER_TASK} per task, ${MAX_PUSH_CONFIGS} per server); delete one first.`,
      );
    const stored: TaskPushNotificationConfig = {
      tenant: '',
      id,
      taskId: runId,
      url,
      token: config.token ?? '',
      authentication: config.authentication,
    };
    if (!replacing) total += 1;
    configs.set(id, { owner: ownerKey(identity), config: stored });
    byTask.set(runId, configs);
    follow(runId, events);
    return stored;
  };

  const own = (identity: Identity, runId: string): Stored[] =>
    [...(byTask.get(runId)?.values() ?? [])].filter((s) => s.owner === ownerKey(identity));

  return {
    enabled: true,
    register: async (identity, runId, config, events) => {
      if (config) await create(identity, runId, config, events);
    },
    create,
    get: async (identity, runId, id) => {
      const found = own(identity, runId).find((s) => s.config.id === id);
      if (!found) throw notFound();
      return found.config;
    },
    list: (identity, runId) => own(identity, runId).map((s) => s.config),
    delete: async (identity, runId, id) => {
      const configs = byTask.get(runId);
      const found = configs?.get(id);
      if (!configs || !found || found.owner !== ownerKey(identity)) throw notFound();
      configs.delete(id);
      total -= 1;
      if (configs.size === 0) {
        forget(runId);
        followers.get(runId)?.abort();
      }
    },
    close: async () => {
      for (const abort of followers.values()) abort.abort();
      followers.clear();
    },
  };
}
