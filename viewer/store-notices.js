// What a read from the chain store says about where it came from (the ChainSource fields):
// read from the store only (Temporal no longer has the history), or the store unavailable.
import { h } from './dom.js';

/** The line to show for a response's source, or undefined when there is nothing to say. Pure. */
export function sourceLine(response) {
  const imported = response?.imported;
  if (imported && typeof imported.finalHash === 'string') {
    const signed =
      imported.anchor === 'trusted_key' ? `signed by ${imported.keyId ?? 'a trusted key'}` : 'its final hash given';
    return `Imported from a sealed export (final hash ${imported.finalHash}, ${signed}) by ${imported.importedBy} on ${String(imported.importedAt).slice(0, 10)}; Temporal does not hold this run.`;
  }
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
