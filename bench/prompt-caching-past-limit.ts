import { startFakeMessagesServer } from '../src/testing';
import { COMPACT_TO_SHARE } from '../src/workflows/loop/fit-context';
import type { BenchContext } from './lib/bench-context';
import { measurement, type Measurement } from './lib/figure';
import { runOnFakeCache, turnOf } from './prompt-caching';

/** Long enough to pass the limit about halfway, then compact several times. */
const ITERATIONS = 40;
/** About 21 iterations of this script's conversation. */
const CONTEXT_CHARS = 40_000;

/**
 * Figure 9's second run: the same agent past `maxContextChars`, where the run compacts its
 * conversation (down to COMPACT_TO_SHARE of the limit). What the provider's prompt cache reads from
 * the first compaction on, and how many compactions the run recorded.
 */
export async function measurePastContextLimit(
  ctx: BenchContext,
): Promise<{ errors: string[]; measurements: Measurement[] }> {
  ctx.log(`cache: one run of ${ITERATIONS} iterations past maxContextChars ${CONTEXT_CHARS}`);
  const fake = await startFakeMessagesServer({ promptCache: true });
  fake.append(Array.from({ length: ITERATIONS + 1 }, () => (body) => turnOf(ITERATIONS, body)));
  try {
    const result = await runOnFakeCache(ctx, fake.baseUrl, ITERATIONS, { maxContextChars: CONTEXT_CHARS });
    const steps = result.chain.steps;
    const compactions = steps.filter((s) => s.type === 'thinking' && s.purpose === 'compaction');
    const firstCompaction = compactions[0]?.stepNumber ?? Infinity;
    // Each model call's usage, from the first call made after the first compaction.
    const after = steps.flatMap((s) =>
      s.type === 'tool_result' && s.usage !== undefined && s.stepNumber > firstCompaction ? [s.usage] : [],
    );
    const input = after.reduce((n, u) => n + u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens, 0);
    const read = after.reduce((n, u) => n + u.cacheReadTokens, 0);
    const errors = [
      ...(result.terminationReason === 'success' && result.toolCalls === ITERATIONS
        ? []
        : [`the run past the limit ended ${result.terminationReason} after ${result.toolCalls} tool calls`]),
      ...(compactions.length > 0 ? [] : ['the run past the limit never compacted its conversation']),
    ];
    const cut = `compacted to ${COMPACT_TO_SHARE * 100}% of maxContextChars ${CONTEXT_CHARS}`;
    return {
      errors,
      measurements: [
        measurement(`past the context limit: compactions in ${ITERATIONS} iterations`, compactions.length, 'count', {
          note: cut,
        }),
        measurement(
          'past the context limit: share of input tokens read from the cache after the first compaction',
          input > 0 ? read / input : 0,
          'ratio',
          { note: `${after.length} model calls; ${cut}` },
        ),
        measurement('past the context limit: cost of the run', result.costUsd, 'USD'),
      ],
    };
  } finally {
    await fake.close();
  }
}
