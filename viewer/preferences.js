// What a person chooses to see (seed 002, journey 5): the settings page (#/settings) saves their
// preferences on the server (PUT /v1/me/preferences), so they follow them to any browser; and
// "Show details", kept for this tab only, which reads runs without the preferences (never
// without the organisation's policy: the server applies that to every read).
import { api, describeFailure } from './api.js';
import { h, replaceChildren } from './dom.js';

const DETAILS_KEY = 'thoughtline.details';

/** The journey's checkboxes, in its order: the field each one sets, and its words. */
export const PREFERENCE_BOXES = [
  ['summariesOnly', 'Show progress summary only'],
  ['thinking', 'Show detailed thinking steps'],
  ['externalCalls', 'Show external API calls'],
  ['internalCalls', 'Show internal skill calls'],
  ['finalReasoning', 'Show final reasoning for decisions'],
];

/** Whether this tab reads runs with every detail its policy allows ("Show details"). */
export function detailsOn() {
  return sessionStorage.getItem(DETAILS_KEY) === 'true';
}

export function setDetails(on) {
  if (on) sessionStorage.setItem(DETAILS_KEY, 'true');
  else sessionStorage.removeItem(DETAILS_KEY);
}

/** The query every run read carries: `details=true` while "Show details" is on, else nothing. */
export const detailsQuery = () => (detailsOn() ? { details: 'true' } : {});

/** The "Show details" toggle for a run page; `changed` re-reads the run. */
export function detailsToggle(changed) {
  const box = h('input', { type: 'checkbox', class: 'details-toggle', checked: detailsOn() });
  box.addEventListener('change', () => {
    setDetails(box.checked);
    changed();
  });
  return h(
    'label',
    {
      class: 'details-label',
      title: 'Read this run without your viewing preferences (your role’s policy still applies)',
    },
    box,
    ' Show details',
  );
}

/** The settings page: the journey's checkboxes, read from and saved to the server. */
export function renderPreferencesPage(root) {
  const message = h('p', { class: 'message', role: 'status' });
  const boxes = Object.fromEntries(
    PREFERENCE_BOXES.map(([field]) => [field, h('input', { type: 'checkbox', name: field, disabled: true })]),
  );
  const save = h('button', { type: 'submit', class: 'primary', disabled: true }, 'Save');
  const notice = h('p', { class: 'note', hidden: true });
  const form = h(
    'form',
    { class: 'preferences panel' },
    h('h2', {}, 'Reasoning visibility'),
    h(
      'p',
      { class: 'note' },
      'What you see of each run, within what your role may see. “Show details” on a run shows it all again.',
    ),
    PREFERENCE_BOXES.map(([field, label]) => h('label', { class: 'preference' }, boxes[field], ` ${label}`)),
    notice,
    save,
    message,
  );
  let disposed = false;
  const say = (text, error = false) => {
    message.classList.toggle('error', error);
    message.textContent = text;
  };
  const show = (answer) => {
    for (const [field] of PREFERENCE_BOXES) {
      boxes[field].checked = Boolean(answer.preferences[field]);
      boxes[field].disabled = false;
    }
    save.disabled = false;
    notice.hidden = answer.applies !== false;
    notice.textContent = 'Your role’s policy does not apply personal preferences: you see its view as it is.';
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    save.disabled = true;
    say('Saving…');
    try {
      const body = Object.fromEntries(PREFERENCE_BOXES.map(([field]) => [field, boxes[field].checked]));
      const answer = await api('/v1/me/preferences', { method: 'PUT', body });
      if (disposed) return;
      show(answer);
      say('Saved. Runs you open now show what you chose.');
    } catch (err) {
      if (!disposed) say(describeFailure(err), true);
    }
    save.disabled = false;
  });
  replaceChildren(root, form);
  void (async () => {
    say('Loading…');
    try {
      const answer = await api('/v1/me/preferences');
      if (disposed) return;
      show(answer);
      say('');
    } catch (err) {
      if (!disposed) say(describeFailure(err), true);
    }
  })();
  return () => {
    disposed = true;
  };
}
