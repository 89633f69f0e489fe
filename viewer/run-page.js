// One run: its chain, loaded a page at a time from the latest steps backwards, then followed
// live over the event stream (or by polling the chain when the server has no stream).
import { api, describeFailure } from './api.js';
import { approvalView } from './approvals.js';
import { createChainTools } from './chain-tools.js';
import { createChainState } from './chain-state.js';
import { h, replaceChildren } from './dom.js';
import { ENDED, experimentText, formatDateTime, goneStepsLine, originText, planLine, progressLine } from './format.js';
import { followEvents } from './sse.js';
import { readAgainUntilAnswered, tryingAgainText } from './read-again.js';
import { createRunControls } from './run-controls.js';
import { liveView, progressView, retitleCalls, stepView } from './step-view.js';
import { detailsQuery, detailsToggle } from './preferences.js';
import { badgeOf, renderEnding } from './ending-view.js';
import { renderScores } from './scores.js';
import { createAddToDataset } from './add-to-dataset.js';
import { sourceLine } from './store-notices.js';
import { createLiveSubAgents, showLiveSubAgentSteps, subAgentLink, subAgentView } from './sub-agents.js';
import { createTraceView } from './trace-view.js';
import { markedAnswer } from './answer-view.js';

/** Steps per chain page; the API allows up to 500. */
export const PAGE = 50;
const POLL_MS = 2000;

/** Renders the run page into `root`; returns a function that stops its stream and timers. */
export function renderRunPage(root, { runId, me, view, focusStep, reload = () => {} }) {
  const base = `/v1/runs/${encodeURIComponent(runId)}`;
  const state = createChainState();
  const approvals = new Map();
  const subAgents = new Map();
  /** Running sub-agents' steps, as the stream sends them. */
  const liveChildren = createLiveSubAgents();
  let status;
  let chainHead;
  let stream;
  let pollTimer;
  let disposed = false;
  let loadedFrom = 0; // steps numbered above this are loaded (or arriving live)
  let goneThrough = 0; // steps up to this one are gone from the server (past retention)

  const title = h('h2', { class: 'run-title' }, runId);
  const meta = h('p', { class: 'run-meta' });
  const progress = h('p', { class: 'progress', 'aria-live': 'polite' });
  const live = h('span', { class: 'live-state', dataset: { live: 'off' } }, '');
  const message = h('p', { class: 'message', role: 'status' });
  const pendingPanel = h('section', { class: 'pending', hidden: true });
  const planPanel = h('section', { class: 'plan panel', hidden: true });
  const endingPanel = h('section', { class: 'ending panel', 'aria-label': 'How the run ended', hidden: true });
  const subPanel = h('section', { class: 'sub-agents panel', hidden: true });
  const scoresPanel = h('section', { class: 'scores panel', hidden: true });
  const addToDataset = createAddToDataset({ runId, me });
  const earlier = h('button', { type: 'button', class: 'earlier', hidden: true }, 'Earlier steps');
  const goneNote = h('p', { class: 'steps-gone', role: 'note', hidden: true });
  const stepsEl = h('div', { class: 'steps trace' });
  const trace = createTraceView(stepsEl, {
    approvals: () => [...approvals.values()],
    // A call still open runs to now only while the run goes on.
    now: () => (ended() ? undefined : Date.now()),
  });
  const liveEl = h('div', { class: 'live-blocks' });
  const viewNote = h('p', { class: 'view-note' });
  // The run's progress lines ("Checked 3 sources · processed 247 records"), first, when the person chose summaries only.
  const progressSummary = h('section', {
    class: 'progress-summary panel',
    'aria-label': 'Progress summary',
    hidden: true,
  });
  const sourceNote = h('p', { class: 'store-notice', role: 'note', hidden: true });
  const filteredEl = h('div', { class: 'steps filtered-steps', hidden: true });
  const tools = createChainTools({ base, view, showFiltered: (steps) => showFiltered(steps) });

  const people = createRunControls({
    base,
    tell: (text) => {
      readFailed = false;
      message.classList.remove('error');
      message.textContent = text;
    },
    fail: (err) => {
      readFailed = false;
      fail(err);
    },
    changed: () => void refreshStatus(),
  });

  // A fork compares with the run it started from; any run with another the person names.
  const forkLink = h('a', { class: 'compare-origin', hidden: true }, 'Compare with the original');
  const compareWith = h('input', {
    name: 'other',
    type: 'text',
    placeholder: 'another run id',
    'aria-label': 'Run to compare with',
    required: true,
  });
  const compareForm = h('form', { class: 'compare-with' }, compareWith, h('button', { type: 'submit' }, 'Compare'));
  compareForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const other = compareWith.value.trim();
    if (other) location.hash = `#/compare/${encodeURIComponent(runId)}/${encodeURIComponent(other)}`;
  });

  replaceChildren(
    root,
    h(
      'p',
      { class: 'run-links' },
      h('a', { href: '#/', class: 'back' }, '← All runs'),
      h('a', { href: `#/runs/${encodeURIComponent(runId)}/timeline`, class: 'timeline-link' }, 'Timeline'),
      forkLink,
      compareForm,
    ),
    h(
      'section',
      { class: 'run-head panel' },
      title,
      meta,
      h('div', { class: 'progress-row' }, progress, live, detailsToggle(reload)),
      people.controls,
      message,
    ),
    endingPanel,
    progressSummary,
    people.questionPanel,
    people.budgetPanel,
    pendingPanel,
    planPanel,
    subPanel,
    scoresPanel,
    addToDataset.panel,
    tools.summaryPanel,
    tools.filterPanel,
    h('section', { class: 'chain' }, viewNote, sourceNote, goneNote, earlier, stepsEl, liveEl, filteredEl),
  );

  const fail = (err) => {
    if (disposed) return;
    message.textContent = describeFailure(err);
    message.classList.add('error');
  };
  /**
   * A failure to read the run (opening, polling, a status refresh): shown until a later read
   * answers. What the person did (a decision, a cancel) keeps its own message until they act again.
   */
  let readFailed = false;
  const failRead = (err) => {
    fail(err);
    readFailed = !disposed;
  };
  const readAnswered = () => {
    if (!readFailed) return;
    readFailed = false;
    message.classList.remove('error');
    message.textContent = '';
  };

  // ---- steps ----
  const ctx = () => ({
    toolNames: state.toolNames(),
    answeredBy: state.answeringModels(),
    stepNumbers: state.stepNumbers(),
    approvalFor: (step) =>
      step.type === 'tool_call' ? h('div', { class: 'approval-slot', dataset: { stepId: step.stepId } }) : undefined,
    subAgent: (step) =>
      step.type === 'tool_call' && step.toolCall?.delegatedTo
        ? subAgentView(step.toolCall.delegatedTo, {
            view,
            me,
            sub: subAgents.get(step.toolCall.delegatedTo.workflowId),
            live: liveChildren,
          })
        : undefined,
  });

  const insertSteps = (added) => {
    if (added.length === 0) return;
    const c = ctx();
    // Each step goes to its iteration's card, in step order (a page of earlier steps or a live one).
    trace.add(added, (step) => stepView(step, c));
    retitleCalls(stepsEl, added, c);
    renderApprovals();
  };

  const addStepsFromServer = (steps, { keepScroll = false } = {}) => {
    const before = document.documentElement.scrollHeight;
    insertSteps(state.addSteps(steps));
    if (keepScroll) window.scrollBy(0, document.documentElement.scrollHeight - before);
    for (const step of steps ?? []) if (step.type === 'thinking' && step.plan) renderPlan(step.plan.tasks);
  };

  /** Filtered steps replace the whole chain's until the filters are cleared; live steps keep arriving behind. */
  const showFiltered = (steps) => {
    const filtering = steps !== undefined;
    for (const el of [stepsEl, liveEl]) el.hidden = filtering;
    filteredEl.hidden = !filtering;
    if (!filtering) return void updateEarlier();
    earlier.hidden = true;
    const c = ctx();
    replaceChildren(
      filteredEl,
      steps.length ? steps.map((step) => stepView(step, c)) : h('p', { class: 'note' }, 'No step matches.'),
    );
  };

  /** Where the page was read from: the store only, or Temporal because the store is unavailable. */
  const noteSource = (page) => {
    const line = sourceLine(page);
    sourceNote.hidden = !line;
    sourceNote.classList.toggle('store-only', Boolean(page?.storeOnly));
    sourceNote.textContent = line ?? '';
  };

  /** The step a link named (`#/runs/<id>?step=N`): scrolled to and marked once loaded. */
  const showFocus = () => {
    if (!focusStep) return;
    const el = stepsEl.querySelector(`[data-step="${focusStep}"]`);
    el?.classList.add('focused');
    trace.reveal(el);
    el?.scrollIntoView({ block: 'center' });
  };

  // ---- the head of the chain and the status record ----
  const renderHead = () => {
    const forkedFrom = chainHead?.forkedFrom?.workflowId;
    forkLink.hidden = !forkedFrom;
    if (forkedFrom) forkLink.href = `#/compare/${encodeURIComponent(forkedFrom)}/${encodeURIComponent(runId)}`;
    const task = chainHead?.task;
    title.textContent = task || runId;
    const agentName = status?.agentName ?? chainHead?.agentName ?? '';
    const started = chainHead?.startedAt ? `started ${formatDateTime(chainHead.startedAt)}` : '';
    const origin = originText(status?.origin);
    const experiment = experimentText(status?.experiment);
    const parts = [agentName, experiment, started, origin, runId];
    replaceChildren(meta, badgeOf(status), ' ', parts.filter(Boolean).join(' · '));
    progress.textContent = progressLine(status, { spend: view !== 'end_user' });
    const hidden = chainHead?.view?.hiddenSteps;
    viewNote.textContent = chainHead?.view
      ? `${labelOfView(chainHead.view.role)} view${hidden ? ` · ${hidden} step${hidden === 1 ? '' : 's'} not shown in this view` : ''}`
      : '';
    people.update({
      ended: ended(),
      openQuestion: status?.progress?.openQuestion ?? status?.openQuestion,
      budgetPause: status?.progress?.budgetPause,
    });
    addToDataset.update({ ended: ended() });
    renderSubAgents();
    const plan = status?.progress?.plan?.tasks ?? status?.plan?.tasks ?? chainHead?.plan?.tasks;
    if (plan) renderPlan(plan);
    renderEnding(endingPanel, status?.ending, { answer: answerOfChain(status?.ending) });
  };

  const ended = () => ENDED.has(status?.status);

  /** The answer with its claims marked, when the chain's last synthesis is the answer the ending shows. */
  const answerOfChain = (ending) => {
    const synthesis = state.lastOf('synthesis')?.synthesis;
    if (!ending?.answer || synthesis?.conclusion !== ending.answer) return undefined;
    return markedAnswer(synthesis, state.stepNumbers());
  };

  let statusInFlight;
  let statusAgain = false;
  /** The last status read's failure; a read that succeeds clears it. */
  let statusFailure;
  const refreshStatus = async () => {
    if (statusInFlight) {
      statusAgain = true;
      return statusInFlight;
    }
    statusInFlight = (async () => {
      do {
        statusAgain = false;
        try {
          status = await api(base, { query: { view, ...detailsQuery() } });
          statusFailure = undefined;
          readAnswered();
          const pendingNow = new Set((status?.pendingApprovals ?? []).map(approvalKey));
          // A record shown as pending that the run no longer lists was decided or timed out: read its outcome.
          const stale = [...approvals].some(([key, record]) => record.status === 'pending' && !pendingNow.has(key));
          for (const record of status?.pendingApprovals ?? []) approvals.set(approvalKey(record), record);
          if (stale) await readChainApprovals();
          for (const sub of status?.subAgents ?? []) subAgents.set(sub.workflowId, sub);
          if (!disposed) {
            renderHead();
            renderApprovals();
          }
        } catch (err) {
          statusFailure = err;
          failRead(err);
        }
      } while (statusAgain && !disposed);
      statusInFlight = undefined;
    })();
    return statusInFlight;
  };

  // ---- approvals ----
  // A call id is unique within one run; a sub-agent's records carry their run.
  const approvalKey = (record) => `${record.workflowId ?? runId}\u0000${record.callId}`;
  /**
   * Each record's card, kept while its decision state is unchanged: the same record arriving
   * again (from the stream, the status, the chain) must not wipe a reason being typed.
   */
  const cards = new Map();
  let approvalsDrawn = '';
  const decisionState = (record) =>
    [record.status, record.argumentsHash, record.decidedBy?.id ?? '', record.note ?? ''].join('\u0000');
  const renderApprovals = () => {
    const records = [...approvals.values()];
    const loose = [];
    const kept = new Set();
    for (const record of records) {
      const key = approvalKey(record);
      let card = cards.get(key);
      if (!card || card.state !== decisionState(record)) {
        card?.node.remove();
        card = { state: decisionState(record), node: approvalView(record, { me, runId, onDecided }) };
        cards.set(key, card);
      }
      kept.add(card.node);
      // A sub-agent's record names a step of the child's chain: it never goes under a step of this one.
      const own = record.workflowId === undefined || record.workflowId === runId;
      const slot = own ? stepsEl.querySelector(`.approval-slot[data-step-id="${CSS.escape(record.stepId)}"]`) : null;
      if (slot) {
        if (card.node.parentElement !== slot) slot.append(card.node);
      } else if (record.status === 'pending') loose.push(card.node);
      else card.node.remove();
    }
    // The waterfall draws approval waits: redrawn when a record's state changed.
    const drawn = records.map(decisionState).join('\u0001');
    if (drawn !== approvalsDrawn) {
      approvalsDrawn = drawn;
      trace.refresh();
    }
    const pending = records.filter((r) => r.status === 'pending');
    pendingPanel.hidden = pending.length === 0;
    const heading = pending.length
      ? h('h3', {}, `${pending.length} call${pending.length === 1 ? '' : 's'} waiting for approval`)
      : null;
    const links = pending
      .filter((r) => !loose.some((n) => n.dataset.callId === r.callId))
      .map((r) =>
        h(
          'p',
          {},
          h(
            'a',
            { href: `#/runs/${encodeURIComponent(runId)}`, onclick: (e) => jumpTo(e, r.stepId) },
            `${r.toolName}: see it in the chain`,
          ),
        ),
      );
    // Cards already in the panel stay where they are (and keep their typed text).
    for (const child of [...pendingPanel.children]) if (!loose.includes(child)) child.remove();
    pendingPanel.prepend(...[heading, ...links].filter(Boolean));
    for (const node of loose) if (node.parentElement !== pendingPanel) pendingPanel.append(node);
  };
  const jumpTo = (event, stepId) => {
    event.preventDefault();
    stepsEl.querySelector(`.approval-slot[data-step-id="${CSS.escape(stepId)}"]`)?.scrollIntoView({ block: 'center' });
  };
  const onDecided = (record) => {
    if (record?.callId) approvals.set(approvalKey(record), record);
    renderApprovals();
    void refreshStatus();
  };

  // ---- plan and sub-agents ----
  const renderPlan = (tasks) => {
    planPanel.hidden = false;
    replaceChildren(
      planPanel,
      h('h3', {}, 'Plan'),
      h(
        'ol',
        { class: 'checklist' },
        tasks.map((task) => {
          const line = planLine(task);
          return h(
            'li',
            { class: `task task-${line.key}` },
            h('span', { class: 'mark', 'aria-hidden': 'true' }, line.mark),
            ' ',
            line.text,
            h('span', { class: 'sr-only' }, ` (${line.status})`),
          );
        }),
      ),
    );
  };
  const renderSubAgents = () => {
    for (const sub of chainHead?.subAgents ?? [])
      if (!subAgents.has(sub.workflowId)) subAgents.set(sub.workflowId, sub);
    const list = [...subAgents.values()];
    subPanel.hidden = list.length === 0;
    replaceChildren(
      subPanel,
      h('h3', {}, 'Sub-agents'),
      h(
        'ul',
        {},
        list.map((sub) => h('li', {}, subAgentLink(sub))),
      ),
    );
  };

  // ---- scores: attached after the run (often days after), read once when the page opens ----
  const loadScores = async () => {
    try {
      const { scores } = await api(`${base}/scores`);
      if (!disposed) renderScores(scoresPanel, { scores });
    } catch (err) {
      // A run page without its scores is still a run page: say so in the panel, not in the message line.
      if (!disposed) renderScores(scoresPanel, { failure: describeFailure(err) });
    }
  };

  // ---- live: the event stream, else polling ----
  const setLive = (mode, text) => {
    live.dataset.live = mode;
    live.textContent = text;
  };

  const onEvent = (message) => {
    let event;
    try {
      event = JSON.parse(message.data);
    } catch {
      return;
    }
    switch (message.event) {
      case 'step':
        if (event.step) {
          for (const key of state.clearLive()) liveEl.querySelector(`[data-live="${CSS.escape(key)}"]`)?.remove();
          addStepsFromServer([event.step]);
          for (const key of state.endProgress([event.step]))
            liveEl.querySelector(`[data-live="${CSS.escape(key)}"]`)?.remove();
          void refreshStatus();
        }
        break;
      case 'text_delta': {
        const block = state.applyDelta(event);
        const node = liveView(block);
        const old = liveEl.querySelector(`[data-live="${CSS.escape(block.key)}"]`);
        if (old) old.replaceWith(node);
        else liveEl.append(node);
        break;
      }
      case 'tool_progress': {
        const latest = state.applyProgress(event);
        if (!latest) break;
        const old = liveEl.querySelector(`[data-live="${CSS.escape(latest.key)}"]`);
        if (old) old.replaceWith(progressView(latest));
        else liveEl.append(progressView(latest));
        break;
      }
      case 'approval':
        if (event.approval?.callId) {
          approvals.set(approvalKey(event.approval), event.approval);
          renderApprovals();
        }
        break;
      case 'sub_agent':
        if (event.subAgent?.workflowId) {
          subAgents.set(event.subAgent.workflowId, event.subAgent);
          renderSubAgents();
        }
        break;
      case 'sub_agent_step': {
        const { workflowId, added } = liveChildren.add(event);
        showLiveSubAgentSteps(stepsEl, workflowId, added, { view, live: liveChildren });
        break;
      }
      case 'status':
        void refreshStatus();
        break;
      case 'end':
        state.clearLive();
        state.clearProgress();
        liveEl.replaceChildren();
        void refreshStatus().then(() => setLive('ended', 'run ended'));
        break;
      default:
        break;
    }
  };

  const startStream = () => {
    stream = followEvents(`${base}/events?${new URLSearchParams({ ...(view ? { view } : {}), ...detailsQuery() })}`, {
      lastEventId: String(state.last),
      onEvent,
      onState: (s) => {
        if (s === 'open') setLive('sse', 'live');
        else if (s === 'retrying' || s === 'connecting')
          setLive('connecting', s === 'connecting' ? 'connecting…' : 'reconnecting…');
        else if (s === 'ended') setLive('ended', 'run ended');
      },
      onFailure: (failure) => {
        if (disposed) return;
        // No stream on this server (503) or not for this caller: follow by polling instead.
        if (failure.status === 503 || failure.status === 404) startPolling();
        else fail(failure);
      },
    });
  };

  const startPolling = () => {
    setLive('poll', `refreshing every ${POLL_MS / 1000} s`);
    const tick = async () => {
      if (disposed) return;
      try {
        await loadForward();
        await refreshStatus();
      } catch (err) {
        failRead(err);
      }
      if (ended()) {
        setLive('ended', 'run ended');
        return;
      }
      pollTimer = setTimeout(tick, POLL_MS);
    };
    pollTimer = setTimeout(tick, POLL_MS);
  };

  // ---- paging ----
  const fetchPage = async (afterStep, limit) => {
    const page = await api(`${base}/chain`, { query: { view, afterStep, limit, ...detailsQuery() } });
    renderProgressSummary(page.progressSummary);
    return page;
  };

  /** The progress lines the server sends with each page while the person reads summaries only. */
  const renderProgressSummary = (summary) => {
    const lines = summary?.lines ?? [];
    progressSummary.hidden = lines.length === 0;
    replaceChildren(
      progressSummary,
      lines.length ? h('p', { class: 'progress-summary-text' }, summary.text) : null,
      lines.length
        ? h(
            'ul',
            { class: 'progress-summary-lines' },
            lines.map((line) => h('li', {}, line)),
          )
        : null,
    );
  };

  /** A page that says its first steps are gone: say so, and page back no further than them. */
  const noteGone = (chain) => {
    const line = goneStepsLine(chain?.unavailable);
    if (!line || chain.unavailable.throughStep <= goneThrough) return;
    goneThrough = chain.unavailable.throughStep;
    loadedFrom = Math.max(loadedFrom, goneThrough);
    goneNote.textContent = line;
    goneNote.hidden = false;
  };

  /** Loads every step after the last one held, a page at a time. */
  const loadForward = async () => {
    for (let guard = 0; guard < 100; guard += 1) {
      const page = await fetchPage(Math.max(state.last, loadedFrom), PAGE);
      chainHead = page.chain;
      noteSource(page);
      noteGone(page.chain);
      for (const record of page.chain?.approvals ?? []) approvals.set(approvalKey(record), record);
      addStepsFromServer(page.chain?.steps ?? []);
      if (page.nextAfterStep === undefined || page.nextAfterStep === null) return page;
    }
  };

  /** The chain's approval records (decided ones included), without re-reading its steps. */
  const readChainApprovals = async () => {
    const page = await fetchPage(Number.MAX_SAFE_INTEGER, 1);
    for (const record of page.chain?.approvals ?? []) approvals.set(approvalKey(record), record);
  };

  const loadEarlier = async () => {
    if (loadedFrom <= goneThrough) return;
    earlier.disabled = true;
    const from = Math.max(goneThrough, loadedFrom - PAGE);
    try {
      const page = await fetchPage(from, loadedFrom - from);
      loadedFrom = from;
      noteGone(page.chain);
      addStepsFromServer(page.chain?.steps ?? [], { keepScroll: true });
    } catch (err) {
      fail(err);
    }
    earlier.disabled = false;
    updateEarlier();
  };
  const updateEarlier = () => {
    earlier.hidden = loadedFrom <= goneThrough;
    earlier.textContent = `Earlier steps (#${Math.max(goneThrough + 1, loadedFrom - PAGE + 1)}–#${loadedFrom})`;
  };
  earlier.addEventListener('click', () => void loadEarlier());
  // Scrolling up to the button loads the page before, once the person has scrolled at all.
  let scrolled = false;
  const onScroll = () => (scrolled = true);
  window.addEventListener('scroll', onScroll, { passive: true });
  const observer = new IntersectionObserver((entries) => {
    if (scrolled && entries.some((e) => e.isIntersecting) && !earlier.hidden && !earlier.disabled) void loadEarlier();
  });
  observer.observe(earlier);

  // ---- start: status, the latest page, then live (tried again while the server cannot answer) ----
  const open = async () => {
    await refreshStatus();
    if (statusFailure) throw statusFailure;
    const total = status?.stepCount ?? status?.steps ?? 0;
    loadedFrom = Math.max(0, total - PAGE);
    // A link to a step loads from just before it (the chain's pages after it follow).
    if (focusStep > 0) loadedFrom = Math.min(loadedFrom, focusStep - 1);
    await loadForward();
    if (disposed) return;
    readAnswered();
    updateEarlier();
    renderHead();
    renderApprovals();
    showFocus();
    void loadScores();
    void tools.loadSummary();
    if (ended()) setLive('ended', 'run ended');
    else startStream();
  };
  const stopOpening = readAgainUntilAnswered(open, {
    failed: (err, waitMs) => {
      failRead(err);
      if (waitMs !== undefined && !disposed) setLive('connecting', tryingAgainText(waitMs));
    },
  });

  return () => {
    disposed = true;
    stream?.close();
    clearTimeout(pollTimer);
    stopOpening();
    observer.disconnect();
    window.removeEventListener('scroll', onScroll);
  };
}

function labelOfView(role) {
  return { end_user: 'End-user', developer: 'Developer', auditor: 'Auditor' }[role] ?? role;
}
