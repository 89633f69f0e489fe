import { personKey } from '../../auth/person-key';
import { randomUUID } from 'node:crypto';
import type { StreamResponse, TaskPushNotificationConfig } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import type { HostAllowList } from '../../../tools/builtin/http/host-allow-list';
import type { CurrentIdentity } from '../../auth/current-identity';
import type { Identity } from '../../auth/identity';
import type { A2aSdk } from '../a2a-sdk';
import { postWebhook, webhookRefusal } from './webhook-post';

/** Configs one task holds at most, one person across tasks, and the server in all. */
export const MAX_PUSH_CONFIGS_PER_TASK = 10;
export const MAX_PUSH_CONFIGS_PER_PERSON = 100;
export const MAX_PUSH_CONFIGS = 10_000;
const MAX_URL_CHARS = 2_000;
const MAX_SECRET_CHARS = 1_000;

/** The push-notification configs of tasks, and their delivery. */
export interface PushNotifications {
  /** Whether the cards advertise push notifications. */
  readonly enabled: boolean;
  /** Refuses a config a SendMessage carries before the message starts anything. */
  check(config: TaskPushNotificationConfig | undefined): void;
  /**
   * The config a SendMessage carried, for the task it started or answered. `events` reads the
   * task as the person `as` resolves at each update (their current roles, view and lens).
   */
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

/**
 * The task's events from now on (the task, then its updates), as a stream would send them, each
 * read as the person `as` resolves for it (it rejects when they are gone); ends with the task or `abort`.
 */
export type TaskEvents = (abort: AbortSignal, as: () => Promise<Identity>) => AsyncIterable<StreamResponse>;

/** Configs belong to a person (personKey: tenant, id and how they signed in). */
const ownerKey = (identity: Identity): string => personKey(identity);
const followerKey = (runId: string, owner: string): string => `${runId}\u0000${owner}`;

/** Without an allow-list for webhooks: every push method answers the protocol's "not supported". */
export function pushNotificationsOff(errors: A2aSdk['errors']): PushNotifications {
  const refuse = (): never => {
    throw new errors.PushNotificationNotSupportedError(
      'Push notifications are off on this server: its operator sets THOUGHTLINE_A2A_PUSH_ALLOW to the webhook hosts allowed.',
    );
  };
  return {
    enabled: false,
    check: (config) => {
      if (config) refuse();
    },
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

/** One person's follower of one task: who they are (their latest request's identity; roles read again per update). */
interface Follower {
  abort: AbortController;
  identity: Identity;
  expiry?: NodeJS.Timeout;
}

/** Node's timers hold at most this long; a later expiry is caught at the delivery after it. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Push notifications to allow-listed webhooks. Configs live in this server instance's memory,
 * per task and per person (another person of the tenant neither sees nor changes them); a server
 * that restarts forgets them, and a client sets them again (docs/a2a.md). Each person with
 * configs on a task has a follower of their own, reading the task's events as that person, so a
 * subscriber never receives another person's view. A follower keeps who the person is (id,
 * tenant, auth source), never their roles: `current` reads those again for each update, and a
 * person it no longer finds, or whose credential expired (an OIDC token's `exp`), gets nothing
 * more and their configs on the task are freed. Each event is POSTed as the
 * SDK's own sender does (`StreamResponse` JSON, the token in `X-A2A-Notification-Token`, the
 * authentication as `Authorization`), once, best effort: a failed delivery is logged, not
 * retried. A follower that stops, with its task or by a failure, frees its person's configs on
 * that task. `limits` are for tests; the defaults are the constants above.
 */
export function pushNotificationsTo(
  sdk: A2aSdk,
  allow: HostAllowList,
  log: (line: string) => void,
  current: CurrentIdentity,
  limits: { perTask?: number; perPerson?: number; total?: number } = {},
): PushNotifications {
  const { errors } = sdk;
  const perTask = limits.perTask ?? MAX_PUSH_CONFIGS_PER_TASK;
  const perPerson = limits.perPerson ?? MAX_PUSH_CONFIGS_PER_PERSON;
  const max = limits.total ?? MAX_PUSH_CONFIGS;
  const byTask = new Map<string, Map<string, Stored>>();
  /** One follower per task and person (followerKey). */
  const followers = new Map<string, Follower>();
  const byPerson = new Map<string, number>();
  let total = 0;

  const notFound = (): Error =>
    new errors.TaskNotFoundError('No push notification config with this id for you on this task.');

  const ownedOn = (runId: string, owner: string): Stored[] =>
    [...(byTask.get(runId)?.values() ?? [])].filter((s) => s.owner === owner);

  const drop = (runId: string, id: string): void => {
    const configs = byTask.get(runId);
    const stored = configs?.get(id);
    if (!configs || !stored) return;
    configs.delete(id);
    total -= 1;
    const left = (byPerson.get(stored.owner) ?? 1) - 1;
    if (left > 0) byPerson.set(stored.owner, left);
    else byPerson.delete(stored.owner);
    if (configs.size === 0) byTask.delete(runId);
  };

  /** Stops a follower: with `free`, its person's configs on the task go too (kept only while the server closes). */
  const stop = (runId: string, owner: string, follower: Follower, free: boolean): void => {
    const key = followerKey(runId, owner);
    if (followers.get(key) !== follower) return;
    followers.delete(key);
    clearTimeout(follower.expiry);
    follower.abort.abort();
    if (free) for (const s of ownedOn(runId, owner)) drop(runId, s.config.id);
  };

  /** Stops the follower when its person's credential expires, even if the task is quiet by then. */
  const expireAt = (runId: string, owner: string, follower: Follower): void => {
    clearTimeout(follower.expiry);
    if (follower.identity.expiresAt === undefined) return;
    const wait = follower.identity.expiresAt - Date.now();
    if (wait > MAX_TIMER_MS) return;
    follower.expiry = setTimeout(
      () => {
        log(`A2A push for ${runId}: the subscriber's credential expired; their configs on the task are freed`);
        stop(runId, owner, follower, true);
      },
      Math.max(0, wait),
    );
    follower.expiry.unref();
  };

  const follow = (runId: string, owner: string, identity: Identity, events: TaskEvents): void => {
    const key = followerKey(runId, owner);
    const existing = followers.get(key);
    if (existing) {
      // A later request of the same person: its credential is the one the subscription lasts by now.
      existing.identity = identity;
      expireAt(runId, owner, existing);
      return;
    }
    const follower: Follower = { abort: new AbortController(), identity };
    followers.set(key, follower);
    expireAt(runId, owner, follower);
    const as = async (): Promise<Identity> => {
      const now = await current(follower.identity);
      if (!now)
        throw new Error(
          "the subscriber is no longer who they were (their token is gone from the server's token file, or their credential expired)",
        );
      return now;
    };
    void (async () => {
      try {
        for await (const event of events(follower.abort.signal, as)) {
          const configs = ownedOn(runId, owner);
          if (configs.length === 0) break;
          const body = JSON.stringify(sdk.core.StreamResponse.toJSON(event));
          await Promise.all(configs.map(({ config }) => deliver(runId, config, body)));
        }
      } catch (err) {
        log(`A2A push for ${runId}: the task's events stopped (${err instanceof Error ? err.message : String(err)})`);
      } finally {
        // Ended with the task, its configs gone, or failed: nothing more goes to this person's
        // webhooks for the task, so their configs on it are freed (kept only while the server closes).
        if (!follower.abort.signal.aborted) stop(runId, owner, follower, true);
      }
    })();
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

  const check = (config: TaskPushNotificationConfig): void => {
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
    if ((config.id ?? '').length > 200)
      throw new errors.RequestMalformedError('A push config id is at most 200 characters.');
  };

  const create = async (
    identity: Identity,
    runId: string,
    config: TaskPushNotificationConfig,
    events: TaskEvents,
  ): Promise<TaskPushNotificationConfig> => {
    check(config);
    // Each delivery reads the person's roles again: one their authentication cannot answer for gets no config.
    if (!(await current(identity)))
      throw new errors.PushNotificationNotSupportedError(
        "Push notifications need your roles read again at each delivery, and this server's authentication cannot (or your credential has expired).",
      );
    const owner = ownerKey(identity);
    const id = config.id || randomUUID();
    const replacing = byTask.get(runId)?.get(id);
    if (replacing && replacing.owner !== owner)
      throw new errors.RequestMalformedError(
        'Another person holds a push config with this id on this task; choose another id.',
      );
    if (!replacing && (byPerson.get(owner) ?? 0) >= perPerson)
      throw new errors.RequestMalformedError(
        `You hold ${perPerson} push configs on this server, the most one person may; delete one first (a task's configs go when it ends).`,
      );
    if (!replacing && ((byTask.get(runId)?.size ?? 0) >= perTask || total >= max))
      throw new errors.RequestMalformedError(
        `Too many push configs (${perTask} per task, ${max} per server); delete one first.`,
      );
    const stored: TaskPushNotificationConfig = {
      tenant: '',
      id,
      taskId: runId,
      url: config.url,
      token: config.token ?? '',
      authentication: config.authentication,
    };
    if (!replacing) {
      total += 1;
      byPerson.set(owner, (byPerson.get(owner) ?? 0) + 1);
    }
    const configs = byTask.get(runId) ?? new Map<string, Stored>();
    configs.set(id, { owner, config: stored });
    byTask.set(runId, configs);
    follow(runId, owner, identity, events);
    return stored;
  };

  return {
    enabled: true,
    check: (config) => {
      if (config) check(config);
    },
    register: async (identity, runId, config, events) => {
      if (config) await create(identity, runId, config, events);
    },
    create,
    get: async (identity, runId, id) => {
      const found = ownedOn(runId, ownerKey(identity)).find((s) => s.config.id === id);
      if (!found) throw notFound();
      return found.config;
    },
    list: (identity, runId) => ownedOn(runId, ownerKey(identity)).map((s) => s.config),
    delete: async (identity, runId, id) => {
      const owner = ownerKey(identity);
      const found = byTask.get(runId)?.get(id);
      if (!found || found.owner !== owner) throw notFound();
      drop(runId, id);
      // Their last config on the task: their follower stops, and a new config starts another.
      const follower = followers.get(followerKey(runId, owner));
      if (follower && ownedOn(runId, owner).length === 0) stop(runId, owner, follower, false);
    },
    close: async () => {
      for (const follower of followers.values()) {
        clearTimeout(follower.expiry);
        follower.abort.abort();
      }
      followers.clear();
    },
  };
}
