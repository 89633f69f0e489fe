// A test bundle: probes that look, from inside a run, at what the preloaded modules share and do.
import { CancellationScope, isCancellation, sleep, workflowInfo } from '@temporalio/workflow';
import * as chainModule from '../../../src/domain/chain/chain';
import { AgentInput } from '../../../src/domain/run/agent-input';
import { createAtRest } from '../../../src/workflows/core/state/at-rest';
import * as strategies from '../../../src/workflows/loop/strategies';
import { observationMarker } from '../../../src/workflows/react-text/react-text-prompt';
import { fnv1a } from '../../../src/workflows/core/stable-hash';
import { planTemplates } from '../../../src/workflows/planning/plans/plan-templates';
import { SteeringInbox } from '../../../src/workflows/people/steering-inbox';

export interface ProbeReport {
  exportsFrozen: boolean;
  sawBefore: unknown;
  writeRefused: boolean;
  inputParsed: boolean;
  badInputRefused: boolean;
  stepParsed: boolean;
  /** A write into the plain data a preloaded module exports (a plan template's steps) was refused. */
  nestedWriteRefused: boolean;
  /** The template's steps, as this run reads them. */
  templateSteps: number;
  /** A class from a preloaded workflow module still makes instances that keep their own state. */
  classWorks: boolean;
  /** A module that uses the workflow SDK is frozen like the pure ones. */
  sdkModuleFrozen: boolean;
  /** Its `workflowInfo()` answered for this run (the run's observation marker comes from this run's own id). */
  sdkSawThisRun: boolean;
  /** Its at-rest queue ran what this run queued, in this run. */
  atRestRan: boolean;
}

/** What one run sees of a preloaded module, and whether it could leave anything for the next. */
export async function preloadProbe(tag: string): Promise<ProbeReport> {
  const shared = chainModule as unknown as Record<string, unknown>;
  const sawBefore = shared['probeTag'];
  let writeRefused = false;
  try {
    shared['probeTag'] = tag;
  } catch {
    writeRefused = true;
  }
  // The shared schemas parse and refuse as they do unshared, in the first run and in later ones.
  const input = AgentInput.safeParse({ task: tag, model: { provider: 'scripted', model: 'm' } });
  const bad = AgentInput.safeParse({ task: 42 });
  const step = chainModule.ReasoningStep.safeParse({
    type: 'thinking',
    stepId: tag,
    stepNumber: 1,
    timestamp: 't',
    iteration: 0,
    thought: tag,
    visibility: { level: 'full' },
  });
  const steps = planTemplates.debug_bug.steps as string[];
  let nestedWriteRefused = false;
  try {
    steps.push(tag);
  } catch {
    nestedWriteRefused = true;
  }
  // Workflow SDK calls made from a shared module act on the run that makes them.
  const sdkSawThisRun =
    strategies.runObservationMarker() === observationMarker(fnv1a(workflowInfo().firstExecutionRunId));
  let ranWith: string | undefined;
  createAtRest().once(() => (ranWith = tag));
  // A later workflow task: what waited for this one to settle has run by then.
  await sleep(1);
  const atRestRan = ranWith !== undefined;
  return {
    sdkModuleFrozen: Object.isFrozen(strategies),
    sdkSawThisRun,
    atRestRan: atRestRan && ranWith === tag,
    nestedWriteRefused,
    templateSteps: planTemplates.debug_bug.steps.length,
    classWorks: inboxWorks(tag),
    exportsFrozen: Object.isFrozen(chainModule),
    sawBefore,
    writeRefused,
    inputParsed: input.success && input.data.task === tag,
    badInputRefused: !bad.success,
    stepParsed: step.success,
  };
}

/** A fresh inbox from the preloaded module takes this run's instruction and holds only that one. */
function inboxWorks(tag: string): boolean {
  const inbox = new SteeringInbox();
  return (
    inbox.receive({ text: tag }) === 'queued' &&
    inbox.receive({ text: 42 }) === 'malformed' &&
    inbox.waiting.length === 1 &&
    inbox.waiting[0]!.text === tag
  );
}

/**
 * What a run's at-rest work does once Temporal cancelled the run: what was queued before still
 * ran, and what is queued after runs too. `shared` says whether the run's queue is the one the
 * interceptor module made for it (every call answers with it) rather than a condition of its own.
 */
export async function atRestAfterCancel(): Promise<{ ran: string[]; shared: boolean }> {
  const ran: string[] = [];
  const atRest = createAtRest();
  const shared = createAtRest() === atRest;
  atRest.once(() => ran.push('queued before the cancel'));
  try {
    await sleep('1 day');
  } catch (err) {
    if (!isCancellation(err)) throw err;
  }
  // A later workflow task than the cancel's, whose rejection may still find the queue in the same one.
  await CancellationScope.nonCancellable(() => sleep(10));
  atRest.once(() => ran.push('queued after the cancel'));
  // One more workflow task: a queued function that waited for the task to settle has run by then.
  await CancellationScope.nonCancellable(() => sleep(10));
  return { ran, shared };
}
