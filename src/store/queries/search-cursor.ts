import { BadSearchCursorError } from '../store-errors';

/** Where a search page ended: the last run's start and id (runs are ordered newest start first, then id). */
export interface SearchPosition {
  startedAt: string;
  runId: string;
}

/** The position as an opaque string for `next`. */
export function encodeSearchCursor(position: SearchPosition): string {
  return Buffer.from(JSON.stringify([position.startedAt, position.runId]), 'utf8').toString('base64url');
}

/** A cursor back to its position; anything this store did not write is refused. */
export function decodeSearchCursor(cursor: string): SearchPosition {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new BadSearchCursorError();
  }
  if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'string' || typeof value[1] !== 'string')
    throw new BadSearchCursorError();
  return { startedAt: value[0], runId: value[1] };
}
