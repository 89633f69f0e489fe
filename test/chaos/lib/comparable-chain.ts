import type { ReasoningChain, ReasoningStep } from '../../../src/domain';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A chain reduced to what must not change when workers die: each step's type, thought, tool
 * names, arguments, results, usage and visibility. Left out: step ids, timestamps, durations and
 * attempt counts (a killed worker's call runs again), which differ between any two runs; the ids
 * the workflow makes up (model calls' correlation ids, a synthesis' sources) become `id#n` in
 * order of first use. The results of one turn's concurrent calls land in the order they finish,
 * so each such block of results is put in correlation-id order (tool_use ids are scripted).
 */
export function comparableChain(chain: ReasoningChain): unknown[] {
  const aliases = new Map<string, string>();
  const alias = (_key: string, value: unknown): unknown => {
    if (typeof value !== 'string' || !UUID.test(value)) return value;
    if (!aliases.has(value)) aliases.set(value, `id#${aliases.size + 1}`);
    return aliases.get(value);
  };
  const steps = chain.steps.map((s) => JSON.parse(JSON.stringify(comparableStep(s), alias)) as Record<string, unknown>);
  const out: Array<Record<string, unknown>> = [];
  for (let i = 0; i < steps.length;) {
    let end = i;
    while (end < steps.length && steps[end]!['type'] === 'tool_result') end++;
    if (end - i > 1) {
      out.push(...steps.slice(i, end).sort((a, b) => correlationOf(a).localeCompare(correlationOf(b))));
      i = end;
    } else {
      out.push(steps[i]!);
      i++;
    }
  }
  return out;
}

function comparableStep(step: ReasoningStep): Record<string, unknown> {
  const { stepId: _id, timestamp: _at, stepNumber: _n, ...rest } = step;
  switch (rest.type) {
    case 'tool_result': {
      const { durationMs: _ms, attempts: _attempts, cachedFrom, ...result } = rest.toolResult;
      return { ...rest, toolResult: { ...result, cached: cachedFrom !== undefined } };
    }
    default:
      return rest;
  }
}

const correlationOf = (step: Record<string, unknown>): string =>
  String((step['toolResult'] as { correlationId?: unknown } | undefined)?.correlationId);
