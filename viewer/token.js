// The bearer token: taken once from the URL fragment that `thoughtline serve` prints, kept in
// sessionStorage (gone when the tab closes), and removed from the address bar and history.

const KEY = 'thoughtline.token';

/** Reads `#token=…`, optionally followed by `&/runs/<id>` (the page to open next). */
export function tokenFromFragment(hash) {
  const match = /^#token=([^&]+)(?:&(.*))?$/.exec(hash ?? '');
  if (!match) return undefined;
  try {
    const token = decodeURIComponent(match[1]).trim();
    return token ? { token, rest: match[2] ? `#${match[2]}` : '#/' } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * On first load: take a token from the fragment out of the address bar (and history). A tab with
 * no token, or the same one, keeps it at once; a tab signed in with another token gets it back,
 * held in memory only, so the person is asked before a link swaps who they are.
 */
export function takeFragmentToken() {
  const found = tokenFromFragment(location.hash);
  if (!found) return undefined;
  history.replaceState(null, '', `${location.pathname}${location.search}${found.rest}`);
  const current = getToken();
  if (current && current !== found.token) return found.token;
  setToken(found.token);
  return undefined;
}

export function getToken() {
  return sessionStorage.getItem(KEY) ?? undefined;
}

export function setToken(token) {
  sessionStorage.setItem(KEY, token);
}

export function clearToken() {
  sessionStorage.removeItem(KEY);
}
