import type { OidcFlags } from '../../server/oidc-from-flags';
import type { CommandLine, OptionSpec } from './command-line';

const flag: OptionSpec = { type: 'boolean' };
const text: OptionSpec = { type: 'string' };

/** The `--oidc-*` options of every command that authenticates callers (`serve`, `mcp-server --http`). */
export const OIDC_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  'oidc-issuer': text,
  'oidc-audience': text,
  'oidc-jwks-url': text,
  'oidc-roles-claim': text,
  'oidc-tenant-claim': text,
  'oidc-require-tenant': flag,
  'oidc-token-types': text,
};

/** The OIDC settings the command line gave; `missingOidcFlags` says which required ones are absent. */
export function readOidcFlags(l: CommandLine): OidcFlags {
  const given = (name: string): string | undefined => l.text(name);
  return {
    ...(given('oidc-issuer') !== undefined ? { issuer: given('oidc-issuer')! } : {}),
    ...(given('oidc-audience') !== undefined ? { audience: given('oidc-audience')! } : {}),
    ...(given('oidc-jwks-url') !== undefined ? { jwksUrl: given('oidc-jwks-url')! } : {}),
    ...(given('oidc-roles-claim') !== undefined ? { rolesClaim: given('oidc-roles-claim')! } : {}),
    ...(given('oidc-tenant-claim') !== undefined ? { tenantClaim: given('oidc-tenant-claim')! } : {}),
    ...(l.flag('oidc-require-tenant') ? { requireTenant: true } : {}),
    ...(given('oidc-token-types') !== undefined
      ? {
          tokenTypes: given('oidc-token-types')!
            .split(',')
            .map((t) => t.trim()),
        }
      : {}),
  };
}
