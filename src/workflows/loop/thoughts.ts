/**
 * The model's thoughts as the loop reads them: extended thinking shown as thinking steps, and the
 * thought behind a turn's tool calls checked before any of them runs (requireThought,
 * thoughtValidation). Deterministic, sandbox side.
 */
import type { ModelReply, ToolUseBlock } from '../../domain';
import type { RunContext } from '../core/state/run-context';
import { checkThought, thoughtKey } from '../reasoning/thought-check';

/** Extended thinking is shown as thinking steps; the blocks themselves stay in the conversation. */
export function recordExtendedThinking(ctx: RunContext, reply: ModelReply): void {
  for (const block of reply.content) {
    if (block.type === 'thinking' && block.thinking.trim())
      ctx.chain.thinking(block.thinking.trim(), { level: ctx.input.visibility });
    if (block.type === 'redacted_thinking')
      ctx.chain.thinking('(thinking redacted by the provider)', { level: ctx.input.visibility });
  }
}

/**
 * Why a turn's calls may not run for want of a usable thought, or undefined: then the thought
 * (the written one, else the reply's extended thinking) is kept as the last one, which the next
 * turn's may not repeat word for word.
 */
export function thoughtProblem(
  ctx: RunContext,
  written: string | undefined,
  calls: readonly ToolUseBlock[],
  reply: ModelReply,
): string | undefined {
  const thought = written || extendedThinking(reply);
  const names = calls.map((c) => c.name);
  const verdict = checkThought(thought, ctx.input, names, ctx.state.stall.lastThoughtKey);
  if (!verdict.ok) return verdict.problem;
  ctx.state.setStall({ ...ctx.state.stall, lastThoughtKey: thoughtKey(thought) });
  return undefined;
}

/** The reply's extended thinking, which counts as a thought (requireThought). */
function extendedThinking(reply: ModelReply): string {
  return reply.content
    .flatMap((b) =>
      b.type === 'thinking' ? [b.thinking] : b.type === 'redacted_thinking' ? ['(redacted thinking)'] : [],
    )
    .join('\n')
    .trim();
}
