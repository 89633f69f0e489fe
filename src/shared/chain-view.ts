import type { AgentResult, AgentStatus } from './agent-result';
import type { ApprovalRecord } from './approval/approval';
import type { ReasoningChain, ReasoningStep, VisibilityLevel } from './chain';
import { ViewerRole } from './people';
import { redactSecrets } from './secret-patterns';
import { redactFields } from './sensitive-fields';
import type { ViewLens } from './visibility/view-lens';

/** What `IncrementalChainView` remembers, as JSON: each call's facts by correlation id, and the sensitive values seen. */
export interface ViewFacts {
  calls: Record<string, { sensitiveFields: string[]; level: VisibilityLevel; model?: string }>;
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
}

function callFacts(steps: readonly ReasoningStep[]): Map<string, CallFacts> {
  const facts = new Map<string, CallFacts>();
  // Every step, hidden ones included: a hidden call's visible result still hides its fields.
  for (const step of steps) {
    if (step.type !== 'tool_call') continue;
    const { correlationId, sensitiveFields = [], toolType, toolName } = step.toolCall;
    facts.set(correlationId, {
      sensitiveFields,
      level: step.visibility.level,
      ...(toolType === 'llm' ? { model: step.model ?? toolName } : {}),
    });
  }
  return facts;
}

/** The step with its call's sensitive fields replaced, in the arguments or the result. */
function withoutSensitiveFields(step: ReasoningStep, facts: Map<string, CallFacts>): ReasoningStep {
  if (step.type === 'tool_call') {
    const fields = step.toolCall.sensitiveFields ?? [];
    return { ...step, toolCall: { ...step.toolCall, arguments: redactFields(step.toolCall.arguments, fields) } };
  }
  if (step.type === 'tool_result') {
    const fields = facts.get(step.toolResult.correlationId)?.sensitiveFields ?? [];
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

/**
 * An end user's version of a step: summary-level steps, and model calls at any level, show only
 * their summary, with no tokens or cost; a wait for approval says so without the operator's
 * command. Other full thinking, tool and synthesis steps stay as they are.
 */
function forEndUser(full: ReasoningStep, facts: Map<string, CallFacts>): ReasoningStep {
  if (full.type === 'synthesis') return full;
  const model = modelOf(full, facts);
  const approvalWait = full.type === 'thinking' ? APPROVAL_WAIT.exec(full.thought) : null;
  if (approvalWait && full.type === 'thinking')
    return { ...full, thought: `Waiting for a person to approve ${approvalWait[1]}.` };
  if (full.visibility.level !== 'summary' && model === undefined) return full;
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
  }
}

/** A record's sensitive fields: its own (set when it was requested), else its call step's. */
const fieldsOfRecord = (record: ApprovalRecord, facts: Map<string, CallFacts>): readonly string[] =>
  record.sensitiveFields ?? facts.get(record.callId)?.sensitiveFields ?? [];

/**
 * A record's arguments with its sensitive fields replaced; an end user, who sees a summary-level
 * or hidden call without its arguments in the chain, sees none here either.
 */
function approvalView(record: ApprovalRecord, facts: Map<string, CallFacts>, role: ViewerRole): ApprovalRecord {
  const level = facts.get(record.callId)?.level;
  if (role === 'end_user' && (level === 'summary' || level === 'hidden')) return { ...record, arguments: {} };
  return { ...record, arguments: redactFields(record.arguments, fieldsOfRecord(record, facts)) };
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
): string[] {
  const values = new Set<string>();
  for (const step of steps) {
    if (step.type === 'tool_call')
      for (const v of valuesAt(step.toolCall.arguments, step.toolCall.sensitiveFields ?? [])) values.add(v);
    if (step.type === 'tool_result') {
      for (const v of valuesAt(step.toolResult.result, facts.get(step.toolResult.correlationId)?.sensitiveFields ?? []))
        values.add(v);
    }
  }
  for (const record of approvals)
    for (const v of valuesAt(record.arguments, fieldsOfRecord(record, facts))) values.add(v);
  return [...values].sort();
}

/**
 * A copy of the chain for one role; the input is never changed. Pure and sandbox-safe, so the
 * `chain` query can call it. Every role, the auditor included, gets secret-shaped text redacted.
 * - auditor: every step, hidden ones included, in full; sensitive fields shown.
 * - developer: hidden steps left out; the rest in full with sensitive fields redacted, also
 *   where other text (a thought, a conclusion, the task) repeats a sensitive field's value.
 * - end_user: as developer, but summary-level steps and model calls show only their summary
 *   (no tokens, no cost), and a wait for approval leaves out the operator's command.
 * Steps keep their original `stepNumber`: the gaps honestly show that steps were left out.
 */
export function viewChain(chain: ReasoningChain, role: ViewerRole, lens?: ViewLens): ReasoningChain {
  void lens;
  const priorHidden = chain.view?.hiddenSteps ?? 0;
  const facts = role === 'auditor' ? new Map<string, CallFacts>() : callFacts(chain.steps);
  const known = role === 'auditor' ? [] : sensitiveValues(chain.steps, chain.approvals ?? [], facts);
  const shown = role === 'auditor' ? chain.steps : chain.steps.filter((step) => step.visibility.level !== 'hidden');
  const knownKey = `${role}\u0000${known.join('\u0000')}`;
  const steps = shown.map((step) => stepView(step, role, facts, known, knownKey));
  const approvals =
    role === 'auditor' ? chain.approvals : chain.approvals?.map((record) => approvalView(record, facts, role));
  // A view of a view counts the steps both left out.
  const view = { role, hiddenSteps: priorHidden + chain.steps.length - shown.length };
  const { steps: _steps, ...head } = chain;
  return { ...redactSecrets({ ...head, ...(approvals ? { approvals } : {}), view }, known), steps };
}

/**
 * The `status` record for one role, with the same redaction as the chain: every role gets
 * secret-shaped text redacted (pending calls' arguments, the question, what the run waits for);
 * roles other than the auditor also get each pending call's sensitive fields replaced, and their
 * values wherever else the record repeats them. `steps` (the run's chain) names the sensitive
 * fields of records made before records carried their own. Pure and sandbox-safe.
 */
export function viewStatus(
  status: AgentStatus,
  role: ViewerRole,
  steps: readonly ReasoningStep[] = [],
  lens?: ViewLens,
): AgentStatus {
  void lens;
  if (role === 'auditor') return redactSecrets(status);
  const needFacts =
    role === 'end_user' || status.pendingApprovals.some((record) => record.sensitiveFields === undefined);
  const facts = needFacts ? callFacts(steps) : new Map<string, CallFacts>();
  const known = sensitiveValues([], status.pendingApprovals, facts);
  const pendingApprovals = status.pendingApprovals.map((record) => approvalView(record, facts, role));
  return redactSecrets({ ...status, pendingApprovals }, known);
}

/**
 * A run's result for one role: its chain through `viewChain`, and every other field (the final
 * answer, the error, the plan) through the same redaction, so no part of a result is printed raw.
 */
export function viewResult(result: AgentResult, role: ViewerRole, lens?: ViewLens): AgentResult {
  void lens;
  const facts = role === 'auditor' ? new Map<string, CallFacts>() : callFacts(result.chain.steps);
  const known = role === 'auditor' ? [] : sensitiveValues(result.chain.steps, result.chain.approvals ?? [], facts);
  const { chain, ...rest } = result;
  return { ...redactSecrets(rest, known), chain: viewChain(chain, role) };
}

/**
 * Each step's view, made once per role: recorded steps never change (a changed step is a new
 * object), so a chain queried a thousand times is redacted once. Only a cache: same output.
 */
const viewedSteps = new WeakMap<ReasoningStep, Map<string, ReasoningStep>>();

/** `known`: the sensitive values to redact in free text; in the cache `key`, as it grows with the chain. */
function stepView(
  step: ReasoningStep,
  role: ViewerRole,
  facts: Map<string, CallFacts>,
  known: readonly string[],
  key: string,
): ReasoningStep {
  const memo = viewedSteps.get(step) ?? new Map<string, ReasoningStep>();
  const cached = memo.get(key);
  if (cached) return cached;
  const shaped =
    role === 'auditor'
      ? step
      : role === 'end_user'
        ? forEndUser(withoutSensitiveFields(step, facts), facts)
        : withoutSensitiveFields(step, facts);
  const viewed = redactSecrets(shaped, known);
  // Only the latest key per role is kept: an older set of values is never asked for again.
  for (const k of memo.keys()) if (k.startsWith(`${role}\u0000`)) memo.delete(k);
  memo.set(key, viewed);
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
   * only the auditor sees.
   */
  page(
    head: Omit<ReasoningChain, 'steps'>,
    steps: readonly ReasoningStep[],
    role: ViewerRole,
    hiddenSteps: number,
    lens?: ViewLens,
  ): ReasoningChain {
    void lens;
    const shown: ReasoningStep[] = [];
    for (const step of steps) {
      const viewed = this.step(step, role);
      if (viewed) shown.push(viewed);
    }
    const priorHidden = head.view?.hiddenSteps ?? 0;
    const view = { role, hiddenSteps: priorHidden + (role === 'auditor' ? 0 : hiddenSteps) };
    if (role === 'auditor') return { ...redactSecrets({ ...head, view }, []), steps: shown };
    const approvals = head.approvals?.map((record) => approvalView(record, this.facts, role));
    return {
      ...redactSecrets({ ...head, ...(approvals ? { approvals } : {}), view }, this.sortedValues()),
      steps: shown,
    };
  }

  add(step: ReasoningStep): void {
    if (step.type === 'tool_call') {
      const { correlationId, sensitiveFields = [], toolType, toolName } = step.toolCall;
      this.facts.set(correlationId, {
        sensitiveFields,
        level: step.visibility.level,
        ...(toolType === 'llm' ? { model: step.model ?? toolName } : {}),
      });
      this.remember(valuesAt(step.toolCall.arguments, sensitiveFields));
    }
    if (step.type === 'tool_result')
      this.remember(
        valuesAt(step.toolResult.result, this.facts.get(step.toolResult.correlationId)?.sensitiveFields ?? []),
      );
  }

  addApproval(record: ApprovalRecord): void {
    this.remember(valuesAt(record.arguments, fieldsOfRecord(record, this.facts)));
  }

  /** The step in `role`'s view, or undefined when that view leaves it out (hidden). */
  step(step: ReasoningStep, role: ViewerRole, lens?: ViewLens): ReasoningStep | undefined {
    void lens;
    if (role === 'auditor') return stepView(step, role, new Map(), [], `${role}\u0000`);
    if (step.visibility.level === 'hidden') return undefined;
    const known = this.sortedValues();
    return stepView(step, role, this.facts, known, `${role}\u0000${known.join('\u0000')}`);
  }

  /** An approval record as `viewStatus` shows it in `role`'s pending approvals. */
  approval(record: ApprovalRecord, role: ViewerRole): ApprovalRecord {
    if (role === 'auditor') return redactSecrets(record);
    const known = [...new Set(valuesAt(record.arguments, fieldsOfRecord(record, this.facts)))].sort();
    return redactSecrets(approvalView(record, this.facts, role), known);
  }

  /** Any other record of the run (a sub-agent's entry): secret-shaped text and, below the auditor, sensitive values redacted. */
  redact<T>(value: T, role: ViewerRole): T {
    return redactSecrets(value, role === 'auditor' ? [] : this.sortedValues());
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
