import type { ViewerRole } from '../../domain';
import type { VisibilityPolicy } from '../../domain/visibility';
import { ApiError } from '../api-error';
import type { Identity } from './identity';

/** Views from narrowest to widest; a caller's default is the widest they may read. */
const ORDER: readonly ViewerRole[] = ['end_user', 'developer', 'auditor'];

/** Whether a visibility policy decides who reads which view: it does once any of its views names roles. */
export const policyGrants = (policy: VisibilityPolicy | undefined): policy is VisibilityPolicy =>
  policy !== undefined && ORDER.some((view) => (policy.roles[view]?.grantedTo.length ?? 0) > 0);

/**
 * The views a person's roles allow, narrowest first. With a policy that grants views
 * (`roles.<view>.grantedTo`), exactly the views granted to one of the roles, possibly none.
 * Otherwise the built-in allow-list: `auditor` reads every view, `developer` or `operator` the
 * developer's and the end user's, anyone else the end user's only.
 */
export function allowedViews(roles: readonly string[], policy?: VisibilityPolicy): ViewerRole[] {
  if (policyGrants(policy))
    return ORDER.filter((view) => policy.roles[view]?.grantedTo.some((role) => roles.includes(role)) ?? false);
  if (roles.includes('auditor')) return [...ORDER];
  if (roles.includes('developer') || roles.includes('operator')) return ['end_user', 'developer'];
  return ['end_user'];
}

/** The widest view the roles allow; undefined when a policy grants them none. */
export function defaultView(roles: readonly string[], policy?: VisibilityPolicy): ViewerRole | undefined {
  const views = allowedViews(roles, policy);
  return views[views.length - 1];
}

/** The view asked for, or the caller's default; `forbidden` for a view not theirs, `bad_request` for an unknown one. */
export function viewFor(identity: Identity, requested: string | undefined, policy?: VisibilityPolicy): ViewerRole {
  const views = allowedViews(identity.roles, policy);
  if (views.length === 0)
    throw new ApiError(
      'forbidden',
      `The visibility policy grants your roles (${identity.roles.join(', ') || 'none'}) no view of runs; ask for a role it grants a view to.`,
    );
  if (requested === undefined || requested === '') return views[views.length - 1]!;
  if (!(ORDER as readonly string[]).includes(requested))
    throw new ApiError('bad_request', `Unknown view "${requested}"; use one of ${ORDER.join(', ')}.`, [
      { path: ['view'], message: `one of ${ORDER.join(', ')}` },
    ]);
  if (!(views as string[]).includes(requested))
    throw new ApiError(
      'forbidden',
      policyGrants(policy)
        ? `The visibility policy grants your roles the views ${views.join(', ')}; the ${requested} view is granted to other roles.`
        : `Your roles allow the views ${views.join(', ')}; the ${requested} view needs another role.`,
    );
  return requested as ViewerRole;
}
