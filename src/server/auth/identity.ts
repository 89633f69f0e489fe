import { z } from 'zod';

/**
 * Who a request comes from, as authentication established it: never read from a body, a query
 * parameter or a header the caller writes freely. `roles` decide views and decisions; `tenant`
 * decides which runs exist for the caller.
 */
export const Identity = z.object({
  id: z.string().min(1),
  roles: z.array(z.string().min(1)),
  tenant: z.string().min(1).optional(),
  /** How the identity was established, for the audit trail. */
  via: z.enum(['token', 'oidc', 'in-process']),
  /**
   * When the credential that established it stops being valid (ms since the epoch): an OIDC
   * token's `exp`. What lasts longer than a request (a push subscription) ends with it, as the
   * roles it carried cannot be read again without a fresh token.
   */
  expiresAt: z.number().int().positive().optional(),
});
export type Identity = z.infer<typeof Identity>;

/** Establishes an identity from a request's `Authorization` header; rejects with `AuthError` otherwise. */
export interface Authenticator {
  authenticate(authorization: string | undefined): Promise<Identity>;
  /**
   * Who an identity this authenticator established is now, without a request: its current roles,
   * or undefined when the person is gone or their credential has expired. Long-lived doors (push
   * subscriptions) call it through `currentIdentityFrom` before each delivery; an authenticator
   * without it cannot back them.
   */
  current?(identity: Identity): Promise<Identity | undefined>;
}
