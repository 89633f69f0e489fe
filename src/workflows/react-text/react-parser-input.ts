/** Field readers of the ReAct text parser: tool name, Action Input, fence debris. Pure (sandbox side). */
import { feedJson, isFenceLine, newJsonCursor } from './react-parser-scan';

const WRAPPERS = /^[\s*`"'“”‘’]+|[\s*`"'“”‘’.]+$/g;
const FENCE_ONLY = /^\s*(```|~~~)[\w-]*$/;

/**
 * The tool named on an `Action:` field: its first non-blank line without wrapping backticks,
 * quotes or bold, a trailing period, or a trailing `(remark)` / `()`. Spaces inside are kept.
 */
export function toolNameOf(text: string): string {
  const first = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return first
    .replace(WRAPPERS, '')
    .replace(/\s*\(.*\)$/, '')
    .replace(WRAPPERS, '');
}

/** `Action: Final Answer` (the structured-chat habit) means the Action Input is the answer. */
export const namesFinalAnswer = (tool: string): boolean =>
  tool.toLowerCase().replace(/[\s_]+/g, ' ') === 'final answer';

/**
 * Reads an `Action Input:` field (already trimmed). A fenced input ends at its closing fence and a
 * JSON object or array at its closing bracket: text after either is commentary and is dropped.
 * `input` is the JSON value of the input (of the fence's body when fenced), else `rawInput` itself.
 */
export function readActionInput(text: string): { rawInput: string; input: unknown } {
  const lines = text.split('\n');
  if (isFenceLine(lines[0] ?? '')) {
    const close = lines.findIndex((l, i) => i > 0 && isFenceLine(l));
    const rawInput = close > 0 ? lines.slice(0, close + 1).join('\n') : text;
    const body = lines.slice(1, close > 0 ? close : lines.length).join('\n');
    return { rawInput, input: jsonOr(body, rawInput) };
  }
  const end = /^[{[]/.test(text) ? feedJson(newJsonCursor(), text) : undefined;
  const rawInput = end === undefined ? dropFenceDebris(text) : text.slice(0, end);
  return { rawInput, input: jsonOr(rawInput, rawInput) };
}

/**
 * Removes one unmatched fence-only line at the end (or else the start) of a text: what is left
 * of a fence the model wrapped around several fields. Balanced fences are content and stay.
 */
export function dropFenceDebris(text: string): string {
  const lines = text.trim().split('\n');
  if (lines.filter(isFenceLine).length % 2 === 0) return text.trim();
  if (FENCE_ONLY.test(lines[lines.length - 1] ?? '')) lines.pop();
  else if (FENCE_ONLY.test(lines[0] ?? '')) lines.shift();
  return lines.join('\n').trim();
}

function jsonOr(text: string, fallback: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}
