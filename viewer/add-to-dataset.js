// "Add to dataset" on an ended run's page: POST /v1/datasets/{name}/cases makes the run a case of
// a dataset the server keeps (`serve --datasets DIR`). Only for people whose roles allow the
// auditor's view: a case carries every model call whole, and the server refuses anyone else.
import { api, describeFailure } from './api.js';
import { h, replaceChildren } from './dom.js';

/** Letters, digits, "-", "_" and "." (not first), at most 64: the server's own rule for a dataset name. */
export const isDatasetName = (name) => /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/.test(name);

/** "Added case run-… to support (3 recorded lines, expects success)": what the server answered. Pure. */
export function addedText(answer) {
  const id = String(answer?.case?.id ?? '');
  const lines = Number(answer?.recording?.lines ?? 0);
  const ending = answer?.case?.expect?.terminationReason;
  return `Added case ${id} to ${String(answer?.dataset ?? '')} (${lines} recorded line${lines === 1 ? '' : 's'}${ending ? `, expects ${ending}` : ''}).`;
}

/**
 * The panel with its form; `update({ ended })` shows it once the run has ended, to an auditor.
 * The dataset name is remembered in this browser for the next run.
 */
export function createAddToDataset({ runId, me }) {
  const mayAdd = Array.isArray(me?.views) && me.views.includes('auditor');
  const panel = h('section', { class: 'add-to-dataset panel', hidden: true, 'aria-label': 'Add to dataset' });
  const name = h('input', {
    type: 'text',
    name: 'dataset',
    value: localStorage.getItem('thoughtline.dataset') || 'production',
    'aria-label': 'Dataset name',
    maxlength: '64',
  });
  const result = h('p', { class: 'note', role: 'status' });
  const button = h('button', { type: 'submit' }, 'Add to dataset');
  const form = h(
    'form',
    {
      onsubmit: async (event) => {
        event.preventDefault();
        const dataset = name.value.trim();
        result.classList.remove('error');
        if (!isDatasetName(dataset)) {
          result.textContent = 'A dataset name is letters, digits, "-", "_" and "." (not first), at most 64.';
          result.classList.add('error');
          return;
        }
        button.disabled = true;
        result.textContent = 'Adding…';
        try {
          const answer = await api(`/v1/datasets/${encodeURIComponent(dataset)}/cases`, {
            method: 'POST',
            body: { runId },
          });
          localStorage.setItem('thoughtline.dataset', dataset);
          result.textContent = addedText(answer);
        } catch (err) {
          result.textContent = describeFailure(err);
          result.classList.add('error');
        } finally {
          button.disabled = false;
        }
      },
    },
    h('label', {}, 'Dataset ', name),
    ' ',
    button,
  );
  replaceChildren(
    panel,
    h('h3', {}, 'Evaluation'),
    h('p', { class: 'note' }, 'Make this run a case: its recorded replies and tool results replay offline.'),
    form,
    result,
  );
  return {
    panel,
    update({ ended }) {
      panel.hidden = !(mayAdd && ended);
    },
  };
}
