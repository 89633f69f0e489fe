import type { Task } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import {
  CHAIN_ARTIFACT_ID,
  ChainArtifactData,
  MAX_CHAIN_ARTIFACT_CHARS,
  MAX_REMOTE_CHAIN_LINES,
  MAX_REMOTE_LINE_CHARS,
  type ReasoningStep,
  type RemoteChain,
  type RemoteStepLine,
} from '../../domain';
import type { Redactor } from '../../tools/redact-secrets';

/** The most characters of a chain artifact's data read at all: its bound, and room for the fields around the steps. */
const MAX_READ_CHARS = MAX_CHAIN_ARTIFACT_CHARS + 16_000;

const json = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** What one remote step says, before redaction and the line bound. */
function stepText(step: ReasoningStep): string {
  switch (step.type) {
    case 'thinking':
      return step.thought;
    case 'tool_call':
      // A model call's arguments are its request's shape, not what the agent did: its name says enough.
      return step.toolCall.toolType === 'llm'
        ? `model call ${step.toolCall.toolName}`
        : `${step.toolCall.toolName} ${json(step.toolCall.arguments)}`;
    case 'tool_result': {
      const r = step.toolResult;
      if (step.model && r.success && typeof r.result !== 'string') return `model reply (${step.model})`;
      return r.success ? `→ ${typeof r.result === 'string' ? r.result : json(r.result)}` : `failed: ${r.error ?? ''}`;
    }
    case 'synthesis':
      return step.synthesis.conclusion;
  }
}

/** One step as one line: secrets redacted, whitespace collapsed, cut to MAX_REMOTE_LINE_CHARS. */
function stepLine(step: ReasoningStep, redact: Redactor): RemoteStepLine {
  const text = String(redact(stepText(step)))
    .replace(/\s+/g, ' ')
    .trim();
  const line = text.length <= MAX_REMOTE_LINE_CHARS ? text : `${text.slice(0, MAX_REMOTE_LINE_CHARS - 1)}…`;
  return { type: step.type, text: line };
}

/** The whole chain's address: resolved against the card, kept only on the card's own origin (a remote names no other site). */
function chainUrl(path: string, card: string): string | undefined {
  try {
    const url = new URL(path, card);
    return url.origin === new URL(card).origin ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The remote's chain as the parent links it (RemoteChain), from the task's `reasoning-chain`
 * artifact (a Thoughtline server's, docs/a2a.md); undefined when the task has none. The artifact
 * is data from another system: read only through ChainArtifactData, and what does not read is
 * refused, saying why (the answer is kept). Its steps become bounded, redacted lines.
 */
export function remoteChainOf(task: Task, card: string, redact: Redactor): RemoteChain | undefined {
  const artifact = task.artifacts.find((a) => a.artifactId === CHAIN_ARTIFACT_ID);
  if (!artifact) return undefined;
  const refused = (why: string): RemoteChain => ({ totalSteps: 0, steps: [], refused: why });
  const data = artifact.parts.find((p) => p.content?.$case === 'data')?.content;
  if (data?.$case !== 'data') return refused('Its reasoning-chain artifact has no data part.');
  const size = json(data.value).length;
  if (size > MAX_READ_CHARS)
    return refused(`Its reasoning-chain artifact is ${size} characters; at most ${MAX_READ_CHARS} are read.`);
  const parsed = ChainArtifactData.safeParse(data.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refused(
      `Its reasoning-chain artifact is not a Thoughtline chain this worker reads (${issue?.path.join('.') || 'the data'}: ${issue?.message ?? 'invalid'}).`.slice(
        0,
        500,
      ),
    );
  }
  const { runId, view, totalSteps, steps, truncated, chain } = parsed.data;
  const url = chainUrl(chain, card);
  const lines = steps.slice(0, MAX_REMOTE_CHAIN_LINES).map((s) => stepLine(s, redact));
  const cut = truncated !== undefined || lines.length < totalSteps;
  return {
    runId,
    ...(url ? { url } : {}),
    view,
    totalSteps,
    steps: lines,
    ...(cut ? { truncated: true } : {}),
  };
}
