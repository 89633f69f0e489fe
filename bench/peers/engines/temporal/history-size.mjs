/** HistoryEventFilterType.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT: only the run's closing event. */
const CLOSE_EVENT = 2;

/**
 * What Temporal keeps for one ended workflow: the history size in bytes the server reports
 * (describe → historySizeBytes) of every run under the workflow id, following continue-as-new from
 * the first run to the last.
 */
export async function historyBytes(client, workflowId, firstRunId) {
  let bytes = 0;
  let runs = 0;
  for (let runId = firstRunId; runId;) {
    const description = await client.workflow.getHandle(workflowId, runId).describe();
    bytes += description.historySize;
    runs += 1;
    runId = description.status.name === 'CONTINUED_AS_NEW' ? await nextRunId(client, workflowId, runId) : undefined;
  }
  return { bytes, runs };
}

async function nextRunId(client, workflowId, runId) {
  const { history } = await client.workflowService.getWorkflowExecutionHistory({
    namespace: client.options.namespace,
    execution: { workflowId, runId },
    historyEventFilterType: CLOSE_EVENT,
  });
  return history.events.at(-1).workflowExecutionContinuedAsNewEventAttributes.newExecutionRunId;
}
