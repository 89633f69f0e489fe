/** A mistake in how the command was typed: the CLI prints it with a pointer to --help and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
