import { z } from 'zod';
import { AgentContext } from './agent-context';
import { AgentDefinition, AgentId } from '../agents/agent-definition';
import { GuardrailName, GuardrailSpec, MAX_RUN_GUARDRAILS } from '../guardrails/guardrail';
import { ApprovalPolicy } from '../approval/approval';
import { SignedDecisionPolicy } from '../approval/signed-decision';
import { ToolType, VisibilityLevel } from '../chain/chain';
import { DEFAULT_FINISH_TOOL, DEFAULT_GIVE_UP_TOOL, DEFAULT_QUESTION_TOOL } from './constants';
import { ContinuedState } from './continued-state';
import { GroundingSettings } from '../chain/answer-grounding';
import { ForkStart } from './fork';
import { ContextSummarySettings } from '../model/context-summary';
import { FallbackModel, ModelSettings } from '../model/model-settings';
import { OutputSchema } from '../output/output-schema';
import { MAX_TASK_BYTES, utf8Bytes } from './payload-size';
import { CallerContext } from '../identity/people';
import { PlanningSettings } from '../planning/plan';
import { RunCacheSettings } from '../planning/run-cache-settings';
import { SIMILAR_THRESHOLD } from '../text/similarity';
import {
  Confidence,
  DEFAULT_THOUGHT_PROMPT,
  MAX_THOUGHT_PROMPT_CHARS,
  ReActLabels,
  ThoughtValidation,
} from '../model/reasoning-settings';
import { Delegation, SubAgentDefinition } from '../agents/sub-agent';
import { BranchingSettings } from '../agents/branching';

export { FallbackModel, ModelSettings };

/** How a tool's steps are shown: a level, and the template a `summary` step is written from. */
export const ToolVisibility = z.object({ level: VisibilityLevel, summaryTemplate: z.string().optional() });
export type ToolVisibility = z.infer<typeof ToolVisibility>;

export const DEFAULT_FINISH_DESCRIPTION = 'Signal that you have completed the task. Call this with your final answer.';

/** A text a run carries at every handover: at most MAX_TASK_BYTES of UTF-8, refused at the start otherwise. */
const boundedText = (what: string) =>
  z.string().refine((text) => text.length <= MAX_TASK_BYTES && utf8Bytes(text) <= MAX_TASK_BYTES, {
    message: `The ${what} must be at most ${MAX_TASK_BYTES} bytes (UTF-8): it is carried into every continue-as-new and could never fit Temporal's payload limit.`,
  });

/** What a client sends to start `agentWorkflow`. Defaults live here, and only here. */
export const AgentInput = z.object({
  /** At most MAX_TASK_BYTES (256 KiB) of UTF-8. */
  task: boundedText('task').min(1),
  agentName: z.string().default('agent'),
  /** Prepended to the built-in instructions about tools and the finish tool. At most MAX_TASK_BYTES (256 KiB) of UTF-8. */
  systemPrompt: boundedText('system prompt').optional(),
  model: ModelSettings.default(ModelSettings.parse({})),
  /** Names of registered tools this run may use; omitted means every registered tool. */
  tools: z
    .array(z.string())
    .refine((names) => new Set(names).size === names.length, {
      message: 'tools must not name a tool twice (the model APIs refuse duplicate tool names)',
    })
    .optional(),
  maxIterations: z.number().int().positive().default(10),
  /** `native`: the API's tool calling. `react-text`: Thought/Action/Observation text (docs/react-text.md), for models without tools. */
  strategy: z.enum(['native', 'react-text']).default('native'),
  /**
   * The final answer must be JSON matching this JSON Schema (a client may pass zod: outputSchemaOf).
   * A mismatch is sent back to the model, which tries again within the run's limits; the value is
   * `AgentResult.output`.
   */
  outputSchema: OutputSchema.optional(),
  finishToolName: z.string().min(1).default(DEFAULT_FINISH_TOOL),
  finishToolDescription: z.string().default(DEFAULT_FINISH_DESCRIPTION),
  /** Tool results longer than this (as JSON text) are cut, with a visible marker. */
  maxToolResultChars: z.number().int().positive().default(8_000),
  /** Visibility of thinking and synthesis steps; tool steps take their tool's own level. */
  visibility: VisibilityLevel.default('full'),

  // Reasoning (seed 001 §2.2–2.4, docs/concepts.md "Thoughts"), in both strategies.
  /** A tool call must come with a thought (text before it, or extended thinking); else a format error that counts toward a stall. */
  requireThought: z.boolean().default(true),
  /** What every thought should answer, put in the system prompt; '' leaves it out. Default: seed 001's four questions. */
  thoughtPrompt: z.string().max(MAX_THOUGHT_PROMPT_CHARS).default(DEFAULT_THOUGHT_PROMPT),
  /** Text ReAct's labels (`Thought`, `Action`, …): its prompt, parser and stop sequence follow them. */
  labels: ReActLabels.default(ReActLabels.parse({})),
  /** Refuse thin thoughts (too short, "I will use the tool", a repeat); off when absent. */
  thoughtValidation: ThoughtValidation.optional(),
  /** The model reads its earlier thoughts (the scratchpad); false sends it only actions and observations. The chain keeps every thought. */
  scratchpad: z.boolean().default(true),
  /** Ask for a confidence (0–1) with every thought and the final answer (a `Confidence:` line; `finish`'s `confidence`). */
  askConfidence: z.boolean().default(false),
  /** An answer whose confidence is below this (or missing) waits for a person to accept it or send the agent back; needs no `askConfidence`. */
  confirmBelowConfidence: Confidence.optional(),

  // Early termination: a failure phrase ends the run as `failure`, a success phrase as `success`. Phrases match the model's text, case-insensitively.
  /** A reply containing one of these ends the run with `success`, its text as the answer. */
  successPhrases: z.array(z.string().min(1)).default([]),
  /** A reply containing one of these ends the run with `failure`; checked before success phrases. */
  failurePhrases: z.array(z.string().min(1)).default([]),
  /** The injected tool by which the model declares the task impossible (`failure`). */
  giveUpToolName: z.string().min(1).default(DEFAULT_GIVE_UP_TOOL),
  /** The same call (tool + arguments, compared after normalising) or a format error this many times in a row is a stall. */
  stallThreshold: z.number().int().min(2).default(3),
  /** The last this many turns are searched for a cycle (A-B-A-B, A-B-C-A-B-C): a cycle repeated twice is a stall. */
  stallWindow: z.number().int().min(4).max(20).default(8),
  /**
   * How alike (0.5–1, text/similarity.ts: shared words and values over all, a different number never
   * alike) a turn's calls must be to the last turn's to count as a repeat and in cycles; 1 compares
   * them exactly (after normalising case and spaces), as before.
   */
  similarCallThreshold: z.number().min(0.5).max(1).default(SIMILAR_THRESHOLD),
  /** On a stall after the one warning: `stop` (reason `stalled`) or `ask` a person (update `resolveStall`). */
  onStall: z.enum(['stop', 'ask']).default('stop'),
  /** How long an `ask` waits for a person before stopping as `stalled`. Default 1 day. */
  stallQuestionTimeoutMs: z.number().int().positive().default(86_400_000),

  // Budgets, checked before every model call against its projected cost.
  /** Tokens (input + output + cache) the run may spend; `token_budget` when the next call would cross it. */
  tokenBudget: z.number().int().positive().optional(),
  /** USD the run may spend; `cost_budget` when the next call would cross it. */
  costBudgetUsd: z.number().positive().optional(),
  /**
   * At the token, cost or iteration budget: `end` the run (the default) or `ask` a person to raise
   * it (update `raiseBudget`; docs/budgets.md). Absent means `end`, and a default run's input and
   * history stay as they were. Sub-agents never ask: a tree is asked once, at the top.
   */
  onBudget: z.enum(['end', 'ask']).optional(),
  /** How long a paused budget waits for a raise before the run ends as it would have. Default 1 day. */
  budgetWaitTimeoutMs: z.number().int().positive().optional(),
  /** Roles that may raise a paused budget; absent or empty: anyone who may decide on the run. */
  budgetRaiserRoles: z.array(z.string().min(1)).max(20).optional(),
  /** Wall-clock limit of the whole run (a durable timer, across continue-as-new); `timeout`. */
  runTimeoutMs: z.number().int().positive().optional(),
  /** After a `cancel` signal, in-flight work may finish for this long before it is cancelled. */
  cancelGraceMs: z.number().int().nonnegative().default(500),

  // Observations.
  /** Same as `maxToolResultChars`, in tokens (4 characters each); the smaller limit wins. */
  maxToolResultTokens: z.number().int().positive().optional(),
  /** Results over the limit are summarised by a model call (a visible step) instead of cut. */
  summariseLargeResults: z.boolean().default(false),

  // Long runs.
  /** The conversation sent to the model is kept under this many characters: old tool results are elided, then the oldest whole turns dropped. */
  maxContextChars: z.number().int().positive().default(150_000),
  /**
   * When compaction drops whole turns, one model call (a visible `llm` step, on the run's budget)
   * summarises them and the summary takes their place in the conversation; without it, or when the
   * call fails, a note says they were removed. Off when absent (docs/context-and-workflows.md).
   */
  contextSummary: ContextSummarySettings.optional(),
  /** Continue-as-new once a Temporal run's history reaches this many bytes (or when Temporal suggests it). */
  continueAsNewAtBytes: z.number().int().positive().default(2_000_000),
  /** Continue-as-new after this many iterations in one Temporal run, whatever its size. */
  continueAsNewEvery: z.number().int().positive().optional(),
  // People in the loop.
  /** Who started the run: tools' `requiredRoles` are checked against its roles; `tenant` selects tenant limits. */
  caller: CallerContext.optional(),
  /**
   * Decisions (approvals, answers, steering, raises) must carry a valid signature from one of these
   * Ed25519 public keys (keyId → base64url raw key), as `thoughtline serve` signs them; unsigned
   * or forged ones are refused, even when sent straight to Temporal, unless `required` is false.
   * Only a verified signature's roles count toward approver and raiser roles. Off when absent.
   */
  signedDecisions: SignedDecisionPolicy.optional(),
  /** Approval policies by tool name; each replaces that tool's own policy for this run. */
  approvals: z.record(z.string(), ApprovalPolicy).default({}),
  /** A call waiting for approval this long is treated as rejected (an error observation). Default 7 days. */
  approvalTimeoutMs: z
    .number()
    .int()
    .positive()
    .default(7 * 86_400_000),
  /** Model names (or `provider/model`) this run may use; a model or fallback outside it is refused. */
  allowedModels: z.array(z.string().min(1)).optional(),
  /** Offer the model a tool to ask a person a question; the run waits for the `answer` update. */
  allowQuestions: z.boolean().default(false),
  questionToolName: z.string().min(1).default(DEFAULT_QUESTION_TOOL),
  /** How long a question waits for an answer before the model is told nobody answered. Default 1 day. */
  questionTimeoutMs: z.number().int().positive().default(86_400_000),
  /** Visibility by tool type (e.g. `database: summary`); a per-tool entry wins, then the tool's own. */
  visibilityByToolType: z.partialRecord(ToolType, ToolVisibility).default({}),
  /** Visibility by tool name; the most specific setting. */
  visibilityByTool: z.record(z.string(), ToolVisibility).default({}),

  // Delegation, parallel calls and planning.
  /**
   * Agents this run (and its sub-agents) may call as tools of type `sub_agent`, by tool name.
   * Passed down the tree, so a sub-agent's \`tools\` may name agents from the same catalogue.
   */
  agents: z.record(z.string(), SubAgentDefinition).default({}),
  /** How deep delegation may go below the root (a child of the root is depth 1). */
  maxDelegationDepth: z.number().int().nonnegative().default(3),
  /** Tool calls of one turn that run at the same time; the rest wait for a free slot. */
  maxParallelToolCalls: z.number().int().positive().default(4),
  /** A judge model for the answer's claims the rules leave unsupported (docs/concepts.md, "Grounded answers"); off when absent. */
  grounding: GroundingSettings.optional(),
  /**
   * Let the model try two to four approaches at once as child runs of the same agent and go on
   * with the best (`explore_branches`, docs/teams-and-plans.md "Branching"); off when absent.
   * Not passed to the branches or to sub-agents.
   */
  branching: BranchingSettings.optional(),
  /** Plan the goal as tasks with dependencies before acting (docs/teams-and-plans.md); off when absent. */
  planning: PlanningSettings.optional(),
  /** Data and files the goal comes with (`run --files/--context`): bounded, redacted by the client, the chain's first step. */
  context: AgentContext.optional(),
  /** Opt-in reuse of tool results, model replies and plans across runs of the same tenant, with a time-to-live. */
  cache: RunCacheSettings.optional(),
  /** Set by a parent run on its sub-agent's input; never by callers. */
  delegation: Delegation.optional(),

  /** Set by `AgentClient.fork`: a new agent run that starts from another run's step (docs/debugging-by-fork.md). */
  fork: ForkStart.optional(),

  // Agents as named, versioned definitions (docs/concepts.md). With either set, `systemPrompt`
  // and `tools` must be absent: the prompt, examples and tools are the definition's.
  /** Start the agent the worker registered under this id (`createAgentWorker({ agents })`); resolved once, when the run starts. */
  agent: AgentId.optional(),
  /** The definition the run follows: sent whole by the caller, or set by the run itself when it resolves `agent`. */
  definition: AgentDefinition.optional(),

  /**
   * Guardrails the worker registered (`createAgentWorker({ guardrails })`) this run is checked by,
   * by name, on top of its agent definition's (docs/guardrails.md). An unknown name refuses the run.
   */
  guardrails: z
    .array(GuardrailName)
    .max(MAX_RUN_GUARDRAILS)
    .refine((names) => new Set(names).size === names.length, { message: 'A run must not name a guardrail twice.' })
    .optional(),
  /** Set by the run itself when it starts: the stages of the guardrails it names (a caller's value is replaced). */
  guardrailSpecs: z.array(GuardrailSpec).max(MAX_RUN_GUARDRAILS).optional(),

  /** Set by the run itself when it continues as new; never by callers. */
  continued: ContinuedState.optional(),
});
export type AgentInput = z.infer<typeof AgentInput>;
/** The shape callers write: every defaulted field may be left out. */
export type AgentInputInit = z.input<typeof AgentInput>;
