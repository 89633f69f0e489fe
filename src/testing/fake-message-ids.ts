import { randomBytes } from 'node:crypto';

// Same shape as the real API's ids (`msg_01` + 22 base62 characters), so code that logs,
// stores or pattern-checks ids behaves as it would in production. Random, not sequential:
// nothing may depend on an id's value.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += BASE62[byte % BASE62.length];
  return out;
}

export const newMessageId = (): string => `msg_01${base62(22)}`;
export const newToolUseId = (): string => `toolu_01${base62(22)}`;
export const newRequestId = (): string => `req_01${base62(22)}`;
