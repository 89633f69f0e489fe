import { ApplicationFailure } from '@temporalio/common';
import { redactSecretKeys, redactSecrets } from '../domain/secrets/secret-patterns';
import { cutToSize, toJsonSafe, truncatedText, type CutResult } from './json-safe';

export type Redactor = (value: unknown) => unknown;

/**
 * Replaces known secret values (8+ characters) and secret-shaped strings anywhere inside
 * `value`. The shapes are the shared ones, so activities and views redact alike.
 */
export function createRedactor(knownSecrets: readonly string[]): Redactor {
  const known = [...knownSecrets];
  return (value) => redactSecrets(value, known);
}

/** `redact` applied to text; a redactor never changes a string's type, this only says so. */
const redactText = (redact: Redactor, text: string): string => String(redact(text));

/**
 * Characters kept past a cut while redacting: a secret shorter than this that straddles the cut
 * is seen whole by the patterns (an RSA-4096 PEM key is about 3.3 KB).
 */
export const REDACTION_OVERLAP = 8_192;
/** The end of the redacted overlap never shown: it may hold the start of a secret seen only in part. */
const UNSEEN_TAIL = REDACTION_OVERLAP / 2;

/**
 * A tool result as it may leave the worker: plain JSON, under `maxChars` of JSON text, without
 * secrets. Cut before redacting, so a huge result costs no more than `maxChars` of redaction;
 * values under credential-named keys go before the cut (that walk scans no text). Throws when the
 * value cannot be used (nested deeper than `MAX_RESULT_DEPTH`, or JSON text past V8's limits).
 */
export function redactToolResult(value: unknown, maxChars: number, redact: Redactor): CutResult {
  const keyed = redactSecretKeys(toJsonSafe(value));
  const text = typeof keyed === 'string' ? keyed : JSON.stringify(keyed);
  // Small enough to redact whole: keep its shape, then cut (redaction can lengthen it a little).
  if (text.length <= maxChars + REDACTION_OVERLAP) return cutToSize(redact(keyed), maxChars);
  const head = redactText(redact, text.slice(0, maxChars + REDACTION_OVERLAP));
  // The overlap's end may hold the start of a secret the patterns could not see whole: never shown.
  return {
    result: truncatedText(head.slice(0, Math.max(0, Math.min(maxChars, head.length - UNSEEN_TAIL))), text.length),
    truncated: true,
  };
}

/** Text of anything thrown, even an object whose `toString` throws or that has no prototype. */
export function thrownText(err: unknown): string {
  try {
    return err instanceof Error ? String(err.message) : String(err);
  } catch {
    return Object.prototype.toString.call(err);
  }
}

/** How far down a chain of causes redaction goes; deeper causes are cut off. */
const MAX_CAUSES = 8;

/** Sets an own property even over a prototype getter; false when the object refuses (frozen). */
function setOwn(target: object, key: string, value: unknown): boolean {
  try {
    const enumerable = Object.prototype.propertyIsEnumerable.call(target, key);
    Object.defineProperty(target, key, { value, enumerable, writable: true, configurable: true });
    return (target as Record<string, unknown>)[key] === value;
  } catch {
    return false;
  }
}

/** Redacts one error's own text in place; false when it cannot be changed. */
function redactOne(error: Error, redact: Redactor): boolean {
  let ok = setOwn(error, 'message', redactText(redact, thrownText(error)));
  let stack: unknown;
  try {
    stack = error.stack;
  } catch {
    stack = undefined;
  }
  if (typeof stack === 'string') ok = setOwn(error, 'stack', redactText(redact, stack)) && ok;
  if (error instanceof ApplicationFailure && error.details !== undefined && error.details !== null) {
    let details: unknown;
    try {
      details = redact(toJsonSafe([...error.details]));
    } catch {
      details = ['[details could not be read]'];
    }
    ok = setOwn(error, 'details', details) && ok;
  }
  return ok;
}

/**
 * Redacts everything of `error` that Temporal sends or logs: the message and stack of the error
 * and of each cause, and an `ApplicationFailure`'s details. In place, so the error keeps its
 * class, type and retry decision; an error that cannot be changed (frozen, a getter) is replaced
 * by an `ApplicationFailure` with the same type and retry decision. Use the returned error.
 */
export function redactFailure<E>(error: E, redact: Redactor): E {
  if (!(error instanceof Error)) return error;
  if (!redactOne(error, redact)) {
    const failure = error as Partial<ApplicationFailure>;
    return ApplicationFailure.create({
      type: typeof failure.type === 'string' ? failure.type : error.name,
      message: redactText(redact, thrownText(error)),
      nonRetryable: failure.nonRetryable === true,
    }) as E;
  }
  let current: Error = error;
  for (let depth = 1; ; depth += 1) {
    const cause: unknown = current.cause;
    if (cause === undefined) break;
    // Past the limit, or a cause that cannot be redacted in place, is cut off; one that is not an
    // Error (a string, an object) is text Temporal may print, redacted as data.
    const keep = depth < MAX_CAUSES && cause instanceof Error ? redactOne(cause, redact) : false;
    if (!keep) {
      setOwn(current, 'cause', depth < MAX_CAUSES && !(cause instanceof Error) ? safeData(cause, redact) : undefined);
      break;
    }
    current = cause as Error;
  }
  return error;
}

function safeData(value: unknown, redact: Redactor): unknown {
  try {
    return redact(toJsonSafe(value));
  } catch {
    return '[could not be read]';
  }
}

/** Heartbeat details as they may leave the worker: plain JSON without secrets, or a marker. */
export function redactHeartbeat(details: unknown, redact: Redactor): unknown {
  return details === undefined ? undefined : safeData(details, redact);
}
