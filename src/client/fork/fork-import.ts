import {
  AgentInput,
  DEFAULT_FINISH_TOOL,
  DEFAULT_GIVE_UP_TOOL,
  DEFAULT_QUESTION_TOOL,
  type ReasoningStep,
} from '../../domain';
import { rebuildImportedConversation } from '../../domain/store/imported-conversation';
import type { ChainStore } from '../../store/chain-store';
import { readImportedRun, type ImportedRunRead } from '../store/read-imported-run';
import { ForkError } from './fork-error';
import type { ForkOptions } from './fork-run';
import { planFork, type PlannedFork } from './plan-fork';

/** What the fork's first step says of a conversation rebuilt from an import (ForkStart.rebuilt). */
export const REBUILT_FROM_IMPORT =
  "Its conversation was rebuilt from the imported chain's steps (an export carries no history): the task, each model reply and each tool result as the steps keep them; the original's system prompt, context, extended thinking and any text a person sent are not in it.";

/** Tool names the loop itself offers the model: never a worker's tool to ask for. */
const INJECTED = new Set([DEFAULT_FINISH_TOOL, DEFAULT_GIVE_UP_TOOL, DEFAULT_QUESTION_TOOL]);

/** The worker tools the original offered its model (its first turn's list, less the loop's own). */
function offeredTools(steps: readonly ReasoningStep[], offered: readonly string[] | undefined): string[] | undefined {
  if (offered) return offered.filter((t) => !INJECTED.has(t));
  const called = steps.flatMap((s) =>
    s.type === 'tool_call' && s.toolCall.toolType !== 'llm' && s.toolCall.toolType !== 'guardrail'
      ? [s.toolCall.toolName]
      : [],
  );
  return called.length > 0 ? [...new Set(called)].filter((t) => !INJECTED.has(t)) : undefined;
}

/**
 * What a fork of the imported run `importId` would start from. An import has no history and no
 * first input: the fork's input is built from what its chain keeps (task, agent name, caller, the
 * model and the tools its first turn named; `options` change any of them) and its conversation is
 * rebuilt from its steps (rebuildImportedConversation), which the fork's first step says. Its
 * tools are not known to be read-only (an export carries no tool descriptions), so every call
 * after the kept steps is listed as a hazard. `tenant` is the reader's gate (null: runs without
 * one; undefined: any, for the CLI's store); an import of another tenant reads as no import.
 * Throws ForkError when there is no such import, it spoke the text protocol, or planFork refuses.
 */
export async function planForkOfImport(
  store: ChainStore,
  importId: string,
  options: ForkOptions,
  tenant?: string | null,
): Promise<PlannedFork> {
  const read = await readImportedRun(store, importId, tenant);
  if (!read) throw new ForkError(`No imported run ${importId} to fork (thoughtline import writes one).`);
  return planForkOfRead(read, options);
}

/** planForkOfImport once the import is read (a door that checked it first reads it once). Pure. */
export function planForkOfRead({ run, chain }: ImportedRunRead, options: ForkOptions): PlannedFork {
  const importId = run.runId;
  const conversation = rebuildImportedConversation(chain.task, chain.steps);
  if (conversation.textProtocol)
    throw new ForkError(
      `Cannot fork ${importId}: it spoke the text protocol (react-text), whose observations the steps do not keep as they were sent.`,
    );
  const first = conversation.calls.find((c) => !c.side);
  const tools = options.tools ?? offeredTools(chain.steps, first?.tools);
  const parsed = AgentInput.safeParse({
    task: chain.task,
    agentName: chain.agentName,
    ...(first ? { model: { ...(first.provider ? { provider: first.provider } : {}), model: first.model } } : {}),
    ...(tools ? { tools } : {}),
    ...(chain.caller ? { caller: chain.caller } : {}),
  });
  if (!parsed.success)
    throw new ForkError(
      `Cannot fork ${importId}: its chain does not make an input (${parsed.error.issues[0]?.message}).`,
    );
  // The fork is the forker's run, in the import's tenant.
  const importTenant = chain.caller?.tenant;
  const caller = options.caller
    ? { ...(importTenant ? { tenant: importTenant } : {}), ...options.caller }
    : parsed.data.caller;
  return planFork(
    {
      workflowId: importId,
      input: parsed.data,
      steps: chain.steps,
      modelCalls: conversation.calls
        .filter((c) => !c.side)
        .map((c) => ({ stepNumber: c.stepNumber, request: { messages: c.messages } })),
      tools: undefined,
      rebuilt: REBUILT_FROM_IMPORT,
    },
    options.atStep,
    options,
    caller,
  );
}
