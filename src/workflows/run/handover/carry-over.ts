import type { UsedDecisions } from '../../../domain/approval/used-decisions';
import type {
  AgentInput,
  ApprovalRecord,
  ChainArchive,
  ContinuedState,
  ReasoningChain,
  ReasoningStep,
  RunStateData,
  SteeringInstruction,
  ToolSpec,
} from '../../../domain';
import { MAX_CARRIED_BYTES, jsonBytes } from '../../../domain/run/payload-size';
import { readShortened, shortenedText } from '../../../domain/text/shortened-text';
import { RunState } from '../../core/state/run-state';
import type { SentConversations } from '../../core/state/sent-conversations';

/** Observations longer than this are shortened in the carried chain; the full text stays in the earlier run's history. */
export const CARRIED_RESULT_CHARS = 1_000;

/**
 * How hard a handover shortens what it carries. Level 0 is every handover's; the others are tried
 * in order only when the carried state would not fit (see planHandover).
 */
export interface CarryLevel {
  /** Tool observations longer than this many characters are cut, with a marker naming the run that has them in full. */
  readonly resultChars: number;
  /** Also cut model replies, thoughts, conclusions, call arguments, errors and decided approvals' arguments and notes to `resultChars`. */
  readonly everyText: boolean;
  /** Carry the read-only cache (it only saves repeated calls; the next run can do without it). */
  readonly keepCache: boolean;
  /** Compact the carried conversation to this many characters (the task and the last two turns are always kept). */
  readonly contextChars?: number;
}

export const CARRY_LEVELS: readonly CarryLevel[] = [
  { resultChars: CARRIED_RESULT_CHARS, everyText: false, keepCache: true },
  { resultChars: 200, everyText: false, keepCache: false, contextChars: 20_000 },
  { resultChars: 200, everyText: true, keepCache: false, contextChars: 20_000 },
];

/** Steering not yet delivered: the instructions waiting, and how many were refused meanwhile (the next thought says so). */
export interface CarriedSteering {
  readonly waiting: readonly SteeringInstruction[];
  readonly refused: number;
}

/** The state a run hands to its next Temporal run (see ContinuedState), shortened at `level`. */
export function carryOver(
  state: RunState,
  chain: ReasoningChain,
  tools: readonly ToolSpec[],
  runId: string,
  steering: CarriedSteering = { waiting: [], refused: 0 },
  level: CarryLevel = CARRY_LEVELS[0]!,
  /** The steps this handover leaves behind (see chainTail), shortened like the chain. */
  archive?: ChainArchive,
  /** Signed decisions accepted within the age limit: a replay stays refused in the next run. */
  usedDecisions: UsedDecisions = [],
): ContinuedState {
  const data = state.carried(runId);
  return {
    ...data,
    ...(level.contextChars === undefined ? {} : compacted(data, level.contextChars)),
    ...(level.keepCache ? {} : { readOnlyCache: [] }),
    chain: shortenChain(chain, runId, level),
    tools: [...tools],
    steering: [...steering.waiting],
    ...(steering.refused > 0 ? { steeringRefused: steering.refused } : {}),
    ...(archive ? { archive: shortenArchive(archive, runId, level) } : {}),
    ...(usedDecisions.length > 0 ? { usedDecisions: [...usedDecisions] } : {}),
  };
}

/**
 * The carried state naming the conversation the last model call sent, when the carried messages
 * start with it (see SentConversations.continueFrom); as it is otherwise.
 */
export function withSentConversation(
  carried: ContinuedState,
  sent: Pick<SentConversations, 'sentPrefixOf'>,
): ContinuedState {
  const named = sent.sentPrefixOf(carried.messages);
  return named ? { ...carried, sentConversation: named } : carried;
}

/** The next run's input, or why there is none. */
export type Handover = { kind: 'continue'; input: AgentInput } | { kind: 'refused'; error: string };

/**
 * The most the next run's input may be, in bytes of JSON: under the run's own hand-over
 * threshold (a next run that starts past it would hand over at once) and under MAX_CARRIED_BYTES.
 */
export const handoverLimit = (input: AgentInput): number => Math.min(input.continueAsNewAtBytes, MAX_CARRIED_BYTES);

/**
 * Decides a handover so that a run never loops without progress: the carried input is measured
 * and shortened harder, level by level, until it is under handoverLimit; if it never is, or this
 * Temporal run made no iteration since it started (its successor would be asked to hand over at
 * once too), the handover is refused with a message naming the sizes. Pure and deterministic.
 */
export function planHandover(
  input: AgentInput,
  carry: (level: CarryLevel) => ContinuedState,
  progress: { iterationsThisRun: number; historyBytes: number },
): Handover {
  const limit = handoverLimit(input);
  const sizes: number[] = [];
  for (const level of CARRY_LEVELS) {
    const next: AgentInput = { ...input, continued: carry(level) };
    const bytes = jsonBytes(next);
    sizes.push(bytes);
    if (bytes >= limit) continue;
    if (progress.iterationsThisRun > 0) return { kind: 'continue', input: next };
    return {
      kind: 'refused',
      error:
        `Continue-as-new refused: this Temporal run was asked to hand over before its first iteration (history ${progress.historyBytes} bytes, ` +
        `continueAsNewAtBytes ${input.continueAsNewAtBytes}); its successor would do the same, so the run ends here with its chain so far. ` +
        `The state to carry is ${sizes[0]} bytes.`,
    };
  }
  return {
    kind: 'refused',
    error:
      `Continue-as-new refused: the state to carry is ${sizes.join(' → ')} bytes as it is shortened harder, at or over the limit of ${limit} bytes ` +
      `(continueAsNewAtBytes ${input.continueAsNewAtBytes}, at most ${MAX_CARRIED_BYTES}); the next run would hand over again at once, ` +
      `so the run ends here with its chain so far.`,
  };
}

/** The steps a handover leaves behind, with long texts cut at `level` like the carried chain's. */
export function shortenArchive(archive: ChainArchive, runId: string, level: CarryLevel): ChainArchive {
  return { ...archive, steps: archive.steps.map((s) => shortenStep(s, runId, level)) };
}

/** The chain with long texts cut at `level`; each cut names the run whose history has it in full. */
export function shortenChain(chain: ReasoningChain, runId: string, level: CarryLevel): ReasoningChain {
  const steps = chain.steps.map((s) => shortenStep(s, runId, level));
  if (!level.everyText || !chain.approvals) return { ...chain, steps };
  // Decided records only: a pending one is what an approver is shown and its hash must match.
  const approvals = chain.approvals.map((a) =>
    a.status === 'pending' ? a : shortenApproval(a, runId, level.resultChars),
  );
  return { ...chain, steps, approvals };
}

function shortenApproval(record: ApprovalRecord, runId: string, limit: number): ApprovalRecord {
  const args = JSON.stringify(record.arguments);
  const cut = shortened(args, limit, runId);
  const note = record.note === undefined ? undefined : shortened(record.note, limit, runId);
  return {
    ...record,
    ...(cut === args ? {} : { arguments: { shortened: cut } }),
    ...(note === undefined ? {} : { note }),
  };
}

function shortenStep(step: ReasoningStep, runId: string, level: CarryLevel): ReasoningStep {
  const limit = level.resultChars;
  if (step.type === 'tool_result') {
    if (step.model !== undefined && !level.everyText) return step;
    const { result, error } = step.toolResult;
    const text = typeof result === 'string' ? result : JSON.stringify(result ?? null);
    const cut = shortened(text, limit, runId);
    const cutError = level.everyText && error !== undefined ? shortened(error, limit, runId) : error;
    if (cut === text && cutError === error) return step;
    return {
      ...step,
      toolResult: {
        ...step.toolResult,
        ...(cut === text ? {} : { result: cut }),
        ...(cutError === undefined ? {} : { error: cutError }),
      },
    };
  }
  if (!level.everyText) return step;
  if (step.type === 'thinking') return { ...step, thought: shortened(step.thought, limit, runId) };
  if (step.type === 'synthesis')
    return {
      ...step,
      synthesis: { ...step.synthesis, conclusion: shortened(step.synthesis.conclusion, limit, runId) },
    };
  const args = JSON.stringify(step.toolCall.arguments);
  const cut = shortened(args, limit, runId);
  return cut === args ? step : { ...step, toolCall: { ...step.toolCall, arguments: { shortened: cut } } };
}

/**
 * `text` cut to `limit` characters plus a marker; a text shortened before (at an earlier handover,
 * or in the result) keeps its marker (which names the right run and the full length) and is only
 * cut further.
 */
function shortened(text: string, limit: number, runId: string): string {
  const marked = readShortened(text);
  const head = marked ? marked.head : text;
  if (head.length <= limit) return text;
  return shortenedText(
    marked
      ? { ...marked, head: head.slice(0, limit) }
      : { head: head.slice(0, limit), length: text.length, where: 'at continue-as-new', runId },
  );
}

/** The conversation compacted harder, on a copy (the live state is not touched). */
function compacted(data: RunStateData, contextChars: number): Pick<RunStateData, 'messages' | 'droppedTurns'> {
  const copy = RunState.restore(JSON.parse(JSON.stringify(data)) as RunStateData);
  copy.compactToFit(contextChars);
  return { messages: copy.messages, droppedTurns: copy.droppedTurns };
}
