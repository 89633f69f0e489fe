import { OFFLINE_MARK } from '../domain/model/offline-mark';
import type { SeenCall } from './read-request';

export { OFFLINE_MARK };

/** How much of one observation a summary quotes. */
const QUOTE_CHARS = 240;

/** A call as a summary shows it: `get_weather({"location":"Paris"})`, cut to a readable length. */
export function describeCall(call: Pick<SeenCall, 'name' | 'input'>): string {
  return `${call.name}(${clip(JSON.stringify(call.input), 120)})`;
}

/** What one call gave: its result quoted briefly, or its error. */
export function describeOutcome(call: SeenCall): string {
  if (!call.result) return `${describeCall(call)} has no result`;
  const quoted = clip(call.result.content.replace(/\s+/g, ' ').trim(), QUOTE_CHARS);
  return call.result.isError ? `${describeCall(call)} failed: ${quoted}` : `${describeCall(call)} returned ${quoted}`;
}

/**
 * The final answer: what was called and what came back, quoted, with no claim beyond that. It is
 * checked like any answer (docs/concepts.md, "Grounded answers"): a quoted result states what its
 * observation does, and a quoted failure states what no observation does.
 */
export function observedSummary(task: string, calls: readonly SeenCall[]): string {
  return [
    `${OFFLINE_MARK} For "${clip(task, 200)}", the tools returned:`,
    ...calls.map((c) => `- ${describeOutcome(c)}`),
  ].join('\n');
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
