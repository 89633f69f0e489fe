import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openInFolder, readInFolder } from '../../files/open-in-folder';
import { RegularFileError } from '../../files/regular-file-error';
import type { EvalCase } from '../../domain/evaluation/eval-case';
import { checkCase, fieldText } from './check-case';
import { DatasetError, type DatasetProblem } from './dataset-error';
import { readJsonlCases, type RawCase } from './read-jsonl-cases';
import { readYamlCases } from './read-yaml-cases';

/** Largest dataset file read: its cases travel in the evaluation's input, which Temporal caps at 2 MiB. */
export const MAX_DATASET_BYTES = 4 * 1024 * 1024;

export interface LoadedDataset {
  /** Absolute path. */
  file: string;
  /** The file's name without its extension: the evaluation's default name and its workflow id's middle. */
  name: string;
  /** Of the file's bytes, so a baseline is compared with the same dataset. */
  sha256: string;
  cases: EvalCase[];
  /** The line each case starts on, in the order of `cases`. */
  lines: number[];
  /**
   * Cases that replay a recording, with the recording's absolute path (resolved against the
   * dataset's folder, checked to be a regular file inside it reached through no symlink).
   */
  replays: Array<{ id: string; recordingFile: string }>;
}

const FORMATS: Readonly<Record<string, typeof readJsonlCases>> = {
  '.jsonl': readJsonlCases,
  '.ndjson': readJsonlCases,
  '.yaml': readYamlCases,
  '.yml': readYamlCases,
};

/**
 * Reads a dataset (JSONL or YAML, by extension), checks every case, and throws one DatasetError
 * listing every problem as `file:line: field: message`: a case that is not an EvalCase, an
 * `input` AgentInput would refuse or that sets what the evaluation sets, a duplicate id, a
 * `replay` file that is not there, a file over MAX_DATASET_BYTES. The dataset file, and each
 * `replay` with every folder on its way, is never a symlink, and a `replay` stays inside the
 * dataset's folder (no absolute path, no `..`): a dataset cannot make the evaluation read
 * `/proc/self/environ`. Problems name files and lines, never what a file holds.
 */
export function loadDataset(file: string): LoadedDataset {
  const absolute = path.resolve(file);
  const read = FORMATS[path.extname(absolute).toLowerCase()];
  if (!read)
    throw new DatasetError(absolute, [
      { message: 'a dataset is a .jsonl file (one case per line) or a .yaml / .yml file (a list of cases)' },
    ]);
  const bytes = readBounded(absolute);
  const { cases: raw, problems } = read(bytes.toString('utf8'));
  const cases: EvalCase[] = [];
  const lines: number[] = [];
  const firstLineOf = new Map<string, number>();
  for (const item of raw) {
    const checked = checkCase(item.value);
    if (!checked.ok) {
      problems.push(...checked.issues.map((i) => problem(item, i.path, i.message)));
      continue;
    }
    const earlier = firstLineOf.get(checked.value.id);
    if (earlier !== undefined) {
      problems.push(problem(item, ['id'], `"${checked.value.id}" is already the id of the case on line ${earlier}`));
      continue;
    }
    firstLineOf.set(checked.value.id, item.line);
    cases.push(checked.value);
    lines.push(item.line);
  }
  const replays = cases.flatMap((c, i) => {
    if (c.replay === undefined) return [];
    const refused = recordingProblem(path.dirname(absolute), c.replay);
    if (refused !== undefined) {
      problems.push({ line: lines[i]!, field: 'replay', message: refused });
      return [];
    }
    return [{ id: c.id, recordingFile: path.resolve(path.dirname(absolute), c.replay) }];
  });
  if (problems.length === 0 && cases.length === 0) problems.push({ message: 'no cases: a dataset needs at least one' });
  if (problems.length > 0)
    throw new DatasetError(
      absolute,
      problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)),
    );
  return {
    file: absolute,
    name: path.basename(absolute, path.extname(absolute)),
    sha256: createHash('sha256').update(bytes).digest('hex'),
    cases,
    lines,
    replays,
  };
}

function problem(item: RawCase, field: ReadonlyArray<string | number>, message: string): DatasetProblem {
  const text = fieldText(field);
  return { line: item.lineOf(field), ...(text ? { field: text } : {}), message };
}

/** The dataset's bytes: a regular file (symlinks followed) of at most MAX_DATASET_BYTES, else a DatasetError saying why. */
function readBounded(file: string): Buffer {
  try {
    return readInFolder(path.dirname(file), path.basename(file), MAX_DATASET_BYTES);
  } catch (err) {
    if (!(err instanceof RegularFileError)) throw err;
    const message =
      err.problem === 'missing'
        ? `no dataset at ${file}`
        : err.problem === 'too_large'
          ? `${err.detail} bytes is over the ${MAX_DATASET_BYTES}-byte limit: the cases travel in the evaluation's input; split the dataset`
          : err.problem === 'not_regular'
            ? `${err.message}: give the path of a .jsonl or .yaml file`
            : err.problem === 'symlink'
              ? `${err.message}: give the dataset's own path (realpath), not a link to it`
              : err.message;
    throw new DatasetError(file, [{ message }]);
  }
}

/** Why a case's `replay` cannot be read (openInFolder's rules), or undefined when it can; opened, never read. */
function recordingProblem(folder: string, replay: string): string | undefined {
  let fd: number;
  try {
    fd = openInFolder(folder, replay, 'read');
  } catch (err) {
    if (!(err instanceof RegularFileError)) throw err;
    if (err.problem === 'missing') return `no recording at ${path.resolve(folder, replay)}`;
    return `the recording ${err.problem === 'outside' ? '' : `${err.file} `}is refused: ${err.message}`;
  }
  fs.closeSync(fd);
  return undefined;
}
