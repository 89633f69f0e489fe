// One reasoning step as a card: heading, facts (time, model, tokens, cost, duration) and its
// body (thought, call arguments, result, answer). Shows exactly what the API sent, nothing more.
import { h } from './dom.js';
import { answerLabel, stepFacts, stepTitle } from './format.js';
import { jsonView } from './json-view.js';
import { consensusText } from './consensus-view.js';

/**
 * `ctx`: { toolNames: Map, answeredBy: Map (correlation id → the model that answered), stepNumbers: Map
 * (step id → number), approvalFor(step) → node | undefined,
 * subAgent(step) → node | undefined }.
 */
export function stepView(step, ctx = {}) {
  const facts = stepFacts(step);
  const failed = step.type === 'tool_result' && step.toolResult?.success === false;
  const judged = step.type === 'synthesis' ? answerLabel(step.synthesis) : undefined;
  return h(
    'article',
    {
      class: `step step-${step.type}${failed ? ' step-failed' : ''}${judged ? ` answer-${judged.kind}` : ''}`,
      id: `step-${step.stepNumber}`,
      dataset: {
        step: String(step.stepNumber),
        type: step.type,
        // A model call's title changes when its reply lands (retitleCalls): found by this.
        ...(step.type === 'tool_call' && step.toolCall?.toolType === 'llm'
          ? { correlationId: String(step.toolCall.correlationId) }
          : {}),
      },
    },
    h(
      'header',
      {},
      h('span', { class: 'step-number' }, `#${step.stepNumber}`),
      h('span', { class: 'step-title' }, stepTitle(step, ctx.toolNames, ctx.answeredBy)),
      judged ? h('span', { class: `badge badge-${judged.kind}` }, judged.badge) : null,
      step.visibility?.level === 'summary' ? h('span', { class: 'badge' }, 'summary') : null,
      step.visibility?.level === 'hidden' ? h('span', { class: 'badge badge-hidden' }, 'hidden from others') : null,
    ),
    facts.length ? h('div', { class: 'step-facts' }, facts.join(' · ')) : null,
    body(step, ctx),
    ctx.approvalFor?.(step),
    ctx.subAgent?.(step),
  );
}

function body(step, ctx) {
  switch (step.type) {
    case 'thinking':
      return h('div', { class: 'step-body' }, h('p', { class: 'thought' }, step.thought ?? ''));
    case 'tool_call': {
      const args = step.toolCall?.arguments ?? {};
      const hasArgs = Object.keys(args).length > 0;
      // A model call's arguments are the whole request: folded until someone opens them.
      const openDepth = step.toolCall?.toolType === 'llm' ? 0 : 1;
      return h(
        'div',
        { class: 'step-body' },
        hasArgs
          ? h('div', { class: 'arguments' }, h('span', { class: 'label' }, 'Arguments'), jsonView(args, 0, openDepth))
          : null,
        step.visibility?.summary ? h('p', { class: 'summary' }, step.visibility.summary) : null,
      );
    }
    case 'tool_result': {
      const result = step.toolResult ?? {};
      return h(
        'div',
        { class: 'step-body' },
        result.error ? h('p', { class: 'error' }, result.error) : null,
        consensusText(result.result) ? h('p', { class: 'consensus' }, consensusText(result.result)) : null,
        result.result === undefined || result.result === null
          ? null
          : h(
              'div',
              { class: 'result' },
              h('span', { class: 'label' }, 'Result'),
              typeof result.result === 'string' ? h('pre', { class: 'text' }, result.result) : jsonView(result.result),
            ),
        result.truncated ? h('p', { class: 'note' }, 'Cut to the run’s size limit.') : null,
        result.summarised ? h('p', { class: 'note' }, 'Condensed by a model call.') : null,
      );
    }
    case 'synthesis':
      return h(
        'div',
        { class: 'step-body' },
        h('p', { class: 'conclusion' }, step.synthesis?.conclusion ?? ''),
        groundingNote(step.synthesis),
        claimList(step.synthesis, ctx.stepNumbers ?? new Map()),
      );
    default:
      return null;
  }
}

/** Says what stands behind a judged answer; nothing for one recorded before answers were judged. */
export function groundingNote(synthesis) {
  const judged = answerLabel(synthesis);
  if (!judged) return null;
  const sources = Array.isArray(synthesis.sources) ? synthesis.sources.length : 0;
  const list = (name) => (Array.isArray(synthesis.claimCheck?.[name]) ? synthesis.claimCheck[name] : []);
  const faults = [
    list('contradicted').length ? `its sources say otherwise of ${list('contradicted').join(', ')}` : '',
    list('unsupported').length ? `nothing supports ${list('unsupported').join(', ')}` : '',
    list('unchecked').length ? `nothing checked ${list('unchecked').join(', ')}` : '',
  ].filter((f) => f !== '');
  const ended =
    synthesis.terminationReason && synthesis.terminationReason !== 'success'
      ? `; the run ended ${synthesis.terminationReason}`
      : '';
  const text =
    judged.kind === 'partly' || judged.kind === 'contradicted' || judged.kind === 'unchecked'
      ? `Drawn from ${sources} tool result${sources === 1 ? '' : 's'}, but ${faults.join('; ') || 'some of its claims are at fault'}${ended}.`
      : sources > 0
        ? `Drawn from ${sources} tool result${sources === 1 ? '' : 's'}${judged.kind === 'partial' ? `; the run ended ${synthesis.terminationReason}, so it may be incomplete` : ''}.`
        : judged.kind === 'ungrounded'
          ? `No tool result stands behind this summary: the run ended ${synthesis.terminationReason ?? 'without success'}.`
          : 'No tool result stands behind this answer: it is the model’s own.';
  return h('p', { class: 'note grounding-note' }, text);
}

/**
 * The answer's checked claims (src/domain/chain/claim-support.ts), each linked to the step that
 * supports it (and the judge model that said so, when the rules did not), marked as given by the
 * task, context or a person, or marked unsupported.
 */
function claimList(synthesis, stepNumbers) {
  const claims = Array.isArray(synthesis?.claimCheck?.claims) ? synthesis.claimCheck.claims : [];
  if (claims.length === 0) return null;
  const behind = (claim) => {
    if (typeof claim.supportedBy === 'string') {
      const n = stepNumbers.get(claim.supportedBy);
      return n === undefined
        ? h('span', { class: 'claim-source' }, 'an observation not on this page')
        : stepLink(n, `step ${n}`, 'claim-source');
    }
    if (typeof claim.contradictedBy === 'string') {
      const n = stepNumbers.get(claim.contradictedBy);
      return n === undefined
        ? h('span', { class: 'claim-source claim-contradicted' }, 'contradicted')
        : stepLink(n, `contradicted by step ${n}`, 'claim-source claim-contradicted');
    }
    if (typeof claim.given === 'string') return h('span', { class: 'claim-source' }, `given by the ${claim.given}`);
    if (claim.unchecked === true) return h('span', { class: 'claim-source claim-unchecked' }, 'not checked');
    return h('span', { class: 'claim-source claim-unsupported' }, 'unsupported');
  };
  return h(
    'ul',
    { class: 'claims' },
    claims.map((claim) =>
      h(
        'li',
        { class: `claim claim-${claim.kind}`, dataset: { kind: String(claim.kind) } },
        h('code', {}, String(claim.text)),
        ' — ',
        behind(claim),
        typeof claim.judgedBy === 'string'
          ? h('span', { class: 'claim-judge' }, ` (judged by ${claim.judgedBy})`)
          : null,
      ),
    ),
  );
}

/**
 * A link to step `n` of this page: scrolls to it (opening the model-call fold it sits in) without
 * changing the route, which `#step-N` as a plain link would.
 */
export function stepLink(n, text, className) {
  return h(
    'a',
    {
      class: className,
      href: `#step-${n}`,
      onclick: (event) => {
        event.preventDefault();
        const el = document.getElementById(`step-${n}`);
        const fold = el?.closest('details.model-call');
        if (fold) fold.open = true;
        el?.scrollIntoView({ block: 'center' });
      },
    },
    text,
  );
}

/** The block of model text still arriving for one reply; replaced by the step when it lands. */
export function liveView(block) {
  return h(
    'article',
    { class: `step step-live live-${block.kind}`, dataset: { live: block.key } },
    h(
      'header',
      {},
      h('span', { class: 'step-number' }, '…'),
      h('span', { class: 'step-title' }, block.kind === 'thinking' ? 'Thinking (live)' : 'Model is writing'),
    ),
    h('pre', { class: 'live-text' }, block.text),
  );
}

/** A running tool's latest progress, under its call until its result lands: a bar when it says how far, and its line. */
export function progressView(latest) {
  const share = latest.fraction === undefined ? '' : ` ${Math.round(latest.fraction * 100)}%`;
  return h(
    'div',
    { class: 'tool-progress', dataset: { live: latest.key }, role: 'status' },
    h('span', { class: 'tool-progress-name' }, `${latest.toolName}${share}`),
    latest.fraction === undefined ? null : h('progress', { max: '1', value: String(latest.fraction) }),
    latest.message === undefined ? null : h('span', { class: 'tool-progress-message' }, latest.message),
  );
}

/**
 * Model calls drawn before their replies landed name the model asked; once `replies` (steps just
 * added) say which model answered, each such call in `container` is titled by it, as on a reload.
 */
export function retitleCalls(container, replies, ctx) {
  for (const step of replies) {
    if (step.type !== 'tool_result' || typeof step.model !== 'string') continue;
    const correlationId = String(step.toolResult?.correlationId);
    const call = [...container.querySelectorAll('article[data-type="tool_call"]')].find(
      (el) => el.dataset.correlationId === correlationId,
    );
    const title = call?.querySelector('.step-title');
    if (!title) continue;
    const asked = ctx.toolNames?.get(correlationId);
    title.textContent = stepTitle(
      { type: 'tool_call', toolCall: { toolType: 'llm', toolName: asked, correlationId } },
      ctx.toolNames,
      ctx.answeredBy,
    );
  }
}
