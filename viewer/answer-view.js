// The answer at the top of the run page: its text with each checked claim marked where it stands
// (the claims at fault stand out), and what stands behind it.
import { h } from './dom.js';
import { answerLabel } from './format.js';
import { answerSegments } from './iteration-trace.js';
import { groundingNote, stepLink } from './step-view.js';

const STANDING_TEXT = {
  ok: (claim, n) => (n === undefined ? 'supported by an observation' : `supported by step ${n}`),
  given: (claim) => `given by the ${claim.given}`,
  contradicted: (claim, n) => (n === undefined ? 'contradicted by its sources' : `contradicted by step ${n}`),
  unchecked: () => 'not checked',
  unsupported: () => 'nothing supports this',
};

/**
 * The answer of `synthesis` (a synthesis step's body, already in this person's view) with its
 * claims marked, linked to the step behind each; `stepNumbers` maps step ids to numbers.
 */
export function markedAnswer(synthesis, stepNumbers = new Map()) {
  const claims = synthesis?.claimCheck?.claims;
  const segments = answerSegments(synthesis?.conclusion, claims);
  const faults = segments.filter((seg) => seg.claim && seg.standing !== 'ok' && seg.standing !== 'given').length;
  return h(
    'div',
    { class: 'marked-answer', dataset: { faults: String(faults) } },
    h('h4', {}, answerLabel(synthesis)?.title ?? 'Answer'),
    h(
      'p',
      { class: 'answer-text' },
      segments.map((seg) => {
        if (!seg.claim) return seg.text;
        const source = seg.claim.supportedBy ?? seg.claim.contradictedBy;
        const n = typeof source === 'string' ? stepNumbers.get(source) : undefined;
        const why = STANDING_TEXT[seg.standing](seg.claim, n);
        return h(
          'mark',
          { class: `claim-mark claim-${seg.standing}`, title: why, dataset: { standing: seg.standing } },
          n === undefined ? seg.text : stepLink(n, seg.text),
          seg.standing === 'ok' || seg.standing === 'given' ? null : h('span', { class: 'sr-only' }, ` (${why})`),
        );
      }),
    ),
    groundingNote(synthesis),
  );
}
