import path from 'node:path';
import type { CommandSpec } from '../../spec/command-line';
import { flag, PERSON_OPTIONS, text, texts } from '../../spec/flags';
import { readRegularFile } from '../../../files/read-regular-file';
import { RegularFileError } from '../../../files/regular-file-error';
import { importBundle, ImportRefusedError, MAX_IMPORT_BYTES, type ImportedRun } from '../../../audit';
import { loadConfig } from '../../../config';
import { UsageError } from '../../spec/usage-error';
import { writeForStdout, writeSafe } from '../../render/terminal-safe';
import { actingPerson } from '../people-in-the-loop/decide-call';
import { openStoreFor, storeSettingsOf } from './store';
import { counted } from '../../../domain/text/counted';

/** The id to read it by (`import:…`) and the exported run's, side by side. */
const runLine = (run: ImportedRun): string =>
  run.outcome === 'imported'
    ? `✓ ${run.runId} (${run.originalRunId}): imported, ${counted(run.steps, 'step')}; final hash ${run.finalHash}${run.parentRunId ? `; sub-agent of ${run.parentRunId}` : ''}\n`
    : `= ${run.runId} (${run.originalRunId}): already imported (the same sealed report); nothing written\n`;

/**
 * `import FILE (--public-key KEY | --final-hash HASH)… [--store VALUE] [--json]`: verifies a JSON
 * export as `verify` does and writes its runs into the chain store, marked imported (by whom,
 * when, from which file), readable by `chain`, `search` and the API like any stored run. A bundle
 * that does not verify, or any run of it that cannot be imported, is refused whole: exit 1,
 * nothing written.
 */
async function importFile(
  file: string,
  options: { publicKeys: string[]; finalHashes: string[]; store?: string; json: boolean; as?: string },
): Promise<number> {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file, MAX_IMPORT_BYTES);
  } catch (err) {
    if (err instanceof RegularFileError && err.problem === 'too_large')
      return refused(
        new ImportRefusedError(
          'too_large',
          `${file} is ${err.message}; export fewer runs at a time (export --query … --limit N).`,
        ),
        options.json,
      );
    if (err instanceof RegularFileError) throw new UsageError(`${file}: ${err.message}.`);
    throw new UsageError(`Cannot read ${file}: ${(err as Error).message}`);
  }
  const config = loadConfig();
  const store = await openStoreFor(storeSettingsOf(options.store));
  try {
    const runs = await importBundle(bytes, store, {
      trustedKeys: options.publicKeys,
      finalHashes: options.finalHashes,
      importedBy: actingPerson(config, options.as !== undefined ? { as: options.as } : {}).id,
      from: path.basename(file),
    });
    if (options.json) writeForStdout(`${JSON.stringify({ runs }, null, 2)}\n`);
    else writeSafe(process.stdout, `${runs.map(runLine).join('')}into ${store.where}\n`);
    return 0;
  } catch (err) {
    if (err instanceof ImportRefusedError) return refused(err, options.json);
    throw err;
  } finally {
    await store.close();
  }
}

function refused(err: ImportRefusedError, json: boolean): number {
  if (json)
    writeForStdout(
      `${JSON.stringify({ refused: { reason: err.reason, message: err.message, problems: err.problems } }, null, 2)}\n`,
    );
  else
    writeSafe(
      process.stdout,
      `✗ ${err.message}\n${err.problems
        .slice(1)
        .map((p) => `  also: ${p}\n`)
        .join('')}`,
    );
  return 1;
}

export const IMPORT_COMMAND: CommandSpec = {
  name: 'import',
  group: 'Store and audit',
  summary: 'verify a JSON export and keep its runs in the chain store',
  description: `Verify a JSON export (a report, or a bundle of them, as export writes it in JSON) as verify does, then write its runs into the chain store marked imported: chain, search and the API read them like any stored run. Refused whole, with nothing written, when any report does not verify, was not exported in the auditor's view, had not ended, or collides with a run the store has; the same export imported again is skipped. At most ${MAX_IMPORT_BYTES / (1024 * 1024)} MiB.`,
  usage: ['import <file> (--public-key KEY | --final-hash HASH)... [--store VALUE] [--json]'],
  examples: [
    'thoughtline import audit.json --public-key 3Xk',
    'thoughtline import week.json --final-hash sha256:9b0e --store sqlite:archive.sqlite',
  ],
  args: [{ name: '<file>', needs: 'the JSON export to import (from export --format json)' }],
  options: {
    'public-key': texts('KEY', 'a public key the reports may be signed with'),
    'final-hash': texts('HASH', 'a final hash kept from the export'),
    store: text('VALUE', 'the chain store: sqlite:PATH or a postgres:// URL', {
      env: 'THOUGHTLINE_STORE',
      default: '.thoughtline/store.sqlite',
    }),
    json: flag('print the runs imported, or the refusal, as JSON'),
    as: PERSON_OPTIONS.as,
  },
  run: async (l) => {
    const as = l.text('as');
    return importFile(l.args[0]!, {
      publicKeys: l.texts('public-key') ?? [],
      finalHashes: l.texts('final-hash') ?? [],
      json: l.flag('json'),
      ...(l.text('store') !== undefined ? { store: l.text('store')! } : {}),
      ...(as !== undefined ? { as } : {}),
    });
  },
};
