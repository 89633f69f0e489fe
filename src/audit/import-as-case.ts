import {
  DEFAULT_FINISH_TOOL,
  DEFAULT_GIVE_UP_TOOL,
  DEFAULT_QUESTION_TOOL,
  type AgentResult,
  type ModelRequest,
  type ReasoningStep,
} from '../domain';
import { rebuildImportedConversation } from '../domain/store/imported-conversation';
import { isEmptyLens } from '../domain/visibility/lens-level';
import { ledgerAsOf } from '../client/fork/plan-fork';
import { readImportedRun, type ImportedRunRead } from '../client/store/read-imported-run';
import type { ChainStore } from '../store/chain-store';
import { caseFromRun, type CaseFromRun, type RunMaterial, type RunToolExecution } from '../eval/from-run/case-from-run';
import { CaseFromRunError, CaseFromRunRefusal } from '../eval/from-run/case-from-run-error';
import type { AuditorLensOf } from './gather-run-case';

/** The tags of a case made from an import: the recording was rebuilt from its steps, and its input beyond task and tools was not exported. */
export const FROM_IMPORT_TAGS = ['from-import', 'rebuilt-from-steps'] as const;

/** The loop's own tools: their calls end or pause the run, never a worker's execution to record. */
const CONTROL = new Set([DEFAULT_FINISH_TOOL, DEFAULT_GIVE_UP_TOOL, DEFAULT_QUESTION_TOOL]);

/**
 * A request standing for a rebuilt call where caseFromRun reads one: it reads only whether the
 * call was a side call (isSideCall), which the rebuild already knows. Never sent anywhere.
 */
const standIn = (side: boolean, messages: ModelRequest['messages']): ModelRequest => ({
  provider: 'replay',
  model: 'replay',
  system: '',
  messages: side ? [{ role: 'user', content: [{ type: 'text', text: '' }] }] : messages,
  tools: side ? [] : [{ name: 'rebuilt', description: '', inputSchema: {} }],
  toolChoice: side ? 'none' : 'auto',
  maxTokens: 1,
});

/** The worker tools' executions as the steps keep them: each call's arguments, and its result or error. */
function toolExecutionsOf(runId: string, steps: readonly ReasoningStep[]): RunToolExecution[] {
  const results = new Map<string, Extract<ReasoningStep, { type: 'tool_result' }>>();
  for (const s of steps) if (s.type === 'tool_result') results.set(s.toolResult.correlationId, s);
  const executions: RunToolExecution[] = [];
  for (const s of steps) {
    if (s.type !== 'tool_call') continue;
    const { toolType, toolName, correlationId } = s.toolCall;
    if (toolType === 'llm' || toolType === 'guardrail' || CONTROL.has(toolName)) continue;
    if (toolType === 'sub_agent')
      throw new CaseFromRunError(
        CaseFromRunRefusal.NeedsOthers,
        runId,
        'it delegated to sub-agents, whose runs a case does not replay.',
      );
    const result = results.get(correlationId)?.toolResult;
    if (!result) continue;
    // The export keeps what the model was shown: a cut, condensed or reused result is not what the tool returned.
    if (result.truncated || result.summarised || result.cachedFrom)
      throw new CaseFromRunError(
        CaseFromRunRefusal.Incomplete,
        runId,
        `the result of its ${toolName} call (step ${s.stepNumber}) was ${result.truncated ? 'cut to the size limit' : result.summarised ? 'condensed by a model' : 'reused from a cache'}; the export keeps what the model was shown, not what the tool returned.`,
      );
    const input = { toolName, arguments: s.toolCall.arguments };
    executions.push(
      result.success
        ? { input, result: { result: result.result } }
        : { input, error: result.error ?? 'The tool failed.' },
    );
  }
  return executions;
}

/** What caseFromRun needs of an ended run, rebuilt from an import's row and chain. */
function importMaterial(runId: string, { run, chain }: ImportedRunRead): RunMaterial {
  const refuse = (refusal: CaseFromRunRefusal, message: string): never => {
    throw new CaseFromRunError(refusal, runId, message);
  };
  if (run.terminationReason === undefined)
    refuse(CaseFromRunRefusal.NotReplayable, `Temporal ended it (${run.state}) without a result to expect.`);
  const conversation = rebuildImportedConversation(chain.task, chain.steps);
  if (conversation.textProtocol)
    refuse(
      CaseFromRunRefusal.Incomplete,
      'it spoke the text protocol (react-text); the export does not say how, so a replay would read its replies otherwise.',
    );
  const side = conversation.calls.find((c) => c.side);
  if (side)
    refuse(
      CaseFromRunRefusal.Incomplete,
      `its model call at step ${side.stepNumber} was the loop's own (planning, a judge or a summary), made by settings an export does not carry; a replay would not make it.`,
    );
  const held = conversation.calls.find((c) => c.textHeld);
  if (held)
    refuse(
      CaseFromRunRefusal.Incomplete,
      `the text of its model reply at step ${held.stepNumber} was held for the output guardrails, so the export does not have it.`,
    );
  const ledger = ledgerAsOf(chain.steps, Number.MAX_SAFE_INTEGER);
  const iterations = chain.steps.reduce((max, s) => Math.max(max, s.iteration), 0);
  const answer = [...chain.steps].reverse().find((s) => s.type === 'synthesis');
  const terminationReason = run.terminationReason!;
  const result: AgentResult = {
    success: terminationReason === 'success',
    finalAnswer: answer?.type === 'synthesis' ? answer.synthesis.conclusion : '',
    terminationReason,
    chain,
    usage: ledger.usage,
    costUsd: ledger.costUsd,
    iterations,
    // The original's limit is not exported: the case allows the iterations the run took, which it needs to end as it did.
    ...(iterations > 0 ? { maxIterations: iterations } : {}),
    modelCalls: ledger.modelCalls,
    toolCalls: ledger.toolCalls,
    formatErrors: 0,
    cachedCalls: 0,
    continuations: 0,
    executionTimeMs: Math.max(0, Date.parse(run.endedAt ?? run.startedAt) - Date.parse(run.startedAt)) || 0,
  };
  return {
    workflowId: runId,
    input: { task: chain.task },
    result,
    modelCalls: conversation.calls.map((c) => ({
      request: standIn(c.side, c.messages),
      ...(c.reply ? { reply: c.reply } : {}),
      ...(c.error ? { error: c.error } : {}),
    })),
    toolExecutions: toolExecutionsOf(runId, chain.steps),
    // An import keeps no scores (the export's are not written to the store): none to refuse it by.
    scores: [],
  };
}

/**
 * The case of an imported run (`import:…`) and its recording, rebuilt from the chain the store
 * keeps (an export carries no history): each model reply from its `llm` steps, each tool result
 * from its tool_result step (rebuildImportedConversation). What an export does not carry is not in
 * the case, and the case says so by its tags (FROM_IMPORT_TAGS): the run's input beyond its task
 * and tools (strategy, planning, guardrails, limits: it replays with the defaults, and at most the
 * iterations it took), extended thinking, and the scores people gave it. Refused like any run
 * (CaseFromRunError), and also when a result was cut, condensed or cached, when the loop made
 * model calls of its own (planning, judges), or when a reply's text was held for guardrails.
 * `tenant` gates as readImportedRun does; `lensOf` is the auditor's lens of the import, and one that narrows refuses.
 */
export async function importAsCase(
  store: ChainStore,
  runId: string,
  tenant: string | null | undefined,
  lensOf: (read: ImportedRunRead) => ReturnType<AuditorLensOf>,
): Promise<CaseFromRun> {
  const read = await readImportedRun(store, runId, tenant);
  if (!read) throw new CaseFromRunError(CaseFromRunRefusal.NotFound, runId, 'no imported run has this id.');
  if (!isEmptyLens(await lensOf(read)))
    throw new CaseFromRunError(
      CaseFromRunRefusal.NotWholeInView,
      runId,
      "the visibility policy narrows it in the auditor's view; a case carries every reply and result whole.",
    );
  const made = caseFromRun(importMaterial(runId, read));
  const tags = [...new Set([...made.case.tags, ...FROM_IMPORT_TAGS])];
  return { ...made, case: { ...made.case, tags } };
}
