// The runs the person's tenant has (GET /v1/runs), with filters, kept current, and a form to start one.
import { api, describeFailure } from './api.js';
import { h, replaceChildren } from './dom.js';
import { badgeOf } from './ending-view.js';
import { experimentText, formatDateTime, formatDuration, formatUsd, originText } from './format.js';
import { serverOrder, showsSpend, sortRuns } from './run-sort.js';
import { createRunFilters } from './run-filters.js';
import { everyWhileVisible, mergeFirstPage } from './run-list-live.js';

const PAGE_SIZE = 50;
/** Filters GET /v1/runs reads from Temporal's visibility only: a list sorted by the chain store cannot take them. */
const VISIBILITY_ONLY = ['origin'];

/** Renders the list into `root`; returns a function that stops keeping it current. */
export function renderRunList(root, { filters = {}, view } = {}) {
  const filterForm = createRunFilters(filters, { spend: view !== 'end_user' });
  /** The query the loaded rows answer (the form may have changed since). */
  let shown = filterForm.query();
  let appended = false;
  const table = h('table', { class: 'runs' });
  const more = h('button', { type: 'button', hidden: true }, 'More runs');
  const message = h('p', { class: 'message', role: 'status' });
  let nextPageToken;
  /** The rows loaded so far, in the API's order (newest first), and the column they are shown sorted by. */
  let runs = [];
  let sort = { key: 'started', dir: 'desc' };
  /** Whether the server sorts (it keeps a chain store) until it says it does not; then the loaded rows are sorted here. */
  let serverSorts = true;
  const sortNote = h('p', { class: 'note sort-note', hidden: true });
  const localSort = (why) => {
    sortNote.hidden = false;
    sortNote.textContent = `Sorted among the loaded runs only: ${why}`;
  };
  /** The sort the server is asked for: none while a filter only Temporal's list holds is set (the store sorts without it). */
  const ordered = () => {
    const wanted = serverSorts ? serverOrder(sort) : {};
    if (Object.keys(wanted).length === 0) return wanted;
    const only = VISIBILITY_ONLY.find((field) => shown[field] !== undefined);
    if (only === undefined) {
      sortNote.hidden = true;
      return wanted;
    }
    localSort(`the chain store that sorts every run does not hold ${only}.`);
    return {};
  };
  const show = () =>
    renderTable(table, runs, sort, (key) => {
      sort = { key, dir: sort.key === key && sort.dir === 'desc' ? 'asc' : 'desc' };
      // The loaded rows at once; then, when the server can, every matching run in that order.
      show();
      if (serverSorts && (Object.keys(serverOrder(sort)).length || loadedInServerOrder)) void load(false);
    });
  /** Whether the loaded rows came in a server sort other than its own order. */
  let loadedInServerOrder = false;
  /** Each load's number: an answer to an older one (the person clicked again, or changed the filters) is dropped. */
  let generation = 0;
  let loading = false;
  const scoped = (query) => ({ ...query, ...(view ? { view } : {}) });

  const load = async (append) => {
    const mine = ++generation;
    loading = true;
    message.textContent = 'Loading…';
    message.classList.remove('error');
    if (!append) shown = filterForm.query();
    const order = ordered();
    try {
      const page = await api('/v1/runs', {
        query: scoped({ ...shown, ...order, pageSize: PAGE_SIZE, pageToken: append ? nextPageToken : undefined }),
      });
      if (mine !== generation) return;
      runs = [...(append ? runs : []), ...(page?.runs ?? [])];
      appended = append;
      loadedInServerOrder = Object.keys(order).length > 0;
      show();
      nextPageToken = page?.nextPageToken;
      more.hidden = !nextPageToken;
      message.textContent = runs.length ? '' : 'No runs match.';
    } catch (err) {
      if (mine !== generation) return;
      // No chain store on this server: sort the loaded rows here, and say so.
      if (err?.status === 400 && err.issues?.[0]?.path?.[0] === 'sort' && Object.keys(order).length) {
        serverSorts = false;
        localSort(err.message);
        return load(append);
      }
      message.textContent = describeFailure(err);
      message.classList.add('error');
    } finally {
      if (mine === generation) loading = false;
    }
  };

  /**
   * Live: the first page again. With only the first page loaded it replaces the rows (and the
   * page token); with more loaded, newest first, it is merged over them and the token kept. A
   * read that a load overtook, or that failed, changes nothing.
   */
  const refresh = async () => {
    if (loading) return;
    const mine = generation;
    const order = ordered();
    const sorted = Object.keys(order).length > 0;
    if (sorted && appended) return;
    try {
      const page = await api('/v1/runs', { query: scoped({ ...shown, ...order, pageSize: PAGE_SIZE }) });
      if (mine !== generation || loading) return;
      if (!appended) {
        runs = page?.runs ?? [];
        nextPageToken = page?.nextPageToken;
        more.hidden = !nextPageToken;
      } else runs = mergeFirstPage(runs, page?.runs ?? []);
      show();
      // A load that failed (the server was down when the page opened) is answered now.
      if (message.classList.contains('error')) {
        message.classList.remove('error');
        message.textContent = runs.length ? '' : 'No runs match.';
      }
    } catch {
      // The next tick tries again; the message line is for what the person did.
    }
  };

  filterForm.form.addEventListener('submit', (event) => {
    event.preventDefault();
    void load(false);
  });
  more.addEventListener('click', () => void load(true));

  replaceChildren(
    root,
    h('section', { class: 'panel' }, h('h2', {}, 'Start a run'), startForm()),
    h('section', { class: 'panel' }, h('h2', {}, 'Runs'), filterForm.form, sortNote, table, message, more),
  );
  void load(false);
  return everyWhileVisible(refresh);
}

/** The list's columns: [sort key, heading]; spend only when the rows carry it (not in the end user's view). */
function columnsFor(runs) {
  return [
    ['status', 'Status'],
    ['agent', 'Agent'],
    ['task', 'Task'],
    ['took', 'Took'],
    ['iterations', 'Iterations'],
    ...(showsSpend(runs)
      ? [
          ['tokens', 'Tokens'],
          ['cost', 'Cost'],
        ]
      : []),
    ['model', 'Model'],
    ['started', 'Started'],
  ];
}

/** The whole table from the loaded rows, sorted; a heading is a button that sorts by its column (again: the other way). */
function renderTable(table, runs, sort, onSort) {
  const columns = columnsFor(runs);
  const heading = ([key, label]) => {
    const sorted = sort.key === key;
    return h(
      'th',
      { 'aria-sort': sorted ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none' },
      h(
        'button',
        { type: 'button', class: 'sort', dataset: { sort: key }, onclick: () => onSort(key) },
        label,
        sorted ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : '',
      ),
    );
  };
  replaceChildren(
    table,
    h('thead', {}, h('tr', {}, columns.map(heading))),
    h(
      'tbody',
      {},
      sortRuns(runs, sort.key, sort.dir).map((run) => runRow(run, columns)),
    ),
  );
}

/** One run: each cell what the column says, or a dash when the run has no such value yet. */
function runRow(run, columns) {
  const dash = (text) => text ?? '—';
  const cells = {
    status: () => badgeOf(run),
    agent: () =>
      [run.agentName ?? '', experimentText(run.experiment), originText(run.origin)].filter(Boolean).join(' · '),
    task: () => h('a', { href: `#/runs/${encodeURIComponent(run.runId)}` }, run.task || run.runId),
    took: () => dash(formatDuration(run.durationMs)),
    iterations: () => dash(run.iterations?.toLocaleString('en-US')),
    tokens: () => dash(run.tokens?.toLocaleString('en-US')),
    cost: () => dash(formatUsd(run.costUsd)),
    model: () => dash(run.model),
    started: () => formatDateTime(run.startedAt),
  };
  return h(
    'tr',
    { dataset: { runId: run.runId } },
    columns.map(([key]) => h('td', { class: `col-${key}` }, cells[key]())),
  );
}

function startForm() {
  const task = h('textarea', {
    name: 'task',
    rows: '3',
    required: true,
    maxlength: '100000',
    placeholder: 'What should the agent do?',
    'aria-label': 'Task',
  });
  const agentName = h('input', {
    name: 'agentName',
    type: 'text',
    placeholder: 'agent name (optional)',
    'aria-label': 'Agent name',
  });
  const extra = h('textarea', {
    name: 'extra',
    rows: '4',
    placeholder: '{ "maxIterations": 10 }',
    'aria-label': 'More input as JSON',
  });
  const message = h('p', { class: 'message', role: 'status' });
  const form = h(
    'form',
    { class: 'start' },
    task,
    h('div', { class: 'row' }, agentName, h('button', { type: 'submit', class: 'primary' }, 'Start run')),
    h('details', {}, h('summary', {}, 'More of the run input (JSON)'), extra),
    message,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.classList.remove('error');
    let more = {};
    try {
      more = extra.value.trim() ? JSON.parse(extra.value) : {};
      if (more === null || typeof more !== 'object' || Array.isArray(more)) throw new Error('must be a JSON object');
    } catch (err) {
      message.textContent = `The extra input is not a JSON object: ${err.message}`;
      message.classList.add('error');
      return;
    }
    const body = {
      ...more,
      task: task.value,
      ...(agentName.value.trim() ? { agentName: agentName.value.trim() } : {}),
    };
    message.textContent = 'Starting…';
    try {
      const started = await api('/v1/runs', { method: 'POST', body });
      location.hash = `#/runs/${encodeURIComponent(started.runId)}`;
    } catch (err) {
      message.textContent = describeFailure(err);
      message.classList.add('error');
    }
  });
  return form;
}
