import type { ChainStore } from '../../src/store/chain-store';
import { MemoryChainStore } from './memory-chain-store';

/** A fresh empty store, and how to stop and start its database (a fault, mid-run). */
export type StoreKind = () => Promise<{ store: ChainStore; stop(): Promise<void>; start(): Promise<void> }>;

/** The stores the projection's tests run on: [name, open one]. */
export const STORE_KINDS: Array<[string, StoreKind]> = [
  [
    'memory',
    async () => {
      const store = new MemoryChainStore();
      return {
        store,
        stop: async () => void (store.down = true),
        start: async () => void (store.down = false),
      };
    },
  ],
];
