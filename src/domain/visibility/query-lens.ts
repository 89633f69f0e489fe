import type { ViewerRole } from '../identity/people';
import { ViewLens } from './view-lens';

/** Most issues named in the error of a lens that does not parse. */
const MAX_ISSUES_NAMED = 3;

/**
 * The lens a query names: none (undefined or null) means no policy; anything else must parse as a
 * `ViewLens` for `role`'s view. A lens that does not parse, or is another view's, fails that query with an Error that says why, and never
 * answers without it (that would show more than the policy allows). Sandbox-safe.
 */
export function queryLens(value: unknown, role?: ViewerRole): ViewLens | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = ViewLens.safeParse(value);
  if (parsed.success) {
    // Another view's lens would skip this view's rules (an auditor's masks no tenant field).
    if (role !== undefined && parsed.data.view !== role)
      throw new Error(`The view lens is for the ${parsed.data.view} view, not ${role}: the query shows nothing.`);
    return parsed.data;
  }
  const issues = parsed.error.issues
    .slice(0, MAX_ISSUES_NAMED)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(the lens)'}: ${issue.message}`);
  throw new Error(`The view lens does not parse, so the query shows nothing: ${issues.join('; ')}.`);
}
