import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/server/api-error';
import { allowedViews, defaultView, policyGrants, viewFor } from '../../src/server/auth/view-policy';
import { VisibilityPolicy } from '../../src/domain/visibility';

const person = (roles: string[]) => ({ id: 'p', roles, via: 'token' as const });
const granting = VisibilityPolicy.parse({
  version: 1,
  roles: { end_user: { grantedTo: ['customer', 'support'] }, auditor: { grantedTo: ['compliance'] } },
});
const notGranting = VisibilityPolicy.parse({ version: 1, roles: { end_user: { steps: { thinking: 'hidden' } } } });

describe('views under a visibility policy', () => {
  it('follow the grants when any view names roles, and the built-in table otherwise', () => {
    expect(policyGrants(granting)).toBe(true);
    expect(policyGrants(notGranting)).toBe(false);
    expect(allowedViews(['support'], granting)).toEqual(['end_user']);
    expect(allowedViews(['support', 'compliance'], granting)).toEqual(['end_user', 'auditor']);
    // The built-in roles mean nothing to a granting policy; a grant is needed for every view.
    expect(allowedViews(['developer', 'auditor'], granting)).toEqual([]);
    expect(defaultView(['developer'], granting)).toBeUndefined();
    expect(allowedViews(['developer'], notGranting)).toEqual(['end_user', 'developer']);
    expect(defaultView(['compliance'], granting)).toBe('auditor');
  });

  it('refuse a view not granted, and a person granted none, naming the policy', () => {
    expect(viewFor(person(['compliance']), undefined, granting)).toBe('auditor');
    const refused = (roles: string[], view?: string) => {
      try {
        viewFor(person(roles), view, granting);
      } catch (err) {
        return err as ApiError;
      }
      throw new Error('not refused');
    };
    expect(refused(['support'], 'developer')).toMatchObject({ code: 'forbidden' });
    expect(refused(['support'], 'developer').message).toContain(
      'visibility policy grants your roles the views end_user',
    );
    expect(refused(['developer']).message).toContain('grants your roles (developer) no view');
    expect(refused(['support'], 'nobody')).toMatchObject({ code: 'bad_request' });
  });
});
