import { z } from 'zod';

const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);

/** What the A2A endpoints read from the environment, parsed once when the server is built. */
export interface A2aSettings {
  /**
   * The base URL callers reach this server at (behind a proxy or TLS terminator), for the
   * interface URLs the agent cards advertise; absent: the address the server listens on (a server
   * on every interface then refuses to serve cards, saying to set it). Never the request's Host.
   */
  publicUrl?: string;
  /**
   * Host names push-notification webhooks may be sent to (`*.example.com` allows subdomains);
   * absent or empty: push notifications are off and the cards say so.
   */
  pushAllow: string[];
}

const Schema = z.object({
  THOUGHTLINE_PUBLIC_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .max(2_000)
      .refine((text) => /^https?:\/\/[^/?#]+(\/[^?#]*)?$/i.test(text), {
        message: 'THOUGHTLINE_PUBLIC_URL must be an http(s) URL with no query, e.g. https://agents.example.com',
      })
      .optional(),
  ),
  THOUGHTLINE_A2A_PUSH_ALLOW: z.preprocess(emptyAsUndefined, z.string().max(10_000).optional()),
});

/** The settings from `env` (default the process's); a bad value throws at startup, naming the variable. */
export function a2aSettingsFrom(env: NodeJS.ProcessEnv = process.env): A2aSettings {
  const parsed = Schema.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('; '));
  const { THOUGHTLINE_PUBLIC_URL: publicUrl, THOUGHTLINE_A2A_PUSH_ALLOW: allow } = parsed.data;
  return {
    ...(publicUrl ? { publicUrl: publicUrl.replace(/\/+$/, '') } : {}),
    pushAllow: (allow ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host !== ''),
  };
}
