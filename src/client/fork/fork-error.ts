/** A fork that cannot start: the step does not exist, nothing follows it, or the original cannot be read. Nothing was started. */
export class ForkError extends Error {
  override readonly name = 'ForkError';
}
