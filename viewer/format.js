// Pure formatting of what the API returns, for people. No DOM here, so node tests can run it.

/** "$0.04"; small amounts keep enough digits to not read as zero. Undefined stays undefined. */
export function formatUsd(usd) {
  if (typeof usd !== 'number' || !Number.isFinite(usd)) return undefined;
  if (usd === 0) return '$0.00';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

/** "1,234 in · 56 out" (plus cache figures when there are any); undefined without usage. */
export function formatTokens(usage) {
  if (!usage || typeof usage !== 'object') return undefined;
  const n = (v) => (typeof v === 'number' ? v.toLocaleString('en-US') : '0');
  const parts = [`${n(usage.inputTokens)} in`, `${n(usage.outputTokens)} out`];
  if (usage.cacheReadTokens) parts.push(`${n(usage.cacheReadTokens)} cache read`);
  if (usage.cacheWriteTokens) parts.push(`${n(usage.cacheWriteTokens)} cache write`);
  return parts.join(' · ');
}

/** "850 ms", "2.4 s", "3 min 5 s". */
export function formatDuration(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return undefined;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** "15:04:09" in the person's time zone, or the raw text when it is not a date. */
export function formatTime(iso) {
  if (typeof iso !== 'string') return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleTimeString('en-GB', { hour12: false });
}

/** "22 Nov 15:04" for a list of runs. */
export function formatDateTime(iso) {
  if (typeof iso !== 'string') return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' })} ${date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false })}`;
}

/**
 * The run's progress line: "step 7 · iteration 3/10 · $0.04". Reads the status record as the
 * API returns it; a part it lacks is left out, never guessed. `spend: false` (the end-user view,
 * whose steps carry no tokens or cost either) leaves the money out.
 */
export function progressLine(status, { spend = true } = {}) {
  if (!status || typeof status !== 'object') return '';
  const maxIterations = status.maxIterations ?? status.progress?.maxIterations;
  const parts = [];
  const steps = status.stepCount ?? status.steps;
  if (typeof steps === 'number') parts.push(`step ${steps}`);
  const iteration = status.iterations ?? status.iteration;
  if (typeof iteration === 'number')
    parts.push(
      typeof maxIterations === 'number' ? `iteration ${iteration}/${maxIterations}` : `iteration ${iteration}`,
    );
  const cost = spend ? formatUsd(status.costUsd) : undefined;
  if (cost) parts.push(cost);
  return parts.join(' · ');
}

const TOOL_LABEL = {
  llm: 'Model',
  external: 'Tool',
  skill: 'Skill',
  sub_agent: 'Sub-agent',
  database: 'Database',
  file_system: 'Files',
  custom: 'Tool',
  guardrail: 'Guardrail',
};

const VERDICT_WORD = { pass: 'passed', redact: 'redacted', block: 'blocked', ask: 'asked a person' };

/** "Guardrail · blocked by no-codes", "Guardrail · redacted by pii", "Guardrail · passed": a check point's verdict. */
export function guardrailTitle(result) {
  const verdict = result?.result?.verdict;
  const checks = Array.isArray(result?.result?.checks) ? result.result.checks : [];
  const decided = checks.find((c) => c?.verdict === verdict && typeof c?.decidedBy === 'string')?.decidedBy;
  const redactedBy = checks
    .flatMap((c) => (Array.isArray(c?.votes) ? c.votes : []))
    .find((v) => v?.verdict === 'redact' && typeof v?.guardrail === 'string')?.guardrail;
  const by = verdict === 'block' ? decided : verdict === 'redact' ? redactedBy : undefined;
  return `Guardrail · ${VERDICT_WORD[verdict] ?? 'checked'}${by ? ` by ${by}` : ''}`;
}

/**
 * "Next task · t2 (the model's choice)", or "(plan order)" (the rule for one ready task, a
 * workflow's steps, the offline model, and chains recorded before the model chose), with the
 * refused choice named when the model's pick could not start.
 */
export function taskChoiceTitle(choice) {
  if (!choice) return 'Next task';
  const by = choice.chosenBy === 'model' ? "the model's choice" : 'plan order';
  const refused = choice.refused ? `; the model's choice ${choice.refused.taskId} was refused` : '';
  return `Next task · ${choice.taskId} (${by}${refused})`;
}

/**
 * The heading of a step: "Thinking", "Tool call · search", "Result · search (failed)", a model call
 * by the model that answered it when another did ("Model call · offline-model (asked for
 * claude-sonnet-4-6)", from `answeredBy`: chain-state's answeringModels), and for the answer
 * "Final answer", "Partial answer (max_iterations)", "Answer contradicted by its sources", "Answer,
 * partly grounded", "Answer, not fully checked", "Answer, no tool result behind it", "Ungrounded
 * summary (stalled)" (answerLabel), or "Answer" in chains recorded before.
 */
export function stepTitle(step, toolNames = new Map(), answeredBy = new Map()) {
  switch (step?.type) {
    case 'thinking': {
      if (step.purpose === 'plan') return 'Plan';
      if (step.purpose === 'reflection') return 'Reflection';
      if (step.purpose === 'task_choice') return taskChoiceTitle(step.taskChoice);
      if (step.purpose === 'compaction') return 'Context compacted';
      if (step.purpose === 'branch_choice') return 'Branch chosen';
      if (step.fromPerson) return `From ${step.fromPerson.by} (${step.fromPerson.kind})`;
      return 'Thinking';
    }
    case 'tool_call': {
      const { toolType, toolName, correlationId } = step.toolCall ?? {};
      // The call step records the model asked; the reply says which answered (a fallback, the offline model).
      const by = toolType === 'llm' ? answeredBy.get(correlationId) : undefined;
      if (typeof by === 'string' && by !== toolName) return `Model call · ${by} (asked for ${toolName ?? '?'})`;
      return `${TOOL_LABEL[toolType] ?? 'Tool'} call · ${toolName ?? '?'}`;
    }
    case 'tool_result': {
      const result = step.toolResult ?? {};
      // A model's reply is titled by the model that answered, which may not be the one asked.
      if (step.model && typeof result.result !== 'string')
        return `Model reply · ${step.model}${result.success === false ? ' (failed)' : ''}`;
      const name = toolNames.get(result.correlationId);
      if (typeof name === 'string' && name.startsWith('guardrails:')) return guardrailTitle(result);
      const outcome = result.success === false ? ' (failed)' : result.cachedFrom ? ' (reused)' : '';
      return `Result${name ? ` · ${name}` : ''}${outcome}`;
    }
    case 'synthesis':
      return answerLabel(step.synthesis)?.title ?? 'Answer';
    default:
      return 'Step';
  }
}

/**
 * How an answer is named (src/domain/chain/answer-grounding.ts says the same for the CLI and the
 * exports): only a grounded success is "Final answer". Undefined for an answer recorded before
 * answers were judged (no `grounding`); the page then shows it as it always did.
 */
export function answerLabel(synthesis) {
  const reason = typeof synthesis?.terminationReason === 'string' ? synthesis.terminationReason : undefined;
  switch (synthesis?.grounding) {
    case 'grounded':
      return reason === undefined || reason === 'success'
        ? { kind: 'final', title: 'Final answer', badge: 'grounded' }
        : { kind: 'partial', title: `Partial answer (${reason})`, badge: 'partial' };
    case 'partly_grounded':
      return {
        kind: 'partly',
        title:
          reason === undefined || reason === 'success'
            ? 'Answer, partly grounded'
            : `Partial answer (${reason}), partly grounded`,
        badge: 'partly grounded',
      };
    case 'contradicted':
      return {
        kind: 'contradicted',
        title: `${reason === undefined || reason === 'success' ? 'Answer' : `Partial answer (${reason})`} contradicted by its sources`,
        badge: 'contradicted',
      };
    case 'unchecked':
      return {
        kind: 'unchecked',
        title: `${reason === undefined || reason === 'success' ? 'Answer' : `Partial answer (${reason})`}, not fully checked`,
        badge: 'not fully checked',
      };
    case 'unsupported':
      return { kind: 'unsupported', title: 'Answer, no tool result behind it', badge: 'no tool result' };
    case 'ungrounded':
      return {
        kind: 'ungrounded',
        title: `Ungrounded summary (${reason ?? 'not a success'})`,
        badge: 'ungrounded',
      };
    default:
      return undefined;
  }
}

/** "confidence 80%" from a number in 0..1; undefined otherwise. */
export function confidenceText(confidence) {
  if (typeof confidence !== 'number' || !Number.isFinite(confidence) || confidence < 0 || confidence > 1)
    return undefined;
  return `confidence ${Math.round(confidence * 100)}%`;
}

/** The facts line under a step: time, model, tokens, cost, duration (each only when present). */
export function stepFacts(step) {
  const facts = [];
  if (step?.timestamp) facts.push(formatTime(step.timestamp));
  if (step?.model) facts.push(step.model);
  const tokens = formatTokens(step?.usage);
  if (tokens) facts.push(tokens);
  const cost = formatUsd(step?.costUsd);
  if (cost) facts.push(cost);
  if (step?.type === 'tool_result') {
    const duration = formatDuration(step.toolResult?.durationMs);
    if (duration) facts.push(duration);
    if (step.toolResult?.attempts > 1) facts.push(`${step.toolResult.attempts} attempts`);
  }
  if (step?.parallel) facts.push(`parallel ${step.parallel.index}/${step.parallel.size}`);
  // Why the run chose this call's model (the plan task's complexity), when it did.
  if (step?.type === 'tool_call' && typeof step.toolCall?.routed === 'string')
    facts.push(`routed: ${step.toolCall.routed}`);
  const confidence = confidenceText(step?.type === 'synthesis' ? step.synthesis?.confidence : step?.confidence);
  if (confidence) facts.push(confidence);
  return facts;
}

const PLAN_MARK = { completed: '✓', in_progress: '▶', failed: '✗', blocked: '⏸', pending: '○' };

/** One checklist line of the plan: mark, description, the status word for screen readers, its key. */
export function planLine(task) {
  const key = Object.hasOwn(PLAN_MARK, task?.status ?? '') ? task.status : 'pending';
  return {
    mark: PLAN_MARK[key],
    text: String(task?.description ?? task?.id ?? ''),
    status: key.replace('_', ' '),
    key,
  };
}

/**
 * Whether `me` may decide `record`: it is pending, and its approverRoles are empty (anyone) or
 * share a role with the person. The server checks again; this only hides buttons that would 403.
 */
export function canDecide(me, record) {
  if (!record || record.status !== 'pending') return false;
  const roles = Array.isArray(record.approverRoles) ? record.approverRoles : [];
  if (roles.length === 0) return true;
  const mine = new Set(Array.isArray(me?.roles) ? me.roles : []);
  return roles.some((role) => mine.has(role));
}

/**
 * The line that says which first steps a chain lacks (its `unavailable`), or undefined when it
 * lacks none: the Temporal run that held them is past retention. The CLI and export say the same.
 */
export function goneStepsLine(unavailable) {
  const through = unavailable?.throughStep;
  if (!Number.isInteger(through) || through < 1) return undefined;
  return `Steps 1–${through} are no longer on the Temporal server: run ${String(unavailable.runId ?? '')}, which held them, is past the namespace's retention or deleted.`;
}

/**
 * The badge of a run's state: its ending's label (the termination reason, or Temporal's word)
 * coloured by its tone once it ended (runEnding in src/domain/run/run-ending.ts), else its status.
 * A failure or error never reads as a green "completed". Reads a list item, a status record or
 * a search hit's run (`state` and `terminationReason`).
 */
export function endingBadge(run) {
  const ending = run?.ending;
  if (ending && typeof ending.label === 'string')
    return {
      text: ending.label,
      state: ending.state,
      className: `status tone-${ending.tone}`,
      title: ending.summary ?? ending.label,
    };
  const state = run?.status ?? run?.state ?? 'unknown';
  const reason = run?.terminationReason;
  if (typeof reason === 'string')
    return {
      text: reason,
      state,
      className: `status tone-${REASON_TONES[reason] ?? 'bad'}`,
      title: `${state}: ${reason}`,
    };
  return { text: state === 'unknown' ? '…' : state, state, className: `status status-${state}`, title: state };
}

/** The tone of each termination reason, as runEnding gives it (a search hit carries the reason, not the ending). */
const REASON_TONES = {
  success: 'ok',
  max_iterations: 'limit',
  stalled: 'limit',
  token_budget: 'limit',
  cost_budget: 'limit',
  timeout: 'limit',
  custom: 'limit',
  failure: 'bad',
  error: 'bad',
  cancelled: 'stopped',
};

/** Ended workflow statuses: no stream, no controls. */
export const ENDED = new Set(['completed', 'failed', 'cancelled', 'terminated', 'timed_out', 'continued']);

const REMOTE_LABELS = { thinking: 'Thought', tool_call: 'Action', tool_result: 'Observation', synthesis: 'Answer' };

/**
 * A remote A2A agent's chain as the parent linked it (src/domain/agents/remote-chain.ts, headed
 * as remoteChainHeading heads it): the heading, where the whole chain is, and its steps' lines.
 */
export function remoteChainText(agentName, chain) {
  const shown = chain.truncated
    ? `the first ${chain.steps.length} of ${chain.totalSteps} steps`
    : `${chain.totalSteps} step${chain.totalSteps === 1 ? '' : 's'}`;
  const heading = chain.refused
    ? `${agentName}’s chain (remote) was not linked: ${chain.refused}`
    : chain.withheld
      ? `${agentName}’s steps (remote, ${chain.totalSteps}) are not shown here: ${chain.withheld}`
      : `${agentName}’s steps (remote, ${chain.view ?? 'its'} view, ${shown})`;
  const lines = (chain.steps ?? []).map((s) => ({ label: REMOTE_LABELS[s.type] ?? s.type, text: s.text }));
  return { heading, url: chain.url, lines };
}

/** A child run's name: its agent, and which branch of an `explore_branches` call when it is one (domain/agents/branching.ts). */
export function subAgentTitle(sub) {
  const b = sub?.branch;
  if (!b || typeof b !== 'object') return String(sub?.agentName ?? '');
  return `${sub.agentName} · branch ${b.index} “${b.label}”${b.winner ? ' ★ chosen' : ''}`;
}

/**
 * What started a run when no person did directly (the status record's `origin`): "scheduled by
 * nightly", "triggered by webhook deploys, delivery d-1"; '' for a run its caller started.
 * The same words as the server's originText (src/domain/run/run-origin.ts).
 */
export function originText(origin) {
  if (!origin || typeof origin !== 'object') return '';
  if (origin.kind === 'schedule') return `scheduled by ${origin.schedule}`;
  if (origin.kind === 'trigger') return `triggered by webhook ${origin.trigger}, delivery ${origin.deliveryId}`;
  return '';
}

/** The live experiment and variant a run was given (the run's `experiment`): "experiment tone: warm"; '' for none. */
export function experimentText(experiment) {
  if (!experiment || typeof experiment !== 'object') return '';
  const { name, variant } = experiment;
  return typeof name === 'string' && typeof variant === 'string' ? `experiment ${name}: ${variant}` : '';
}
