import { DatasetError, loadDataset, type LoadedDataset } from '../../../eval/dataset';
import { readRegularFile } from '../../../files/read-regular-file';
import { RegularFileError } from '../../../files/regular-file-error';
import { EvaluationResult } from '../../../domain/evaluation';
import { UsageError } from '../../spec/usage-error';

/** The dataset `eval` was given; its mistakes are usage errors that list them. */
export function readDataset(file: string): LoadedDataset {
  try {
    return loadDataset(file);
  } catch (err) {
    // A dataset's mistakes are the person's to fix, like a mistyped option.
    if (err instanceof DatasetError) throw new UsageError(`the dataset has problems:\n${err.message}`);
    throw err;
  }
}

/** Largest baseline read: a result.json of thousands of cases is a few megabytes. */
const MAX_BASELINE_BYTES = 64 * 1024 * 1024;

export function readBaseline(file: string): EvaluationResult {
  let raw: unknown;
  try {
    raw = JSON.parse(readRegularFile(file, MAX_BASELINE_BYTES).toString('utf8'));
  } catch (err) {
    if (err instanceof RegularFileError) throw new UsageError(`--baseline ${file}: ${err.message}.`);
    throw new UsageError(`--baseline ${file}: not a readable JSON file (${(err as Error).message}).`);
  }
  const parsed = EvaluationResult.safeParse(raw);
  if (!parsed.success)
    throw new UsageError(
      `--baseline ${file}: not an evaluation's result.json (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}).`,
    );
  return parsed.data;
}
