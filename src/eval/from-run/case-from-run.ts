import { createHash } from 'node:crypto';
import {
  DEFAULT_FINISH_TOOL,
  DEFAULT_GIVE_UP_TOOL,
  redactSecrets,
  type AgentResult,
  type ModelReply,
  type ModelRequest,
} from '../../domain';
import { isSideCall } from '../../domain/model/side-call';
import { MAX_CASE_TEXT_BYTES, type EvalCase } from '../../domain/evaluation/eval-case';
import type { RunScore } from '../../domain/evaluation/run-scores';
import { utf8Bytes } from '../../domain/run/payload-size';
import { CaseFromRunError, CaseFromRunRefusal } from './case-from-run-error';

/** Largest recording a case from a run may have (its model replies and tool results, JSONL). */
export const MAX_CASE_RECORDING_BYTES = 4 * 1024 * 1024;
/** Model calls a case from a run may replay. */
export const MAX_CASE_MODEL_CALLS = 500;
/** An answer longer than this is expected by its first MAX_EXPECTED_ANSWER_CHARS characters (`contains`), not whole. */
export const MAX_EXPECTED_ANSWER_CHARS = 4_096;
/** Tool calls a trajectory expectation holds (EvalCase's own limit); a run with more is checked without one. */
const MAX_EXPECTED_CALLS = 100;

/** One model call of the run as sent and answered (the history's `callModel`, paired with its step). */
export interface RunModelCall {
  request: ModelRequest;
  reply?: ModelReply;
  error?: string;
}

/** One `runTool` activity of the run: its input, and its output or the failure it ended with. */
export interface RunToolExecution {
  input: unknown;
  result?: unknown;
  error?: string;
}

/** What a stored run holds that a case needs: gathered by `gatherRunCase` (audit/), checked here. */
export interface RunMaterial {
  workflowId: string;
  /** The input the run started with (its first Temporal run's), unchecked. */
  input: Record<string, unknown>;
  /** The ended run's result, its chain whole (earlier Temporal runs' steps joined), in the auditor's view. */
  result: AgentResult;
  modelCalls: readonly RunModelCall[];
  toolExecutions: readonly RunToolExecution[];
  /** Scores people or scorers attached to it (`agents.scores`). */
  scores: readonly RunScore[];
}

/** A case and its recording: the dataset's line and the JSONL file it replays (path relative to the dataset). */
export interface CaseFromRun {
  case: EvalCase;
  recordingPath: string;
  recording: string;
}

/** Endings a replay cannot reproduce: a person's cancel, a clock, a failure outside the recorded calls. */
const UNREPLAYABLE_ENDINGS = new Set(['cancelled', 'timeout']);

/**
 * Behaviour fields of the run's input a replay needs to read the recorded replies as the run did
 * (an allow-list: the prompt, people, budgets' waits and visibility stay out).
 */
const CARRIED_INPUT = [
  'strategy',
  'outputSchema',
  'requireThought',
  'labels',
  'finishToolName',
  'giveUpToolName',
  'successPhrases',
  'failurePhrases',
  'stallThreshold',
  'stallWindow',
  'similarCallThreshold',
  'maxToolResultChars',
  'planning',
  // The replay is checked by the same guardrails (the evaluation's worker must register them).
  'guardrails',
] as const;

/**
 * The case id of a run: `run-<id>` when the id fits the case id's characters and 64 characters,
 * else the id's allowed characters cut, with 12 hex of its sha256 so two ids never share one.
 * Stable: the same run always gets the same id, which is how a dataset refuses it twice.
 */
export function caseIdOfRun(workflowId: string): string {
  const plain = `run-${workflowId}`;
  if (plain.length <= 64 && /^[A-Za-z0-9._-]+$/.test(workflowId)) return plain;
  const slug = workflowId.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 46);
  return `run-${slug}-${createHash('sha256').update(workflowId).digest('hex').slice(0, 12)}`;
}

/** True when an output guardrail blocked the run's answer (its check step's result failed). */
function answerWithheld(result: AgentResult): boolean {
  const outputChecks = new Set(
    result.chain.steps.flatMap((s) =>
      s.type === 'tool_call' && s.toolCall.toolType === 'guardrail' && s.toolCall.toolName === 'guardrails:output'
        ? [s.toolCall.correlationId]
        : [],
    ),
  );
  return result.chain.steps.some(
    (s) => s.type === 'tool_result' && outputChecks.has(s.toolResult.correlationId) && !s.toolResult.success,
  );
}

/** A score that says the outcome was bad: 0 or below (false is stored as 0). */
const isBad = (score: RunScore): boolean => score.value <= 0;

function refuse(refusal: CaseFromRunRefusal, runId: string, message: string): never {
  throw new CaseFromRunError(refusal, runId, message);
}

/** The model's own tool calls as the trajectory scorer counts them (factsOf): no `llm` steps, no finish or give-up. */
function modelToolCalls(result: AgentResult, input: Record<string, unknown>) {
  const finish = typeof input.finishToolName === 'string' ? input.finishToolName : DEFAULT_FINISH_TOOL;
  const giveUp = typeof input.giveUpToolName === 'string' ? input.giveUpToolName : DEFAULT_GIVE_UP_TOOL;
  return result.chain.steps.flatMap((step) =>
    step.type === 'tool_call' &&
    step.toolCall.toolType !== 'llm' &&
    step.toolCall.toolType !== 'guardrail' &&
    step.toolCall.toolName !== finish &&
    step.toolCall.toolName !== giveUp
      ? [{ tool: step.toolCall.toolName, arguments: step.toolCall.arguments }]
      : [],
  );
}

/** What the run should do again: end as it ended, with the same answer when it succeeded, making the same calls. */
function expectationOf(result: AgentResult, calls: ReturnType<typeof modelToolCalls>): EvalCase['expect'] {
  const answer = redactSecrets(result.finalAnswer).trim();
  const expect: EvalCase['expect'] = { terminationReason: result.terminationReason };
  if (result.success && answer !== '')
    expect.answer =
      answer.length <= MAX_EXPECTED_ANSWER_CHARS
        ? { match: 'exact', value: answer, ignoreCase: false }
        : { match: 'contains', value: answer.slice(0, MAX_EXPECTED_ANSWER_CHARS), ignoreCase: false };
  if (calls.length <= MAX_EXPECTED_CALLS)
    expect.tools = {
      mode: 'exact',
      calls: calls.map((c) => ({
        tool: c.tool,
        arguments: Object.fromEntries(Object.entries(redactSecrets(c.arguments)).map(([k, v]) => [k, { equals: v }])),
      })),
    };
  // A replay answers every model call from the recording: the coherence proxy is not what is checked.
  expect.minCoherence = 0;
  return expect;
}

/** The recording's lines: every model reply in order (the planner's marked `side`), every tool execution. */
function recordingOf(material: RunMaterial, tools: ReadonlySet<string>): string[] {
  const { workflowId } = material;
  const lines: string[] = [];
  for (const [i, call] of material.modelCalls.entries()) {
    if (!call.reply)
      refuse(
        CaseFromRunRefusal.Incomplete,
        workflowId,
        `model call ${i + 1} has no reply (${call.error ?? 'none recorded'}): a replay cannot fail the same way.`,
      );
    const side = isSideCall(call.request);
    lines.push(JSON.stringify(redactSecrets({ workflowId, reply: call.reply, ...(side ? { side: true } : {}) })));
  }
  for (const execution of material.toolExecutions) {
    const invocation = execution.input as { toolName?: unknown; arguments?: unknown } | undefined;
    const tool = typeof invocation?.toolName === 'string' ? invocation.toolName : undefined;
    if (!tool || !tools.has(tool)) continue;
    const output = execution.result as
      { result?: unknown; refused?: unknown; needsInput?: unknown; parked?: unknown } | undefined;
    if (output?.needsInput !== undefined || output?.parked !== undefined)
      refuse(CaseFromRunRefusal.NeedsOthers, workflowId, `its ${tool} call asked for input or parked a task (MCP).`);
    // A call the tool's own check refused ran nothing: the replay's tool refuses it again.
    if (output?.refused !== undefined) continue;
    const line =
      execution.error !== undefined
        ? // The history keeps a call's last failure: replayed as final, the run sees it once, as it did.
          { kind: 'tool', workflowId, tool, arguments: invocation!.arguments, error: execution.error, final: true }
        : { kind: 'tool', workflowId, tool, arguments: invocation!.arguments, result: output?.result ?? null };
    lines.push(JSON.stringify(redactSecrets(line)));
  }
  return lines;
}

/**
 * The evaluation case of an ended run, and the recording it replays: the run's task and limits,
 * its recorded model replies and tool results (secrets redacted), and as expectations how it
 * ended, its answer when it succeeded (exact), and the tool calls it made (exact, arguments
 * equal). Pure. Throws CaseFromRunError for a run no replay can reproduce (cancelled, timed
 * out, waiting on people or sub-agents, a model call without a reply), one a person scored as bad
 * (a score of 0 or below), or one past the limits (task 16 KB, 500 model calls, recording 4 MiB).
 */
export function caseFromRun(material: RunMaterial): CaseFromRun {
  const { workflowId, result, input } = material;
  const bad = material.scores.find(isBad);
  if (bad)
    refuse(
      CaseFromRunRefusal.MarkedBad,
      workflowId,
      `${bad.by} scored it ${bad.name} = ${bad.value}: a case replays its recorded replies, so it would expect that outcome again. Make a case of a run that went right.`,
    );
  if (answerWithheld(result))
    refuse(
      CaseFromRunRefusal.HeldByGuardrail,
      workflowId,
      'an output guardrail withheld its answer; its recorded replies hold that text, which no door gives out.',
    );
  if (UNREPLAYABLE_ENDINGS.has(result.terminationReason))
    refuse(
      CaseFromRunRefusal.NotReplayable,
      workflowId,
      `it ended ${result.terminationReason}, which depends on a person or a clock, not on its recorded calls.`,
    );
  if ((result.chain.approvals?.length ?? 0) > 0)
    refuse(
      CaseFromRunRefusal.NeedsOthers,
      workflowId,
      'it asked a person to approve a call; a replay would wait for one again.',
    );
  if ((result.chain.subAgents?.length ?? 0) > 0)
    refuse(
      CaseFromRunRefusal.NeedsOthers,
      workflowId,
      'it delegated to sub-agents, whose runs a case does not replay.',
    );
  const person = result.chain.steps.find((s) => s.type === 'thinking' && s.fromPerson !== undefined);
  if (person)
    refuse(
      CaseFromRunRefusal.NeedsOthers,
      workflowId,
      `a person took part (step ${person.stepNumber}); a replay has nobody to decide, answer or steer.`,
    );
  if (result.chain.unavailable || result.chain.earlier)
    refuse(
      CaseFromRunRefusal.Incomplete,
      workflowId,
      'its first steps are no longer on the Temporal server (retention): a case needs every model reply.',
    );
  if (material.modelCalls.length > MAX_CASE_MODEL_CALLS)
    refuse(
      CaseFromRunRefusal.TooLarge,
      workflowId,
      `it made ${material.modelCalls.length} model calls; a case replays at most ${MAX_CASE_MODEL_CALLS}.`,
    );
  const task = redactSecrets(typeof input.task === 'string' ? input.task : '');
  if (task === '' || utf8Bytes(task) > MAX_CASE_TEXT_BYTES)
    refuse(
      CaseFromRunRefusal.TooLarge,
      workflowId,
      `its task is ${utf8Bytes(task)} bytes; a case's task is 1 to ${MAX_CASE_TEXT_BYTES} bytes.`,
    );
  const calls = modelToolCalls(result, input);
  // The worker tools it ran (runTool activities): the evaluation's worker must offer them; only their executions are recorded.
  const ran = new Set(
    material.toolExecutions.flatMap((e) => {
      const name = (e.input as { toolName?: unknown } | undefined)?.toolName;
      return typeof name === 'string' ? [name] : [];
    }),
  );
  // Every tool_call step a worker tool answered: ask_model's `llm` calls too (model calls never ran as runTool).
  const tools = new Set(
    result.chain.steps.flatMap((s) =>
      s.type === 'tool_call' && ran.has(s.toolCall.toolName) ? [s.toolCall.toolName] : [],
    ),
  );
  const lines = recordingOf(material, tools);
  const recording = `${lines.join('\n')}\n`;
  if (utf8Bytes(recording) > MAX_CASE_RECORDING_BYTES)
    refuse(
      CaseFromRunRefusal.TooLarge,
      workflowId,
      `its recording would be ${utf8Bytes(recording)} bytes; at most ${MAX_CASE_RECORDING_BYTES} (MAX_CASE_RECORDING_BYTES).`,
    );
  const id = caseIdOfRun(workflowId);
  const recordingPath = `recordings/${id}.jsonl`;
  const carried = Object.fromEntries(CARRIED_INPUT.filter((k) => input[k] !== undefined).map((k) => [k, input[k]]));
  const limits = {
    ...(result.maxIterations !== undefined ? { maxIterations: Math.min(result.maxIterations, 1_000) } : {}),
    ...(typeof input.tokenBudget === 'number' ? { tokenBudget: input.tokenBudget } : {}),
    ...(typeof input.costBudgetUsd === 'number' ? { costBudgetUsd: input.costBudgetUsd } : {}),
  };
  const evalCase: EvalCase = {
    id,
    task,
    expect: expectationOf(result, calls),
    ...(Object.keys(limits).length > 0 ? { limits } : {}),
    input: { ...redactSecrets(carried), tools: [...tools].sort() },
    replay: recordingPath,
    tags: ['from-run'],
  };
  return { case: evalCase, recordingPath, recording };
}
