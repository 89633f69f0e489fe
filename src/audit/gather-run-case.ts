import { WorkflowNotFoundError } from '@temporalio/client';
import type { ReasoningChain } from '../domain';
import { viewChain, viewResult } from '../domain/chain/chain-view';
import { isEmptyLens } from '../domain/visibility/lens-level';
import type { ViewLens } from '../domain/visibility/view-lens';
import type { AgentClient } from '../client/agent-client';
import { ModelCallHistoryError, modelCallsOfRun } from '../client/history/model-call-history';
import { recordedActivities } from '../client/history/recorded-activities';
import { readRunInput } from '../client/runs/read-run-input';
import { runIdsOf } from '../client/runs/run-ids';
import { caseFromRun, type CaseFromRun, type RunMaterial } from '../eval/from-run/case-from-run';
import { CaseFromRunError, CaseFromRunRefusal } from '../eval/from-run/case-from-run-error';

/** The lens the door reads the run through in the auditor's view (the policy's security layer binds the auditor too). */
export type AuditorLensOf = (chain: ReasoningChain) => ViewLens | undefined | Promise<ViewLens | undefined>;

/**
 * What an ended run holds for a case, read as the auditor reads it (GET /v1/runs/{id}/model-calls):
 * its result and whole chain, every model call's request and reply and every tool execution
 * rebuilt from its Temporal history, its start input and its scores. A run the lens narrows is
 * refused (NotWholeInView): a case is the whole run or nothing. Reads the history and the result
 * (no billable action) and the scores (a query, one action, while the run's scores workflow is open).
 */
export async function gatherRunCase(
  agents: AgentClient,
  workflowId: string,
  lensOf: AuditorLensOf,
): Promise<RunMaterial> {
  const refuse = (refusal: CaseFromRunRefusal, message: string): never => {
    throw new CaseFromRunError(refusal, workflowId, message);
  };
  let status: string;
  try {
    status = (await agents.getHandle(workflowId).describe()).status.name;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return refuse(CaseFromRunRefusal.NotFound, 'no agent run has this id.');
    throw err;
  }
  if (status === 'RUNNING' || status === 'CONTINUED_AS_NEW')
    refuse(CaseFromRunRefusal.NotEnded, 'it has not ended yet: its outcome is not known.');
  if (status !== 'COMPLETED')
    refuse(CaseFromRunRefusal.NotReplayable, `Temporal reports it ${status}: it ended without a result to expect.`);
  const raw = await agents.result(workflowId);
  if (!isEmptyLens(await lensOf(raw.chain)))
    refuse(
      CaseFromRunRefusal.NotWholeInView,
      "the visibility policy narrows it in the auditor's view; a case carries every reply and result whole.",
    );
  const finished = viewResult(raw, 'auditor');
  const chain = await agents.withEarlierSteps(workflowId, viewChain(finished.chain, 'auditor'), 'auditor');
  const listed = await runIdsOf(agents.client, workflowId).catch(() => []);
  const runIds = listed.length > 0 ? listed : [(await agents.getHandle(workflowId).describe()).runId];
  let modelCalls;
  try {
    modelCalls = await modelCallsOfRun(agents.client, workflowId, runIds, chain.steps, chain.unavailable);
  } catch (err) {
    if (err instanceof ModelCallHistoryError) return refuse(CaseFromRunRefusal.Incomplete, err.message);
    throw err;
  }
  const toolExecutions = [];
  for (const runId of runIds)
    toolExecutions.push(...(await recordedActivities(agents.client, workflowId, runId, 'runTool')));
  return {
    workflowId,
    input: await readRunInput(agents.client, workflowId, runIds[0]),
    result: { ...finished, chain },
    modelCalls,
    toolExecutions,
    scores: await agents.scores(workflowId),
  };
}

/** The case of an ended run and its recording (caseFromRun over gatherRunCase). */
export async function runAsCase(agents: AgentClient, workflowId: string, lensOf: AuditorLensOf): Promise<CaseFromRun> {
  return caseFromRun(await gatherRunCase(agents, workflowId, lensOf));
}
