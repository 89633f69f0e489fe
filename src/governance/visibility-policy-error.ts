/** A visibility policy that cannot be read: workers and `serve` refuse to start rather than show everything. */
export class VisibilityPolicyError extends Error {
  override readonly name = 'VisibilityPolicyError';
  constructor(
    readonly path: string,
    readonly problems: readonly string[],
  ) {
    super(`The visibility policy ${path} cannot be used: ${problems.join('; ')}.`);
  }
}
