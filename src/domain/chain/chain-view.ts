import type { AgentResult, AgentStatus } from '../run/agent-result';
import type { ApprovalRecord } from '../approval/approval';
import type { ReasoningChain, ReasoningStep, ToolType, VisibilityLevel } from './chain';
import { ViewerRole } from '../identity/people';
import { redactSecrets } from '../secrets/secret-patterns';
import { redactFields } from '../secrets/sensitive-fields';
import { callLensLevel, isEmptyLens, lensKey, lensLevel, withTenantFields } from '../visibility/lens-level';
import { HIDDEN_THINKING } from '../visibility/hidden-text';
import { isNarrower, narrowestLevel } from '../visibility/narrowest-level';
import type { ViewLens } from '../visibility/view-lens';
import type { SubAgentRun } from '../agents/sub-agent';

/** What `IncrementalChainView` remembers, as JSON: each call's facts by correlation id, and the sensitive values seen. */
export interface ViewFacts {
  calls: Record<
    string,
    { sensitiveFields: string[]; level: VisibilityLevel; model?: string; toolType?: ToolType; toolName?: string }
  >;
  values: string[];
}

/** What an end user sees of a failed step shown at summary level. */
const GENERIC_FAILURE = 'The step failed.';
/** An end user's thought line for a summary-level thinking step with no summary. */
const WORKING = '(working)';

/** Per correlation id: the call's sensitive fields, and its model when it is a model call. */
interface CallFacts {
  sensitiveFields: readonly string[];
  /** The call step's visibility level. */
  level: ReasoningStep['visibility']['level'];
  model?: string;
  /** The call's tool, for a policy's levels by kind, tool and tool type (absent in facts kept before). */
  toolType?: ToolType;
  toolName?: string;
}

/** What a view knows of a call step. */
function factOf(call: Extract<ReasoningStep, { type: 'tool_call' }>): CallFacts {
  const { sensitiveFields = [], toolType, toolName } = call.toolCall;
  return {
    sensitiveFields,
    level: call.visibility.level,
    ...(toolType === 'llm' ? { model: call.model ?? toolName } : {}),
    toolType,
    toolName,
  };
}

function callFacts(steps: readonly ReasoningStep[]): Map<string, CallFacts> {
  const facts = new Map<string, CallFacts>();
  // Every step, hidden ones included: a hidden call's visible result still hides its fields.
  for (const step of steps) {
    if (step.type === 'tool_call') facts.set(step.toolCall.correlationId, factOf(step));
  }
  return facts;
}

/** The sensitive fields of a step's call: its own, and the tenant's for its tool (`lens`). */
function fieldsOfStep(step: ReasoningStep, facts: Map<string, CallFacts>, lens?: ViewLens): readonly string[] {
  if (step.type === 'tool_call')
    return withTenantFields(step.toolCall.sensitiveFields ?? [], step.toolCall.toolName, lens);
  if (step.type === 'tool_result') {
    const call = facts.get(step.toolResult.correlationId);
    return withTenantFields(call?.sensitiveFields ?? [], call?.toolName, lens);
  }
  return [];
}

/** The step with its call's sensitive fields replaced, in the arguments or the result. */
function withoutSensitiveFields(step: ReasoningStep, facts: Map<string, CallFacts>, lens?: ViewLens): ReasoningStep {
  if (step.type === 'tool_call') {
    const fields = fieldsOfStep(step, facts, lens);
    return { ...step, toolCall: { ...step.toolCall, arguments: redactFields(step.toolCall.arguments, fields) } };
  }
  if (step.type === 'tool_result') {
    const fields = fieldsOfStep(step, facts, lens);
    return { ...step, toolResult: { ...step.toolResult, result: redactFields(step.toolResult.result, fields) } };
  }
  return step;
}

/** The model a model-call step talks to, or undefined for any other step. */
function modelOf(step: ReasoningStep, facts: Map<string, CallFacts>): string | undefined {
  if (step.type === 'tool_call')
    return step.toolCall.toolType === 'llm' ? (step.model ?? step.toolCall.toolName) : undefined;
  if (step.type === 'tool_result') return step.model ?? facts.get(step.toolResult.correlationId)?.model;
  return undefined;
}

/** The loop's note while a call waits for approval; its operator command is not for end users. */
const APPROVAL_WAIT = /^Waiting for approval of (\S+) \(call [^)]*\):[\s\S]*Decide with: thoughtline /;

/** The approval-wait thought an end user sees, or undefined when `step` is not a wait for approval. */
function approvalWaitLine(step: ReasoningStep): ReasoningStep | undefined {
  const approvalWait = step.type === 'thinking' ? APPROVAL_WAIT.exec(step.thought) : null;
  if (approvalWait && step.type === 'thinking')
    return { ...step, thought: `Waiting for a person to approve ${approvalWait[1]}.` };
  return undefined;
}

/**
 * A step at summary level, in any view: only its summary, with no arguments, tokens or cost; a
 * wait for approval says so without the operator's command; an answer keeps its conclusion (the
 * answer stays in the result) without the reasoning behind it.
 */
function summaryShape(full: ReasoningStep, facts: Map<string, CallFacts>): ReasoningStep {
  const wait = approvalWaitLine(full);
  if (wait) return wait;
  const model = modelOf(full, facts);
  const { usage: _usage, costUsd: _cost, ...step } = full;
  const summary = step.visibility.summary ?? (model === undefined ? undefined : `Model call (${model})`);
  switch (step.type) {
    case 'thinking':
      return { ...step, thought: summary ?? WORKING };
    case 'tool_call': {
      const { toolType, toolName, correlationId } = step.toolCall;
      return { ...step, toolCall: { toolType, toolName, correlationId, arguments: {} } };
    }
    case 'tool_result': {
      const { error, ...rest } = step.toolResult;
      const failure = error !== undefined && summary !== undefined ? { error: GENERIC_FAILURE } : {};
      return { ...step, toolResult: { ...rest, result: summary ?? null, ...failure } };
    }
    case 'synthesis': {
      const { conclusion, terminationReason } = step.synthesis;
      return { ...step, synthesis: { sources: [], conclusion, ...(terminationReason ? { terminationReason } : {}) } };
    }
  }
}

/**
 * An end user's version of a step: summary-level steps, and model calls at any level, show only
 * their summary, with no tokens or cost; a wait for approval says so without the operator's
 * command. Other full thinking, tool and synthesis steps stay as they are.
 */
function forEndUser(full: ReasoningStep, facts: Map<string, CallFacts>): ReasoningStep {
  if (full.type === 'synthesis') return full;
  const wait = approvalWaitLine(full);
  if (wait) return wait;
  if (full.visibility.level !== 'summary' && modelOf(full, facts) === undefined) return full;
  return summaryShape(full, facts);
}

/**
 * What `role` shows of a step before any policy: the auditor everything in full; the developer
 * all but recorded-hidden steps in full; the end user the recorded level (an answer in full).
 */
function roleLevel(step: ReasoningStep, role: ViewerRole): VisibilityLevel {
  const recorded = step.visibility.level;
  if (role === 'auditor') return 'full';
  if (role === 'developer') return recorded === 'hidden' ? 'hidden' : 'full';
  return step.type === 'synthesis' && recorded === 'summary' ? 'full' : recorded;
}

/** The step's level in `role`'s view under `lens`, and whether the lens made it narrower than the role would. */
function levelIn(
  step: ReasoningStep,
  role: ViewerRole,
  facts: Map<string, CallFacts>,
  lens: ViewLens | undefined,
): { level: VisibilityLevel; narrowed: boolean } {
  const own = roleLevel(step, role);
  if (!lens) return { level: own, narrowed: false };
  const capped = lensLevel(step, facts, lens);
  return { level: narrowestLevel(own, capped) ?? own, narrowed: isNarrower(capped, own) };
}

/** A sub-agent run shown as its summary: who, how it ended and where its chain is, without its spend or detail. */
function subAgentSummary(run: SubAgentRun): SubAgentRun {
  const { callId, agentName, workflowId, runId, status, budget, terminationReason } = run;
  return {
    callId,
    agentName,
    workflowId,
    ...(runId !== undefined ? { runId } : {}),
    status,
    budget,
    ...(terminationReason ? { terminationReason } : {}),
  };
}

/** How wide each role's view is, for a remote chain given in one of them. */
const ROLE_WIDTH: Readonly<Record<ViewerRole, number>> = { end_user: 0, developer: 1, auditor: 2 };

/**
 * A remote agent's linked chain (its steps' lines) for `role`: whole when the remote gave it in a
 * view no wider than `role`'s (an unknown view counts as the widest), else without its lines,
 * saying in which view they show; without its lines too on a step shown at summary level.
 */
function remoteChainIn(run: SubAgentRun, role: ViewerRole, summary = false): SubAgentRun {
  const chain = run.remote?.chain;
  if (!chain || chain.steps.length === 0) return run;
  const given = chain.view ?? 'auditor';
  if (!summary && ROLE_WIDTH[given] <= ROLE_WIDTH[role]) return run;
  const withheld = summary ? 'the step is shown as its summary' : `the remote gave them in the ${given} view`;
  return { ...run, remote: { ...run.remote!, chain: { ...chain, steps: [], withheld } } };
}

/** Sub-agent runs as the lens's `subChains` shows them (in full, as summaries, or none: undefined), remote chains as `role` may see them. */
function subAgentsView(
  runs: readonly SubAgentRun[],
  lens: ViewLens | undefined,
  role: ViewerRole,
): SubAgentRun[] | undefined {
  if (lens?.subChains === 'hidden') return undefined;
  return lens?.subChains === 'summary' ? runs.map(subAgentSummary) : runs.map((run) => remoteChainIn(run, role));
}

/** A result's sub-agent run as the lens's `subChains` shows it, its remote chain as `role` may see it at `level`. */
function withSubChain(
  step: ReasoningStep,
  lens: ViewLens | undefined,
  role: ViewerRole,
  level: VisibilityLevel,
): ReasoningStep {
  if (step.type !== 'tool_result' || !step.toolResult.subAgent) return step;
  const { subAgent, ...rest } = step.toolResult;
  if (!lens?.subChains || lens.subChains === 'full')
    return { ...step, toolResult: { ...rest, subAgent: remoteChainIn(subAgent, role, level === 'summary') } };
  return {
    ...step,
    toolResult: lens.subChains === 'hidden' ? rest : { ...rest, subAgent: subAgentSummary(subAgent) },
  };
}

/**
 * A model call's result with its reply text replaced where `role`'s view under `lens` does not
 * show thinking whole: the loop records that text again as its thought (the run records both at
 * its model calls' level), so a view that hides the thought hides it here too. The call stays.
 */
function withoutHiddenThought(
  step: ReasoningStep,
  role: ViewerRole,
  facts: Map<string, CallFacts>,
  lens: ViewLens | undefined,
): ReasoningStep {
  if (step.type !== 'tool_result' || modelOf(step, facts) === undefined) return step;
  const { result } = step.toolResult;
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return step;
  const reply = result as Record<string, unknown>;
  if (typeof reply['text'] !== 'string' || reply['text'] === '') return step;
  const thought = { ...step, type: 'thinking', thought: '' } as ReasoningStep;
  if (levelIn(thought, role, facts, lens).level === 'full') return step;
  return { ...step, toolResult: { ...step.toolResult, result: { ...reply, text: HIDDEN_THINKING } } };
}

/** `step` as `role` sees it at `level` (never hidden here), before secret redaction. */
function shapeStep(
  step: ReasoningStep,
  role: ViewerRole,
  level: VisibilityLevel,
  facts: Map<string, CallFacts>,
  lens: ViewLens | undefined,
): ReasoningStep {
  if (role === 'auditor')
    return withSubChain(
      level === 'summary' ? summaryShape(step, facts) : withoutHiddenThought(step, role, facts, lens),
      lens,
      role,
      level,
    );
  const redacted = withoutSensitiveFields(step, facts, lens);
  const shaped =
    level === 'summary'
      ? summaryShape(redacted, facts)
      : role === 'end_user'
        ? forEndUser(redacted, facts)
        : withoutHiddenThought(redacted, role, facts, lens);
  return withSubChain(shaped, lens, role, level);
}

/** A record's sensitive fields: its own (set when it was requested), else its call step's. */
const fieldsOfRecord = (record: ApprovalRecord, facts: Map<string, CallFacts>, lens?: ViewLens): readonly string[] =>
  withTenantFields(record.sensitiveFields ?? facts.get(record.callId)?.sensitiveFields ?? [], record.toolName, lens);

/**
 * A record's arguments with its sensitive fields replaced; an end user, who sees a summary-level
 * or hidden call without its arguments in the chain, sees none here either.
 */
function approvalView(
  record: ApprovalRecord,
  facts: Map<string, CallFacts>,
  role: ViewerRole,
  lens?: ViewLens,
): ApprovalRecord {
  const call = facts.get(record.callId);
  const level = call?.level;
  if (role === 'end_user' && (level === 'summary' || level === 'hidden')) return { ...record, arguments: {} };
  // A policy that shows the call at summary or not at all shows its arguments in no view.
  if (lens && isNarrower(callLensLevel(call, record.toolName, lens), 'full')) return { ...record, arguments: {} };
  if (role === 'auditor') return record;
  return { ...record, arguments: redactFields(record.arguments, fieldsOfRecord(record, facts, lens)) };
}

/** The scalar values found at `paths` in `value` (same path rules as `redactFields`). */
function valuesAt(value: unknown, paths: readonly string[]): string[] {
  const found: string[] = [];
  const collect = (node: unknown): void => {
    if (typeof node === 'string') found.push(node);
    else if (typeof node === 'number' || typeof node === 'bigint') found.push(String(node));
    else if (Array.isArray(node)) node.forEach(collect);
    else if (node !== null && typeof node === 'object') Object.values(node).forEach(collect);
  };
  const walk = (node: unknown, path: readonly string[]): void => {
    const [head, ...rest] = path;
    if (head === undefined) return collect(node);
    if (Array.isArray(node)) {
      if (/^\d+$/.test(head)) walk(node[Number(head)], rest);
      else for (const element of node) walk(element, path);
      return;
    }
    if (node !== null && typeof node === 'object' && Object.prototype.hasOwnProperty.call(node, head))
      walk((node as Record<string, unknown>)[head], rest);
  };
  for (const path of paths) if (!path.split('.').some((s) => s === '')) walk(value, path.split('.'));
  return found;
}

/**
 * The values of every sensitive field in the chain's calls, results and approval records: the
 * views other than the auditor's also redact them where free text repeats them (a thought that
 * quotes the card number, a final answer). Short values (under 8 characters) are left alone.
 */
function sensitiveValues(
  steps: readonly ReasoningStep[],
  approvals: readonly ApprovalRecord[],
  facts: Map<string, CallFacts>,
  lens?: ViewLens,
): string[] {
  const values = new Set<string>();
  for (const step of steps) for (const v of stepSensitiveValues(step, facts, lens)) values.add(v);
  for (const record of approvals)
    for (const v of valuesAt(record.arguments, fieldsOfRecord(record, facts, lens))) values.add(v);
  return [...values].sort();
}

/** The values of one step's sensitive fields (its call's own, and the tenant's under `lens`). */
function stepSensitiveValues(step: ReasoningStep, facts: Map<string, CallFacts>, lens?: ViewLens): string[] {
  if (step.type === 'tool_call') return valuesAt(step.toolCall.arguments, fieldsOfStep(step, facts, lens));
  if (step.type === 'tool_result') return valuesAt(step.toolResult.result, fieldsOfStep(step, facts, lens));
  return [];
}

/**
 * A copy of the chain for one role; the input is never changed. Pure and sandbox-safe, so the
 * `chain` query can call it. Every role, the auditor included, gets secret-shaped text redacted.
 * - auditor: every step, hidden ones included, in full; sensitive fields shown.
 * - developer: hidden steps left out; the rest in full with sensitive fields redacted, also
 *   where other text (a thought, a conclusion, the task) repeats a sensitive field's value.
 * - end_user: as developer, but summary-level steps and model calls show only their summary
 *   (no tokens, no cost), and a wait for approval leaves out the operator's command.
 * `lens` (the organisation's policy for this viewer, from `resolveViewLens`) only narrows, in every
 * view: a step it hides is left out and counted, one it caps at summary shows its summary shape,
 * its tenant's fields are masked like the call's own (below the auditor's view), and sub-agents'
 * runs show as its `subChains` says. No lens, or an empty one: exactly the view without.
 * Steps keep their original `stepNumber`: the gaps honestly show that steps were left out.
 */
export function viewChain(chain: ReasoningChain, role: ViewerRole, lens?: ViewLens): ReasoningChain {
  const active = isEmptyLens(lens) ? undefined : lens;
  const facts = role === 'auditor' && !active ? new Map<string, CallFacts>() : callFacts(chain.steps);
  const known = role === 'auditor' ? [] : sensitiveValues(chain.steps, chain.approvals ?? [], facts, active);
  const key = cacheKey(role, active, known);
  const steps: ReasoningStep[] = [];
  let narrowed = 0;
  for (const step of chain.steps) {
    const { level, narrowed: byLens } = levelIn(step, role, facts, active);
    if (byLens) narrowed += 1;
    if (level !== 'hidden') steps.push(stepView(step, role, level, facts, known, key, active));
  }
  const approvals =
    role === 'auditor' && !active
      ? chain.approvals
      : chain.approvals?.map((record) => approvalView(record, facts, role, active));
  // A view of a view counts the steps both left out.
  const view = viewRecord(chain.view, role, chain.steps.length - steps.length, narrowed);
  const { steps: _steps, ...head } = chain;
  return {
    ...redactSecrets(withSubAgents({ ...head, ...(approvals ? { approvals } : {}), view }, active, role), known),
    steps,
  };
}

/** The chain's `view`: this role, the steps left out on top of a viewed chain's, and those the policy narrowed. */
function viewRecord(
  prior: ReasoningChain['view'],
  role: ViewerRole,
  hidden: number,
  narrowed: number,
): NonNullable<ReasoningChain['view']> {
  const priorNarrowed = prior?.narrowed ?? 0;
  return {
    role,
    hiddenSteps: (prior?.hiddenSteps ?? 0) + hidden,
    ...(narrowed + priorNarrowed > 0 ? { narrowed: narrowed + priorNarrowed } : {}),
  };
}

/** The head with its sub-agents' runs as the lens shows them (left out when hidden). */
function withSubAgents<T extends { subAgents?: SubAgentRun[] }>(
  head: T,
  lens: ViewLens | undefined,
  role: ViewerRole,
): T {
  if (!head.subAgents) return head;
  const { subAgents, ...rest } = head;
  const shown = subAgentsView(subAgents, lens, role);
  return (shown ? { ...rest, subAgents: shown } : rest) as T;
}

/**
 * The `status` record for one role, with the same redaction as the chain: every role gets
 * secret-shaped text redacted (pending calls' arguments, the question, what the run waits for);
 * roles other than the auditor also get each pending call's sensitive fields replaced, and their
 * values wherever else the record repeats them. `steps` (the run's chain) names the sensitive
 * fields of records made before records carried their own. `lens` narrows as in `viewChain`: a
 * pending call the policy shows at summary or not at all has no arguments here, and sub-agents'
 * runs follow its `subChains`. Pure and sandbox-safe.
 */
export function viewStatus(
  status: AgentStatus,
  role: ViewerRole,
  steps: readonly ReasoningStep[] = [],
  lens?: ViewLens,
): AgentStatus {
  const active = isEmptyLens(lens) ? undefined : lens;
  if (role === 'auditor' && !active) return redactSecrets(status);
  const needFacts =
    role === 'end_user' ||
    active !== undefined ||
    status.pendingApprovals.some((record) => record.sensitiveFields === undefined);
  const facts = needFacts ? callFacts(steps) : new Map<string, CallFacts>();
  const known = role === 'auditor' ? [] : sensitiveValues([], status.pendingApprovals, facts, active);
  const pendingApprovals = status.pendingApprovals.map((record) => approvalView(record, facts, role, active));
  const subAgents = status.subAgents ? { subAgents: subAgentsView(status.subAgents, active, role) ?? [] } : {};
  // A paused budget names the tools it spent on: not to an end user, nor through a lens that may hide some.
  const pause = status.budgetPause;
  const budgetPause =
    pause && (role === 'end_user' || active) ? { budgetPause: { ...pause, spent: { ...pause.spent, tools: [] } } } : {};
  return redactSecrets({ ...status, pendingApprovals, ...subAgents, ...budgetPause }, known);
}

/**
 * A run's result for one role: its chain through `viewChain`, and every other field (the final
 * answer, the error, the plan) through the same redaction, so no part of a result is printed raw.
 */
export function viewResult(result: AgentResult, role: ViewerRole, lens?: ViewLens): AgentResult {
  const active = isEmptyLens(lens) ? undefined : lens;
  const facts = role === 'auditor' ? new Map<string, CallFacts>() : callFacts(result.chain.steps);
  const known =
    role === 'auditor' ? [] : sensitiveValues(result.chain.steps, result.chain.approvals ?? [], facts, active);
  const { chain, ...rest } = result;
  return { ...redactSecrets(rest, known), chain: viewChain(chain, role, active) };
}

/**
 * Each step's view, made once per role and lens: recorded steps never change (a changed step is a
 * new object), so a chain queried a thousand times is redacted once. Only a cache: same output.
 */
const viewedSteps = new WeakMap<ReasoningStep, Map<string, Partial<Record<VisibilityLevel, ReasoningStep>>>>();

/**
 * The cache key of a view: the role, the lens (length-prefixed, so no lens and a lens never share
 * a key) and the known sensitive values, as they grow with the chain.
 */
function cacheKey(role: ViewerRole, lens: ViewLens | undefined, known: readonly string[]): string {
  const lensPart = lens ? `L${lensKey(lens).length}:${lensKey(lens)}` : 'N';
  return `${role}\u0000${lensPart}\u0000${known.join('\u0000')}`;
}

/**
 * `known`: the sensitive values to redact in free text; `key` from `cacheKey`, made once per view
 * (the same string for every step, so looking it up does not hash it again); views at each level
 * are kept under it, as a lens can show the same step at another level.
 */
function stepView(
  step: ReasoningStep,
  role: ViewerRole,
  level: VisibilityLevel,
  facts: Map<string, CallFacts>,
  known: readonly string[],
  key: string,
  lens: ViewLens | undefined,
): ReasoningStep {
  const memo = viewedSteps.get(step) ?? new Map<string, Partial<Record<VisibilityLevel, ReasoningStep>>>();
  const byLevel = memo.get(key);
  const cached = byLevel?.[level];
  if (cached) return cached;
  const viewed = redactSecrets(shapeStep(step, role, level, facts, lens), known);
  if (byLevel) byLevel[level] = viewed;
  else {
    // Only the latest key per role is kept: an older set of values is never asked for again.
    for (const k of memo.keys()) if (k.startsWith(`${role}\u0000`)) memo.delete(k);
    memo.set(key, { [level]: viewed });
  }
  viewedSteps.set(step, memo);
  return viewed;
}

/**
 * The role a query names: none (undefined or null) means `developer`, as for the `chain` query;
 * anything else must be a role's name. Never throws anything but an Error with the valid roles,
 * so a query with a payload it cannot read fails that query only.
 */
export function queryRole(value: unknown): ViewerRole {
  if (value === undefined || value === null) return 'developer';
  if (typeof value !== 'string')
    throw new Error(`A viewer role must be a string. Valid roles: ${ViewerRole.options.join(', ')}.`);
  return parseViewerRole(value);
}

/** Parses a role name from a query, the CLI or an export request. */
export function parseViewerRole(text: string): ViewerRole {
  const parsed = ViewerRole.safeParse(text.trim());
  if (parsed.success) return parsed.data;
  throw new Error(`Unknown viewer role "${text}". Valid roles: ${ViewerRole.options.join(', ')}.`);
}

/**
 * The views of a chain that arrives one step at a time (the event stream): `add` each raw step
 * and approval record as it is recorded, in order, hidden ones included; `step` then gives what
 * `viewChain` of the chain so far shows for that step, from facts kept incrementally instead of
 * re-reading the whole chain per step. A step viewed after later steps were added is redacted
 * with their sensitive values too, as a `chain` query made then would show it. Pure.
 */
export class IncrementalChainView {
  private readonly facts = new Map<string, CallFacts>();
  private readonly values = new Set<string>();
  private known: string[] | undefined = [];
  /** Values at a tenant's masked fields seen so far, by the lens's `sensitiveFields` (as JSON). */
  private readonly tenantValues = new Map<string, Set<string>>();

  /** What the views need to remember of the steps added so far, as plain JSON (the chain store keeps it per run). */
  toFacts(): ViewFacts {
    const calls: ViewFacts['calls'] = {};
    for (const [id, fact] of this.facts) calls[id] = { ...fact, sensitiveFields: [...fact.sensitiveFields] };
    return { calls, values: this.sortedValues() };
  }

  /** A view that has seen what `facts` records, as if each step had been added again. */
  static fromFacts(facts: ViewFacts): IncrementalChainView {
    const view = new IncrementalChainView();
    for (const [id, fact] of Object.entries(facts.calls)) view.facts.set(id, fact);
    view.remember(facts.values);
    return view;
  }

  /**
   * One page of a chain in `role`'s view, equal to `chainPage(viewChain(chain, role), page)` when
   * this view has seen every step and approval record of the chain: `head` is the chain without
   * its steps, `steps` the page's raw steps, `hiddenSteps` how many of the whole chain's steps
   * only the auditor sees. With a lens, `view.hiddenSteps` also counts the page's steps the lens
   * leaves out (the page cannot count the rest of the chain's).
   */
  page(
    head: Omit<ReasoningChain, 'steps'>,
    steps: readonly ReasoningStep[],
    role: ViewerRole,
    hiddenSteps: number,
    lens?: ViewLens,
  ): ReasoningChain {
    const active = isEmptyLens(lens) ? undefined : lens;
    // The page's tenant values first, so a step early in the page is masked with a later one's.
    if (active && role !== 'auditor') for (const step of steps) this.rememberTenant(step, active);
    const shown: ReasoningStep[] = [];
    let byLens = 0;
    let narrowed = 0;
    for (const step of steps) {
      const { level, narrowed: capped } = levelIn(step, role, this.facts, active);
      if (capped) narrowed += 1;
      if (capped && level === 'hidden') byLens += 1;
      const viewed = this.step(step, role, active);
      if (viewed) shown.push(viewed);
    }
    const view = viewRecord(head.view, role, (role === 'auditor' ? 0 : hiddenSteps) + byLens, narrowed);
    if (role === 'auditor' && !active) return { ...redactSecrets({ ...head, view }, []), steps: shown };
    const approvals = head.approvals?.map((record) => approvalView(record, this.facts, role, active));
    const known = role === 'auditor' ? [] : this.knownFor(active);
    return {
      ...redactSecrets(withSubAgents({ ...head, ...(approvals ? { approvals } : {}), view }, active, role), known),
      steps: shown,
    };
  }

  add(step: ReasoningStep): void {
    if (step.type === 'tool_call') {
      const fact = factOf(step);
      this.facts.set(step.toolCall.correlationId, fact);
      this.remember(valuesAt(step.toolCall.arguments, fact.sensitiveFields));
    }
    if (step.type === 'tool_result')
      this.remember(
        valuesAt(step.toolResult.result, this.facts.get(step.toolResult.correlationId)?.sensitiveFields ?? []),
      );
  }

  addApproval(record: ApprovalRecord): void {
    this.remember(valuesAt(record.arguments, fieldsOfRecord(record, this.facts)));
  }

  /**
   * The step in `role`'s view, or undefined when that view (or the lens) leaves it out. A tenant's
   * masked values are learnt as steps are viewed: free text is masked with those of steps viewed
   * before it (in order, as a stream or a page views them).
   */
  step(step: ReasoningStep, role: ViewerRole, lens?: ViewLens): ReasoningStep | undefined {
    const active = isEmptyLens(lens) ? undefined : lens;
    if (role === 'auditor' && !active)
      return stepView(step, role, 'full', new Map(), [], cacheKey(role, undefined, []), undefined);
    // Learnt from every step, hidden ones too: a later thought may repeat a hidden result's value.
    if (active && role !== 'auditor') this.rememberTenant(step, active);
    const { level } = levelIn(step, role, this.facts, active);
    if (level === 'hidden') return undefined;
    if (role === 'auditor') return stepView(step, role, level, this.facts, [], cacheKey(role, active, []), active);
    const known = this.knownFor(active);
    return stepView(step, role, level, this.facts, known, cacheKey(role, active, known), active);
  }

  /** An approval record as `viewStatus` shows it in `role`'s pending approvals. */
  approval(record: ApprovalRecord, role: ViewerRole, lens?: ViewLens): ApprovalRecord {
    const active = isEmptyLens(lens) ? undefined : lens;
    if (role === 'auditor' && !active) return redactSecrets(record);
    const known =
      role === 'auditor'
        ? []
        : [...new Set(valuesAt(record.arguments, fieldsOfRecord(record, this.facts, active)))].sort();
    return redactSecrets(approvalView(record, this.facts, role, active), known);
  }

  /** Any other record of the run (a sub-agent's entry): secret-shaped text and, below the auditor, sensitive values redacted. */
  redact<T>(value: T, role: ViewerRole): T {
    return redactSecrets(value, role === 'auditor' ? [] : this.sortedValues());
  }

  /** Remembers the values `step` holds at the lens's tenant fields. */
  private rememberTenant(step: ReasoningStep, lens: ViewLens): void {
    if (Object.keys(lens.sensitiveFields).length === 0) return;
    const key = lensKey({ ...lens, steps: {}, tools: {}, toolTypes: {}, decidedBy: {} });
    const seen = this.tenantValues.get(key) ?? new Set<string>();
    for (const v of stepSensitiveValues(step, this.facts, lens)) seen.add(v);
    this.tenantValues.set(key, seen);
  }

  /**
   * The sensitive values `role`'s view under `lens` masks in free text now (none in the auditor's):
   * a reader of live text holds back what may be the start of one. Reads only.
   */
  sensitiveValuesFor(role: ViewerRole, lens?: ViewLens): readonly string[] {
    return role === 'auditor' ? [] : this.knownFor(isEmptyLens(lens) ? undefined : lens);
  }

  /** The sensitive values to mask in free text: the calls' own, and the lens's tenant ones seen so far. */
  private knownFor(lens: ViewLens | undefined): string[] {
    const own = this.sortedValues();
    if (!lens || Object.keys(lens.sensitiveFields).length === 0) return own;
    const key = lensKey({ ...lens, steps: {}, tools: {}, toolTypes: {}, decidedBy: {} });
    const tenant = this.tenantValues.get(key);
    return tenant && tenant.size > 0 ? [...new Set([...own, ...tenant])].sort() : own;
  }

  private remember(found: readonly string[]): void {
    for (const v of found) {
      if (this.values.has(v)) continue;
      this.values.add(v);
      this.known = undefined;
    }
  }

  private sortedValues(): string[] {
    this.known ??= [...this.values].sort();
    return this.known;
  }
}
