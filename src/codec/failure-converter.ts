import { DefaultFailureConverter } from '@temporalio/common';

/**
 * Moves every failure's message and stack trace into an encoded-attributes payload, so the
 * payload codec encrypts them; history shows "Encoded failure". Loaded by path on both sides:
 * the worker and client `require()` it, and the workflow bundle includes it (sandbox-safe).
 * Keep it free of TypeScript-only syntax: run from src/ (tests), Node loads this .ts file as
 * plain JavaScript.
 */
export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
