import { readRegularFile } from '../../files/read-regular-file';
import { RegularFileError } from '../../files/regular-file-error';
import { z } from 'zod';

/** Most entries an allow-list may hold, and the longest entry; a worker's list is a handful. */
export const MAX_A2A_ALLOW_ENTRIES = 200;
export const MAX_A2A_ENTRY_CHARS = 2_048;
/** Most a settings file may hold. */
const MAX_SETTINGS_BYTES = 256_000;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** Where the bearer token for one origin comes from: a variable of the worker's environment, never the run. */
const A2aAuth = z.object({
  bearerEnv: z.string().refine((name) => ENV_NAME.test(name), 'must be an environment variable name'),
});

/** What the old shape (one list for every host) is told: it opened each address for every host on the list. */
export const ALLOW_ADDRESSES_SHAPE =
  'allowAddresses is per host now: { "allowAddresses": { "agents.internal.example": ["10.1.2.0/24"] } } opens those addresses for that host only (one list for every host let any name on the allow-list reach them)';

/**
 * The worker's remote A2A agents (`createAgentWorker({ a2a })`, `thoughtline worker --a2a FILE`):
 * `allow` lists origins (`https://agents.example.com`: any card there) or card URLs (that card
 * only); `auth` names, per origin, the environment variable holding its bearer token;
 * `allowAddresses` opens, per host name on the list, the non-public addresses (IPs or CIDR) that
 * host may resolve to, for that host only. An IP literal on the list (`http://127.0.0.1:8080`)
 * opens that address for requests to that literal only.
 */
export const A2aSettings = z.strictObject({
  allow: z.array(z.string().min(1).max(MAX_A2A_ENTRY_CHARS)).max(MAX_A2A_ALLOW_ENTRIES),
  auth: z.record(z.string().max(MAX_A2A_ENTRY_CHARS), A2aAuth).optional(),
  allowAddresses: z
    .record(z.string().min(1).max(253), z.array(z.string().max(64)).max(MAX_A2A_ALLOW_ENTRIES), {
      error: (issue) => (Array.isArray(issue.input) ? ALLOW_ADDRESSES_SHAPE : undefined),
    })
    .refine((hosts) => Object.keys(hosts).length <= MAX_A2A_ALLOW_ENTRIES, {
      message: `at most ${MAX_A2A_ALLOW_ENTRIES} hosts`,
    })
    .optional(),
});
export type A2aSettings = z.infer<typeof A2aSettings>;
export type A2aSettingsInit = z.input<typeof A2aSettings>;

/** The bearer tokens the settings name, as the worker's environment holds them now: redacted like any secret. */
export function a2aSecrets(
  settings: A2aSettings,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  return Object.values(settings.auth ?? {}).flatMap(({ bearerEnv }) => (env[bearerEnv] ? [env[bearerEnv]] : []));
}

export class InvalidA2aSettingsError extends Error {
  override readonly name = 'InvalidA2aSettingsError';
}

/** Parses A2A settings, with every problem named by its path. */
export function parseA2aSettings(value: unknown, source = 'A2A settings'): A2aSettings {
  const parsed = A2aSettings.safeParse(value);
  if (!parsed.success) throw new InvalidA2aSettingsError(`${source} are not valid:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Reads and parses a JSON settings file (`thoughtline worker --a2a FILE`). */
export async function loadA2aSettings(file: string): Promise<A2aSettings> {
  let text: string;
  try {
    text = readRegularFile(file, MAX_SETTINGS_BYTES).toString('utf8');
  } catch (err) {
    if (!(err instanceof RegularFileError)) throw err;
    throw new InvalidA2aSettingsError(
      err.problem === 'too_large'
        ? `The A2A settings ${file} are over ${MAX_SETTINGS_BYTES} bytes.`
        : `Cannot read the A2A settings ${file}: ${err.message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new InvalidA2aSettingsError(`The A2A settings ${file} are not JSON: ${(err as Error).message}`);
  }
  return parseA2aSettings(json, `The A2A settings ${file}`);
}
