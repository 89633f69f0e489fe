import type { ViewerRole } from '../../shared';
import { ApiError } from '../api-error';
import type { Identity } from './identity';

/** Views from narrowest to widest; a caller's default is the widest they may read. */
const ORDER: readonly ViewerRole[] = ['end_user', 'developer', 'auditor'];

/**
 * The views a person's roles allow, narrowest first. An allow-list: `auditor` reads every view,
 * `developer` or `operator` the developer's and the end user's, anyone else the end user's only.
 */
export function allowedViews(roles: readonly string[]): ViewerRole[] {
  if (roles.includes('auditor')) return [...ORDER];
  if (roles.includes('developer') || roles.includes('operator')) return ['end_user', 'developer'];
  return ['end_user'];
}

/** The widest view the roles allow. */
export function defaultView(roles: readonly string[]): ViewerRole {
  const views = allowedViews(roles);
  return views[views.length - 1]!;
}

/** The view asked for, or the caller's default; `forbidden` for a wider view, `bad_request` for an unknown one. */
export function viewFor(identity: Identity, requested: string | undefined): ViewerRole {
  if (requested === undefined || requested === '') return defaultView(identity.roles);
  if (!(ORDER as readonly string[]).includes(requested))
    throw new ApiError('bad_request', `Unknown view "${requested}"; use one of ${ORDER.join(', ')}.`, [
      { path: ['view'], message: `one of ${ORDER.join(', ')}` },
    ]);
  const views = allowedViews(identity.roles);
  if (!(views as string[]).includes(requested))
    throw new ApiError(
      'forbidden',
      `Your roles allow the views ${views.join(', ')}; the ${requested} view needs another role.`,
    );
  return requested as ViewerRole;
}
