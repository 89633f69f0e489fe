/**
 * The Temporal connection settings (TEMPORAL_* variables, a temporal.toml profile, or options in
 * code) are wrong or unreadable. `setting` names the variable or profile key at fault; the message
 * says what to set. Neither ever holds a secret's value.
 */
export class TemporalConfigError extends Error {
  override readonly name = 'TemporalConfigError';

  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(message);
  }
}
