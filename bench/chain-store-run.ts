import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentClient } from '../src/client/agent-client';
import type { ReasoningChain } from '../src/domain';
import { statusQuery } from '../src/workflows/messages';
import { benchRun } from './lib/bench-model';
import { BENCH_MODEL } from './lib/bench-worker';
import { runLimitMs } from './lib/within';

export interface LongChain {
  workflowId: string;
  iterations: number;
  /** The whole chain in the auditor's form (what the store keeps), joined across every Temporal run. */
  chain: ReasoningChain;
  continuations: number;
  driveMs: number;
  /** Still running, waiting on its question (else it finished: see the loop below). */
  open: boolean;
}

/**
 * Drives a real run on the dev server until its chain has at least `steps` steps, then leaves it
 * open on a question (so it is a running run, whose reads without a store replay its history on
 * an evicted worker). Continue-as-new happens on the way, as for any long run.
 */
export async function driveLongChain(
  agents: AgentClient,
  steps: number,
  stepsPerIteration: number,
): Promise<LongChain> {
  // The short runs record a little more an iteration (their first and finishing turns): 15% over.
  const iterations = Math.ceil((steps / stepsPerIteration) * 1.15) + 2;
  const started = performance.now();
  const handle = await agents.start({
    ...benchRun({ iterations, askAtEnd: true }),
    model: BENCH_MODEL,
    maxIterations: iterations + 5,
    allowQuestions: true,
    // The bench model calls its tool without a thought; the loop would stop it as stalled.
    requireThought: false,
  });
  const limitMs = runLimitMs(iterations);
  let continuations = 0;
  let open = false;
  for (const deadline = Date.now() + limitMs; !open; await sleep(500)) {
    if (Date.now() > deadline) throw new Error(`run ${handle.workflowId} asked no question within ${limitMs} ms`);
    const desc = await handle.describe();
    if (desc.status.name !== 'RUNNING') {
      // Seen on a loaded machine: the run finished without its question. A finished run is read
      // the same way (its earlier Temporal runs replayed by the evicted worker), so go on with it.
      const result = await handle.result();
      if (result.terminationReason !== 'success')
        throw new Error(
          `run ${handle.workflowId} ended ${result.terminationReason}: ${result.error ?? result.finalAnswer}`,
        );
      continuations = result.continuations;
      break;
    }
    const status = await handle.query(statusQuery).catch(() => undefined);
    if (status?.openQuestion) {
      continuations = status.continuations;
      open = true;
    }
  }
  const driveMs = performance.now() - started;
  const chain = await agents.chain(handle.workflowId, 'auditor');
  if (chain.steps.length < steps || chain.steps[0]?.stepNumber !== 1)
    throw new Error(`run ${handle.workflowId}: its joined chain has ${chain.steps.length} steps, wanted ${steps}`);
  return { workflowId: handle.workflowId, iterations, chain, continuations, driveMs, open };
}
