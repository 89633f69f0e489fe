import { describe, expect, it } from 'vitest';
import { LiveText, type TextDelta } from '../../src/server/events/live-text';
import type { LiveModelCall } from '../../src/server/policy/live-text-in-lens';
import type { ReasoningStep } from '../../src/domain';
import { IncrementalChainView } from '../../src/domain/chain/chain-view';
import { resolveViewLens, VisibilityPolicy } from '../../src/domain/visibility';

const ADDRESS = '12 Wombat Lane, Ledgerton';
const CALL: LiveModelCall = { correlationId: 'm1', model: 'scripted-model', level: 'full' };

/** A view that has seen a tool result whose `address` field is sensitive. */
function viewerWithSensitiveAddress(): IncrementalChainView {
  const viewer = new IncrementalChainView();
  const base = { stepId: 's', timestamp: new Date(0).toISOString(), iteration: 1, visibility: { level: 'full' } };
  const steps: ReasoningStep[] = [
    {
      ...base,
      stepNumber: 1,
      type: 'tool_call',
      toolCall: {
        toolType: 'external',
        toolName: 'find_home',
        arguments: {},
        correlationId: 't1',
        sensitiveFields: ['address'],
      },
    },
    {
      ...base,
      stepNumber: 2,
      type: 'tool_result',
      toolResult: { correlationId: 't1', success: true, result: { address: ADDRESS }, durationMs: 1 },
    },
  ] as ReasoningStep[];
  for (const step of steps) viewer.add(step);
  return viewer;
}

/** Feeds `pieces` as one reply's deltas; what the watcher sends, as text. */
function stream(live: LiveText, pieces: string[], activityId = '5'): TextDelta[] {
  const out: TextDelta[] = [];
  let offset = 0;
  for (const text of pieces) {
    out.push(
      ...live.take({
        type: 'text_delta',
        runId: 'r',
        chainStatus: 'thinking',
        stepNumber: 2,
        activityId,
        attempt: 1,
        kind: 'text',
        offset,
        text,
      }),
    );
    offset += text.length;
  }
  return out;
}
const joined = (deltas: readonly TextDelta[]): string => deltas.map((d) => d.text).join('');

describe('LiveText: model text in one watcher’s view', () => {
  it('never sends a known value in parts, even one with spaces split over many deltas; the rest streams by word', () => {
    const live = new LiveText(viewerWithSensitiveAddress(), 'developer', undefined, () => CALL);
    const sent = stream(live, ['She lives at 12 ', 'Wombat ', 'Lane, Led', 'gerton and ', 'pays']);
    expect(sent.map((d) => d.text)).toEqual(['She lives at ', '[REDACTED] and ']);
    // The reply's end sends the word held back.
    expect(joined(live.flush())).toBe('pays');
    expect(live.flush()).toEqual([]);
  });

  it('a secret-shaped word goes out redacted whole; a repeat is skipped; a gap stops the reply', () => {
    const live = new LiveText(new IncrementalChainView(), 'auditor', undefined, () => CALL);
    const key = 'sk-ant-api03-abcdefghijklmnop';
    const sent = stream(live, ['Use ', key.slice(0, 10), key.slice(10), ' now. ']);
    expect(joined(sent)).toBe('Use [REDACTED] now. ');
    expect(sent.map((d) => d.offset)).toEqual([0, 4]);
    const delta = { ...sent[0]!, activityId: '5', offset: 0, text: 'Use ' };
    expect(live.take(delta)).toEqual([]);
    expect(live.take({ ...delta, offset: 500, text: 'later words ' })).toEqual([]);
    expect(live.flush()).toEqual([]);
  });

  it('sends nothing when a step it becomes is not shown whole: thinking hidden, an end user, no model call known', () => {
    const policy = VisibilityPolicy.parse({ version: 1, security: { steps: { thinking: 'summary' } } });
    const hiding = resolveViewLens(policy, { view: 'developer' });
    const cases = [
      new LiveText(new IncrementalChainView(), 'developer', hiding, () => CALL),
      new LiveText(new IncrementalChainView(), 'end_user', undefined, () => CALL),
      new LiveText(new IncrementalChainView(), 'developer', undefined, () => undefined),
      new LiveText(new IncrementalChainView(), 'developer', undefined, () => ({ ...CALL, level: 'hidden' })),
    ];
    for (const live of cases) {
      expect(stream(live, ['some words ', 'more'])).toEqual([]);
      expect(live.flush()).toEqual([]);
    }
    const shown = new LiveText(new IncrementalChainView(), 'developer', undefined, () => CALL);
    expect(joined([...stream(shown, ['some words ', 'more']), ...shown.flush()])).toBe('some words more');
  });
});
