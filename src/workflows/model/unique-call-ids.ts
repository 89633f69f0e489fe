import type { ModelMessage, ModelReply, ReasoningStep } from '../../domain';

/** Every call id the run has used: tool calls in the chain, and tool_use blocks still in the conversation. */
export function takenCallIds(steps: readonly ReasoningStep[], messages: readonly ModelMessage[]): Set<string> {
  const taken = new Set<string>();
  for (const step of steps) if (step.type === 'tool_call') taken.add(step.toolCall.correlationId);
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const block of message.content) if (block.type === 'tool_use') taken.add(block.id);
  }
  return taken;
}

/**
 * A reply whose tool calls all have ids of their own. Approvals, results and the chain are keyed
 * by call id, so two calls sharing one (an OpenAI-compatible server can send that) would share an
 * approval: a repeated id gets the suffix `#2`, `#3`, … (the first that is free). Returns the
 * renamed ids, or undefined when every id was already unique.
 */
export function withUniqueCallIds(
  reply: ModelReply,
  taken: ReadonlySet<string>,
): { reply: ModelReply; renamed: Array<{ from: string; to: string }> } | undefined {
  const used = new Set(taken);
  const renamed: Array<{ from: string; to: string }> = [];
  const content = reply.content.map((block) => {
    if (block.type !== 'tool_use') return block;
    if (!used.has(block.id)) {
      used.add(block.id);
      return block;
    }
    let n = 2;
    while (used.has(`${block.id}#${n}`)) n += 1;
    const id = `${block.id}#${n}`;
    used.add(id);
    renamed.push({ from: block.id, to: id });
    return { ...block, id };
  });
  return renamed.length ? { reply: { ...reply, content }, renamed } : undefined;
}
