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
});
export type Identity = z.infer<typeof Identity>;

/** Establishes an identity from a request's `Authorization` header; rejects with `AuthError` otherwise. */
export interface Authenticator {
  authenticate(authorization: string | undefined): Promise<Identity>;
}
