// The viewer's entry: the token, who the person is (GET /v1/me), the view they read in, and
// the pages (#/ the run list, #/runs/<id> a run, #/runs/<id>/timeline its timeline, #/compare/<a>/<b>
// two runs side by side, #/search, #/usage,
// #/settings the person's viewing preferences).
import { api, describeFailure, failureOf, onUnauthenticated } from './api.js';
import { h, replaceChildren } from './dom.js';
import { renderRunList } from './run-list.js';
import { renderRunPage } from './run-page.js';
import { renderSearchPage } from './search-page.js';
import { renderTimelinePage } from './timeline-page.js';
import { renderComparePage } from './compare-page.js';
import { renderUsagePage } from './usage-page.js';
import { renderPreferencesPage } from './preferences.js';
import { clearToken, getToken, setToken, takeFragmentToken, tokenFromFragment } from './token.js';

const VIEW_KEY = 'thoughtline.view';
const VIEW_LABEL = { end_user: 'End user', developer: 'Developer', auditor: 'Auditor' };

const main = document.getElementById('main');
const who = document.getElementById('who');
const signIn = document.getElementById('sign-in');
let me;
let dispose = () => {};
/** A link's token that would replace the signed-in one: kept in memory until the person decides. */
let linkToken = takeFragmentToken();

function showSignIn(text) {
  dispose();
  dispose = () => {};
  me = undefined;
  who.replaceChildren();
  main.replaceChildren();
  const token = h('input', {
    type: 'password',
    name: 'token',
    autocomplete: 'off',
    required: true,
    'aria-label': 'Access token',
    placeholder: 'Paste your access token',
  });
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

const describeIdentity = (who) =>
  `${who.id}${who.tenant ? ` · ${who.tenant}` : ''}${who.roles.length ? ` (${who.roles.join(', ')})` : ''}`;

/** Who a token signs in as, without storing it; undefined with the server's reason when it is refused. */
async function identityOf(token) {
  const response = await fetch(new URL('/v1/me', location.origin), {
    headers: { accept: 'application/json', authorization: `Bearer ${token}` },
  });
  if (response.ok) return { me: await response.json() };
  return { refused: (await failureOf(response)).message };
}

/** Asks the signed-in person whether the link's identity replaces theirs; nothing changes until they say so. */
async function askToSwitch(token) {
  const other = await identityOf(token).catch((err) => ({ refused: describeFailure(err) }));
  const stay = h('button', { type: 'button', class: other.me ? '' : 'primary' }, `Stay signed in as ${me.id}`);
  const box = h(
    'div',
    { class: 'sign-in-form switch-identity', role: 'alertdialog', 'aria-label': 'Switch identity' },
    h('h2', {}, 'Switch identity?'),
    h('p', {}, 'This tab is signed in as ', h('strong', {}, describeIdentity(me)), '.'),
    other.me
      ? h(
          'p',
          {},
          'The link you opened signs in as ',
          h('strong', {}, describeIdentity(other.me)),
          '. Switch only if this link was meant for you.',
        )
      : h(
          'p',
          { class: 'message error', role: 'alert' },
          `The link you opened carries a token the server refused: ${other.refused}`,
        ),
    other.me
      ? h('button', { type: 'button', class: 'primary', onclick: () => decide(true) }, `Switch to ${other.me.id}`)
      : null,
    stay,
  );
  stay.addEventListener('click', () => decide(false));
  function decide(switching) {
    signIn.hidden = true;
    signIn.replaceChildren();
    if (!switching) return finishBoot();
    setToken(token);
    void boot();
  }
  signIn.hidden = false;
  replaceChildren(signIn, box);
  stay.focus();
}

function currentView() {
  const stored = sessionStorage.getItem(VIEW_KEY);
  return me.views.includes(stored) ? stored : me.defaultView;
}

function renderWho() {
  const select = h(
    'select',
    { id: 'view', 'aria-label': 'View' },
    me.views.map((v) => h('option', { value: v, selected: v === currentView() }, `${VIEW_LABEL[v] ?? v} view`)),
  );
  select.addEventListener('change', () => {
    sessionStorage.setItem(VIEW_KEY, select.value);
    route();
  });
  const signOut = h('button', { type: 'button', class: 'link' }, 'Sign out');
  signOut.addEventListener('click', () => {
    clearToken();
    showSignIn();
  });
  replaceChildren(
    who,
    h(
      'span',
      { class: 'identity' },
      me.id,
      me.tenant ? ` · ${me.tenant}` : '',
      me.roles.length ? ` (${me.roles.join(', ')})` : '',
    ),
    select,
    signOut,
  );
}

function route() {
  if (!me) return;
  dispose();
  dispose = () => {};
  const run = /^#\/runs\/([^/?#]+)(\/timeline)?(?:\?step=(\d+))?/.exec(location.hash);
  const compare = /^#\/compare\/([^/?#]+)\/([^/?#]+)/.exec(location.hash);
  if (compare) {
    const [a, b] = [compare[1], compare[2]].map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    });
    dispose = renderComparePage(main, { a, b, view: currentView() });
  } else if (run) {
    let runId;
    try {
      runId = decodeURIComponent(run[1]);
    } catch {
      runId = run[1];
    }
    if (run[2]) dispose = renderTimelinePage(main, { runId, view: currentView() });
    else
      dispose = renderRunPage(main, {
        runId,
        me,
        view: currentView(),
        focusStep: Number(run[3] ?? 0),
        reload: route,
      });
  } else if (location.hash.startsWith('#/search')) {
    dispose = renderSearchPage(main, { view: currentView() });
  } else if (location.hash.startsWith('#/usage')) {
    dispose = renderUsagePage(main);
  } else if (location.hash.startsWith('#/settings')) {
    dispose = renderPreferencesPage(main);
  } else {
    dispose = renderRunList(main, { view: currentView() });
  }
}

async function boot() {
  if (!getToken()) return showSignIn();
  try {
    me = await api('/v1/me');
  } catch (err) {
    if (err?.status === 401) {
      // The tab's own token is refused: the link's, if any, is the way back in.
      if (linkToken) {
        setToken(linkToken);
        linkToken = undefined;
        return void boot();
      }
      return; // showSignIn already ran
    }
    replaceChildren(main, h('p', { class: 'message error' }, describeFailure(err)));
    return;
  }
  if (linkToken) {
    const token = linkToken;
    linkToken = undefined;
    return askToSwitch(token);
  }
  signIn.hidden = true;
  signIn.replaceChildren();
  finishBoot();
}

function finishBoot() {
  renderWho();
  route();
}

window.addEventListener('hashchange', () => {
  if (!tokenFromFragment(location.hash)) return route();
  // A link opened in this tab while it was open: the same question as on load.
  linkToken = takeFragmentToken();
  void boot();
});
void boot();
