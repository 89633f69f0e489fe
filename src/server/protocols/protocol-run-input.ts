import type { AgentInputInit, CallerContext } from '../../domain';
import type { SignedDecisionPolicy } from '../../domain/approval/signed-decision';
import type { ApiContext } from '../api-route';
import type { Identity } from '../auth/identity';
import type { CatalogAgent } from '../catalog/agent-catalog';

/**
 * The input of a run a protocol endpoint (A2A, MCP, AG-UI) starts for `identity`: the catalogue
 * agent's start, the task, the caller from authentication only (never from the request), and the
 * server's signing keys when runs require signed decisions. `extra` adds what the protocol carries
 * (context data); it can never set the caller or the agent.
 */
export function protocolRunInput(
  ctx: Pick<ApiContext, 'signer' | 'requireSignatures'>,
  identity: Identity,
  agent: CatalogAgent,
  task: string,
  extra: Pick<AgentInputInit, 'context' | 'allowQuestions'> = {},
): AgentInputInit {
  return { ...extra, task, ...agent.start, caller: callerOf(identity), ...signedDecisionKeys(ctx) };
}

/** The run's caller: the authenticated identity, nothing the request says. */
export const callerOf = (identity: Identity): CallerContext => ({
  id: identity.id,
  roles: [...identity.roles],
  ...(identity.tenant ? { tenant: identity.tenant } : {}),
});

/**
 * The server's public keys on a run whenever the server signs: required with `--require-signatures`,
 * else `required: false`, so the run still verifies the roles the server vouches for (only those
 * count toward approver and raiser roles). Nothing when the server has no keys.
 */
export const signedDecisionKeys = (
  ctx: Pick<ApiContext, 'signer' | 'requireSignatures'>,
): { signedDecisions?: SignedDecisionPolicy } =>
  ctx.signer
    ? {
        signedDecisions: { publicKeys: ctx.signer.publicKeys(), ...(ctx.requireSignatures ? {} : { required: false }) },
      }
    : {};
