import { createHash } from 'node:crypto';
import type { ModelRequestLog } from './chaos-model';

/**
 * Model calls whose conversation is not the undisturbed run's, as problems (empty when all match).
 * Calls go by reference, and the worker that replaces a killed one rebuilds them by asking the run,
 * so each call (known by its turn) must still receive the reference's system prompt and messages,
 * in order, byte for byte: compared by sha256 of their JSON as the fake server parsed it. A call
 * asked again after a kill must receive what its first ask did.
 */
export function conversationProblems(
  asks: readonly ModelRequestLog[],
  reference: readonly ModelRequestLog[],
): string[] {
  const problems: string[] = [];
  const firstAsks = new Map<number, ModelRequestLog>();
  for (const ask of [...asks].sort((a, b) => a.at - b.at)) {
    const first = firstAsks.get(ask.turn);
    const call = first ? `model call ${ask.turn}, asked again,` : `model call ${ask.turn}`;
    // The reference's first ask of this call: it asks each call once, unless an attempt timed out.
    const expected = reference.find((r) => r.turn === ask.turn);
    if (!expected) problems.push(`${call} has no counterpart in the undisturbed run`);
    else problems.push(...differences(ask, expected).map((d) => `${call} received ${d}, unlike the undisturbed run's`));
    if (first) problems.push(...differences(ask, first).map((d) => `${call} received ${d}, unlike its first ask's`));
    else firstAsks.set(ask.turn, ask);
  }
  return problems;
}

const sha256 = (value: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify(value ?? null))
    .digest('hex');

/** How `got`'s conversation differs from `want`'s, a phrase per part that differs. */
function differences(got: ModelRequestLog, want: ModelRequestLog): string[] {
  const found: string[] = [];
  if (sha256(got.body.system) !== sha256(want.body.system))
    found.push(`another system prompt: ${divergence(got.body.system, want.body.system)}`);
  if (sha256(got.body.messages) !== sha256(want.body.messages))
    found.push(`messages where ${firstDifferingMessage(got.body.messages, want.body.messages)}`);
  return found;
}

function firstDifferingMessage(got: readonly unknown[], want: readonly unknown[]): string {
  const at = got.findIndex((m, i) => i >= want.length || JSON.stringify(m) !== JSON.stringify(want[i]));
  if (at < 0) return `the last ${want.length - got.length} of ${want.length} are missing`;
  if (at >= want.length) return `message ${at} of ${got.length} is one too many: ${excerpt(got[at])}`;
  return `message ${at} of ${got.length} (of ${want.length} expected) first differs: ${divergence(got[at], want[at])}`;
}

// Enough to show a message's role and what it is; a whole tool result would drown the report.
const excerpt = (value: unknown): string => {
  const text = JSON.stringify(value ?? null);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
};

/** Both JSON texts around their first differing character, which may lie deep in a long message. */
function divergence(got: unknown, want: unknown): string {
  const [a, b] = [JSON.stringify(got ?? null), JSON.stringify(want ?? null)];
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  const around = (text: string) =>
    `${at > 60 ? '…' : ''}${text.slice(Math.max(0, at - 60), at + 100)}${text.length > at + 100 ? '…' : ''}`;
  return `${around(a)} where the expected has ${around(b)}`;
}
