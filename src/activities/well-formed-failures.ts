import type { Next } from '@temporalio/common';
import type {
  ActivityExecuteInput,
  ActivityInboundCallsInterceptor,
  ActivityInterceptorsFactory,
} from '@temporalio/worker';
import { createRedactor, redactFailure } from '../tools/redact-secrets';

/** A UTF-16 surrogate without its pair: valid in a JS string, invalid in UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const wellFormed = (text: string): string => text.replace(LONE_SURROGATE, '\uFFFD');

/**
 * Replaces lone surrogates in an error's message and stack, and in its causes'. A failure's
 * message is a protobuf string; protobufjs writes short strings with its own UTF-8 encoder, which
 * turns a lone surrogate into invalid UTF-8, and Temporal's core then refuses the completion and
 * stops the worker. A tool quoting a model's argument in its error is enough to cause that.
 */
export function makeWellFormed(error: unknown): void {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth += 1) {
    current.message = wellFormed(current.message);
    if (current.stack) current.stack = wellFormed(current.stack);
    current = current.cause;
  }
}

class WellFormedFailures implements ActivityInboundCallsInterceptor {
  constructor(private readonly redact: ReturnType<typeof createRedactor>) {}

  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    try {
      return await next(input);
    } catch (err) {
      // Before the SDK logs the failure or sends it: no secret-shaped text in either.
      const safe = redactFailure(err, this.redact);
      makeWellFormed(safe);
      throw safe;
    }
  }
}

/**
 * Every activity's failures leave the worker as well-formed text, without secret-shaped text and
 * without the worker's own secrets (`createAgentWorker({ secrets })`), whichever activity failed.
 */
export function wellFormedFailures(secrets: readonly string[] = []): ActivityInterceptorsFactory {
  const redact = createRedactor(secrets);
  return () => ({ inbound: new WellFormedFailures(redact) });
}
