import { ApiError } from '../api-error';

/** A step number ("7") or a non-step event's id ("7.3"): at most 15 digits each side. */
const EVENT_ID = /^(\d{1,15})(?:\.(\d{1,15}))?$/;

/**
 * The last step a resuming client has: from `Last-Event-ID` (what EventSource sends on its own)
 * or else `?after=`, in either id form; 0 when neither is given. Anything else is a 400: a
 * client that sent an id it made up must not silently get the whole run again.
 */
export function resumePoint(lastEventId: string | string[] | undefined, after: unknown): number {
  const header = Array.isArray(lastEventId) ? lastEventId[0] : lastEventId;
  const [source, text] = header !== undefined && header !== '' ? ['Last-Event-ID', header] : ['after', after];
  if (text === undefined || text === '') return 0;
  const match = typeof text === 'string' ? EVENT_ID.exec(text.trim()) : null;
  if (!match) {
    throw new ApiError(
      'bad_request',
      `${source} must be an event id this stream sent ("7" or "7.3"); got ${JSON.stringify(String(text).slice(0, 40))}.`,
      [{ path: [source === 'after' ? 'after' : 'Last-Event-ID'], message: 'expected a step number or <step>.<seq>' }],
    );
  }
  const step = Number(match[1]);
  if (!Number.isSafeInteger(step)) throw new ApiError('bad_request', `${source} is out of range.`);
  return step;
}
