import { workflowInfo } from '@temporalio/workflow';
import type { AgentInput, ModelMessage, ModelReply, ToolSpec } from '../../shared';
import { replyText, type ModelPrompt, type Observation } from '../core/model-exchange';
import type { RunState } from '../core/run-state';
import { fnv1a } from '../core/stable-hash';
import { parseReAct } from '../react-text/react-parser';
import {
  delimitObservation,
  formatObservation,
  observationMarker,
  reactTextSystemPrompt,
  REACT_STOP_SEQUENCES,
} from '../react-text/react-text-prompt';
import { decideNextStep, giveUpStep, type NextStep } from './decide-next-step';
import { injectedTools, systemPrompt, toModelTool } from './prompt';

/** How a run talks to its model: what it sends (the prompt), how it reads replies, how it reports results. */
export interface Strategy extends ModelPrompt {
  decide(reply: ModelReply): NextStep;
  observe(observations: Observation[]): ModelMessage;
  /** Tells the model its last reply could not be used (a `format_error`), in this protocol's terms. */
  unreadable(state: RunState, text: string): void;
}

/** The API's own tool calling, with the injected finish tool. */
export function nativeStrategy(input: AgentInput, specs: readonly ToolSpec[]): Strategy {
  return {
    system: systemPrompt(input),
    tools: [...specs.map(toModelTool), ...injectedTools(input, true)],
    decide: (reply) => {
      const next = decideNextStep(reply, input.finishToolName, input.giveUpToolName);
      const thought = replyText(reply);
      // A reply that is only text is the answer itself, not a thought before acting.
      return (next.kind === 'final_answer' && next.via === 'text_reply') || !thought ? next : { ...next, thought };
    },
    observe: (observations) => ({
      role: 'user',
      content: observations.map((o) => ({
        type: 'tool_result',
        toolUseId: o.callId,
        content: o.content,
        isError: o.isError,
      })),
    }),
    // The unusable (empty) reply leaves the conversation: the API refuses empty assistant turns.
    unreadable: (state, text) => {
      state.dropLastAssistantMessage();
      state.appendUserText(text);
    },
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The Thought / Action / Action Input / Observation text protocol (docs/react-text.md), for models without
 * tool calling. `Final Answer:` plays the finish tool's part, so both strategies leave the same
 * chain shape. Ids are numbered per agent run: deterministic on replay.
 */
export function reactTextStrategy(
  input: AgentInput,
  specs: readonly ToolSpec[],
  firstCallNumber = 1,
  observationMarker?: string,
): Strategy {
  // Numbered across the whole agent run (continue-as-new passes the next number), so no two
  // calls share an id: approvals and results are keyed by it.
  let calls = firstCallNumber - 1;
  const callId = () => `react_${++calls}`;
  return {
    // The give-up tool is listed like any other; "Final Answer:" replaces the finish tool.
    system: reactTextSystemPrompt({
      tools: [...specs, ...injectedTools(input, false)],
      ...(input.systemPrompt ? { lead: input.systemPrompt } : {}),
      ...(observationMarker ? { observationMarker } : {}),
    }),
    tools: [],
    stopSequences: [...REACT_STOP_SEQUENCES],
    decide: (reply) => {
      const parsed = parseReAct(replyText(reply));
      const thought = parsed.kind !== 'error' && parsed.thought ? { thought: parsed.thought } : {};
      switch (parsed.kind) {
        case 'final': {
          const finishCall = {
            type: 'tool_use' as const,
            id: callId(),
            name: input.finishToolName,
            input: { result: parsed.answer },
          };
          return {
            kind: 'final_answer',
            via: 'finish_tool',
            answer: parsed.answer,
            finishCall,
            skipped: [],
            ...thought,
          };
        }
        case 'action':
          if (parsed.tool === input.giveUpToolName) {
            const call = {
              type: 'tool_use' as const,
              id: callId(),
              name: parsed.tool,
              input: isObject(parsed.input) ? parsed.input : { reason: parsed.rawInput },
            };
            return { ...giveUpStep(call, [call]), ...thought };
          }
          if (!isObject(parsed.input)) {
            return {
              kind: 'format_error',
              message: `Invalid Format: 'Action Input:' must be one JSON object of the tool's parameters, e.g. {"location": "Paris"}; got ${parsed.rawInput}`,
            };
          }
          return {
            kind: 'run_tools',
            calls: [{ type: 'tool_use', id: callId(), name: parsed.tool, input: parsed.input }],
            ...thought,
          };
        case 'error':
          return { kind: 'format_error', message: parsed.message };
      }
    },
    observe: (observations) => ({
      role: 'user',
      content: [
        {
          type: 'text',
          text: observations
            .map((o) => formatObservation(o.content, o.isError))
            .map((text) => `Observation: ${observationMarker ? delimitObservation(text, observationMarker) : text}`)
            .join('\n'),
        },
      ],
    }),
    unreadable(state, text) {
      state.addMessage(this.observe([{ callId: '', content: text, isError: true }]));
    },
  };
}

/** The number after the highest `react_N` call id in the chain: where a continued run's ids resume. */
export function nextReactCallNumber(steps: readonly { type: string; toolCall?: { correlationId: string } }[]): number {
  let highest = 0;
  for (const step of steps) {
    const match = step.type === 'tool_call' ? /^react_(\d+)$/.exec(step.toolCall?.correlationId ?? '') : null;
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return highest + 1;
}

/**
 * The run's observation marker, the same in every Temporal run of one agent run (it comes from
 * the first run's id, which tool output does not know).
 */
export function runObservationMarker(): string {
  return observationMarker(fnv1a(workflowInfo().firstExecutionRunId));
}
