// What a read from the chain store says about where it came from (the ChainSource fields):
// read from the store only (Temporal no longer has the history), or the store unavailable.
import { h } from './dom.js';

/** The line to show for a response's source, or undefined when there is nothing to say. Pure. */
export function sourceLine(response) {
  if (response?.storeOnly) {
    return "Read from the chain store only: Temporal no longer has this run's history.";
  }
  if (typeof response?.storeUnavailable === 'string' && response.storeUnavailable) {
    return `The chain store is unavailable (${response.storeUnavailable}); read from Temporal.`;
  }
  return undefined;
}

export function sourceNotice(response) {
  const line = sourceLine(response);
  if (!line) return null;
  return h('p', { class: `store-notice${response.storeOnly ? ' store-only' : ''}`, role: 'note' }, line);
}
