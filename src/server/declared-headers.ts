import { z } from 'zod';
import { ApiError } from './api-error';

/**
 * The headers a route's schema declares, as sent, under the schema's own spelling
 * (`Idempotency-Key`) so a refusal's path names them as the document does. Read from the raw
 * headers: Node joins a repeated header with ", ", which could pass for one value, so a header
 * sent twice is refused here instead.
 */
export function declaredHeaders(schema: z.ZodType | undefined, rawHeaders: readonly string[]): Record<string, string> {
  if (!(schema instanceof z.ZodObject)) return {};
  const sent: Record<string, string> = {};
  for (const name of Object.keys(schema.shape as Record<string, z.ZodType>)) {
    const values = rawHeaders.filter((_, i) => i % 2 === 1 && rawHeaders[i - 1]!.toLowerCase() === name.toLowerCase());
    if (values.length > 1)
      throw new ApiError('bad_request', `${name} was sent ${values.length} times; send it once.`, [
        { path: [name], message: 'sent more than once' },
      ]);
    if (values.length === 1) sent[name] = values[0]!;
  }
  return sent;
}
