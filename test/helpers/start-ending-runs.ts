import { cancelSignal } from '../../src/workflows/messages';
import type { AgentClient } from '../../src/client/agent-client';
import { endingInput, ENDINGS, type Ending, type endingModel } from './run-endings';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts one run per ending through `agents` (whose worker serves `model`), cancels the
 * `cancelled` one once its model call is under way, and waits for all seven to end.
 * Returns each ending's workflow id.
 */
export async function startEndingRuns(
  agents: AgentClient,
  model: ReturnType<typeof endingModel>,
  start: (ending: Ending) => Promise<string> = async (e) => (await agents.start(endingInput(e))).workflowId,
): Promise<Record<Ending, string>> {
  const ids = {} as Record<Ending, string>;
  for (const ending of ENDINGS) ids[ending] = await start(ending);
  const deadline = Date.now() + 30_000;
  while (!model.held()) {
    if (Date.now() > deadline) throw new Error('the cancelled run never called its model');
    await wait(25);
  }
  await agents.getHandle(ids.cancelled).signal(cancelSignal, { reason: 'changed my mind', by: 'dev' });
  for (const ending of ENDINGS) await agents.result(ids[ending]);
  return ids;
}
