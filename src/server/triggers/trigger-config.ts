import { z } from 'zod';
import { readRegularFile } from '../../files/read-regular-file';
import { ScheduleModel } from '../../client/schedules/schedule-spec';

/** A trigger's name: the last segment of `POST /v1/triggers/{name}`. */
export const TriggerName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'a trigger name is 1–63 lowercase letters, digits, "-" or "_"');

/** The shortest secret a trigger accepts, in bytes: HMAC-SHA256 with less is guessable. */
export const MIN_TRIGGER_SECRET_BYTES = 16;

/** One trigger as the triggers file writes it: the secret itself never is in the file, only the variable naming it. */
const TriggerEntry = z.strictObject({
  /** A registered agent's name. */
  agent: z.string().min(1).max(200),
  /** The task every run of it is given; the delivery's payload comes as its context. */
  task: z
    .string()
    .min(1)
    .max(16 * 1024),
  model: ScheduleModel.optional(),
  /** The environment variable holding the shared secret the sender signs with. */
  secretEnv: z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name, e.g. DEPLOY_HOOK_SECRET'),
  /** Whose runs these are: the caller id (default `trigger:<name>`) and tenant they are attributed to. */
  owner: z.string().min(1).max(200).optional(),
  tenant: z.string().min(1).max(200).optional(),
});

/** `THOUGHTLINE_TRIGGERS` (or `serve --triggers FILE`): `{ "triggers": { "<name>": { agent, task, secretEnv, … } } }`. */
export const TriggersFile = z.strictObject({
  triggers: z.record(TriggerName, TriggerEntry).refine((t) => Object.keys(t).length <= 100, 'at most 100 triggers'),
});

/** A trigger ready to serve: its secret read from the environment once, at start. */
export interface Trigger {
  name: string;
  agent: string;
  task: string;
  model?: z.infer<typeof ScheduleModel>;
  secret: Buffer;
  owner: { id: string; tenant?: string };
}

/** The triggers `serve` answers, by name; every other name is refused. */
export type TriggerTable = ReadonlyMap<string, Trigger>;

/**
 * Reads the triggers file and each trigger's secret. Throws (so `serve` refuses to start) on a
 * file it cannot read, an unknown field, or a secret variable unset or shorter than
 * MIN_TRIGGER_SECRET_BYTES: a trigger never runs without its secret.
 */
export function loadTriggers(file: string, env: NodeJS.ProcessEnv = process.env): TriggerTable {
  let raw: unknown;
  try {
    raw = JSON.parse(readRegularFile(file, 1024 * 1024).toString('utf8'));
  } catch (err) {
    throw new Error(`triggers: cannot read ${file} as JSON: ${(err as Error).message}`);
  }
  const parsed = TriggersFile.safeParse(raw);
  if (!parsed.success)
    throw new Error(`triggers: ${file} is not a valid triggers file:\n${z.prettifyError(parsed.error)}`);
  return triggerTable(parsed.data, env);
}

/** The table of a parsed triggers file, secrets read from `env`. */
export function triggerTable(file: z.infer<typeof TriggersFile>, env: NodeJS.ProcessEnv): TriggerTable {
  const table = new Map<string, Trigger>();
  for (const [name, entry] of Object.entries(file.triggers)) {
    const secret = env[entry.secretEnv];
    if (secret === undefined || Buffer.byteLength(secret) < MIN_TRIGGER_SECRET_BYTES)
      throw new Error(
        `triggers: trigger "${name}" needs its secret in ${entry.secretEnv} (at least ${MIN_TRIGGER_SECRET_BYTES} bytes); it is ${secret === undefined ? 'unset' : 'too short'}.`,
      );
    table.set(name, {
      name,
      agent: entry.agent,
      task: entry.task,
      ...(entry.model ? { model: entry.model } : {}),
      secret: Buffer.from(secret),
      owner: { id: entry.owner ?? `trigger:${name}`, ...(entry.tenant !== undefined ? { tenant: entry.tenant } : {}) },
    });
  }
  return table;
}
