/** Marks a `ToolError` across copies of this package (an ESM and a CommonJS copy are two classes). */
const TOOL_ERROR = Symbol.for('thoughtline.ToolError');

export interface ToolErrorOptions {
  /**
   * `false`: the call fails for good on this attempt, with no retry (a refusal, a bad request the
   * model must change). Default `true`: retried under the tool's `retry` policy like any error.
   */
  retryable?: boolean;
  cause?: unknown;
}

/**
 * An error a tool's `execute` throws on purpose. The model reads its message as the call's error
 * observation; `retryable: false` makes the failure final (`FailureType.ToolRefused`).
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  readonly retryable: boolean;
  readonly [TOOL_ERROR] = true;

  constructor(message: string, options: ToolErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryable = options.retryable ?? true;
  }

  /** True for a `ToolError` from any copy of this package. */
  static is(value: unknown): value is ToolError {
    return value instanceof Error && (value as { [TOOL_ERROR]?: unknown })[TOOL_ERROR] === true;
  }
}
