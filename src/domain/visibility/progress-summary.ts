import type { ReasoningChain, ReasoningStep, ToolType } from '../chain/chain';
import { DEFAULT_QUESTION_TOOL } from '../run/constants';
import type { TerminationReason } from '../run/termination';

/**
 * What an end user reads instead of the steps (seed 002, journey 5): "Checked 3 sources",
 * "Processed 247 records", joined as `text` ("Checked 3 sources · processed 247 records"). Made from
 * a chain as a view already shows it, so it counts only what that viewer may see. Pure and
 * sandbox-safe (no regular expressions, no Node): workflows load it.
 */
export interface ProgressSummary {
  lines: string[];
  text: string;
}

/** Tool types that reach outside the run: each distinct one the run called is a "source". */
const SOURCE_TYPES: readonly ToolType[] = ['external', 'database', 'file_system'];
/** Tool types whose results are not records (a model's reply, a child agent's answer). */
const NOT_RECORDS: readonly ToolType[] = ['llm', 'sub_agent'];
/** Each line stays short whatever a tool returned; the summary holds at most five lines. */
const MAX_TARGET_CHARS = 200;

/** How the run ended, in words an end user reads; `undefined` while it runs. */
const OUTCOME: Readonly<Record<TerminationReason, string>> = {
  success: 'Done',
  max_iterations: 'Stopped at its step limit',
  failure: 'Could not finish',
  stalled: 'Stopped: it was making no progress',
  token_budget: 'Stopped at its token budget',
  cost_budget: 'Stopped at its cost budget',
  timeout: 'Stopped: it ran out of time',
  cancelled: 'Cancelled',
  custom: 'Stopped by a custom condition',
  error: 'Stopped by an error',
};

export function progressSummary(chain: ReasoningChain): ProgressSummary {
  const calls = new Map<string, Extract<ReasoningStep, { type: 'tool_call' }>['toolCall']>();
  const sources = new Set<string>();
  const subAgents = new Set<string>();
  const questions = new Set<string>();
  let records = 0;
  for (const step of chain.steps) {
    if (step.type === 'tool_call') {
      const call = step.toolCall;
      calls.set(call.correlationId, call);
      if (SOURCE_TYPES.includes(call.toolType)) sources.add(sourceKey(call.toolName, call.arguments));
      if (call.toolType === 'sub_agent') subAgents.add(call.correlationId);
      if (call.toolName === DEFAULT_QUESTION_TOOL && call.toolType === 'custom') questions.add(call.correlationId);
    } else if (step.type === 'tool_result') {
      const result = step.toolResult;
      // A question under another name (questionToolName) shows by its answer's mark.
      if (step.fromPerson?.kind === 'answer') questions.add(result.correlationId);
      const type = calls.get(result.correlationId)?.toolType;
      if (!result.success || step.fromPerson || (type !== undefined && NOT_RECORDS.includes(type))) continue;
      records = Math.min(Number.MAX_SAFE_INTEGER, records + recordCount(result.result));
    }
  }
  const approvals = new Set((chain.approvals ?? []).map((a) => a.callId)).size;
  const lines: string[] = [];
  if (sources.size > 0) lines.push(`Checked ${counted(sources.size, 'source')}`);
  if (records > 0) lines.push(`Processed ${counted(records, 'record')}`);
  if (subAgents.size > 0) lines.push(`Asked ${counted(subAgents.size, 'other agent')}`);
  const asked = peopleAsked(approvals, questions.size);
  if (asked) lines.push(asked);
  const outcome = outcomeLine(chain);
  if (outcome) lines.push(outcome);
  return { lines, text: lines.map((line, i) => (i === 0 ? line : lowerFirst(line))).join(' · ') };
}

/**
 * Records in one successful tool result: an array's length, else the first of these fields of an
 * object: `rowCount` / `row_count` (a count, as database drivers report it), `rows` (an array),
 * `records` (an array or a count), `count` (a count). Anything else (text, a single object, a
 * JSON string) counts as none: the summary never guesses, and never parses a result.
 */
function recordCount(result: unknown): number {
  if (Array.isArray(result)) return result.length;
  if (typeof result !== 'object' || result === null) return 0;
  const fields = result as Record<string, unknown>;
  for (const key of ['rowCount', 'row_count', 'rows', 'records', 'count']) {
    const value = fields[key];
    if (Array.isArray(value) && (key === 'rows' || key === 'records')) return value.length;
    if (isCount(value) && key !== 'rows') return value;
  }
  return 0;
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * One source is one tool, or, when its arguments name a target (`url`, `path`), one tool and
 * target: three pages fetched by one HTTP tool are three sources. The URL counts by its host, so
 * two pages of one site are one source. A summary-level call shows no arguments, so it counts by
 * its tool alone.
 */
function sourceKey(toolName: string, args: Record<string, unknown>): string {
  const url = args['url'];
  if (typeof url === 'string') return `${toolName}\u0000${hostOf(url.slice(0, MAX_TARGET_CHARS))}`;
  const path = args['path'];
  if (typeof path === 'string') return `${toolName}\u0000${path.slice(0, MAX_TARGET_CHARS)}`;
  return toolName;
}

/** The host of a URL (`https://a.example/x` → `a.example`), by character scanning (sandbox-safe). */
function hostOf(url: string): string {
  const scheme = url.indexOf('://');
  const rest = scheme < 0 ? url : url.slice(scheme + 3);
  let end = rest.length;
  for (const stop of ['/', '?', '#']) {
    const at = rest.indexOf(stop);
    if (at >= 0 && at < end) end = at;
  }
  return rest.slice(0, end).toLowerCase();
}

function peopleAsked(approvals: number, questions: number): string | undefined {
  if (approvals + questions === 0) return undefined;
  const parts = [
    ...(approvals > 0 ? [counted(approvals, 'approval')] : []),
    ...(questions > 0 ? [counted(questions, 'question')] : []),
  ];
  return `Asked a person for ${parts.join(' and ')}`;
}

/** The run's ending once it ended (its answer's termination reason, else its status); none while it runs. */
function outcomeLine(chain: ReasoningChain): string | undefined {
  if (chain.status !== 'completed' && chain.status !== 'failed') return undefined;
  for (let i = chain.steps.length - 1; i >= 0; i--) {
    const step = chain.steps[i]!;
    if (step.type === 'synthesis' && step.synthesis.terminationReason) return OUTCOME[step.synthesis.terminationReason];
  }
  return chain.status === 'completed' ? OUTCOME.success : 'Failed';
}

/** "1 source", "3 sources", "1,247 records". */
function counted(n: number, noun: string): string {
  return `${withCommas(n)} ${n === 1 ? noun : `${noun}s`}`;
}

function withCommas(n: number): string {
  const digits = String(n);
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return out;
}

const lowerFirst = (line: string): string => line.charAt(0).toLowerCase() + line.slice(1);
