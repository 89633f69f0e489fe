import fs from 'node:fs';
import path from 'node:path';
import { openInFolder, readInFolder } from '../../files/open-in-folder';
import { RegularFileError } from '../../files/regular-file-error';
import { DatasetError, loadDataset, MAX_DATASET_BYTES } from '../dataset';
import { checkCase, fieldText } from '../dataset/check-case';
import { utf8Bytes } from '../../domain/run/payload-size';
import { MAX_CASE_RECORDING_BYTES, type CaseFromRun } from './case-from-run';
import { CaseFromRunError, CaseFromRunRefusal } from './case-from-run-error';

/** The ids of the cases a dataset has now (none when the file is missing or empty); its other problems throw. */
export function caseIdsOf(datasetFile: string): Set<string> {
  const extension = path.extname(datasetFile).toLowerCase();
  if (extension !== '.jsonl' && extension !== '.ndjson')
    throw new DatasetError(path.resolve(datasetFile), [
      { message: 'cases from runs are appended to a .jsonl (or .ndjson) dataset, one case a line' },
    ]);
  // An empty file has no case yet; anything else (a symlink, a pipe, a file too large) is the loader's to refuse.
  const text = datasetText(datasetFile, { refuse: false });
  if (text !== undefined && text.trim() === '') return new Set();
  return new Set(loadDataset(datasetFile).cases.map((c) => c.id));
}

/**
 * The dataset's text read inside its folder (no symlink followed), '' when it is missing. Other
 * problems throw a DatasetError, or give undefined when `refuse` is false (the loader then says why).
 */
function datasetText(datasetFile: string, { refuse }: { refuse: boolean }): string | undefined {
  const file = path.resolve(datasetFile);
  try {
    return readInFolder(path.dirname(file), path.basename(file), MAX_DATASET_BYTES).toString('utf8');
  } catch (err) {
    if (!(err instanceof RegularFileError)) throw err;
    if (err.problem === 'missing') return '';
    if (!refuse) return undefined;
    throw new DatasetError(file, [{ message: err.message }]);
  }
}

/** No file there, or the same recording (the run made a case of another dataset in the same folder). */
function sameRecording(datasetFile: string, folder: string, c: CaseFromRun): boolean {
  try {
    return readInFolder(folder, c.recordingPath, MAX_CASE_RECORDING_BYTES).toString('utf8') === c.recording;
  } catch (err) {
    if (err instanceof RegularFileError && err.problem === 'missing') return true;
    throw fileRefusal(datasetFile, err);
  }
}

/** A refusal of a file of the dataset (a symlinked `recordings/`, a recording that is a pipe) as a DatasetError naming it. */
function fileRefusal(datasetFile: string, err: unknown): unknown {
  if (!(err instanceof RegularFileError)) return err;
  return new DatasetError(path.resolve(datasetFile), [{ message: `${err.file}: ${err.message}` }]);
}

/** Writes `text` to the file `fd` holds, all of it (a write may take part), and closes it. */
function writeAll(fd: number, text: string): void {
  try {
    const bytes = Buffer.from(text, 'utf8');
    for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Appends the cases to a JSONL dataset (made when missing), each recording written beside it
 * first (`recordings/<case>.jsonl`; one already there is kept when it is the same, else refused),
 * then their lines, so a dataset never names a recording that is not there. All or nothing: a
 * case whose id the dataset has, another recording at its path, a case the dataset loader would
 * refuse, or a dataset that would pass MAX_DATASET_BYTES throws before anything is written.
 * Nothing is read or written through a symlink: the dataset file, `recordings/` and each
 * recording are opened inside the dataset's folder step by step (openInFolder), so a symlinked
 * `recordings/` is refused (a DatasetError naming it) and nothing lands outside the folder.
 * Synchronous from the check to the last write, so appends in one process never interleave.
 * Returns the ids added.
 */
export function appendCases(datasetFile: string, cases: readonly CaseFromRun[]): string[] {
  const dir = path.dirname(path.resolve(datasetFile));
  const name = path.basename(datasetFile);
  const taken = caseIdsOf(datasetFile);
  for (const c of cases) {
    const checked = checkCase(c.case);
    if (!checked.ok)
      throw new DatasetError(
        path.resolve(datasetFile),
        checked.issues.map((i) => ({ field: fieldText(i.path), message: `case ${c.case.id}: ${i.message}` })),
      );
    if (taken.has(c.case.id))
      throw new CaseFromRunError(
        CaseFromRunRefusal.Duplicate,
        c.case.id,
        `the dataset already has the case ${c.case.id} (a run becomes one case).`,
      );
    if (!sameRecording(datasetFile, dir, c))
      throw new CaseFromRunError(
        CaseFromRunRefusal.Duplicate,
        c.case.id,
        `${c.recordingPath} is already there and records something else; remove it or the case that uses it first.`,
      );
    taken.add(c.case.id);
  }
  const before = datasetText(datasetFile, { refuse: true })!;
  const text = `${before !== '' && !before.endsWith('\n') ? '\n' : ''}${cases.map((c) => JSON.stringify(c.case)).join('\n')}\n`;
  const bytes = utf8Bytes(before) + utf8Bytes(text);
  if (bytes > MAX_DATASET_BYTES)
    throw new CaseFromRunError(
      CaseFromRunRefusal.TooLarge,
      cases[0]?.case.id ?? '',
      `the dataset would be ${bytes} bytes; at most ${MAX_DATASET_BYTES} (MAX_DATASET_BYTES): start another dataset.`,
    );
  // The dataset's own folder is the one the person (or serve's tenant folder) named: made when missing.
  fs.mkdirSync(dir, { recursive: true });
  try {
    for (const c of cases) {
      let fd: number;
      try {
        fd = openInFolder(dir, c.recordingPath, 'create');
      } catch (err) {
        // The same recording is there already (sameRecording said so): kept.
        if (err instanceof RegularFileError && err.problem === 'exists') continue;
        throw err;
      }
      writeAll(fd, c.recording);
    }
    writeAll(openInFolder(dir, name, 'append'), text);
  } catch (err) {
    throw fileRefusal(datasetFile, err);
  }
  return cases.map((c) => c.case.id);
}
