// Sub-agents as nested drill-downs: a delegating call folds out the child run's chain (loaded
// when opened, in the same view), with a link to the child's own live page. While the child
// runs, the parent's stream sends its steps (`sub_agent_step`) and the fold shows them as they come.
import { api, describeFailure } from './api.js';
import { detailsQuery } from './preferences.js';
import { createChainState } from './chain-state.js';
import { h, replaceChildren } from './dom.js';
import { formatUsd, remoteChainText, subAgentTitle } from './format.js';
import { retitleCalls, stepView } from './step-view.js';
import { createTraceView } from './trace-view.js';

const CHILD_PAGE = 100;

/** "research · completed · 12 steps · $0.03" (with "ungrounded answer" after the status when so, and the branch when it is one), linking the child's page. */
export function subAgentLink(sub) {
  // A child's answer with no tool result behind it says so (docs/concepts.md, "Grounded answers").
  const unbacked =
    sub.grounding === 'unsupported' || sub.grounding === 'ungrounded'
      ? `${sub.grounding} answer`
      : sub.grounding === 'partly_grounded' || sub.grounding === 'contradicted' || sub.grounding === 'unchecked'
        ? `${sub.grounding === 'partly_grounded' ? 'partly grounded' : sub.grounding} answer${Array.isArray(sub.unsupportedClaims) && sub.unsupportedClaims.length ? ` (${sub.grounding === 'partly_grounded' ? 'unsupported' : 'at fault'}: ${sub.unsupportedClaims.join(', ')})` : ''}`
        : undefined;
  const facts = [
    sub.status,
    unbacked,
    typeof sub.steps === 'number' ? `${sub.steps} steps` : undefined,
    formatUsd(sub.costUsd),
  ]
    .filter(Boolean)
    .join(' · ');
  return h(
    'span',
    { class: 'sub-agent-link' },
    h('a', { href: `#/runs/${encodeURIComponent(sub.workflowId)}` }, subAgentTitle(sub)),
    facts ? ` · ${facts}` : '',
  );
}

/**
 * A remote A2A agent's chain as the parent linked it: its steps' lines, as text (data from another
 * system, never markup), and where the whole chain is (remoteChainText).
 */
export function remoteChainView(delegatedTo, chain) {
  const { heading, url, lines } = remoteChainText(delegatedTo.agentName, chain);
  return h(
    'details',
    { class: 'sub-agent remote-chain', dataset: { workflowId: delegatedTo.workflowId } },
    h('summary', {}, heading),
    url ? h('p', { class: 'remote-chain-url' }, `Whole chain (on the remote server): ${url}`) : '',
    h(
      'ol',
      { class: 'remote-steps' },
      lines.map((l) => h('li', {}, h('strong', {}, `${l.label} `), l.text)),
    ),
  );
}

/** Steps of running sub-agents from the parent's stream, by the child's workflow id (each a chain state). */
export function createLiveSubAgents() {
  const children = new Map();
  return {
    /** Adds a `sub_agent_step` event's step; returns the child's id and its new steps (none for a repeat). */
    add(event) {
      const workflowId = event?.subAgent?.workflowId;
      if (typeof workflowId !== 'string' || !event.step) return { workflowId, added: [] };
      if (!children.has(workflowId)) children.set(workflowId, createChainState());
      return { workflowId, added: children.get(workflowId).addSteps([event.step]) };
    },
    get(workflowId) {
      return children.get(workflowId);
    },
  };
}

const ownPageLink = (workflowId) =>
  h('a', { href: `#/runs/${encodeURIComponent(workflowId)}` }, 'Open the sub-agent’s own page (live)');

const foldTitle = (delegatedTo, sub, liveSteps) =>
  `Sub-agent ${delegatedTo.agentName}${sub?.status ? ` (${sub.status})` : ''} — ${
    liveSteps ? `${liveSteps} ${liveSteps === 1 ? 'step' : 'steps'} so far, live` : 'open its chain'
  }`;

/** How a live child step is drawn: its own tool names, and its own sub-agents folded the same way. */
const liveStepCtx = (state, options) => ({
  toolNames: state.toolNames(),
  answeredBy: state.answeringModels(),
  subAgent: (step) =>
    step.type === 'tool_call' && step.toolCall?.delegatedTo
      ? subAgentView(step.toolCall.delegatedTo, { view: options.view, live: options.live })
      : undefined,
});

/** A child's step, without the page anchor (`#step-N` names the parent's steps). */
const liveStepView = (step, ctx) => {
  const el = stepView(step, ctx);
  el.removeAttribute('id');
  return el;
};

/** The selector of a fold's own step N in the chain it read (not a step of a sub-agent under it). */
const ownStep = (n) => {
  const steps = ':scope > .sub-agent-body > .trace > .iteration > .iteration-body > .iteration-steps';
  return `${steps} > .step[data-step="${n}"], ${steps} > details.model-call > .step[data-step="${n}"]`;
};

/**
 * Shows a running child's new steps (from `live.add`) in every fold of it under `root`, opened:
 * the parent's page shows its sub-agent working without a click.
 */
export function showLiveSubAgentSteps(root, workflowId, added, { view, live }) {
  const state = live.get(workflowId);
  if (!state || added.length === 0) return;
  for (const fold of root.querySelectorAll('details.sub-agent')) {
    if (fold.dataset.workflowId !== workflowId) continue;
    const list = fold.querySelector(':scope > .sub-agent-live');
    const ctx = liveStepCtx(state, { view, live });
    // A fold opened before the stream sent its steps read them from the chain already.
    for (const step of added) if (!fold.querySelector(ownStep(step.stepNumber))) list.append(liveStepView(step, ctx));
    retitleCalls(list, added, ctx);
    fold.querySelector(':scope > summary').textContent = foldTitle(
      { agentName: fold.dataset.agentName },
      { status: fold.dataset.status },
      state.size,
    );
    fold.open = true;
  }
}

/**
 * A fold-out under the call that delegated: the child's chain as iteration cards, read once when
 * first opened, or its steps as they come while it runs.
 */
export function subAgentView(delegatedTo, { view, sub, live }) {
  // A remote agent's run is not on this server: its linked steps are shown as the parent recorded them.
  if (sub?.remote?.chain) return remoteChainView(delegatedTo, sub.remote.chain);
  const body = h('div', { class: 'sub-agent-body' });
  const state = live?.get(delegatedTo.workflowId);
  const liveList = h(
    'div',
    { class: 'sub-agent-body sub-agent-live' },
    state ? state.all().map((step) => liveStepView(step, liveStepCtx(state, { view, live }))) : [],
  );
  const details = h(
    'details',
    {
      class: 'sub-agent',
      dataset: { workflowId: delegatedTo.workflowId, agentName: delegatedTo.agentName, status: sub?.status ?? '' },
    },
    h('summary', {}, foldTitle(delegatedTo, sub, state?.size)),
    body,
    liveList,
  );
  if (state?.size) details.open = true;
  let loaded = false;
  details.addEventListener('toggle', async () => {
    if (!details.open || loaded) return;
    loaded = true;
    // Its steps come live on the parent's stream: no read of its chain, only the way to its own page.
    if (live?.get(delegatedTo.workflowId)?.size) {
      replaceChildren(body, h('p', {}, ownPageLink(delegatedTo.workflowId)));
      return;
    }
    body.textContent = 'Loading…';
    try {
      const page = await api(`/v1/runs/${encodeURIComponent(delegatedTo.workflowId)}/chain`, {
        query: { view, limit: CHILD_PAGE, ...detailsQuery() },
      });
      const state = createChainState();
      const steps = state.addSteps(page.chain?.steps ?? []);
      // The child's chain as its own iteration cards; its own sub-agents fold out under it the same way.
      const cards = h('div', { class: 'steps trace' });
      const ctx = liveStepCtx(state, { view, live });
      createTraceView(cards, {}).add(steps, (step) => liveStepView(step, ctx));
      replaceChildren(
        body,
        h(
          'p',
          {},
          h(
            'a',
            { href: `#/runs/${encodeURIComponent(delegatedTo.workflowId)}` },
            'Open the sub-agent’s own page (live)',
          ),
          page.nextAfterStep ? ` · first ${steps.length} of ${page.totalSteps} steps` : '',
        ),
        cards,
      );
    } catch (err) {
      loaded = false;
      body.textContent = describeFailure(err);
    }
  });
  return details;
}
