import type { ViewerRole } from '../../domain';
import type { LoadedPolicy } from '../../governance/load-visibility-policy';
import { withPolicy } from '../spec/policy-option';
import { chainAsOf } from '../../client/fork/chain-as-of';
import { ForkError } from '../../client/fork/fork-error';
import { forkWorkflowId, type ForkOptions } from '../../client/fork/fork-run';
import { planForkOfImport } from '../../client/fork/fork-import';
import { isImportRunId } from '../../domain/store/import-run-id';
import { cliName } from '../../client/follow/cli-name';
import { openReadStore } from './read-store';
import type { PlannedFork } from '../../client/fork/plan-fork';
import { renderSteps } from '../render/render-step';
import { writeForStdout, writeSafe } from '../render/terminal-safe';
import { connect } from '../setup/runtime';
import { actingPerson } from '../commands/people-in-the-loop/decide-call';
import { counted } from '../../domain/text/counted';

function hazardLines(planned: PlannedFork): string {
  const { hazards, from } = planned.start;
  if (hazards.length === 0)
    return `No side-effect hazards: no call after step ${from.keptThroughStep} changes anything the original's tools declare.\n`;
  return [
    `Side-effect hazards: calls the original made after step ${from.keptThroughStep} that the fork may make again (approvals never carry over; each keeps its policy):`,
    ...hazards.map(
      (h) => `  step ${h.stepNumber}: ${h.toolName} (${h.toolType}) · approval: ${h.approval} · ${h.because}`,
    ),
    '',
  ].join('\n');
}

/**
 * A fork of an imported run (`import:…`), planned from the chain store: the CLI's user holds the
 * store, so an import of any tenant is read, in the auditor's view (planForkOfImport).
 */
async function planImportFork(importId: string, options: ForkOptions): Promise<PlannedFork> {
  const store = await openReadStore();
  if (!store)
    throw new ForkError(
      `${importId} is an imported run, kept in the chain store, and there is none here: set THOUGHTLINE_STORE to the store it was imported into.`,
    );
  try {
    return await planForkOfImport(store, importId, options);
  } finally {
    await store.close();
  }
}

/**
 * `fork <id> --at-step N [--model M] [--steer TEXT] [--tools a,b] [--dry-run] [--json]`: lists
 * the fork's hazards first, then starts it (not with --dry-run). The original is only read.
 */
export async function forkCommand(
  workflowId: string,
  options: Omit<ForkOptions, 'caller'> & { dryRun: boolean; json: boolean; as?: string; roles?: string },
): Promise<number> {
  const { agents, config } = await connect();
  try {
    const person = actingPerson(config, options);
    const forkOptions: ForkOptions = { ...options, caller: { id: person.id, roles: person.roles } };
    try {
      const planned = isImportRunId(workflowId)
        ? await planImportFork(workflowId, forkOptions)
        : await agents.planFork(workflowId, forkOptions);
      if (!options.json)
        writeSafe(
          process.stdout,
          `Fork of ${workflowId} at step ${options.atStep}: keeps steps 1–${planned.start.from.keptThroughStep}${planned.start.change ? `, with ${planned.start.change}` : ''}.\n${hazardLines(planned)}`,
        );
      if (options.dryRun) {
        if (options.json)
          writeForStdout(
            `${JSON.stringify({ fork: planned.start.from, change: planned.start.change, hazards: planned.start.hazards }, null, 2)}\n`,
          );
        return 0;
      }
      // Starts what was planned and shown, not a second reading of the original.
      const handle = await agents.start(planned.input, { workflowId: forkWorkflowId(workflowId) });
      if (options.json)
        writeForStdout(
          `${JSON.stringify({ workflowId: handle.workflowId, fork: planned.start.from, change: planned.start.change, hazards: planned.start.hazards }, null, 2)}\n`,
        );
      else
        writeSafe(process.stdout, `Started ${handle.workflowId}. Follow it: ${cliName()} watch ${handle.workflowId}\n`);
      return 0;
    } catch (err) {
      if (!(err instanceof ForkError)) throw err;
      process.stderr.write(`thoughtline: ${err.message}\n`);
      return 1;
    }
  } finally {
    await agents.client.connection.close();
  }
}

/** `chain <id> --as-of N`: the chain, the spend and the plan as they stood once step N was recorded. */
export async function printChainAsOf(
  workflowId: string,
  asOfStep: number,
  options: { json: boolean; role: ViewerRole; policy?: LoadedPolicy },
): Promise<void> {
  const agents = withPolicy((await connect()).agents, options.policy);
  try {
    const then = chainAsOf(await agents.chain(workflowId, options.role), asOfStep);
    if (options.json) return writeForStdout(`${JSON.stringify(then, null, 2)}\n`);
    const { chain, ledger } = then;
    const spend = `iteration ${ledger.iteration} · ${counted(ledger.modelCalls, 'model call')}, ${counted(ledger.toolCalls, 'tool call')} · ${ledger.usage.inputTokens + ledger.usage.outputTokens} tokens · $${ledger.costUsd.toFixed(4)}`;
    const plan = chain.plan
      ? `\nplan: ${chain.plan.tasks.map((t) => `[${t.status}] ${t.description}`).join(' · ')}`
      : '';
    writeSafe(
      process.stdout,
      `${chain.agentName}: ${chain.task}\nas of step ${asOfStep}: ${chain.status} · ${spend}${plan}\n\n`,
    );
    const body = renderSteps(chain.steps).join('\n');
    if (body) writeSafe(process.stdout, `${body}\n`);
  } finally {
    await agents.client.connection.close();
  }
}
