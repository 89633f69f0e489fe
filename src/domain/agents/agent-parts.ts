import { z } from 'zod';
import { jsonBytes, utf8Bytes } from '../run/payload-size';

/*
 * The parts of an agent definition that a definition and each of its experiment's variants hold
 * (agent-definition.ts, agent-experiment.ts): the prompt, the few-shot examples and the tools, each
 * bounded, because a run carries its definition into every continue-as-new.
 */

/** Longest system prompt a definition holds (UTF-8 bytes). */
export const MAX_AGENT_PROMPT_BYTES = 32 * 1024;
/** Most few-shot examples a definition holds. */
export const MAX_AGENT_EXAMPLES = 10;
/** Most everything in the examples adds up to (UTF-8 bytes): tasks, answers and their traces' steps. */
export const MAX_AGENT_EXAMPLES_BYTES = 32 * 1024;
/** Most steps one example's trace shows. */
export const MAX_EXAMPLE_STEPS = 8;
/** Most tools a definition names. */
export const MAX_AGENT_TOOLS = 100;

/** One step of an example's trace (seed 000): why, which tool with which arguments, and what it returned. */
export const AgentExampleStep = z.object({
  /** The reasoning before the action; may be left out. */
  thought: z.string().optional(),
  action: z.object({
    tool: z.string().min(1).max(128),
    arguments: z.record(z.string(), z.json()).default({}),
  }),
  /** The tool's result (or error) as the model read it. */
  observation: z.string(),
});
export type AgentExampleStep = z.infer<typeof AgentExampleStep>;

/**
 * One worked example: a task and the answer the agent should give, and optionally the steps that
 * led there (a ReAct trace); all of it reaches the system prompt (workflows/loop/few-shot.ts).
 */
export const AgentExample = z.object({
  task: z.string().min(1, { message: 'An example needs a task.' }),
  answer: z.string().min(1, { message: 'An example needs an answer.' }),
  steps: z
    .array(AgentExampleStep)
    .min(1, { message: 'An example with steps needs at least one; leave steps out for a task and its answer.' })
    .max(MAX_EXAMPLE_STEPS, { message: `An example shows at most ${MAX_EXAMPLE_STEPS} steps.` })
    .optional(),
});
export type AgentExample = z.infer<typeof AgentExample>;

const stepBytes = (s: AgentExampleStep): number =>
  utf8Bytes(s.thought ?? '') + utf8Bytes(s.action.tool) + jsonBytes(s.action.arguments) + utf8Bytes(s.observation);
/** What examples add to every run's carried definition (and its prompt), in UTF-8 bytes. */
export const examplesBytes = (examples: readonly AgentExample[]): number =>
  examples.reduce(
    (sum, e) => sum + utf8Bytes(e.task) + utf8Bytes(e.answer) + (e.steps ?? []).reduce((n, s) => n + stepBytes(s), 0),
    0,
  );

/** The agent's instructions, ahead of the built-in ones about tools and finishing. */
export const AgentPrompt = z
  .string()
  .min(1)
  .refine((text) => utf8Bytes(text) <= MAX_AGENT_PROMPT_BYTES, {
    message: `An agent's system prompt must be at most ${MAX_AGENT_PROMPT_BYTES} bytes (UTF-8): every run carries it into each continue-as-new.`,
  });

/** Few-shot examples, rendered into the system prompt after the agent's instructions, in this order. */
export const AgentExamples = z
  .array(AgentExample)
  .max(MAX_AGENT_EXAMPLES, { message: `An agent has at most ${MAX_AGENT_EXAMPLES} examples.` })
  .refine((examples) => examplesBytes(examples) <= MAX_AGENT_EXAMPLES_BYTES, {
    message: `An agent's examples must add up to at most ${MAX_AGENT_EXAMPLES_BYTES} bytes (UTF-8): every run carries them into each continue-as-new.`,
  });

/** Registered tools and catalogue agents the agent may call. */
export const AgentTools = z
  .array(z.string().min(1).max(128))
  .max(MAX_AGENT_TOOLS)
  .refine((names) => new Set(names).size === names.length, { message: 'An agent must not name a tool twice.' });
