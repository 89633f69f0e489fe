import { describe, expect, it } from 'vitest';
import { answerLabel as sharedLabel } from '../../src/domain';
import { viewerModule } from './viewer-module';

interface Label {
  kind: string;
  title: string;
  badge: string;
}
interface FormatModule {
  stepTitle(step: unknown): string;
  stepFacts(step: unknown): string[];
  answerLabel(synthesis: unknown): Label | undefined;
  confidenceText(confidence: unknown): string | undefined;
}

const step = (n: number, body: Record<string, unknown>) => ({
  stepId: `s${n}`,
  stepNumber: n,
  timestamp: '2026-01-01T00:00:00.000Z',
  iteration: 1,
  visibility: { level: 'full' },
  ...body,
});
const answer = (synthesis: Record<string, unknown>) => step(9, { type: 'synthesis', synthesis });

const CASES = [
  [{ grounding: 'grounded', terminationReason: 'success' }, 'Final answer', 'grounded'],
  [{ grounding: 'grounded', terminationReason: 'max_iterations' }, 'Partial answer (max_iterations)', 'partial'],
  [{ grounding: 'partly_grounded', terminationReason: 'success' }, 'Answer, partly grounded', 'partly grounded'],
  [
    { grounding: 'partly_grounded', terminationReason: 'stalled' },
    'Partial answer (stalled), partly grounded',
    'partly grounded',
  ],
  [{ grounding: 'contradicted', terminationReason: 'success' }, 'Answer contradicted by its sources', 'contradicted'],
  [
    { grounding: 'contradicted', terminationReason: 'stalled' },
    'Partial answer (stalled) contradicted by its sources',
    'contradicted',
  ],
  [{ grounding: 'unchecked', terminationReason: 'success' }, 'Answer, not fully checked', 'not fully checked'],
  [{ grounding: 'unsupported', terminationReason: 'success' }, 'Answer, no tool result behind it', 'no tool result'],
  [{ grounding: 'ungrounded', terminationReason: 'stalled' }, 'Ungrounded summary (stalled)', 'ungrounded'],
] as const;

describe('the viewer names answers by what stands behind them', () => {
  it('titles only a grounded success "Final answer", with a badge on every judged answer', async () => {
    const f = await viewerModule<FormatModule>('format.js');
    for (const [judged, title, badge] of CASES) {
      expect(f.stepTitle(answer({ sources: [], conclusion: 'x', ...judged }))).toBe(title);
      expect(f.answerLabel(judged)?.badge).toBe(badge);
      // The same words as the CLI and the exports (src/domain/chain/answer-grounding.ts).
      expect(sharedLabel(judged)?.title).toBe(title);
    }
    // An answer recorded before answers were judged keeps its old title.
    expect(f.stepTitle(answer({ sources: [], conclusion: 'x' }))).toBe('Answer');
    expect(f.answerLabel({ sources: [], conclusion: 'x' })).toBeUndefined();
  });

  it('shows the confidence of thoughts and answers among the facts, and nothing for a bad value', async () => {
    const f = await viewerModule<FormatModule>('format.js');
    expect(f.stepFacts(step(1, { type: 'thinking', thought: 't', confidence: 0.72 }))).toContain('confidence 72%');
    expect(f.stepFacts(answer({ sources: [], conclusion: 'x', grounding: 'grounded', confidence: 0.9 }))).toContain(
      'confidence 90%',
    );
    expect(f.stepFacts(step(1, { type: 'thinking', thought: 't' })).some((x) => x.startsWith('confidence'))).toBe(
      false,
    );
    expect([f.confidenceText(1.5), f.confidenceText('0.5'), f.confidenceText(0)]).toEqual([
      undefined,
      undefined,
      'confidence 0%',
    ]);
  });
});
