import type { AgentRef } from '../../../domain/agents/agent-definition';
import {
  CHAIN_SCHEMA_VERSION,
  type CacheHit,
  type ApprovalRecord,
  type ChainStatus,
  type NotePurpose,
  type Plan,
  type ReasoningChain,
  type ReasoningStep,
  type SubAgentRun,
  type Synthesis,
  type ToolCall,
  type ToolResult,
  type TokenUsage,
  type Visibility,
} from '../../../domain';
import type { ChainChange, ChainObserver, ChainPosition } from './chain-observer';

/** A recorded `tool_call` step. */
export type ToolCallStep = Extract<ReasoningStep, { type: 'tool_call' }>;

/** Deterministic sources of time and ids: workflow time and `uuid4()` in the workflow, fakes in tests. */
export interface ChainClock {
  now(): string;
  newId(): string;
}

export interface ModelMeta {
  model: string;
  usage?: TokenUsage;
  costUsd?: number;
  /** The reply came from the worker's cache (`cache.model`). */
  cacheHit?: CacheHit;
}

/** The structured verdict a loop-added thought may carry. */
export type NoteExtra = Partial<
  Pick<
    Extract<ReasoningStep, { type: 'thinking' }>,
    'taskChoice' | 'observation' | 'fallback' | 'goalCheck' | 'cacheHit'
  >
>;

/** Marks a step a person caused (steering, an answer, an approval decision, a cancel). */
export type PersonMark = NonNullable<ReasoningStep['fromPerson']>;

type StampedFields = 'stepId' | 'stepNumber' | 'timestamp' | 'iteration';
/** A step before the builder stamps it; distributes over the union so each type keeps its fields. */
type NewStep = ReasoningStep extends infer S ? (S extends ReasoningStep ? Omit<S, StampedFields> : never) : never;

/** Appends steps to one reasoning chain. Pure apart from the injected clock. */
export class ChainBuilder {
  private readonly chain: ReasoningChain;
  /** Parallel tags of calls whose results have not all landed; results take their call's tag. */
  private readonly parallelByCall = new Map<string, NonNullable<ReasoningStep['parallel']>>();
  iteration = 0;
  /** Steps of earlier Temporal runs that the restored chain no longer carries (see `earlier`). */
  private readonly before: number;

  constructor(
    private readonly clock: ChainClock,
    init:
      | { chainId: string; agentName: string; task: string; caller?: ReasoningChain['caller'] }
      | { restore: ReasoningChain },
    /** Told of each appended step, status change and approval or sub-agent record put; default none. */
    private readonly observer?: ChainObserver,
  ) {
    if ('restore' in init) {
      this.chain = { ...init.restore, steps: [...init.restore.steps] };
      this.before = init.restore.earlier?.throughStep ?? 0;
      return;
    }
    this.before = 0;
    this.chain = {
      schemaVersion: CHAIN_SCHEMA_VERSION,
      chainId: init.chainId,
      agentName: init.agentName,
      task: init.task,
      ...(init.caller ? { caller: init.caller } : {}),
      startedAt: clock.now(),
      status: 'thinking',
      steps: [],
    };
  }

  /** The steps this Temporal run holds: the carried tail of earlier runs, then its own. */
  get steps(): readonly ReasoningStep[] {
    return this.chain.steps;
  }

  /** Every step the run has recorded, earlier runs' included: the last step's number. */
  get stepCount(): number {
    return this.before + this.chain.steps.length;
  }

  /** The chain's status, read without the copy a snapshot makes of every step. */
  get status(): ReasoningChain['status'] {
    return this.chain.status;
  }

  /** Where the steps before `steps` are, when a handover left them behind. */
  get earlier(): ReasoningChain['earlier'] {
    return this.chain.earlier;
  }

  /** A copy, so callers (queries, results) never hold a reference the loop keeps mutating. */
  snapshot(): ReasoningChain {
    return {
      ...this.chain,
      steps: [...this.chain.steps],
      ...(this.chain.approvals ? { approvals: [...this.chain.approvals] } : {}),
      ...(this.chain.subAgents ? { subAgents: [...this.chain.subAgents] } : {}),
    };
  }

  get approvals(): readonly ApprovalRecord[] {
    return this.chain.approvals ?? [];
  }

  /** Adds a request, or replaces the record of the same call (records are never mutated in place). */
  putApproval(record: ApprovalRecord): void {
    const list = this.chain.approvals ?? [];
    const known = list.some((r) => r.callId === record.callId);
    this.chain.approvals = known ? list.map((r) => (r.callId === record.callId ? record : r)) : [...list, record];
    this.notify({ kind: 'approval', approval: record });
  }

  get chainId(): string {
    return this.chain.chainId;
  }

  get subAgents(): readonly SubAgentRun[] {
    return this.chain.subAgents ?? [];
  }

  /** Adds a child run, or replaces the record of the same child. */
  putSubAgent(run: SubAgentRun): void {
    const list = this.chain.subAgents ?? [];
    const known = list.some((r) => r.workflowId === run.workflowId);
    this.chain.subAgents = known ? list.map((r) => (r.workflowId === run.workflowId ? run : r)) : [...list, run];
    this.notify({ kind: 'sub_agent', subAgent: run });
  }

  get plan(): Plan | undefined {
    return this.chain.plan;
  }

  setPlan(plan: Plan): void {
    this.chain.plan = plan;
  }

  /**
   * Tags a turn's calls that run concurrently: they share the first call's step number as their
   * group; results with the same correlation ids get the same tag when they land.
   */
  tagParallel(calls: readonly ReasoningStep[]): void {
    const group = calls[0]?.stepNumber;
    if (group === undefined || calls.length < 2) return;
    calls.forEach((call, i) => {
      if (call.type !== 'tool_call') return;
      const parallel = { group, index: i + 1, size: calls.length };
      this.parallelByCall.set(call.toolCall.correlationId, parallel);
      const at = this.chain.steps.findIndex((s) => s.stepId === call.stepId);
      if (at < 0) return;
      this.chain.steps[at] = { ...this.chain.steps[at]!, parallel };
      this.notify({ kind: 'step_amended', step: this.chain.steps[at]! });
    });
  }

  /** A fresh deterministic id, e.g. to correlate a model call with its reply. */
  newId(): string {
    return this.clock.newId();
  }

  get agent(): AgentRef | undefined {
    return this.chain.agent;
  }

  /** Records the definition the run follows; once, when the run starts (it is carried from then on). */
  setAgent(agent: AgentRef): void {
    this.chain.agent = agent;
  }

  setStatus(status: ChainStatus): void {
    const changed = status !== this.chain.status;
    this.chain.status = status;
    if (status === 'completed' || status === 'failed') this.chain.completedAt = this.clock.now();
    if (changed) this.notify({ kind: 'status' });
  }

  thinking(thought: string, visibility: Visibility, fromPerson?: PersonMark, confidence?: number): ReasoningStep {
    return this.push({
      type: 'thinking',
      thought,
      visibility,
      ...(fromPerson ? { fromPerson } : {}),
      ...(confidence !== undefined ? { confidence } : {}),
    });
  }

  /**
   * A thought the loop adds itself (see NotePurpose), with its plan snapshot and any structured
   * verdict (`extra`: taskChoice, observation, fallback, goalCheck, cacheHit).
   */
  note(purpose: NotePurpose, thought: string, visibility: Visibility, plan?: Plan, extra?: NoteExtra): ReasoningStep {
    return this.push({ type: 'thinking', thought, visibility, purpose, ...(plan ? { plan } : {}), ...extra });
  }

  toolCall(toolCall: ToolCall, visibility: Visibility, meta?: ModelMeta): ToolCallStep {
    return this.push({ type: 'tool_call', toolCall, visibility, ...meta }) as ToolCallStep;
  }

  toolResult(
    toolResult: ToolResult,
    visibility: Visibility,
    meta?: ModelMeta | { fromPerson: PersonMark } | { cacheHit: CacheHit },
  ): ReasoningStep {
    const parallel = this.parallelByCall.get(toolResult.correlationId);
    return this.push({ type: 'tool_result', toolResult, visibility, ...meta, ...(parallel ? { parallel } : {}) });
  }

  synthesis(synthesis: Synthesis, visibility: Visibility): ReasoningStep {
    return this.push({ type: 'synthesis', synthesis, visibility });
  }

  /** The result step of a call, if this run's steps hold it; searched from the latest. */
  resultOf(correlationId: string): Extract<ReasoningStep, { type: 'tool_result' }> | undefined {
    for (let i = this.chain.steps.length - 1; i >= 0; i--) {
      const step = this.chain.steps[i];
      if (step?.type === 'tool_result' && step.toolResult.correlationId === correlationId) return step;
    }
    return undefined;
  }

  /** Ids of successful observations from real tools: what a final answer draws on. */
  observationSources(): string[] {
    return this.chain.steps
      .filter((s) => s.type === 'tool_result' && s.toolResult.success && s.model === undefined)
      .map((s) => s.stepId);
  }

  private push(step: NewStep): ReasoningStep {
    const full = {
      ...step,
      stepId: this.clock.newId(),
      stepNumber: this.stepCount + 1,
      timestamp: this.clock.now(),
      iteration: this.iteration,
    } as ReasoningStep;
    this.chain.steps.push(full);
    this.notify({ kind: 'step', step: full });
    return full;
  }

  /** The chain's status and last step number: where a change or the run's end leaves it. */
  position(): ChainPosition {
    return { status: this.chain.status, stepNumber: this.stepCount };
  }

  private notify(change: ChainChange): void {
    this.observer?.(change, this.position());
  }
}
