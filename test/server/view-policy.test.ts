import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/server/api-error';
import { allowedViews, defaultView, viewFor } from '../../src/server/auth/view-policy';

const person = (roles: string[]) => ({ id: 'p', roles, via: 'token' as const });
const refused = (roles: string[], view: string): ApiError => {
  try {
    viewFor(person(roles), view);
  } catch (err) {
    return err as ApiError;
  }
  throw new Error(`${view} allowed for ${roles.join(',')}`);
};

describe('view policy', () => {
  it("allows views by role, an allow-list: auditor all, developer or operator two, anyone else the end user's", () => {
    expect(allowedViews(['auditor'])).toEqual(['end_user', 'developer', 'auditor']);
    expect(allowedViews(['developer'])).toEqual(['end_user', 'developer']);
    expect(allowedViews(['operator'])).toEqual(['end_user', 'developer']);
    expect(allowedViews(['ops', 'finance', 'Auditor', 'admin'])).toEqual(['end_user']);
    expect(allowedViews([])).toEqual(['end_user']);
    expect([defaultView(['developer', 'auditor']), defaultView(['developer']), defaultView(['approver'])]).toEqual([
      'auditor',
      'developer',
      'end_user',
    ]);
  });

  it('gives the widest allowed view by default, a narrower one on request, and refuses a wider (403) or unknown (400) one', () => {
    expect(viewFor(person(['developer']), undefined)).toBe('developer');
    expect(viewFor(person(['developer']), 'end_user')).toBe('end_user');
    expect(viewFor(person(['auditor']), 'developer')).toBe('developer');
    expect(refused(['developer'], 'auditor')).toMatchObject({ code: 'forbidden', status: 403 });
    expect(refused([], 'developer').message).toMatch(/allow the views end_user/);
    expect(refused(['auditor'], 'admin')).toMatchObject({ code: 'bad_request', status: 400 });
    expect(refused(['auditor'], '__proto__').code).toBe('bad_request');
  });
});
