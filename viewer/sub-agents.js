// Sub-agents as nested drill-downs: a delegating call folds out the child run's chain (loaded
// when opened, in the same view), with a link to the child's own live page.
import { api, describeFailure } from './api.js';
import { detailsQuery } from './preferences.js';
import { createChainState } from './chain-state.js';
import { h, replaceChildren } from './dom.js';
import { formatUsd, remoteChainText } from './format.js';
import { stepView } from './step-view.js';

const CHILD_PAGE = 100;

/** "research · completed · 12 steps · $0.03" (with "ungrounded answer" after the status when so), linking the child's page. */
export function subAgentLink(sub) {
  // A child's answer with no tool result behind it says so (docs/concepts.md, "Grounded answers").
  const unbacked =
    sub.grounding === 'unsupported' || sub.grounding === 'ungrounded'
      ? `${sub.grounding} answer`
      : sub.grounding === 'partly_grounded'
        ? `partly grounded answer${Array.isArray(sub.unsupportedClaims) && sub.unsupportedClaims.length ? ` (unsupported: ${sub.unsupportedClaims.join(', ')})` : ''}`
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
    h('a', { href: `#/runs/${encodeURIComponent(sub.workflowId)}` }, sub.agentName),
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

/** A fold-out under the call that delegated: the child's chain, read once when first opened. */
export function subAgentView(delegatedTo, { view, sub }) {
  // A remote agent's run is not on this server: its linked steps are shown as the parent recorded them.
  if (sub?.remote?.chain) return remoteChainView(delegatedTo, sub.remote.chain);
  const body = h('div', { class: 'sub-agent-body' });
  const details = h(
    'details',
    { class: 'sub-agent', dataset: { workflowId: delegatedTo.workflowId } },
    h('summary', {}, `Sub-agent ${delegatedTo.agentName}${sub?.status ? ` (${sub.status})` : ''} — open its chain`),
    body,
  );
  let loaded = false;
  details.addEventListener('toggle', async () => {
    if (!details.open || loaded) return;
    loaded = true;
    body.textContent = 'Loading…';
    try {
      const page = await api(`/v1/runs/${encodeURIComponent(delegatedTo.workflowId)}/chain`, {
        query: { view, limit: CHILD_PAGE, ...detailsQuery() },
      });
      const state = createChainState();
      const steps = state.addSteps(page.chain?.steps ?? []);
      const names = state.toolNames();
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
        steps.map((step) => stepView(step, { toolNames: names })),
      );
    } catch (err) {
      loaded = false;
      body.textContent = describeFailure(err);
    }
  });
  return details;
}
