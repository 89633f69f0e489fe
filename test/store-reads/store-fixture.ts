import { z } from 'zod';
import type { AgentClient } from '../../src/client/agent-client';
import type { ChainStore } from '../../src/store/chain-store';
import type { ReasoningStep } from '../../src/domain';
import type { TerminationReason } from '../../src/domain/run/termination';
import { defineTool } from '../../src/tools/define-tool';

/** A value only the auditor's view shows: the `card` argument of `pay` is a sensitive field. */
export const CARD = 'zebracard778';
/** Text only a hidden step carries: `audit_note` is hidden below the auditor. */
export const HIDDEN_NOTE = 'quokkanote314';

/** Tools whose steps each view treats differently, plus a plain one. */
export function viewTools() {
  const pay = defineTool({
    name: 'pay',
    description: 'Pays with a card',
    input: z.object({ card: z.string(), amount: z.number() }),
    sensitiveFields: ['card'],
    execute: ({ amount }) => ({ paid: amount }),
  });
  const auditNote = defineTool({
    name: 'audit_note',
    description: 'Writes a note for the auditors',
    input: z.object({ note: z.string() }),
    visibility: 'hidden',
    execute: ({ note }) => `noted ${note}`,
  });
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks up a number for a key',
    input: z.object({ key: z.string() }),
    execute: ({ key }) => ({ key, value: key.length * 10 }),
  });
  return [pay, auditNote, lookup];
}

function reasonOf(steps: readonly ReasoningStep[]): { terminationReason?: TerminationReason } {
  const answer = [...steps].reverse().find((step) => step.type === 'synthesis');
  const reason = answer?.type === 'synthesis' ? answer.synthesis.terminationReason : undefined;
  return reason ? { terminationReason: reason } : {};
}

/**
 * Writes a run's chain as Temporal holds it (the auditor's form: raw steps) into the store, as
 * the projection would once the run ended. Returns the number of steps written.
 */
export async function storeRun(store: ChainStore, agents: AgentClient, runId: string): Promise<number> {
  const chain = await agents.chain(runId, 'auditor');
  const { steps, ...head } = chain;
  await store.putRun({
    runId,
    head,
    state: chain.status === 'failed' ? 'failed' : 'completed',
    // How it ended, as the projection reads it from the result: here from the answer's step.
    ...reasonOf(steps),
    ...(chain.completedAt ? { endedAt: chain.completedAt } : {}),
    rootRunId: runId,
    complete: true,
  });
  await store.putSteps(runId, steps);
  return steps.length;
}
