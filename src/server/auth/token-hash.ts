import { createHash, randomBytes } from 'node:crypto';

/** The hex SHA-256 of a token: what a token file stores instead of the token. */
export const tokenSha256 = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A fresh bearer token: `tl_` and 32 random bytes, base64url. */
export const generateToken = (): string => `tl_${randomBytes(32).toString('base64url')}`;
