import { z } from 'zod';

/** One token a file grants: its hash (never the token), and who presenting it is. */
export const TokenEntry = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'the hex SHA-256 of the token, 64 lowercase hex digits'),
  id: z.string().min(1).max(200),
  roles: z.array(z.string().min(1).max(100)).max(50).default([]),
  tenant: z.string().min(1).max(200).optional(),
});
export type TokenEntry = z.infer<typeof TokenEntry>;

/** `{ "tokens": [ … ] }`, as `thoughtline token` writes it. */
export const TokenFile = z.object({ tokens: z.array(TokenEntry) });
export type TokenFile = z.infer<typeof TokenFile>;
