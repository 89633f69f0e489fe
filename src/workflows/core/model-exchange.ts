import type { DescribeTools, ModelReply, ModelTool, ToolSpec } from '../../domain';

// What passes between a run and its model: the prompt it sends, the text of a reply, a tool call
// that passed validation, and the observation the model reads back.

/** One tool call's outcome, as the model will read it next turn. */
export interface Observation {
  callId: string;
  content: string;
  isError: boolean;
}

/** What a run sends its model on every turn: the system prompt, the tools, the stop sequences of its protocol. */
export interface ModelPrompt {
  readonly system: string;
  readonly tools: ModelTool[];
  /** The run's registered tools, still to be described by the call itself; offered before `tools` (run-tools.ts). */
  readonly describeTools?: DescribeTools | undefined;
  readonly stopSequences?: string[];
  /**
   * A reply cut at max_tokens is read for what it holds (the text protocol: a complete Action
   * before the cut still counts), not retried with more room nor taken as the end of the run.
   */
  readonly readsCutReplies?: boolean;
}

/** A tool call whose tool exists and whose arguments passed its schema. */
export interface ValidCall {
  spec: ToolSpec;
  args: Record<string, unknown>;
  /** The workflow chose the model of this `llm` call (it named none): why (route-model.ts). */
  routed?: string;
}

/** The text blocks of a reply, joined and trimmed. */
export const replyText = (reply: ModelReply): string =>
  reply.content
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
    .trim();
