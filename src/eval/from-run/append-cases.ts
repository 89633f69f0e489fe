import fs from 'node:fs';
import path from 'node:path';
import { DatasetError, loadDataset, MAX_DATASET_BYTES } from '../dataset';
import { checkCase, fieldText } from '../dataset/check-case';
import { utf8Bytes } from '../../domain/run/payload-size';
import type { CaseFromRun } from './case-from-run';
import { CaseFromRunError, CaseFromRunRefusal } from './case-from-run-error';

/** The ids of the cases a dataset has now (none when the file is missing or empty); its other problems throw. */
export function caseIdsOf(datasetFile: string): Set<string> {
  const extension = path.extname(datasetFile).toLowerCase();
  if (extension !== '.jsonl' && extension !== '.ndjson')
    throw new DatasetError(path.resolve(datasetFile), [
      { message: 'cases from runs are appended to a .jsonl (or .ndjson) dataset, one case a line' },
    ]);
  if (!fs.existsSync(datasetFile)) return new Set();
  // An empty regular file has no case yet; anything else (a pipe, a file too large) is the loader's to refuse.
  const stat = fs.statSync(datasetFile);
  if (stat.isFile() && stat.size <= MAX_DATASET_BYTES && fs.readFileSync(datasetFile, 'utf8').trim() === '')
    return new Set();
  return new Set(loadDataset(datasetFile).cases.map((c) => c.id));
}

/** No file there, or the same recording (the run made a case of another dataset in the same folder). */
function sameRecording(file: string, recording: string): boolean {
  return !fs.existsSync(file) || fs.readFileSync(file, 'utf8') === recording;
}

/**
 * Appends the cases to a JSONL dataset (made when missing), each recording written beside it
 * first (`recordings/<case>.jsonl`; one already there is kept when it is the same, else refused),
 * then their lines, so a dataset never names a recording that is not there. All or nothing: a
 * case whose id the dataset has, another recording at its path, a case the dataset loader would
 * refuse, or a dataset that would pass MAX_DATASET_BYTES throws before anything is written.
 * Synchronous from the check to the last write, so appends in one process never interleave.
 * Returns the ids added.
 */
export function appendCases(datasetFile: string, cases: readonly CaseFromRun[]): string[] {
  const dir = path.dirname(path.resolve(datasetFile));
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
    if (!sameRecording(path.join(dir, c.recordingPath), c.recording))
      throw new CaseFromRunError(
        CaseFromRunRefusal.Duplicate,
        c.case.id,
        `${c.recordingPath} is already there and records something else; remove it or the case that uses it first.`,
      );
    taken.add(c.case.id);
  }
  const before = fs.existsSync(datasetFile) ? fs.readFileSync(datasetFile, 'utf8') : '';
  const text = `${before !== '' && !before.endsWith('\n') ? '\n' : ''}${cases.map((c) => JSON.stringify(c.case)).join('\n')}\n`;
  const bytes = utf8Bytes(before) + utf8Bytes(text);
  if (bytes > MAX_DATASET_BYTES)
    throw new CaseFromRunError(
      CaseFromRunRefusal.TooLarge,
      cases[0]?.case.id ?? '',
      `the dataset would be ${bytes} bytes; at most ${MAX_DATASET_BYTES} (MAX_DATASET_BYTES): start another dataset.`,
    );
  for (const c of cases) {
    const file = path.join(dir, c.recordingPath);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (!fs.existsSync(file)) fs.writeFileSync(file, c.recording, { flag: 'wx' });
  }
  fs.appendFileSync(datasetFile, text);
  return cases.map((c) => c.case.id);
}
