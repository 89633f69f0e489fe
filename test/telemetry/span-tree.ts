import { expect } from 'vitest';
import type { ReceivedSpan } from './otlp-receiver';

/** A run's spans as the receiver got them: find one by name and attribute, walk up to the root. */
export function spanTree(spans: readonly ReceivedSpan[]) {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const ancestors = (span: ReceivedSpan): ReceivedSpan[] => {
    const out: ReceivedSpan[] = [];
    for (
      let at = span.parentSpanId && byId.get(span.parentSpanId);
      at;
      at = at.parentSpanId && byId.get(at.parentSpanId)
    )
      out.push(at);
    return out;
  };
  return {
    ancestors,
    /** Names from the span's parent up to its root. */
    path: (span: ReceivedSpan): string[] => ancestors(span).map((s) => s.name),
    all: (name: string, attributes: Record<string, unknown> = {}) =>
      spans.filter((s) => s.name === name && Object.entries(attributes).every(([k, v]) => s.attributes[k] === v)),
    /** The one span of that name and attributes; fails when there are none or several (a duplicate). */
    one(name: string, attributes: Record<string, unknown> = {}): ReceivedSpan {
      const found = this.all(name, attributes);
      expect(found, `exactly one span ${name} ${JSON.stringify(attributes)}`).toHaveLength(1);
      return found[0]!;
    },
    /** Every span of the trace, for checks over all of them. */
    inTrace: (traceId: string) => spans.filter((s) => s.traceId === traceId),
  };
}

/** Every span id seen at most once: what a replay that exported again would break. */
export function duplicateSpanIds(spans: readonly ReceivedSpan[]): string[] {
  const seen = new Set<string>();
  const twice: string[] = [];
  for (const s of spans) {
    if (seen.has(s.spanId)) twice.push(`${s.name} ${s.spanId}`);
    seen.add(s.spanId);
  }
  return twice;
}
