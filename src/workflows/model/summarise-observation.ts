import type { ToolSpec } from '../../domain';
import { replyText } from '../core/model-exchange';
import type { RunContext } from '../core/state/run-context';
import { recordedModelCall } from './model-call';

/** The most of a large result a summary call reads; beyond it the text is cut first. */
export const SUMMARY_SOURCE_CHARS = 40_000;

/**
 * Condenses an oversized tool result with one model call (a visible `llm` step on the run's
 * budget). Returns undefined when the call fails or says nothing, so the caller cuts instead.
 */
export async function summariseObservation(
  ctx: RunContext,
  spec: ToolSpec,
  text: string,
  limitChars: number,
): Promise<string | undefined> {
  const { input } = ctx;
  const { reply } = await recordedModelCall(ctx, {
    candidate: {
      provider: input.model.provider,
      model: input.model.model,
      maxTokens: Math.max(256, Math.ceil(limitChars / 4)),
      price: input.model.price,
    },
    system:
      'You condense tool output for an agent. Keep every fact, number, name and error the task may need; drop repetition and boilerplate. Reply with the condensed output only.',
    messages: [
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: `Task: ${input.task}\n\nOutput of tool "${spec.name}" (${text.length} characters), to condense to under ${limitChars} characters:\n\n${text.slice(0, SUMMARY_SOURCE_CHARS)}`,
          },
        ],
      },
    ],
    tools: [],
    toolChoice: 'none',
    maxTokens: Math.max(256, Math.ceil(limitChars / 4)),
    note: `summarising a ${text.length}-character result of ${spec.name}`,
    purpose: 'summary',
  });
  const summary = replyText(reply);
  return summary ? summary.slice(0, limitChars) : undefined;
}
