import type { OidcFlags } from '../../server/flags/oidc-from-flags';
import type { CommandLine, OptionSpec } from './command-line';

import { flag, text } from './flags';

/** The `--oidc-*` options of every command that authenticates callers (`serve`, `mcp-server --http`). */
export const OIDC_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  'oidc-issuer': text('URL', 'also accept JWTs from this OIDC issuer (with --oidc-audience and --oidc-jwks-url)'),
  'oidc-audience': text('AUD', 'the audience those JWTs must name'),
  'oidc-jwks-url': text('URL', "the issuer's signing keys"),
  'oidc-roles-claim': text('PATH', 'where a JWT holds its roles'),
  'oidc-tenant-claim': text('PATH', 'where a JWT holds its tenant'),
  'oidc-require-tenant': flag('refuse tokens without a tenant'),
  'oidc-token-types': text('T,...', 'accepted "typ" headers', { default: 'at+jwt' }),
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
