import { z } from 'zod';
import type { Message, Task } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { CHAIN_ARTIFACT_ID, TokenUsage, type RemoteChain } from '../../domain';
import type { Redactor } from '../../tools/redact-secrets';
import { remoteChainOf } from './remote-chain-link';

/** A2A task states (the SDK's `TaskState` numbers, fixed by the protocol's proto) in their wire form, as the parent's chain records them. */
export const REMOTE_STATE: Readonly<Record<number, string>> = {
  1: 'submitted',
  2: 'working',
  3: 'completed',
  4: 'failed',
  5: 'canceled',
  6: 'input-required',
  7: 'rejected',
  8: 'auth-required',
};

/** States after which following the task stops: terminal ones, and the two that wait for the caller. */
const SETTLED: ReadonlySet<string> = new Set([
  'completed',
  'failed',
  'canceled',
  'rejected',
  'input-required',
  'auth-required',
]);

export const remoteState = (task: Pick<Task, 'status'>): string => REMOTE_STATE[task.status?.state ?? 0] ?? 'unknown';

export const isSettled = (state: string): boolean => SETTLED.has(state);

/** What a Thoughtline A2A server reports on a task it ran (`metadata.thoughtline`); anything else is ignored. */
const ThoughtlineMetadata = z.object({
  runId: z.string().max(1_000).optional(),
  costUsd: z.number().nonnegative().finite().optional(),
  usage: TokenUsage.optional(),
});

/** A remote task's outcome as the await activity returns it (recorded in history). */
export interface RemoteOutcome {
  state: string;
  /** The answer (artifacts' text), or the status message's text when there is none; bounded and redacted. */
  text: string;
  runId?: string;
  costUsd?: number;
  usage?: TokenUsage;
  /** The remote's chain, linked (remoteChainOf), when its task carried a chain artifact. */
  chain?: RemoteChain;
}

/** The spend a Thoughtline server reported: on the task, its status message, an artifact or a part; the first that parses. */
export function reportedSpend(task: Task): Pick<RemoteOutcome, 'runId' | 'costUsd' | 'usage'> {
  const places: unknown[] = [task.metadata, task.status?.message?.metadata];
  for (const artifact of [...task.artifacts].reverse()) {
    places.push(artifact.metadata);
    for (const part of artifact.parts) {
      places.push(part.metadata);
      if (part.content?.$case === 'data') places.push(part.content.value);
    }
  }
  for (const place of places) {
    if (!place || typeof place !== 'object' || !('thoughtline' in place)) continue;
    const parsed = ThoughtlineMetadata.safeParse((place as { thoughtline: unknown }).thoughtline);
    if (!parsed.success) continue;
    const { runId, costUsd, usage } = parsed.data;
    if (runId === undefined && costUsd === undefined && usage === undefined) continue;
    return {
      ...(runId !== undefined ? { runId } : {}),
      ...(costUsd !== undefined ? { costUsd } : {}),
      ...(usage !== undefined ? { usage } : {}),
    };
  }
  return {};
}

/** The artifact id a Thoughtline A2A server gives an answer that is not a success's (src/server/a2a/tasks/task-of-snapshot.ts). */
const PARTIAL_ANSWER = 'partial-answer';

const textOf = (parts: Message['parts']): string =>
  parts.flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])).join('\n');

/** The text the model reads, cut at `maxChars` with a note saying so, secrets redacted. */
export function boundedText(text: string, maxChars: number, redact: Redactor): string {
  const safe = String(redact(text));
  if (safe.length <= maxChars) return safe;
  return `${safe.slice(0, maxChars)}\n[cut: ${safe.length - maxChars} more characters of the remote agent's answer]`;
}

/**
 * A settled task's outcome: the answer from its artifacts but the chain (an interrupted or failed task's from
 * its status message, which says what it asks or why it stopped; so is a Thoughtline task that
 * completed at a limit, whose artifact is a `partial-answer`: its message names the limit, then
 * the answer), the spend it reported, and its chain linked when it carried one and `card` (the
 * card it was sent through, which resolves the chain's address) is given.
 */
export function remoteOutcome(task: Task, maxChars: number, redact: Redactor, card?: string): RemoteOutcome {
  const state = remoteState(task);
  const fromArtifacts = task.artifacts
    .filter((a) => a.artifactId !== CHAIN_ARTIFACT_ID)
    .map((a) => textOf(a.parts))
    .filter(Boolean)
    .join('\n');
  const fromStatus = task.status?.message ? textOf(task.status.message.parts) : '';
  const partial = task.artifacts.some((a) => a.artifactId === PARTIAL_ANSWER);
  const text = state === 'completed' && !partial ? fromArtifacts || fromStatus : fromStatus || fromArtifacts;
  const chain = card === undefined ? undefined : remoteChainOf(task, card, redact);
  return { state, text: boundedText(text, maxChars, redact), ...reportedSpend(task), ...(chain ? { chain } : {}) };
}

/** A remote that answered with a message rather than a task: done, and that is its answer. */
export function messageOutcome(message: Message, maxChars: number, redact: Redactor): RemoteOutcome {
  return { state: 'completed', text: boundedText(textOf(message.parts), maxChars, redact) };
}
