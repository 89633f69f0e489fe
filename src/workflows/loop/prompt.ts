import type { AgentInput, ModelTool } from '../../domain';
import { injectedToolNames, type InjectedToolOption } from '../core/injected-tools';
import { updateTaskTool } from '../planning/plans/plan-tracker';

/** The injected finish tool: its `result` is the run's final answer; a reply without tool calls is an answer too. */
export function finishTool(
  input: Pick<
    AgentInput,
    'finishToolName' | 'finishToolDescription' | 'askConfidence' | 'confirmBelowConfidence' | 'outputSchema'
  >,
): ModelTool {
  // With an output schema the model gives the answer's value itself, shaped by the schema.
  const result = input.outputSchema
    ? { ...input.outputSchema, description: 'Your final answer, matching this schema.' }
    : { type: 'string', description: 'Your final answer or output.' };
  // Offered only when the run uses confidence, so other runs' tool lists stay as they were.
  const confidence = {
    type: 'number',
    minimum: 0,
    maximum: 1,
    description: 'How sure you are of the answer, from 0 (a guess) to 1 (certain).',
  };
  return {
    name: input.finishToolName,
    description: input.finishToolDescription,
    inputSchema: {
      type: 'object',
      properties: usesConfidence(input) ? { result, confidence } : { result },
      required: ['result'],
    },
  };
}

/** The run asks for a confidence, or acts on one. */
export const usesConfidence = (input: Pick<AgentInput, 'askConfidence' | 'confirmBelowConfidence'>): boolean =>
  input.askConfidence || input.confirmBelowConfidence !== undefined;

/** The injected give-up tool: the model's way to declare the task impossible (reason `failure`). */
export function giveUpTool(input: Pick<AgentInput, 'giveUpToolName'>): ModelTool {
  return {
    name: input.giveUpToolName,
    description:
      'Declare that the task cannot be completed (missing access, impossible request, repeated failures). Use only after real attempts.',
    inputSchema: {
      type: 'object',
      properties: { reason: { type: 'string', description: 'Why the task cannot be completed, and what was tried.' } },
      required: ['reason'],
    },
  };
}

/** Injected when `allowQuestions`: the model asks a person and waits for the `answer` update. */
export function questionTool(input: Pick<AgentInput, 'questionToolName'>): ModelTool {
  return {
    name: input.questionToolName,
    description:
      'Ask the person supervising this run a question when you need information or a decision only they can give (request clarification). The run waits for their answer.',
    inputSchema: {
      type: 'object',
      properties: {
        question: { type: 'string', description: 'One clear question, with the context they need to answer it.' },
      },
      required: ['question'],
    },
  };
}

/** The injected tools after the registered ones, in injectedToolNames' order; the finish tool only for native tool calling. */
export function injectedTools(input: AgentInput, withFinish: boolean): ModelTool[] {
  const definitions: Record<InjectedToolOption, (name: string) => ModelTool> = {
    finishToolName: () => finishTool(input),
    giveUpToolName: () => giveUpTool(input),
    questionToolName: () => questionTool(input),
    'planning.updateToolName': (name) =>
      updateTaskTool({ updateToolName: name, fallbacks: input.planning?.fallbacks ?? [] }),
  };
  return injectedToolNames(input)
    .filter((tool) => withFinish || tool.option !== 'finishToolName')
    .map((tool) => definitions[tool.option](tool.name));
}

export function systemPrompt(
  input: Pick<
    AgentInput,
    | 'systemPrompt'
    | 'finishToolName'
    | 'giveUpToolName'
    | 'thoughtPrompt'
    | 'requireThought'
    | 'askConfidence'
    | 'confirmBelowConfidence'
    | 'labels'
    | 'outputSchema'
  >,
): string {
  const lead =
    input.systemPrompt ?? 'You are an autonomous agent that reasons step by step and uses tools to solve the task.';
  const thoughtPrompt = input.thoughtPrompt.trim();
  return [
    lead,
    '',
    input.requireThought
      ? 'Before each tool call, write your reasoning as text (your thought): a call without one is not run.'
      : 'Before each tool call, say briefly what you are about to do and why.',
    ...(thoughtPrompt ? ['', thoughtPrompt, ''] : []),
    'Never invent tool results; wait for the real result. If a tool fails, try another approach.',
    `When you have a complete answer, call the "${input.finishToolName}" tool with it as "result".`,
    ...(usesConfidence(input)
      ? [
          `End each thought with a line "${input.labels.confidence}: <0 to 1>", and give "${input.finishToolName}" your confidence in the answer (0 = a guess, 1 = certain).`,
        ]
      : []),
    `If the task truly cannot be done, call the "${input.giveUpToolName}" tool with the reason.`,
    ...(input.outputSchema
      ? [`Give "${input.finishToolName}" the answer as a JSON value matching the schema of its "result".`]
      : []),
  ].join('\n');
}

/** What a text-protocol run is told about a structured answer: the schema itself, as the finish tool is not offered. */
export function outputInstruction(input: Pick<AgentInput, 'outputSchema' | 'labels'>): string {
  if (!input.outputSchema) return '';
  return `\n\nYour ${input.labels.finalAnswer} must be one JSON value matching this JSON Schema, and nothing else: ${JSON.stringify(input.outputSchema)}`;
}

/** Why the run is ending, in the words the model reads before its last, tool-less reply. */
export function stopInstruction(why: string): string {
  return (
    `${why} You cannot call any more tools. ` +
    'Reply with text only: summarise the progress so far, give every partial result you have, ' +
    'and say what remains to be done.'
  );
}
