import {
  WithStartWorkflowOperation,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type Client,
} from '@temporalio/client';
import { redactSecrets } from '../../domain';
import {
  AddRunScoreRequest,
  MAX_SCORE_COMMENT_CHARS,
  type AddRunScoreResult,
  type RunScore,
  type RunScoresState,
} from '../../domain/evaluation/run-scores';
import { cutText } from '../../workflows/core/read-message';
import {
  addRunScoreUpdate,
  RUN_SCORES_WORKFLOW,
  runScoresQuery,
  runScoresWorkflowId,
} from '../../workflows/scores/run-scores-messages';
import type { RunScoresInput } from '../../workflows/scores/run-scores-state';
import type { runScoresWorkflow } from '../../workflows/scores/run-scores-workflow';
import { actorId, type Actor } from '../decisions/actor';
import { isRunGone } from '../errors/run-gone';
import { UnknownRunError } from '../errors/unknown-run-error';
import { UpdateRefusedError } from '../errors/update-refused-error';

/** A score as a caller gives it; see `AgentClient.score`. */
export interface ScoreInit {
  /** Up to 64 letters, digits, `.`, `_` or `-`, starting with a letter: `accepted`, `ticket.reopened`. */
  name: string;
  /** A finite number; `true` is stored as 1, `false` as 0. */
  value: number | boolean;
  /** Up to 2,000 characters; secrets in it are redacted before it is sent. */
  comment?: string;
  /** Where the score comes from (`api`, `cli`, `zendesk`); same shape as a name. */
  source?: string;
  /** Who scores: an id, or an id with roles (only the id is stored). */
  by: Actor;
}

export interface ScoreOptions {
  /** The task queue the workers of the run's namespace poll (the agent's own). */
  taskQueue: string;
  /** Passed to a scores workflow this call starts; default 30 days. */
  idleMs?: number;
}

/** Times the scores may close between reading their state and sending the score (an idle close landing in between). */
const ATTEMPTS = 3;

/**
 * The request a score becomes: checked (a ZodError naming the bad field), a boolean as 1 or 0, the
 * comment redacted before anything leaves this process (an update's argument stays in history).
 */
export function scoreRequest(init: ScoreInit): AddRunScoreRequest {
  const request = AddRunScoreRequest.parse({
    name: init.name,
    value: typeof init.value === 'boolean' ? (init.value ? 1 : 0) : init.value,
    ...(init.comment !== undefined ? { comment: init.comment } : {}),
    ...(init.source !== undefined ? { source: init.source } : {}),
    by: actorId(init.by),
  });
  if (request.comment === undefined) return request;
  // Redaction may lengthen a short secret; the cut keeps the limit the validator checks.
  return { ...request, comment: cutText(redactSecrets(request.comment), MAX_SCORE_COMMENT_CHARS) };
}

/** Refuses, with UnknownRunError, a workflow id that holds no agent run. */
async function requireAgentRun(client: Client, workflowId: string): Promise<void> {
  let type: string;
  try {
    type = (await client.workflow.getHandle(workflowId).describe()).type;
  } catch (err) {
    if (isRunGone(err)) throw new UnknownRunError(workflowId);
    throw err;
  }
  if (type !== 'agentWorkflow') throw new UnknownRunError(workflowId);
}

/** The latest execution of a run's scores: open (its run id), closed (its scores), or none yet. */
type ScoresExecution = { open: true; runId: string } | { open: false; state?: RunScoresState };

async function latestExecution(client: Client, workflowId: string): Promise<ScoresExecution> {
  const handle = client.workflow.getHandle<typeof runScoresWorkflow>(workflowId);
  let described;
  try {
    described = await handle.describe();
  } catch (err) {
    if (isRunGone(err)) return { open: false };
    throw err;
  }
  if (described.status.name === 'RUNNING') return { open: true, runId: described.runId };
  const scoped = client.workflow.getHandle<typeof runScoresWorkflow>(workflowId, described.runId);
  // Completed: its result, read from history. Terminated or failed: a query, which a worker answers by replay.
  if (described.status.name === 'COMPLETED') return { open: false, state: await scoped.result() };
  const view = await scoped.query(runScoresQuery);
  return { open: false, state: { schemaVersion: 1, runWorkflowId: view.runWorkflowId, scores: view.scores } };
}

/**
 * Attaches a score to the agent run `runWorkflowId`, open or ended, through its scores workflow:
 * an update to the open execution, else update-with-start of a fresh one whose input carries the
 * scores of the closed one. Throws UnknownRunError when there is no such agent run,
 * UpdateRefusedError when the scores workflow refuses (the run's limit), a ZodError for a bad field.
 */
export async function addRunScore(
  client: Client,
  runWorkflowId: string,
  init: ScoreInit,
  options: ScoreOptions,
): Promise<AddRunScoreResult> {
  const request = scoreRequest(init);
  await requireAgentRun(client, runWorkflowId);
  const workflowId = runScoresWorkflowId(runWorkflowId);
  for (let attempt = 1; ; attempt++) {
    const latest = await latestExecution(client, workflowId);
    try {
      if (latest.open)
        return await client.workflow
          .getHandle(workflowId, latest.runId)
          .executeUpdate(addRunScoreUpdate, { args: [request] });
      const input: RunScoresInput = {
        runWorkflowId,
        ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
        ...(latest.state ? { carried: latest.state } : {}),
      };
      const start = new WithStartWorkflowOperation<typeof runScoresWorkflow>(RUN_SCORES_WORKFLOW, {
        workflowId,
        taskQueue: options.taskQueue,
        args: [input],
        // Another client may have started it since: its input carried the same closed scores.
        workflowIdConflictPolicy: 'USE_EXISTING',
        // It may outlive the worker version that started it, so it follows the current one.
        versioningOverride: 'AUTO_UPGRADE',
        staticSummary: `Scores of run ${runWorkflowId}`,
      });
      return await client.workflow.executeUpdateWithStart(addRunScoreUpdate, {
        args: [request],
        startWorkflowOperation: start,
      });
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError) throw new UpdateRefusedError(err.cause?.message ?? err.message);
      // The open execution closed (idle) after it was read: read again, and carry its scores.
      if (err instanceof WorkflowNotFoundError && attempt < ATTEMPTS) continue;
      throw err;
    }
  }
}

/** The scores of `runWorkflowId`, oldest first: from its open scores workflow (a query), else from the closed one's result; none when never scored. */
export async function readRunScores(client: Client, runWorkflowId: string): Promise<RunScore[]> {
  const workflowId = runScoresWorkflowId(runWorkflowId);
  const latest = await latestExecution(client, workflowId);
  if (!latest.open) return latest.state?.scores ?? [];
  // A query to an execution that closes meanwhile is still answered (by replay).
  return (await client.workflow.getHandle(workflowId, latest.runId).query(runScoresQuery)).scores;
}
