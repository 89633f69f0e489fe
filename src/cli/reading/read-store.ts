import fs from 'node:fs';
import { openChainStore } from '../../store/open-chain-store';
import type { ChainStore } from '../../store/chain-store';
import { parseStoreSetting } from '../../store/store-settings';
import { UsageError } from '../spec/usage-error';

/**
 * The chain store a CLI read uses: THOUGHTLINE_STORE's, or the default SQLite file only when it
 * exists (a read never creates a store). Undefined when there is none or it is `off`.
 */
export async function openReadStore(env: NodeJS.ProcessEnv = process.env): Promise<ChainStore | undefined> {
  let settings;
  try {
    settings = parseStoreSetting(env.THOUGHTLINE_STORE);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (settings.kind === 'off') return undefined;
  if (settings.kind === 'sqlite' && !fs.existsSync(settings.file)) return undefined;
  return openChainStore(settings);
}
