import { ZodError } from 'zod';
import { callerOf, signedDecisionKeys } from '../../protocols/protocol-run-input';
import { readThread, sendThreadTurn } from '../../../client/threads/thread-client';
import { UpdateRefusedError } from '../../../client/errors/update-refused-error';
import { ApiError } from '../../api-error';
import type { ApiContext } from '../../api-route';
import type { Identity } from '../../auth/identity';
import type { CatalogAgent } from '../../catalog/agent-catalog';
import type { RunSnapshot } from './run-snapshot';

/** Thread workflow ids start so (client/threads/thread-client.ts); a turn's run is their child. */
const THREAD_PREFIX = 'thread-';

/**
 * A message in a context: one turn of the caller's thread named by the context id, started with
 * update-with-start, so a context is one durable conversation (each turn's run sees the earlier
 * turns) reached from any server instance. The message id is the turn's idempotency key: a
 * resend returns the same turn's run. A turn while another runs is refused (the thread's rule).
 */
export async function startThreadTurn(
  ctx: ApiContext,
  identity: Identity,
  agent: CatalogAgent,
  contextId: string,
  messageId: string,
  text: string,
): Promise<{ runId: string; started: boolean }> {
  const owner = callerOf(identity);
  const signed = signedDecisionKeys(ctx);
  try {
    const receipt = await sendThreadTurn(
      ctx.agents,
      { threadId: contextId, owner, agent: agent.start, allowQuestions: true },
      { turnId: messageId, text, by: owner, ...signed },
      { via: identity.via },
    );
    return { runId: receipt.runId, started: !receipt.repeated };
  } catch (err) {
    if (err instanceof ZodError)
      throw new ApiError(
        'bad_request',
        `The context cannot hold this message: ${err.issues[0]?.message ?? 'invalid'}.`,
      );
    if (err instanceof UpdateRefusedError) throw new ApiError('conflict', err.message);
    throw err;
  }
}

/** The context of a run's task: the thread id of the thread it is a turn of, else the run's own id. */
export async function contextIdOf(ctx: ApiContext, snapshot: RunSnapshot): Promise<string> {
  const parent = snapshot.parentRunId;
  if (!parent?.startsWith(THREAD_PREFIX)) return snapshot.runId;
  const thread = await readThread(ctx.agents, parent).catch(() => undefined);
  return thread?.threadId ?? snapshot.runId;
}
