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

/** On first load: move a token from the fragment into sessionStorage and out of the address bar. */
export function adoptFragmentToken() {
  const found = tokenFromFragment(location.hash);
  if (!found) return;
  setToken(found.token);
  history.replaceState(null, '', `${location.pathname}${location.search}${found.rest}`);
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
