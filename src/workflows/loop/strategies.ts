import { workflowInfo } from '@temporalio/workflow';
import type { AgentInput, ModelMessage, ModelReply, ModelTool, ToolSpec } from '../../domain';
import type { RunTools } from '../tools/run-tools';
import { replyText, type ModelPrompt, type Observation } from '../core/model-exchange';
import type { RunState } from '../core/state/run-state';
import { fnv1a } from '../core/stable-hash';
import { reactParser } from '../react-text/react-parser';
import {
  delimitObservation,
  formatObservation,
  observationMarker,
  reactStopSequences,
  reactTextSystemPrompt,
} from '../react-text/react-text-prompt';
import { asConfidence, readConfidence } from '../reasoning/confidence';
import { decideNextStep, giveUpStep, type NextStep } from './decide-next-step';
import { toModelTool } from '../../domain/tools/offered-tool';
import { injectedTools, outputInstruction, systemPrompt, usesConfidence } from './prompt';

/** How a run talks to its model: what it sends (the prompt), how it reads replies, how it reports results. */
export interface Strategy extends ModelPrompt {
  decide(reply: ModelReply): NextStep;
  /** The model's message for a turn that ran tools, without its thought (`scratchpad: false`). */
  actionOnly(message: ModelMessage, next: Extract<NextStep, { kind: 'run_tools' }>): ModelMessage;
  observe(observations: Observation[]): ModelMessage;
  /** Tells the model its last reply could not be used (a `format_error`), in this protocol's terms. */
  unreadable(state: RunState, text: string): void;
}

/**
 * The API's own tool calling, with the injected finish tool. The tools offered follow the run's
 * set (run-tools.ts): until the first reply described the registered ones, the call describes them.
 */
export function nativeStrategy(input: AgentInput, runTools: RunTools): Strategy {
  const injected = injectedTools(input, true);
  let offered: { from: readonly ToolSpec[]; tools: ModelTool[] } | undefined;
  return {
    system: systemPrompt(input),
    get tools() {
      // Built again only when the set changed (once, when the first reply described it).
      if (offered?.from !== runTools.specs)
        offered = { from: runTools.specs, tools: [...runTools.specs.map(toModelTool), ...injected] };
      return offered.tools;
    },
    get describeTools() {
      return runTools.pending;
    },
    decide: (reply) => {
      const next = withAnswerConfidence(
        decideNextStep(reply, input.finishToolName, input.giveUpToolName, input.outputSchema !== undefined),
        input,
      );
      const { text: thought, confidence } = readConfidence(replyText(reply), input.labels.confidence);
      // A reply that is only text is the answer itself, not a thought before acting.
      if ((next.kind === 'final_answer' && next.via === 'text_reply') || !thought) return next;
      return { ...next, thought, ...(confidence !== undefined ? { thoughtConfidence: confidence } : {}) };
    },
    // Tool calls and extended thinking stay (the API wants thinking blocks kept with their calls).
    actionOnly: (message) =>
      message.role === 'assistant'
        ? { role: 'assistant', content: message.content.filter((b) => b.type !== 'text') }
        : message,
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
  const { labels } = input;
  const parse = reactParser(labels);
  return {
    // The give-up tool is listed like any other; "Final Answer:" replaces the finish tool.
    system:
      reactTextSystemPrompt({
        tools: [...specs, ...injectedTools(input, false)],
        ...(input.systemPrompt ? { lead: input.systemPrompt } : {}),
        ...(observationMarker ? { observationMarker } : {}),
        labels,
        thoughtPrompt: input.thoughtPrompt,
        askConfidence: usesConfidence(input),
      }) + outputInstruction(input),
    tools: [],
    stopSequences: reactStopSequences(labels),
    readsCutReplies: true,
    decide: (reply) => {
      const parsed = parse(replyText(reply));
      const cut = reply.stopReason === 'max_tokens' ? cutReplyProblem(parsed, labels) : undefined;
      if (cut) return { kind: 'format_error', message: cut };
      const read =
        parsed.kind !== 'error' && parsed.thought ? readConfidence(parsed.thought, labels.confidence) : undefined;
      const thought = read?.text
        ? { thought: read.text, ...(read.confidence !== undefined ? { thoughtConfidence: read.confidence } : {}) }
        : {};
      switch (parsed.kind) {
        case 'final': {
          const answer = readConfidence(parsed.answer, labels.confidence);
          const confidence = answer.confidence !== undefined ? { confidence: answer.confidence } : {};
          const finishCall = {
            type: 'tool_use' as const,
            id: callId(),
            name: input.finishToolName,
            input: { result: answer.text || parsed.answer, ...confidence },
          };
          return {
            kind: 'final_answer',
            via: 'finish_tool',
            answer: answer.text || parsed.answer,
            finishCall,
            skipped: [],
            ...confidence,
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
            .map(
              (text) =>
                `${labels.observation}: ${observationMarker ? delimitObservation(text, observationMarker) : text}`,
            )
            .join('\n'),
        },
      ],
    }),
    unreadable(state, text) {
      state.addMessage(this.observe([{ callId: '', content: text, isError: true }]));
    },
    // One call per reply in this protocol: the reply becomes its Action and Action Input alone.
    actionOnly: (message, next) => {
      const call = next.calls[0];
      const text = call ? `${labels.action}: ${call.name}\n${labels.actionInput}: ${JSON.stringify(call.input)}` : '';
      return { ...message, content: [{ type: 'text', text }] };
    },
  };
}

/**
 * Why a reply cut at max_tokens cannot be used, or undefined when it can: a complete Action with
 * a JSON object input was written before the cut. A cut Final Answer may be missing its end, so
 * it is asked for again, shorter; anything else is a format error like any unreadable reply.
 */
function cutReplyProblem(parsed: ReturnType<ReturnType<typeof reactParser>>, labels: AgentInput['labels']) {
  if (parsed.kind === 'action' && isObject(parsed.input)) return undefined;
  const lead = 'Invalid Format: Your reply was cut at its length limit';
  if (parsed.kind === 'final')
    return `${lead} inside the ${labels.finalAnswer}. Give the ${labels.finalAnswer} again, shorter.`;
  return `${lead} before a complete ${labels.action} and ${labels.actionInput}. Write one short ${labels.thought}, then ${labels.action} and ${labels.actionInput}.`;
}

/** The confidence given to the finish tool, or written on the answer's last line (a text reply). */
function withAnswerConfidence(next: NextStep, input: AgentInput): NextStep {
  if (next.kind !== 'final_answer') return next;
  if (next.via === 'finish_tool') {
    const confidence = asConfidence(next.finishCall.input['confidence']);
    return confidence === undefined ? next : { ...next, confidence };
  }
  const read = readConfidence(next.answer, input.labels.confidence);
  if (read.confidence === undefined || !read.text) return next;
  return { ...next, answer: read.text, confidence: read.confidence };
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
