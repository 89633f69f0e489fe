// The runs the person's tenant has (GET /v1/runs), with filters, and a form to start one.
import { api, describeFailure } from './api.js';
import { h, replaceChildren } from './dom.js';
import { badgeOf } from './ending-view.js';
import { experimentText, formatDateTime } from './format.js';

const STATUSES = ['', 'running', 'completed', 'failed', 'cancelled', 'terminated', 'timed_out'];

export function renderRunList(root, { filters = {} } = {}) {
  const status = h(
    'select',
    { name: 'status', 'aria-label': 'Status' },
    STATUSES.map((s) => h('option', { value: s, selected: s === (filters.status ?? '') }, s || 'any status')),
  );
  const agent = h('input', {
    name: 'agent',
    type: 'text',
    placeholder: 'agent name',
    value: filters.agent ?? '',
    'aria-label': 'Agent',
  });
  const rows = h('tbody');
  const more = h('button', { type: 'button', hidden: true }, 'More runs');
  const message = h('p', { class: 'message', role: 'status' });
  let nextPageToken;

  const load = async (append) => {
    message.textContent = 'Loading…';
    message.classList.remove('error');
    try {
      const page = await api('/v1/runs', {
        query: {
          status: status.value,
          agent: agent.value.trim(),
          pageSize: 50,
          pageToken: append ? nextPageToken : undefined,
        },
      });
      if (!append) rows.replaceChildren();
      for (const run of page?.runs ?? []) rows.append(runRow(run));
      nextPageToken = page?.nextPageToken;
      more.hidden = !nextPageToken;
      message.textContent = rows.children.length ? '' : 'No runs match.';
    } catch (err) {
      message.textContent = describeFailure(err);
      message.classList.add('error');
    }
  };

  const filterForm = h('form', { class: 'filters' }, status, agent, h('button', { type: 'submit' }, 'Filter'));
  filterForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void load(false);
  });
  more.addEventListener('click', () => void load(true));

  replaceChildren(
    root,
    h('section', { class: 'panel' }, h('h2', {}, 'Start a run'), startForm()),
    h(
      'section',
      { class: 'panel' },
      h('h2', {}, 'Runs'),
      filterForm,
      h(
        'table',
        { class: 'runs' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Status', 'Agent', 'Task', 'Started'].map((t) => h('th', {}, t)),
          ),
        ),
        rows,
      ),
      message,
      more,
    ),
  );
  void load(false);
}

function runRow(run) {
  const link = h('a', { href: `#/runs/${encodeURIComponent(run.runId)}` }, run.task || run.runId);
  return h(
    'tr',
    { dataset: { runId: run.runId } },
    h('td', {}, badgeOf(run)),
    h('td', {}, [run.agentName ?? '', experimentText(run.experiment)].filter(Boolean).join(' · ')),
    h('td', { class: 'task' }, link),
    h('td', {}, formatDateTime(run.startedAt)),
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
