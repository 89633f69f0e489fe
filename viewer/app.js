// The viewer's entry: the token, who the person is (GET /v1/me), the view they read in, and
// the two pages (#/ the run list, #/runs/<id> a run).
import { api, describeFailure, onUnauthenticated } from './api.js';
import { h, replaceChildren } from './dom.js';
import { renderRunList } from './run-list.js';
import { renderRunPage } from './run-page.js';
import { adoptFragmentToken, clearToken, getToken, setToken } from './token.js';

const VIEW_KEY = 'thoughtline.view';
const VIEW_LABEL = { end_user: 'End user', developer: 'Developer', auditor: 'Auditor' };

const main = document.getElementById('main');
const who = document.getElementById('who');
const signIn = document.getElementById('sign-in');
let me;
let dispose = () => {};

function showSignIn(text) {
  dispose();
  dispose = () => {};
  me = undefined;
  who.replaceChildren();
  main.replaceChildren();
  const token = h('input', { type: 'password', name: 'token', autocomplete: 'off', required: true, 'aria-label': 'Access token', placeholder: 'Paste your access token' });
  const form = h(
    'form',
    { class: 'sign-in-form' },
    h('h2', {}, 'Sign in'),
    h('p', {}, 'Paste the access token you were given, or open the link that `thoughtline serve` printed.'),
    text ? h('p', { class: 'message error', role: 'alert' }, text) : null,
    token,
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    setToken(token.value.trim());
    void boot();
  });
  replaceChildren(signIn, form);
  signIn.hidden = false;
  token.focus();
}

onUnauthenticated((failure) => showSignIn(`The server refused your token: ${failure.message}`));

function currentView() {
  const stored = sessionStorage.getItem(VIEW_KEY);
  return me.views.includes(stored) ? stored : me.defaultView;
}

function renderWho() {
  const select = h('select', { id: 'view', 'aria-label': 'View' }, me.views.map((v) => h('option', { value: v, selected: v === currentView() }, `${VIEW_LABEL[v] ?? v} view`)));
  select.addEventListener('change', () => {
    sessionStorage.setItem(VIEW_KEY, select.value);
    route();
  });
  const signOut = h('button', { type: 'button', class: 'link' }, 'Sign out');
  signOut.addEventListener('click', () => {
    clearToken();
    showSignIn();
  });
  replaceChildren(who, h('span', { class: 'identity' }, me.id, me.tenant ? ` · ${me.tenant}` : '', me.roles.length ? ` (${me.roles.join(', ')})` : ''), select, signOut);
}

function route() {
  if (!me) return;
  dispose();
  dispose = () => {};
  const run = /^#\/runs\/([^/?#]+)/.exec(location.hash);
  if (run) {
    let runId;
    try {
      runId = decodeURIComponent(run[1]);
    } catch {
      runId = run[1];
    }
    dispose = renderRunPage(main, { runId, me, view: currentView() });
  } else {
    renderRunList(main);
  }
}

async function boot() {
  if (!getToken()) return showSignIn();
  try {
    me = await api('/v1/me');
  } catch (err) {
    if (err?.status === 401) return; // showSignIn already ran
    replaceChildren(main, h('p', { class: 'message error' }, describeFailure(err)));
    return;
  }
  signIn.hidden = true;
  signIn.replaceChildren();
  renderWho();
  route();
}

adoptFragmentToken();
window.addEventListener('hashchange', route);
void boot();
