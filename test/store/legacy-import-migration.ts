import { expect } from 'vitest';
import type { ChainStore } from '../../src/store/chain-store';
import { RUN_SORT_COLUMNS } from '../../src/store/sql/store-schema';
import { RunList } from '../../src/domain/store';
import { legacyImportOf, runUpdateOf, sampleChain } from './store-test-chains';

/** The id a trigger run would get, where a store before version 5 kept an import. */
const SQUATTED = 'trigger.deploys.d-1';

/**
 * The statements that take a database migrated to the latest version back to version 4's tables:
 * version 6's columns (and their indexes) out, the schema's version 4, as a store of then had them.
 */
export function backToVersion4(prefix: string): string[] {
  const runs = `${prefix}runs`;
  return [
    ...RUN_SORT_COLUMNS.map((column) => `DROP INDEX IF EXISTS ${runs}_by_${column}`),
    ...['iterations', 'model', 'model_step', 'duration_ms', 'total_tokens'].map(
      (column) => `ALTER TABLE ${runs} DROP COLUMN ${column}`,
    ),
    `UPDATE ${prefix}store_schema SET version = 4`,
  ];
}

/** Writes an import under a live run's id, as stores before version 5 did, beside a live run; returns what was written. */
export async function writeLegacyImport(store: ChainStore): Promise<ReturnType<typeof legacyImportOf>> {
  const legacy = legacyImportOf(SQUATTED);
  await store.putRun(legacy.update);
  await store.putSteps(SQUATTED, legacy.steps);
  await store.putRun(runUpdateOf(sampleChain('agent-live')));
  return legacy;
}

/** After migration 5 (both databases): the import and its steps live under `import:legacy:<id>`, the live id is free, the live run untouched. */
export async function expectLegacyImportMoved(
  store: ChainStore,
  legacy: ReturnType<typeof legacyImportOf>,
): Promise<void> {
  const moved = `import:legacy:${SQUATTED}`;
  expect(await store.run(SQUATTED)).toBeUndefined();
  expect(await store.run(moved)).toMatchObject({
    rootRunId: moved,
    stepCount: legacy.steps.length,
    imported: { importedBy: 'mallory' },
  });
  const steps = await store.steps(moved, { afterStep: 0, limit: 100 });
  expect(steps.map((step) => step.stepId)).toEqual(legacy.steps.map((step) => step.stepId));
  expect(await store.steps(SQUATTED, { afterStep: 0, limit: 100 })).toEqual([]);
  expect(await store.run('agent-live')).toMatchObject({ rootRunId: 'agent-live' });
  // Version 6 on rows stored before it: their tokens at once (the import's 132 sorts first), their
  // iterations unknown until a rebuild (never a made-up 0).
  const byTokens = await store.listRuns(RunList.parse({ sort: 'tokens' }), { tenant: null, role: 'auditor' });
  expect(byTokens.runs.map((run) => run.runId)).toEqual([moved, 'agent-live']);
  expect((await store.run(moved))?.iterations).toBeUndefined();
}
