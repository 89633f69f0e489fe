import type { ReasoningStep } from '../../domain';
import { stepText } from '../../domain/store/step-text';
import type { SqlValue } from '../sql/sql-driver';
import { StepTooLargeError } from '../store-errors';

/** Largest step JSON the store keeps; a run's own limits keep real steps far below it. */
export const MAX_STORED_STEP_BYTES = 2 * 1024 * 1024;
/** Most bytes of a step's text kept for text search (the start of it). */
export const MAX_SEARCH_TEXT_BYTES = 16 * 1024;

/** The columns of one step row, in STEP_COLUMNS order. */
export const STEP_COLUMNS = [
  'run_id',
  'step_number',
  'type',
  'tool',
  'call_id',
  'level',
  'ts',
  'cost_usd',
  'input_tokens',
  'output_tokens',
  'search_text',
  'step_json',
] as const;

/** An ISO time as UTC with milliseconds, so stored times compare as strings; unreadable text is kept as is. */
export function utcTime(text: string): string {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? text : new Date(ms).toISOString();
}

/** The first MAX_SEARCH_TEXT_BYTES of `text` in UTF-8, never ending inside a character. */
export function boundSearchText(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length * 3 <= MAX_SEARCH_TEXT_BYTES) return lower;
  const bytes = Buffer.from(lower, 'utf8');
  if (bytes.length <= MAX_SEARCH_TEXT_BYTES) return lower;
  return bytes
    .subarray(0, MAX_SEARCH_TEXT_BYTES)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
}

/** The row of one raw step; `tool` names a result's tool when its call is known (`toolOf`). Refuses a step past the limit. */
export function stepRow(
  runId: string,
  step: ReasoningStep,
  toolOf: (callId: string) => string | undefined,
): SqlValue[] {
  const stepJson = JSON.stringify(step);
  const bytes = Buffer.byteLength(stepJson, 'utf8');
  if (bytes > MAX_STORED_STEP_BYTES) throw new StepTooLargeError(runId, step.stepNumber, bytes, MAX_STORED_STEP_BYTES);
  const callId =
    step.type === 'tool_call'
      ? step.toolCall.correlationId
      : step.type === 'tool_result'
        ? step.toolResult.correlationId
        : null;
  const tool =
    step.type === 'tool_call'
      ? step.toolCall.toolName
      : step.type === 'tool_result'
        ? (toolOf(step.toolResult.correlationId) ?? null)
        : null;
  return [
    runId,
    step.stepNumber,
    step.type,
    tool,
    callId,
    step.visibility.level,
    utcTime(step.timestamp),
    step.costUsd ?? 0,
    step.usage?.inputTokens ?? 0,
    step.usage?.outputTokens ?? 0,
    boundSearchText(stepText(step)),
    stepJson,
  ];
}
