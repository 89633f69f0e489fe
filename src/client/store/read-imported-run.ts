import type { ReasoningChain } from '../../domain';
import { isImportRunId, type StoredRun } from '../../domain/store';
import type { ChainStore } from '../../store/chain-store';
import { readStoredPage } from './read-stored-chain';

/** An imported run as the store keeps it: its row (with `imported`) and its whole chain in the auditor's view. */
export interface ImportedRunRead {
  run: StoredRun & { imported: NonNullable<StoredRun['imported']> };
  chain: ReasoningChain;
}

/**
 * The imported run kept under `runId`, read whole in the auditor's view (an import keeps raw
 * steps), or undefined when the id is not an import's, the store has no import under it, or it
 * is of another tenant than `tenant` (null: runs without one). With `tenant` undefined any
 * tenant's is read: the CLI, whose user holds the store itself. The same undefined for all three,
 * so a door answers them alike and nobody learns which ids exist. Rejects when the store does.
 */
export async function readImportedRun(
  store: ChainStore,
  runId: string,
  tenant?: string | null,
): Promise<ImportedRunRead | undefined> {
  if (!isImportRunId(runId)) return undefined;
  const page = await readStoredPage(store, runId, 'auditor');
  const imported = page?.run.imported;
  if (!page || !imported) return undefined;
  if (tenant !== undefined && (page.run.tenant ?? null) !== tenant) return undefined;
  return { run: { ...page.run, imported }, chain: page.chain };
}
