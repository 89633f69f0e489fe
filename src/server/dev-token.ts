import { addToken } from './auth/token-file-store';

/** The one-machine identity: may read every view and decide calls that name `approver`. */
export const DEV_IDENTITY = { id: 'you', roles: ['developer', 'auditor', 'approver'] } as const;

/** Hosts that only this machine reaches; the dev token is never served anywhere else. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * For `serve` with neither a token file nor OIDC: writes the file (mode 0600) with one fresh
 * token for `you`, and returns it so it is printed once. Later starts find the file and print
 * nothing; `thoughtline token` adds more people.
 */
export function createDevTokenFile(file: string): string {
  return addToken(file, { id: DEV_IDENTITY.id, roles: [...DEV_IDENTITY.roles] });
}
