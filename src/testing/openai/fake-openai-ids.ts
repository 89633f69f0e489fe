import { randomBytes } from 'node:crypto';

// Same shapes as OpenAI's ids, random rather than sequential: nothing may depend on an id's value.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(length: number): string {
  let out = '';
  for (const byte of randomBytes(length)) out += BASE62[byte % BASE62.length];
  return out;
}

export const newCompletionId = (): string => `chatcmpl-${base62(29)}`;
export const newToolCallId = (): string => `call_${base62(24)}`;
export const newRequestId = (): string => `req_${base62(32)}`;
