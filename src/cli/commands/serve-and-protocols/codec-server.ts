import type { CommandSpec } from '../../spec/command-line';
import { positiveInteger, text, texts } from '../../spec/flags';
import { z } from 'zod';
import { AesGcmCodec } from '../../../codec/aes-gcm-codec';
import { startCodecServer } from '../../../codec/codec-server';
import { parseEncryptionKeys, type EncryptionKeyRing } from '../../../codec/encryption-keys';
import { log } from '../../setup/runtime';

export const DEFAULT_CODEC_PORT = 8888;
/** The dev server's Web UI. */
export const DEFAULT_CODEC_CORS_ORIGIN = 'http://localhost:8233';

const MIN_TOKEN_LENGTH = 16;
const NEW_TOKEN_HINT = `node -e "console.log(require('crypto').randomBytes(24).toString('base64url'))"`;
const NEW_KEY_HINT = `node -e "console.log('k1:' + require('crypto').randomBytes(32).toString('base64'))"`;

const CodecServerEnv = z.object({
  THOUGHTLINE_ENCRYPTION_KEYS: z
    .string({ error: `THOUGHTLINE_ENCRYPTION_KEYS is not set; make a key with: ${NEW_KEY_HINT}` })
    .trim()
    .min(1, 'THOUGHTLINE_ENCRYPTION_KEYS is empty'),
  THOUGHTLINE_CODEC_TOKEN: z
    .string({
      error: `THOUGHTLINE_CODEC_TOKEN is not set; the codec server decrypts for anyone holding it, so it will not start without one. Make one with: ${NEW_TOKEN_HINT}`,
    })
    .trim()
    .min(
      MIN_TOKEN_LENGTH,
      `THOUGHTLINE_CODEC_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters; make one with: ${NEW_TOKEN_HINT}`,
    ),
});

/** The codec server's settings from the environment; both variables are required. */
export function readCodecServerEnv(env: NodeJS.ProcessEnv = process.env): { keys: EncryptionKeyRing; token: string } {
  const parsed = CodecServerEnv.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('\n'));
  return {
    keys: parseEncryptionKeys(parsed.data.THOUGHTLINE_ENCRYPTION_KEYS),
    token: parsed.data.THOUGHTLINE_CODEC_TOKEN,
  };
}

const untilSignal = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });

/** `codec-server`: decrypts payloads for the Web UI and `temporal` CLI until Ctrl-C or SIGTERM. */
export async function runCodecServer(
  options: { port?: number; host?: string; corsOrigins?: string[] } = {},
): Promise<void> {
  const { keys, token } = readCodecServerEnv();
  const server = await startCodecServer({
    codec: new AesGcmCodec(keys),
    token,
    port: options.port ?? DEFAULT_CODEC_PORT,
    ...(options.host ? { host: options.host } : {}),
    corsOrigins: options.corsOrigins ?? [DEFAULT_CODEC_CORS_ORIGIN],
  });
  const local = `http://localhost:${new URL(server.url).port}`;
  log(`codec server on ${server.url} (current key "${keys.currentKeyId}", ${keys.keys.size} key(s)). Ctrl-C stops it.`);
  log(`Web UI (it cannot send headers, so the token goes in the path):`);
  log(`  temporal server start-dev --ui-codec-endpoint ${local}/$THOUGHTLINE_CODEC_TOKEN`);
  log(`  (or enter ${local}/<token> as the codec endpoint in the Web UI's settings)`);
  log(
    `temporal CLI: temporal workflow show -w <id> --codec-endpoint ${local} --codec-auth "Bearer $THOUGHTLINE_CODEC_TOKEN"`,
  );
  await untilSignal();
  await server.close();
}

export const CODEC_SERVER_COMMAND: CommandSpec = {
  name: 'codec-server',
  group: 'Serve and protocols',
  summary: 'decrypt payloads for the Temporal Web UI and CLI',
  description:
    'Decrypt payloads for the Temporal Web UI and the temporal CLI until Ctrl-C; needs THOUGHTLINE_ENCRYPTION_KEYS and THOUGHTLINE_CODEC_TOKEN (docs/security.md).',
  examples: ['thoughtline codec-server --port 8888'],
  args: [],
  options: {
    port: text('N', 'the port', { default: String(DEFAULT_CODEC_PORT) }),
    'cors-origin': texts('URL', 'an origin allowed to call it', { default: DEFAULT_CODEC_CORS_ORIGIN }),
  },
  run: async (l) => {
    const port = positiveInteger(l, 'port', 65_535);
    const corsOrigins = l.texts('cors-origin');
    await runCodecServer({ ...(port ? { port } : {}), ...(corsOrigins ? { corsOrigins } : {}) });
    return 0;
  },
};
