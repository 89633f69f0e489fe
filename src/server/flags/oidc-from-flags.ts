import type { Authenticator } from '../auth/identity';
import { createOidcAuthenticator } from '../auth/oidc-authenticator';

/** `serve`'s OIDC flags; all three of issuer, audience and JWKS URL, or none. */
export interface OidcFlags {
  issuer?: string;
  audience?: string;
  jwksUrl?: string;
  rolesClaim?: string;
  tenantClaim?: string;
  requireTenant?: boolean;
  tokenTypes?: string[];
}

/** The flags that are missing for OIDC, when some were given; [] when all three or none were. */
export function missingOidcFlags(flags: OidcFlags): string[] {
  const given = { 'oidc-issuer': flags.issuer, 'oidc-audience': flags.audience, 'oidc-jwks-url': flags.jwksUrl };
  const present = Object.values(given).filter((v) => v !== undefined).length;
  const tuning = [flags.rolesClaim, flags.tenantClaim, flags.requireTenant, flags.tokenTypes].some(
    (v) => v !== undefined,
  );
  if (present === 0 && !tuning) return [];
  return Object.entries(given)
    .filter(([, v]) => v === undefined)
    .map(([name]) => `--${name}`);
}

/** The OIDC authenticator the flags describe, or undefined when none were given. */
export async function oidcFromFlags(flags: OidcFlags): Promise<Authenticator | undefined> {
  if (flags.issuer === undefined || flags.audience === undefined || flags.jwksUrl === undefined) return undefined;
  return createOidcAuthenticator({
    issuer: flags.issuer,
    audience: flags.audience,
    jwksUrl: flags.jwksUrl,
    ...(flags.rolesClaim ? { rolesClaim: flags.rolesClaim } : {}),
    ...(flags.tenantClaim ? { tenantClaim: flags.tenantClaim } : {}),
    ...(flags.requireTenant ? { requireTenant: true } : {}),
    ...(flags.tokenTypes ? { tokenTypes: flags.tokenTypes } : {}),
  });
}
