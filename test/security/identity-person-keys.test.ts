import { describe, expect, it } from 'vitest';
import { threadWorkflowId } from '../../src/client/threads/thread-client';
import { a2aWorkflowId } from '../../src/server/a2a/tasks/start-run';
import type { Identity } from '../../src/server/auth/identity';
import { personKey } from '../../src/server/auth/person-key';
import { preferencesKey } from '../../src/server/policy/preferences-key';

/**
 * Issue 63: a token-file id chosen equal to someone's OIDC subject is another person. Every key
 * that names a person (threads, A2A message runs, MCP sessions, preferences, stream caps) comes
 * from personKey, so one check per key covers them.
 */
const fromToken: Identity = { id: 'sub-123', roles: ['auditor'], tenant: 'acme', via: 'token' };
const fromOidc: Identity = { ...fromToken, via: 'oidc' };

describe('the keys that name a person', () => {
  it('tell an OIDC subject from the same id in the token file', () => {
    expect(personKey(fromOidc)).not.toBe(personKey(fromToken));
    expect(preferencesKey(fromOidc)).not.toBe(preferencesKey(fromToken));
    expect(threadWorkflowId(fromOidc, 'chat')).not.toBe(threadWorkflowId(fromToken, 'chat'));
    expect(a2aWorkflowId(fromOidc, 'agent', 'm1')).not.toBe(a2aWorkflowId(fromToken, 'agent', 'm1'));
  });

  it('keep the token file keys they had, so saved preferences and open threads stay their owners', () => {
    expect(preferencesKey(fromToken)).toBe(JSON.stringify(['acme', 'sub-123']));
    expect(personKey({ ...fromToken, via: 'in-process' })).toBe(personKey(fromToken));
  });

  it('never let a tenant and an id spell another person', () => {
    const keys = new Set([
      personKey({ id: 'b', tenant: 'a', via: 'oidc' }),
      personKey({ id: 'oidc', tenant: 'a', via: 'token' }),
      personKey({ id: 'a', via: 'oidc' }),
      personKey({ id: 'a', via: 'token' }),
      personKey({ id: 'a', tenant: 'default', via: 'token' }),
    ]);
    expect(keys.size).toBe(5);
  });
});
