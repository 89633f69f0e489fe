// A run read as a trace: its steps by iteration, each model call paired with its reply, and the
// bars of an iteration's waterfall. Pure, no DOM (viewer-pure tests it under Node).

/** The iteration a step belongs to; 0 for steps recorded before the first one. */
export function iterationOf(step) {
  return Number.isInteger(step?.iteration) && step.iteration > 0 ? step.iteration : 0;
}

/**
 * The model call a step belongs to (its correlation id), or undefined: the call itself, or its
 * reply. `toolTypes` maps correlation ids to the type of the call held; a reply whose call is on
 * a page not yet loaded is known by the model that answered it.
 */
export function modelCallOf(step, toolTypes) {
  if (step?.type === 'tool_call')
    return step.toolCall?.toolType === 'llm' ? String(step.toolCall.correlationId) : undefined;
  if (step?.type !== 'tool_result') return undefined;
  const id = String(step.toolResult?.correlationId);
  const type = toolTypes.get(id);
  if (type === 'llm') return id;
  return type === undefined && typeof step.model === 'string' && typeof step.toolResult?.result !== 'string'
    ? id
    : undefined;
}

/** Correlation id → tool type of every call in `steps`. */
export function toolTypesOf(steps) {
  const types = new Map();
  for (const step of steps)
    if (step.type === 'tool_call') types.set(String(step.toolCall?.correlationId), step.toolCall?.toolType);
  return types;
}

const add = (a, b) => (typeof b === 'number' && Number.isFinite(b) ? (a ?? 0) + b : a);

/** Tokens of a set of usages, each figure summed; undefined when none carried usage. */
export function sumUsage(usages) {
  let total;
  for (const usage of usages) {
    if (!usage || typeof usage !== 'object') continue;
    total ??= {};
    for (const key of ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'])
      total[key] = add(total[key], usage[key]) ?? total[key];
  }
  return total;
}

/**
 * One model call's fold: the model asked, the one that answered (undefined until the reply
 * lands), its tokens, cost and latency (the provider's time, `durationMs` of the reply), and
 * whether it failed.
 */
export function modelCallFacts(call, reply) {
  const asked = call?.toolCall?.toolName ?? call?.model;
  return {
    asked: typeof asked === 'string' ? asked : undefined,
    answeredBy: typeof reply?.model === 'string' ? reply.model : undefined,
    usage: reply?.usage,
    costUsd: typeof reply?.costUsd === 'number' ? reply.costUsd : undefined,
    latencyMs: typeof reply?.toolResult?.durationMs === 'number' ? reply.toolResult.durationMs : undefined,
    failed: reply?.toolResult?.success === false,
    open: !reply,
  };
}

/**
 * What an iteration's header says: the models that answered, tokens and cost summed over its
 * steps, how long it took (first step to last), its tool calls, and whether any call failed.
 */
export function iterationFacts(steps) {
  const models = [];
  let costUsd;
  let failed = false;
  const tools = [];
  for (const step of steps) {
    costUsd = add(costUsd, step.costUsd);
    if (step.type === 'tool_result' && step.toolResult?.success === false) failed = true;
    if (step.type === 'tool_result' && typeof step.model === 'string' && !models.includes(step.model))
      models.push(step.model);
    if (step.type === 'tool_call' && step.toolCall?.toolType !== 'llm' && typeof step.toolCall?.toolName === 'string')
      tools.push(step.toolCall.toolName);
  }
  const times = steps.map((s) => Date.parse(s.timestamp)).filter(Number.isFinite);
  return {
    models,
    usage: sumUsage(steps.map((s) => s.usage)),
    costUsd,
    durationMs: times.length ? Math.max(...times) - Math.min(...times) : undefined,
    tools,
    failed,
  };
}

/** Most bars one iteration's waterfall draws; the rest are counted. */
export const MAX_ITERATION_BARS = 40;

/**
 * The bars of one iteration's waterfall, in ms from its first step: each call from its call step
 * to its result (from the result's `durationMs` before it when the call waited first, as the
 * run's timeline does), each wait for a person's approval from its request to its decision, and a
 * call still open to the iteration's last moment. `approvals` are the run's records; those of
 * this iteration's calls are drawn. `now` (ms) ends open bars of a running iteration.
 */
export function iterationBars(steps, approvals = [], now) {
  const times = steps.map((s) => Date.parse(s.timestamp)).filter(Number.isFinite);
  if (times.length === 0) return { spanMs: 0, bars: [], omitted: 0 };
  const origin = Math.min(...times);
  const at = (iso) => {
    const ms = Date.parse(iso);
    return Number.isFinite(ms) ? Math.max(0, ms - origin) : undefined;
  };
  const results = new Map();
  for (const step of steps) if (step.type === 'tool_result') results.set(String(step.toolResult?.correlationId), step);
  const ids = new Set(steps.map((s) => s.stepId));
  const bars = [];
  for (const step of steps) {
    if (step.type !== 'tool_call') continue;
    const { toolType, toolName, correlationId, delegatedTo } = step.toolCall ?? {};
    const kind = toolType === 'llm' ? 'model' : toolType === 'sub_agent' ? 'sub_agent' : 'tool';
    const calledMs = at(step.timestamp) ?? 0;
    const result = results.get(String(correlationId));
    const endMs = result ? Math.max(calledMs, at(result.timestamp) ?? calledMs) : undefined;
    const ran = result?.toolResult?.durationMs;
    bars.push({
      kind,
      label:
        kind === 'model'
          ? (result?.model ?? toolName)
          : kind === 'sub_agent'
            ? (delegatedTo?.agentName ?? toolName)
            : toolName,
      stepNumber: step.stepNumber,
      startMs:
        endMs !== undefined && typeof ran === 'number' ? Math.min(endMs, Math.max(calledMs, endMs - ran)) : calledMs,
      endMs,
      failed: result?.toolResult?.success === false,
    });
  }
  for (const record of approvals) {
    const call = steps.find((s) => s.stepId === record?.stepId);
    if (!ids.has(record?.stepId) || !call) continue;
    const startMs = at(record.requestedAt) ?? at(call.timestamp) ?? 0;
    const decided = record.decidedAt === undefined ? undefined : at(record.decidedAt);
    bars.push({
      kind: 'approval',
      label: `approve ${record.toolName ?? ''}`.trim(),
      stepNumber: call.stepNumber,
      startMs,
      endMs: decided === undefined ? undefined : Math.max(startMs, decided),
      failed: record.status === 'rejected',
    });
  }
  bars.sort((a, b) => a.startMs - b.startMs || a.stepNumber - b.stepNumber);
  const lastMs = Math.max(...times) - origin;
  const openEnd = typeof now === 'number' && Number.isFinite(now) ? Math.max(lastMs, now - origin) : lastMs;
  const kept = bars.slice(0, MAX_ITERATION_BARS).map((bar) => ({
    ...bar,
    open: bar.endMs === undefined,
    endMs: bar.endMs ?? openEnd,
  }));
  const spanMs = Math.max(lastMs, ...kept.map((b) => b.endMs));
  return { spanMs, bars: kept, omitted: bars.length - kept.length };
}

/**
 * The answer's text cut at its checked claims (src/domain/chain/claim-support.ts): plain text and
 * claims in order, each claim with how it stands (`ok`, `given`, or at fault: `unsupported`,
 * `contradicted`, `unchecked`). A claim whose text is not where it says (a view that rewrote the
 * answer) or that overlaps the one before is left unmarked.
 */
export function answerSegments(conclusion, claims) {
  const text = typeof conclusion === 'string' ? conclusion : '';
  const placed = (Array.isArray(claims) ? claims : [])
    .filter((c) => Number.isInteger(c?.at) && typeof c.text === 'string' && c.text.length > 0)
    .filter((c) => text.slice(c.at, c.at + c.text.length) === c.text)
    .sort((a, b) => a.at - b.at);
  const segments = [];
  let cursor = 0;
  for (const claim of placed) {
    if (claim.at < cursor) continue;
    if (claim.at > cursor) segments.push({ text: text.slice(cursor, claim.at) });
    segments.push({ text: claim.text, claim, standing: claimStanding(claim) });
    cursor = claim.at + claim.text.length;
  }
  if (cursor < text.length) segments.push({ text: text.slice(cursor) });
  return segments;
}

/** How one checked claim stands: supported, given by the task or a person, or at fault (and how). */
export function claimStanding(claim) {
  if (typeof claim?.supportedBy === 'string') return 'ok';
  if (typeof claim?.contradictedBy === 'string') return 'contradicted';
  if (typeof claim?.given === 'string') return 'given';
  if (claim?.unchecked === true) return 'unchecked';
  return 'unsupported';
}
