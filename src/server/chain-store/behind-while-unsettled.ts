import type { ChainStore, StoredHead } from '../../store/chain-store';

/**
 * `store` with every run for which `unsettled` says so read as behind (`behindSince` set on its
 * head and row), so readers answer it from Temporal. Everything else passes through unchanged.
 */
export function behindWhileUnsettled(store: ChainStore, unsettled: (runId: string) => boolean): ChainStore {
  const marked = <T extends { behindSince?: string }>(row: T): T =>
    row.behindSince === undefined ? { ...row, behindSince: new Date().toISOString() } : row;
  const head = async (runId: string): Promise<StoredHead | undefined> => {
    const stored = await store.head(runId);
    return stored && unsettled(runId) ? { ...stored, run: marked(stored.run) } : stored;
  };
  const run = async (runId: string) => {
    const stored = await store.run(runId);
    return stored && unsettled(runId) ? marked(stored) : stored;
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === 'head') return head;
      if (property === 'run') return run;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
