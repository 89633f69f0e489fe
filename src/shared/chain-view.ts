import type { ApprovalRecord } from './approval/approval';
import type { ReasoningChain, ReasoningStep } from './chain';
import { ViewerRole } from './people';
import { redactSecrets } from './secret-patterns';
import { redactFields } from './sensitive-fields';

/** What an end user sees of a failed step shown at summary level. */
const GENERIC_FAILURE = 'The step failed.';
/** An end user's thought line for a summary-level thinking step with no summary. */
const WORKING = '(working)';

/** Per correlation id: the call's sensitive fields, and its model when it is a model call. */
interface CallFacts {
  sensitiveFields: readonly string[];
  model?: string;
}

function callFacts(steps: readonly ReasoningStep[]): Map<string, CallFacts> {
  const facts = new Map<string, CallFacts>();
  // Every step, hidden ones included: a hidden call's visible result still hides its fields.
  for (const step of steps) {
    if (step.type !== 'tool_call') continue;
    const { correlationId, sensitiveFields = [], toolType, toolName } = step.toolCall;
    facts.set(correlationId, { sensitiveFields, ...(toolType === 'llm' ? { model: step.model ?? toolName } : {}) });
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
  if (step.type === 'tool_call') return step.toolCall.toolType === 'llm' ? (step.model ?? step.toolCall.toolName) : undefined;
  if (step.type === 'tool_result') return step.model ?? facts.get(step.toolResult.correlationId)?.model;
  return undefined;
}

/**
 * An end user's version of a step: summary-level steps, and model calls at any level, show only
 * their summary. Full thinking, tool and synthesis steps stay as they are.
 */
function forEndUser(step: ReasoningStep, facts: Map<string, CallFacts>): ReasoningStep {
  if (step.type === 'synthesis') return step;
  const model = modelOf(step, facts);
  if (step.visibility.level !== 'summary' && model === undefined) return step;
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

function approvalView(record: ApprovalRecord, facts: Map<string, CallFacts>): ApprovalRecord {
  const fields = facts.get(record.callId)?.sensitiveFields ?? [];
  return { ...record, arguments: redactFields(record.arguments, fields) };
}

/**
 * A copy of the chain for one role; the input is never changed. Pure and sandbox-safe, so the
 * `chain` query can call it. Every role, the auditor included, gets secret-shaped text redacted.
 * - auditor: every step, hidden ones included, in full; sensitive fields shown.
 * - developer: hidden steps left out; the rest in full with sensitive fields redacted.
 * - end_user: as developer, but summary-level steps and model calls show only their summary.
 * Steps keep their original `stepNumber`: the gaps honestly show that steps were left out.
 */
export function viewChain(chain: ReasoningChain, role: ViewerRole): ReasoningChain {
  const priorHidden = chain.view?.hiddenSteps ?? 0;
  const facts = role === 'auditor' ? new Map<string, CallFacts>() : callFacts(chain.steps);
  const shown = role === 'auditor' ? chain.steps : chain.steps.filter((step) => step.visibility.level !== 'hidden');
  const steps = shown.map((step) => stepView(step, role, facts));
  const approvals = role === 'auditor' ? chain.approvals : chain.approvals?.map((record) => approvalView(record, facts));
  // A view of a view counts the steps both left out.
  const view = { role, hiddenSteps: priorHidden + chain.steps.length - shown.length };
  const { steps: _steps, ...head } = chain;
  return { ...redactSecrets({ ...head, ...(approvals ? { approvals } : {}), view }), steps };
}

/**
 * Each step's view, made once per role: recorded steps never change (a changed step is a new
 * object), so a chain queried a thousand times is redacted once. Only a cache: same output.
 */
const viewedSteps = new WeakMap<ReasoningStep, Partial<Record<ViewerRole, ReasoningStep>>>();

function stepView(step: ReasoningStep, role: ViewerRole, facts: Map<string, CallFacts>): ReasoningStep {
  const memo = viewedSteps.get(step) ?? {};
  const known = memo[role];
  if (known) return known;
  const shaped = role === 'auditor' ? step : role === 'end_user' ? forEndUser(withoutSensitiveFields(step, facts), facts) : withoutSensitiveFields(step, facts);
  const viewed = redactSecrets(shaped);
  memo[role] = viewed;
  viewedSteps.set(step, memo);
  return viewed;
}

/** Parses a role name from a query, the CLI or an export request. */
export function parseViewerRole(text: string): ViewerRole {
  const parsed = ViewerRole.safeParse(text.trim());
  if (parsed.success) return parsed.data;
  throw new Error(`Unknown viewer role "${text}". Valid roles: ${ViewerRole.options.join(', ')}.`);
}
