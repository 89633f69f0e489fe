import type { AgentInput, ModelMessage, ModelReply, ModelTool, ToolSpec } from '../shared';
import { decideNextStep, replyText, type NextStep } from './decide-next-step';
import { finishTool, systemPrompt, toModelTool } from './prompt';

/** One tool call's outcome, as the model will read it next turn. */
export interface Observation {
  callId: string;
  content: string;
  isError: boolean;
}

/** How a run talks to its model: what it sends, how it reads replies, how it reports results. */
export interface Strategy {
  readonly system: string;
  readonly tools: ModelTool[];
  readonly stopSequences?: string[];
  decide(reply: ModelReply): NextStep;
  observe(observations: Observation[]): ModelMessage;
}

/** The API's own tool calling, with the injected finish tool (seed 004). */
export function nativeStrategy(input: AgentInput, specs: readonly ToolSpec[]): Strategy {
  return {
    system: systemPrompt(input),
    tools: [...specs.map(toModelTool), finishTool(input)],
    decide: (reply) => {
      const next = decideNextStep(reply, input.finishToolName);
      const thought = replyText(reply);
      // A reply that is only text is the answer itself, not a thought before acting.
      return (next.kind === 'final_answer' && next.via === 'text_reply') || !thought ? next : { ...next, thought };
    },
    observe: (observations) => ({
      role: 'user',
      content: observations.map((o) => ({ type: 'tool_result', toolUseId: o.callId, content: o.content, isError: o.isError })),
    }),
  };
}

export function reactTextStrategy(input: AgentInput, specs: readonly ToolSpec[]): Strategy {
  return nativeStrategy(input, specs);
}
