import { readRegularFile } from './files/read-regular-file';
import { z } from 'zod';
import { parseEncryptionKeys, type EncryptionKeyRing } from './codec/encryption-keys';
import { loadConnectionSettings, type ConnectionSettings } from './connection';
import { EVENT_BUS_URL_FORMS, isEventBusUrl } from './events/event-bus-url';
import { DEFAULT_RETENTION_DAYS, DEFAULT_TASK_QUEUE, ModelRegistry } from './domain';
import { TenantLimitsConfig } from './domain/identity/tenant-limits';
import { parseStoreRetentionDays, parseStoreSetting, type StoreSettings } from './store/store-settings';

const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);

/** The TEMPORAL_* variables (address, namespace, TLS, API key, profile) are read by loadConnectionSettings. */
const ConfigSchema = z.object({
  THOUGHTLINE_TASK_QUEUE: z.preprocess(emptyAsUndefined, z.string().default(DEFAULT_TASK_QUEUE)),
  /** The Worker Deployment that `worker`, `serve --with-worker` and `versions` use; default the task queue. */
  THOUGHTLINE_DEPLOYMENT_NAME: z.preprocess(emptyAsUndefined, z.string().optional()),
  THOUGHTLINE_MODEL: z.preprocess(emptyAsUndefined, z.string().default('claude-sonnet-4-6')),
  ANTHROPIC_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  ANTHROPIC_BASE_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  /** Path of a JSON model registry (named models, prices, allow-list). */
  THOUGHTLINE_MODELS: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** Who the CLI acts as when approving, rejecting, steering or answering; default the OS user. */
  THOUGHTLINE_USER: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** Comma-separated roles of that person, checked against a tool's approver roles. */
  THOUGHTLINE_ROLES: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** `id:base64key,...` (32-byte keys, the first encrypts): payloads are encrypted at rest with AES-256-GCM. */
  THOUGHTLINE_ENCRYPTION_KEYS: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** Path of a JSON file of per-tenant limits: `{ "default": {...}, "tenants": { "acme": { "maxConcurrentRuns": 5, "tokensPerHour": 200000 } } }`. */
  THOUGHTLINE_TENANT_LIMITS: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** Where workers publish run events and servers hear them: `redis://host:port`, `http(s)://server:port` (workers only) or `memory:`. */
  THOUGHTLINE_EVENTS: z.preprocess(
    emptyAsUndefined,
    z.string().refine(isEventBusUrl, `must be ${EVENT_BUS_URL_FORMS}`).optional(),
  ),
  /** With an http(s) THOUGHTLINE_EVENTS: the bearer token a worker posts events with (its identity needs role `publisher`). */
  THOUGHTLINE_EVENTS_TOKEN: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** A `thoughtline serve` instance: `watch` follows runs through its push stream instead of polling. */
  THOUGHTLINE_SERVER_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  /** The bearer token `watch` sends to that server. */
  THOUGHTLINE_TOKEN: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** A keyring file (the decision-signing format) whose first key signs `thoughtline export` reports. */
  THOUGHTLINE_EXPORT_KEYRING: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** The SQLite file where a worker keeps results runs may reuse (`cache` in a run's input); default `.thoughtline/cache.sqlite`. */
  THOUGHTLINE_CACHE_FILE: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** `off`: workers the CLI hosts take no workflow stack traces (createAgentWorker's `workflowStackTraces`); default `on`. */
  THOUGHTLINE_WORKFLOW_STACK_TRACES: z.preprocess(emptyAsUndefined, z.enum(['on', 'off']).default('on')),
  /** Days a dev server the project starts keeps closed runs (its namespace retention). */
  THOUGHTLINE_RETENTION_DAYS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1).max(3650).default(DEFAULT_RETENTION_DAYS),
  ),
});

export interface Config {
  /** How to reach Temporal: TEMPORAL_* variables over the temporal.toml profile (see connection/). */
  temporal: ConnectionSettings;
  /** `temporal.address`: absent when neither a variable nor the profile names one (the local dev server). */
  temporalAddress?: string;
  /** `temporal.namespace`. */
  namespace: string;
  taskQueue: string;
  /** THOUGHTLINE_DEPLOYMENT_NAME, else the task queue. */
  deploymentName: string;
  model: string;
  anthropicApiKey?: string;
  anthropicBaseUrl?: string;
  modelRegistry?: ModelRegistry;
  user?: string;
  roles: string[];
  encryptionKeys?: EncryptionKeyRing;
  tenantLimits?: TenantLimitsConfig;
  /** THOUGHTLINE_EVENTS: the run event bus URL. */
  events?: string;
  /** THOUGHTLINE_EVENTS_TOKEN. */
  eventsToken?: string;
  /** From THOUGHTLINE_SERVER_URL and THOUGHTLINE_TOKEN (the token may be empty: the server then answers 401). */
  server?: { url: string; token: string };
  /** THOUGHTLINE_EXPORT_KEYRING. */
  exportKeyring?: string;
  /** THOUGHTLINE_RETENTION_DAYS (default 90). */
  retentionDays: number;
  /** THOUGHTLINE_CACHE_FILE: the worker's run cache (createAgentWorker's `cacheFile`). */
  cacheFile?: string;
  /** THOUGHTLINE_WORKFLOW_STACK_TRACES (`on` unless `off`): createAgentWorker's `workflowStackTraces`. */
  workflowStackTraces: boolean;
  /** THOUGHTLINE_STORE: the chain store `serve` and `thoughtline store` keep (unset: `.thoughtline/store.sqlite`). */
  store: StoreSettings;
  /** THOUGHTLINE_STORE_RETENTION_DAYS (default 400): days the store keeps an ended run. */
  storeRetentionDays: number;
}

/** The store settings, with a bad value reported as the rest of the environment is. */
function storeSettings(env: NodeJS.ProcessEnv): { store: StoreSettings; storeRetentionDays: number } {
  try {
    return {
      store: parseStoreSetting(env.THOUGHTLINE_STORE),
      storeRetentionDays: parseStoreRetentionDays(env.THOUGHTLINE_STORE_RETENTION_DAYS),
    };
  } catch (err) {
    throw new Error(`Invalid environment:\n${(err as Error).message}`);
  }
}

/** Largest JSON settings file an environment variable may name. */
const MAX_SETTINGS_FILE_BYTES = 4 * 1024 * 1024;

/** Reads a JSON file named by an environment variable (a regular file) and checks it against its schema. */
function loadJsonFile<T>(variable: string, file: string, schema: z.ZodType<T>, what: string): T {
  let raw: unknown;
  try {
    raw = JSON.parse(readRegularFile(file, MAX_SETTINGS_FILE_BYTES).toString('utf8'));
  } catch (err) {
    throw new Error(`${variable}: cannot read ${file} as JSON: ${(err as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    throw new Error(`${variable}: ${file} is not a valid ${what}:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Parses the environment once, at the edge. Workflows never read it; they get settings in their input. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) throw new Error(`Invalid environment:\n${z.prettifyError(parsed.error)}`);
  const e = parsed.data;
  if (e.THOUGHTLINE_EVENTS && /^https?:/.test(e.THOUGHTLINE_EVENTS) && !e.THOUGHTLINE_EVENTS_TOKEN) {
    throw new Error(
      'Invalid environment:\nTHOUGHTLINE_EVENTS is a server URL: set THOUGHTLINE_EVENTS_TOKEN to a token whose identity has role "publisher".',
    );
  }
  const temporal = loadConnectionSettings({}, env);
  const store = storeSettings(env);
  return Object.freeze({
    ...store,
    temporal,
    namespace: temporal.namespace,
    taskQueue: e.THOUGHTLINE_TASK_QUEUE,
    deploymentName: e.THOUGHTLINE_DEPLOYMENT_NAME ?? e.THOUGHTLINE_TASK_QUEUE,
    model: e.THOUGHTLINE_MODEL,
    retentionDays: e.THOUGHTLINE_RETENTION_DAYS,
    roles: (e.THOUGHTLINE_ROLES ?? '')
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean),
    ...(e.THOUGHTLINE_USER ? { user: e.THOUGHTLINE_USER } : {}),
    ...(e.THOUGHTLINE_ENCRYPTION_KEYS ? { encryptionKeys: parseEncryptionKeys(e.THOUGHTLINE_ENCRYPTION_KEYS) } : {}),
    ...(temporal.address ? { temporalAddress: temporal.address } : {}),
    ...(e.THOUGHTLINE_EVENTS ? { events: e.THOUGHTLINE_EVENTS } : {}),
    ...(e.THOUGHTLINE_EVENTS_TOKEN ? { eventsToken: e.THOUGHTLINE_EVENTS_TOKEN } : {}),
    ...(e.ANTHROPIC_API_KEY ? { anthropicApiKey: e.ANTHROPIC_API_KEY } : {}),
    ...(e.ANTHROPIC_BASE_URL ? { anthropicBaseUrl: e.ANTHROPIC_BASE_URL } : {}),
    ...(e.THOUGHTLINE_MODELS
      ? { modelRegistry: loadJsonFile('THOUGHTLINE_MODELS', e.THOUGHTLINE_MODELS, ModelRegistry, 'model registry') }
      : {}),
    ...(e.THOUGHTLINE_EXPORT_KEYRING ? { exportKeyring: e.THOUGHTLINE_EXPORT_KEYRING } : {}),
    ...(e.THOUGHTLINE_CACHE_FILE ? { cacheFile: e.THOUGHTLINE_CACHE_FILE } : {}),
    workflowStackTraces: e.THOUGHTLINE_WORKFLOW_STACK_TRACES === 'on',
    ...(e.THOUGHTLINE_SERVER_URL
      ? { server: { url: e.THOUGHTLINE_SERVER_URL, token: e.THOUGHTLINE_TOKEN ?? '' } }
      : {}),
    ...(e.THOUGHTLINE_TENANT_LIMITS
      ? {
          tenantLimits: loadJsonFile(
            'THOUGHTLINE_TENANT_LIMITS',
            e.THOUGHTLINE_TENANT_LIMITS,
            TenantLimitsConfig,
            'tenant limits file',
          ),
        }
      : {}),
  });
}
