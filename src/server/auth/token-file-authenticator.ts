import fs from 'node:fs';
import { readRegularFile } from '../../files/read-regular-file';
import { RegularFileError } from '../../files/regular-file-error';
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../api-error';
import { bearerToken } from './bearer-token';
import type { Authenticator, Identity } from './identity';
import { TokenFile, type TokenEntry } from './token-file';
import { tokenSha256 } from './token-hash';

export interface TokenFileAuthenticatorOptions {
  /** Where the hashes are; re-read when its modification time or size changes, so tokens rotate without a restart. */
  file: string;
  log?: (line: string) => void;
}

interface Loaded {
  stamp: string;
  entries: Array<TokenEntry & { digest: Buffer }>;
}

/** Largest token file read: hashes and roles of a few thousand people. */
const MAX_TOKEN_FILE_BYTES = 16 * 1024 * 1024;
const INVALID = 'The bearer token is not valid: it is unknown, or was revoked.';

/**
 * Bearer tokens from a file of SHA-256 hashes. A file that is missing or does not parse refuses
 * everyone (fail closed) and says why in the log once per version of the file.
 */
export function createTokenFileAuthenticator(options: TokenFileAuthenticatorOptions): Authenticator {
  const log = options.log ?? (() => {});
  let loaded: Loaded = { stamp: '', entries: [] };

  const current = (): Loaded['entries'] => {
    let stamp: string;
    try {
      const stat = fs.statSync(options.file);
      stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    } catch {
      stamp = 'missing';
    }
    if (stamp === loaded.stamp) return loaded.entries;
    loaded = { stamp, entries: read(options.file, stamp, log) };
    return loaded.entries;
  };

  return {
    async authenticate(authorization) {
      const token = bearerToken(authorization);
      const digest = Buffer.from(tokenSha256(token), 'hex');
      let found: TokenEntry | undefined;
      // Every entry is compared, in constant time each, so timing tells nothing about which matched.
      for (const entry of current()) if (timingSafeEqual(entry.digest, digest) && !found) found = entry;
      if (!found) throw new ApiError('unauthenticated', INVALID);
      const identity: Identity = {
        id: found.id,
        roles: [...found.roles],
        via: 'token',
        ...(found.tenant ? { tenant: found.tenant } : {}),
      };
      return identity;
    },
    async current(identity) {
      if (identity.via !== 'token') return undefined;
      // The person is their id in their tenant: whichever of their tokens is in the file now.
      const theirs = current().filter((e) => e.id === identity.id && e.tenant === identity.tenant);
      if (theirs.length === 0) return undefined;
      // Several tokens with different roles: only the roles every one of them grants (fail closed).
      const roles = theirs[0]!.roles.filter((role) => theirs.every((e) => e.roles.includes(role)));
      return { id: identity.id, roles, via: 'token', ...(identity.tenant ? { tenant: identity.tenant } : {}) };
    },
  };
}

function read(file: string, stamp: string, log: (line: string) => void): Loaded['entries'] {
  if (stamp === 'missing') {
    log(`token file ${file} is missing: every request with a token is refused until it exists.`);
    return [];
  }
  try {
    const parsed = TokenFile.parse(JSON.parse(readRegularFile(file, MAX_TOKEN_FILE_BYTES).toString('utf8')));
    return parsed.tokens.map((entry) => ({ ...entry, digest: Buffer.from(entry.sha256, 'hex') }));
  } catch (err) {
    const why =
      err instanceof RegularFileError
        ? err.message
        : err instanceof SyntaxError
          ? `it is not JSON (${err.message})`
          : `it does not match { "tokens": [{ "sha256", "id", "roles", "tenant"? }] } (${err instanceof Error ? err.message.slice(0, 500) : String(err)})`;
    log(`token file ${file} refused: ${why}. Every request is refused until it is fixed.`);
    return [];
  }
}
