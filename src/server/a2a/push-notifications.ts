import type { TaskPushNotificationConfig } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import type { Identity } from '../auth/identity';
import type { A2aErrors } from './a2a-sdk';

/** The push-notification configs of tasks, and their delivery. */
export interface PushNotifications {
  /** Whether the cards advertise push notifications. */
  readonly enabled: boolean;
  /** The config a SendMessage carried, for the task it started or answered. */
  register(identity: Identity, runId: string, config: TaskPushNotificationConfig | undefined): Promise<void>;
  create(identity: Identity, runId: string, config: TaskPushNotificationConfig): Promise<TaskPushNotificationConfig>;
  get(identity: Identity, runId: string, id: string): Promise<TaskPushNotificationConfig>;
  list(identity: Identity, runId: string): TaskPushNotificationConfig[];
  delete(identity: Identity, runId: string, id: string): Promise<void>;
  close(): Promise<void>;
}

/** Without an allow-list for webhooks: every push method answers the protocol's "not supported". */
export function pushNotificationsOff(errors: A2aErrors): PushNotifications {
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
