import { readRegularFile } from '../../files/read-regular-file';
import { RegularFileError } from '../../files/regular-file-error';
import { MAX_CONTEXT_DATA_BYTES } from '../../domain/run/agent-context';
import { utf8Bytes } from '../../domain/run/payload-size';
import { UsageError } from '../spec/usage-error';

/** Largest `--context @FILE` read: pretty-printed JSON may be larger than its compact form, not without end. */
export const MAX_CONTEXT_DATA_FILE_BYTES = 4 * MAX_CONTEXT_DATA_BYTES;

/**
 * `run --context`: a JSON object, given inline or as `@FILE`, parsed strictly (JSON, not YAML or
 * JavaScript) and refused as a UsageError when it is not an object or is past
 * MAX_CONTEXT_DATA_BYTES as compact JSON.
 */
export function readContextData(value: string): Record<string, unknown> {
  const from = value.startsWith('@') ? value.slice(1) : undefined;
  const label = from === undefined ? '--context' : `--context @${from}`;
  const text = from === undefined ? value : readBoundedFile(from, label);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(
      `${label}: not JSON (${(err as Error).message}); give an object such as '{"file": "auth.py"}'.`,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(
      `${label}: a JSON object is expected, not ${parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : typeof parsed}.`,
    );
  const bytes = utf8Bytes(JSON.stringify(parsed));
  if (bytes > MAX_CONTEXT_DATA_BYTES)
    throw new UsageError(`${label}: ${bytes} bytes as JSON; context data is at most ${MAX_CONTEXT_DATA_BYTES}.`);
  return parsed as Record<string, unknown>;
}

function readBoundedFile(file: string, label: string): string {
  try {
    return readRegularFile(file, MAX_CONTEXT_DATA_FILE_BYTES).toString('utf8');
  } catch (err) {
    if (!(err instanceof RegularFileError)) throw err;
    if (err.problem === 'too_large')
      throw new UsageError(
        `${label}: the file is ${err.detail} bytes; a context file is read up to ${MAX_CONTEXT_DATA_FILE_BYTES}.`,
      );
    if (err.problem === 'not_regular') throw new UsageError(`${label}: ${err.message}.`);
    throw new UsageError(`${label}: cannot be read (${err.detail ?? err.message}).`);
  }
}
