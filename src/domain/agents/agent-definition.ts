import { z } from 'zod';
import { GuardrailName, MAX_RUN_GUARDRAILS } from '../guardrails/guardrail';
import { AgentBudget } from './agent-budget';
import { AgentExperiment, ExperimentRef } from './agent-experiment';
import { AgentExamples, AgentPrompt, AgentTools } from './agent-parts';

export {
  AgentExample,
  AgentExampleStep,
  MAX_AGENT_EXAMPLES,
  MAX_AGENT_EXAMPLES_BYTES,
  MAX_AGENT_PROMPT_BYTES,
  MAX_AGENT_TOOLS,
  MAX_EXAMPLE_STEPS,
  examplesBytes,
} from './agent-parts';

/**
 * An agent as a named, versioned definition (docs/concepts.md, "Agents: named, versioned
 * definitions"). Sandbox-safe: workflows read it, workers register it, clients may send it inline.
 * Every part is bounded, because a run carries its definition into every continue-as-new.
 */

/** Lower case letters, digits, `.`, `_` and `-`, starting with a letter or digit; at most 64 characters. */
export const AGENT_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** Semantic versions (`1.4.0`, `2.0.0-rc.1+build.5`) and free labels (`v3`, `2026-11-25`): no spaces, at most 64 characters. */
export const AGENT_VERSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

/** An agent's id: the name a run, the CLI (`run --agent`) and the API (`agent`) start it by. */
export const AgentId = z.string().regex(AGENT_ID_PATTERN, {
  message:
    'An agent id is 1–64 characters of lower case letters, digits, ".", "_" and "-", starting with a letter or digit.',
});

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
  systemPrompt: AgentPrompt,
  /** Few-shot examples, rendered into the system prompt after the agent's instructions, in this order. */
  examples: AgentExamples.default([]),
  /** Registered tools and catalogue agents the agent may call; absent means every registered tool. */
  tools: AgentTools.optional(),
  /**
   * Budget settings for every run of the agent, whatever door starts it (A2A, AG-UI, MCP, `/v1`,
   * the CLI, code): `tokenBudget`, `costBudgetUsd`, `onBudget`, `budgetWaitTimeoutMs`,
   * `budgetRaiserRoles`, each where the run's own input leaves it out (docs/budgets.md).
   */
  budget: AgentBudget.optional(),
  /**
   * A live experiment (docs/evaluation.md, "Live experiments"): variants with weights, each
   * replacing some of the above for the runs assigned to it by a stable hash of a key.
   */
  experiment: AgentExperiment.optional(),
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
export const AgentRef = z.object({
  id: AgentId,
  version: z.string(),
  source: z.enum(['worker', 'inline']),
  /** The experiment variant the run was assigned; absent for a definition without an experiment. */
  experiment: ExperimentRef.optional(),
});
export type AgentRef = z.infer<typeof AgentRef>;
