import type { TLSConfig } from '@temporalio/client';
import { loadClientConfig, loadClientConfigProfile, type ClientConfigProfile } from '@temporalio/envconfig';
import { z } from 'zod';
import { DEFAULT_NAMESPACE } from '../domain/run/constants';
import { hideSecrets, type ConnectionOverrides, type ConnectionSettings } from './connection-settings';
import { TemporalConfigError } from './temporal-config-error';
import { readTemporalConfigFile, type TemporalConfigFile } from './temporal-config-file';
import { readTlsMaterial } from './tls-material';

const Source = z.union([z.object({ path: z.string().min(1) }), z.object({ data: z.instanceof(Uint8Array) })]);

/** A profile as Temporal's loader returns it (file and TEMPORAL_* variables merged); TOML can hold any type. */
const Profile = z.object({
  address: z
    .string()
    .regex(/^\[?[^\s\]]+\]?:\d+$/, 'must be host:port')
    .optional(),
  namespace: z.string().min(1).optional(),
  apiKey: z.string().min(1).optional(),
  tls: z
    .object({
      disabled: z.boolean().optional(),
      serverName: z.string().min(1).optional(),
      clientCert: Source.optional(),
      clientKey: Source.optional(),
      serverCACert: Source.optional(),
    })
    .optional(),
  grpcMeta: z.record(z.string(), z.string()).optional(),
});

/** Each profile field with the variable that sets it and its key in temporal.toml. */
const SETTING_NAMES: Record<string, [variable: string, key: string]> = {
  address: ['TEMPORAL_ADDRESS', 'address'],
  namespace: ['TEMPORAL_NAMESPACE', 'namespace'],
  apiKey: ['TEMPORAL_API_KEY', 'api_key'],
  'tls.disabled': ['TEMPORAL_TLS', 'tls.disabled'],
  'tls.serverName': ['TEMPORAL_TLS_SERVER_NAME', 'tls.server_name'],
  'tls.clientCert': ['TEMPORAL_TLS_CLIENT_CERT_PATH', 'tls.client_cert_path'],
  'tls.clientKey': ['TEMPORAL_TLS_CLIENT_KEY_PATH', 'tls.client_key_path'],
  'tls.serverCACert': ['TEMPORAL_TLS_SERVER_CA_CERT_PATH', 'tls.server_ca_cert_path'],
  grpcMeta: ['TEMPORAL_GRPC_META_*', 'grpc_meta'],
};

const BOOLEAN_VARIABLES = ['TEMPORAL_TLS', 'TEMPORAL_TLS_DISABLE_HOST_VERIFICATION'] as const;

/**
 * The TEMPORAL_* variables Temporal's loader reads. An empty one counts as unset, as everywhere
 * in Thoughtline's configuration (Temporal's loader would let '' override the profile), except
 * TEMPORAL_GRPC_META_*, where empty removes a header the profile sets.
 */
function temporalVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (e): e is [string, string] =>
        e[0].startsWith('TEMPORAL_') && e[1] !== undefined && (e[1] !== '' || e[0].startsWith('TEMPORAL_GRPC_META_')),
    ),
  );
}

/**
 * Temporal's loader reads any other value than '1' or 'true' as false, so TEMPORAL_TLS=yes would
 * turn TLS off. Refused here instead; and host verification, which the TypeScript SDK cannot turn
 * off, is refused rather than silently kept on.
 */
function checkBooleans(env: NodeJS.ProcessEnv): void {
  for (const name of BOOLEAN_VARIABLES) {
    const value = env[name];
    if (value && !['true', 'false', '1', '0'].includes(value))
      throw new TemporalConfigError(name, `${name} is '${value}': set it to true or false`);
  }
  if (['true', '1'].includes(env.TEMPORAL_TLS_DISABLE_HOST_VERIFICATION ?? ''))
    throw new TemporalConfigError(
      'TEMPORAL_TLS_DISABLE_HOST_VERIFICATION',
      "TEMPORAL_TLS_DISABLE_HOST_VERIFICATION is set, but Temporal's TypeScript SDK always verifies the server's " +
        "name: unset it, and set TEMPORAL_TLS_SERVER_NAME to a name in the server's certificate instead",
    );
}

/** A `[profile…]` table or a `profile.` dotted key: Temporal's loader (1.24) throws a TypeError on a file with neither. */
const HAS_PROFILES = /^\s*(\[\s*profile\s*[.\]]|profile\s*\.)/m;

/** The selected profile, file and variables merged by Temporal's loader; its errors said in our words. */
function loadProfile(file: TemporalConfigFile | undefined, name: string | undefined, env: NodeJS.ProcessEnv) {
  const text = file?.text !== undefined && HAS_PROFILES.test(file.text) ? file.text : undefined;
  // With no profile to read, the file is left out; a named profile is then missing, as Temporal's loader would say.
  const configSource = { data: text ?? '[profile]\n' };
  try {
    return loadClientConfigProfile({
      configSource,
      overrideEnvVars: temporalVariables(env),
      ...(name ? { profile: name } : {}),
    });
  } catch (err) {
    throw profileError(err, file, name, configSource);
  }
}

function profileError(
  err: unknown,
  file: TemporalConfigFile | undefined,
  name: string | undefined,
  configSource: { data: string },
): unknown {
  const e = err as { line?: unknown; column?: unknown; message?: unknown };
  const fileSetting = file?.from === 'TEMPORAL_CONFIG_FILE' ? 'TEMPORAL_CONFIG_FILE' : (file?.path ?? 'temporal.toml');
  // The TOML parser's message quotes the lines around the mistake, which may hold an API key: only its position is kept.
  if (typeof e.line === 'number' && typeof e.column === 'number')
    return new TemporalConfigError(
      fileSetting,
      `the Temporal config file ${file?.path} is not valid TOML (line ${e.line}, column ${e.column}): fix it`,
    );
  const message = typeof e.message === 'string' ? e.message : '';
  if (message.startsWith('Profile ')) {
    const names = Object.keys(loadClientConfig({ configSource }).profiles);
    const where =
      file?.text !== undefined
        ? `${file.path} has no [profile.${name}]`
        : `there is no ${file?.path ?? 'Temporal config file'}`;
    const known = names.length > 0 ? `; its profiles: ${names.join(', ')}` : '';
    return new TemporalConfigError(
      'TEMPORAL_PROFILE',
      `TEMPORAL_PROFILE is '${name}' but ${where}${known}. Set TEMPORAL_PROFILE to a profile of that file ` +
        '(or TEMPORAL_CONFIG_FILE to the file that has it), or unset it',
    );
  }
  const both = /^Cannot specify both (\w+)_path and \w+_data$/.exec(message);
  if (both) {
    const variable = `TEMPORAL_TLS_${both[1]!.toUpperCase()}`;
    return new TemporalConfigError(
      `${variable}_PATH`,
      `both a path and data are given for tls.${both[1]} (${variable}_PATH, ${variable}_DATA or the profile's ` +
        `${both[1]}_path and ${both[1]}_data): set only one`,
    );
  }
  return err;
}

/** The variable that set a field when it is set, else the field's key in the profile. */
function settingName(field: string, env: NodeJS.ProcessEnv, profile: string): string {
  const [variable, key] = SETTING_NAMES[field] ?? [field, field];
  return env[variable] ? variable : `${key} of ${profile}`;
}

function validProfile(raw: ClientConfigProfile, env: NodeJS.ProcessEnv, profile: string): z.infer<typeof Profile> {
  const parsed = Profile.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.slice(0, 2).join('.');
  const setting = settingName(field, env, profile);
  // The issue's text names types and rules, never the value, which may be a key.
  throw new TemporalConfigError(setting, `${setting}: ${issue.message}`);
}

/**
 * The connection to Temporal, resolved once at the edge: options in code, over the standard
 * TEMPORAL_* variables, over the profile (TEMPORAL_PROFILE, default 'default') of the TOML file
 * Temporal's CLI and SDKs share (TEMPORAL_CONFIG_FILE, default ~/.config/temporalio/temporal.toml).
 * An API key turns TLS on unless TLS is explicitly off. Certificates and keys are read and
 * checked now. Throws TemporalConfigError, naming the setting, for anything wrong.
 */
export function loadConnectionSettings(
  overrides: ConnectionOverrides = {},
  env: NodeJS.ProcessEnv = process.env,
): Readonly<ConnectionSettings> {
  checkBooleans(env);
  const file = readTemporalConfigFile(env);
  const profileName = env.TEMPORAL_PROFILE || undefined;
  const label = `profile '${profileName ?? 'default'}'${file?.text !== undefined ? ` in ${file.path}` : ''}`;
  const profile = validProfile(loadProfile(file, profileName, env), env, label);

  const address = overrides.address ?? profile.address;
  const apiKey = overrides.apiKey ?? profile.apiKey;
  const tls: TLSConfig | boolean | undefined =
    overrides.tls ??
    (profile.tls === undefined ? undefined : profile.tls.disabled ? false : readTlsMaterial(profile.tls, env, label)) ??
    (apiKey !== undefined ? true : undefined);
  if (address === undefined && (tls || apiKey !== undefined)) {
    const what = apiKey !== undefined ? 'an API key (TEMPORAL_API_KEY)' : 'TLS (TEMPORAL_TLS*)';
    throw new TemporalConfigError(
      'TEMPORAL_ADDRESS',
      `${what} is configured but no server address: set TEMPORAL_ADDRESS to the frontend's host:port ` +
        `(for Temporal Cloud, the endpoint its UI shows for the namespace), or address in ${label}`,
    );
  }
  const metadata = overrides.metadata ?? profile.grpcMeta;
  return hideSecrets({
    namespace: overrides.namespace ?? profile.namespace ?? DEFAULT_NAMESPACE,
    ...(address !== undefined
      ? { address, addressFrom: overrides.address ? 'code' : settingName('address', env, label) }
      : {}),
    ...(tls !== undefined ? { tls } : {}),
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(metadata !== undefined && Object.keys(metadata).length > 0 ? { metadata } : {}),
  });
}
