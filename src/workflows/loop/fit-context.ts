import type { ModelMessage, VisibilityLevel } from '../../domain';
import { contextSummaryLimit, type ContextSummarySettings } from '../../domain/model/context-summary';
import { narrowestLevel } from '../../domain/visibility/narrowest-level';
import { ContinueAsNewRequested, isLoopSignal } from '../core/loop-signals';
import type { RunContext } from '../core/state/run-context';
import { summariseTurns } from '../model/summarise-turns';

/**
 * Without a summary, a conversation over the limit is cut to this share of it, not to just under
 * it: the next few iterations then fit as they are, so the conversation the model reads keeps its
 * beginning (the provider's prompt cache reads it again instead of writing a new one each call),
 * and a run past the limit records one compaction every few iterations instead of one each.
 */
export const COMPACT_TO_SHARE = 0.85;

/**
 * Keeps the conversation under `maxContextChars`, as a visible `compaction` step while the chain
 * keeps everything. With `contextSummary` set and whole turns to drop, it drops enough of them to
 * bring the conversation down to half the limit, and one model call summarises them into the task
 * message (so a compaction happens once in a while, not every iteration); then the promise to
 * await. Otherwise (or after that, if the kept turns alone are still too long) old tool results
 * are elided and the oldest turns dropped with a note, down to COMPACT_TO_SHARE of the limit,
 * synchronously: undefined.
 */
export function fitContext(ctx: RunContext): Promise<void> | undefined {
  const { input, state } = ctx;
  const before = state.contextChars();
  if (before <= input.maxContextChars) return undefined;
  const settings = input.contextSummary;
  const turns = settings ? state.turnsToDrop(Math.floor(input.maxContextChars / 2)) : 0;
  if (settings && turns > 0) return summariseAndDrop(ctx, settings, turns, before);
  const removed = state.compactToFit(Math.floor(input.maxContextChars * COMPACT_TO_SHARE), before);
  if (removed > 0)
    ctx.chain.note(
      'compaction',
      `Context compacted: removed ${removed} older tool results or whole turns from the conversation sent to the model (${before} → ${state.contextChars()} characters, limit ${input.maxContextChars}). The chain keeps them in full.`,
      { level: 'full' },
    );
  return undefined;
}

/** One summary call for the `turns` oldest turns; when it cannot give one, the turns go with a note, and the step says why. */
async function summariseAndDrop(
  ctx: RunContext,
  settings: ContextSummarySettings,
  turns: number,
  before: number,
): Promise<void> {
  const { input, state, chain } = ctx;
  const limit = contextSummaryLimit(settings, input.maxContextChars);
  const model = settings.model?.model ?? input.model.model;
  let summary: string | undefined;
  let why = 'the model replied with no text';
  const dropped = state.oldestTurns(turns);
  const level = summaryLevel(ctx, dropped);
  try {
    summary = await summariseTurns(ctx, settings, state.contextSummary, dropped, limit);
  } catch (err) {
    // Budget and model failures leave the run going, without a summary; a handover is not ours to swallow.
    if (!isLoopSignal(err) || err instanceof ContinueAsNewRequested) throw err;
    why = err.message;
  }
  state.dropTurns(turns, summary);
  // The turns that must stay may still be too long on their own: their old results go as before.
  const more = state.compactToFit(Math.floor(input.maxContextChars * COMPACT_TO_SHARE));
  const sizes = `${before} → ${state.contextChars()} characters, limit ${input.maxContextChars}`;
  const extra = more > 0 ? `; then removed ${more} more older tool results or turns` : '';
  chain.note(
    'compaction',
    summary !== undefined
      ? `Context compacted: ${turns} earlier turns were summarised by ${model} and the summary took their place in the conversation sent to the model${extra} (${sizes}). The chain keeps them in full. Summary:\n${summary}`
      : `Context compacted without a summary (${why}): ${turns} earlier turns were removed from the conversation sent to the model and a note says so${extra} (${sizes}). The chain keeps them in full.`,
    { level: summary !== undefined ? level : 'full' },
  );
}

/**
 * How widely the summary step may show: a summary restates the dropped turns' tool results and the
 * summary before it, so it shows no wider than the narrowest of them (a hidden result's summary is
 * the auditor's too), nor than the run's own level.
 */
function summaryLevel(ctx: RunContext, dropped: readonly ModelMessage[]): VisibilityLevel {
  const results = new Set(
    dropped.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_result' ? [b.toolUseId] : []))),
  );
  let level: VisibilityLevel = ctx.input.visibility;
  for (const step of ctx.chain.steps) {
    const restated =
      (step.type === 'tool_result' && results.has(step.toolResult.correlationId)) ||
      (step.type === 'thinking' && step.purpose === 'compaction');
    if (restated) level = narrowestLevel(level, step.visibility.level) ?? level;
  }
  return level;
}
