import { z } from 'zod';
import { jsonBytes, utf8Bytes } from '../run/payload-size';
import { AgentBudget } from './agent-budget';
import { GuardrailName, MAX_RUN_GUARDRAILS } from '../guardrails/guardrail';

/**
 * An agent as a named, versioned definition (docs/concepts.md, "Agents: named, versioned
 * definitions"). Sandbox-safe: workflows read it, workers register it, clients may send it inline.
 * Every part is bounded, because a run carries its definition into every continue-as-new.
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

/** Lower case letters, digits, `.`, `_` and `-`, starting with a letter or digit; at most 64 characters. */
export const AGENT_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** Semantic versions (`1.4.0`, `2.0.0-rc.1+build.5`) and free labels (`v3`, `2026-11-25`): no spaces, at most 64 characters. */
export const AGENT_VERSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

/** An agent's id: the name a run, the CLI (`run --agent`) and the API (`agent`) start it by. */
export const AgentId = z.string().regex(AGENT_ID_PATTERN, {
  message:
    'An agent id is 1–64 characters of lower case letters, digits, ".", "_" and "-", starting with a letter or digit.',
});

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

export const AgentDefinition = z.object({
  id: AgentId,
  /** What the agent is for, for people choosing it (lists, the API); 1–1,000 characters. */
  description: z.string().min(1).max(1_000),
  /** Recorded on the chain, the result and the `ThoughtlineAgentVersion` search attribute. */
  version: z.string().regex(AGENT_VERSION_PATTERN, {
    message:
      'An agent version is 1–64 characters with no spaces (letters, digits, ".", "_", "+", "-"): a semantic version such as 1.4.0, or a label such as v3.',
  }),
  /** The agent's instructions, ahead of the built-in ones about tools and finishing. */
  systemPrompt: z
    .string()
    .min(1)
    .refine((text) => utf8Bytes(text) <= MAX_AGENT_PROMPT_BYTES, {
      message: `An agent's system prompt must be at most ${MAX_AGENT_PROMPT_BYTES} bytes (UTF-8): every run carries it into each continue-as-new.`,
    }),
  /** Few-shot examples, rendered into the system prompt after the agent's instructions, in this order. */
  examples: z
    .array(AgentExample)
    .max(MAX_AGENT_EXAMPLES, { message: `An agent has at most ${MAX_AGENT_EXAMPLES} examples.` })
    .refine((examples) => examplesBytes(examples) <= MAX_AGENT_EXAMPLES_BYTES, {
      message: `An agent's examples must add up to at most ${MAX_AGENT_EXAMPLES_BYTES} bytes (UTF-8): every run carries them into each continue-as-new.`,
    })
    .default([]),
  /** Registered tools and catalogue agents the agent may call; absent means every registered tool. */
  tools: z
    .array(z.string().min(1).max(128))
    .max(MAX_AGENT_TOOLS)
    .refine((names) => new Set(names).size === names.length, { message: 'An agent must not name a tool twice.' })
    .optional(),
  /**
   * Budget settings for every run of the agent, whatever door starts it (A2A, AG-UI, MCP, `/v1`,
   * the CLI, code): `tokenBudget`, `costBudgetUsd`, `onBudget`, `budgetWaitTimeoutMs`,
   * `budgetRaiserRoles`, each where the run's own input leaves it out (docs/budgets.md).
   */
  budget: AgentBudget.optional(),
  /** Guardrails (by name, registered on the worker) every run of the agent is checked by, before the run's own (docs/guardrails.md). */
  guardrails: z
    .array(GuardrailName)
    .max(MAX_RUN_GUARDRAILS)
    .refine((names) => new Set(names).size === names.length, { message: 'An agent must not name a guardrail twice.' })
    .optional(),
});
export type AgentDefinition = z.infer<typeof AgentDefinition>;
/** The shape authors write: `examples` may be left out. */
export type AgentDefinitionInit = z.input<typeof AgentDefinition>;

/**
 * Which definition a run followed, as its chain and result record it. `worker`: resolved by name
 * from the worker's registry; `inline`: sent whole by the caller that started the run.
 */
export const AgentRef = z.object({ id: AgentId, version: z.string(), source: z.enum(['worker', 'inline']) });
export type AgentRef = z.infer<typeof AgentRef>;
