/** No schedule of this name is visible to the caller (unknown, or another tenant's: the same answer). */
export class ScheduleNotFoundError extends Error {
  override readonly name = 'ScheduleNotFoundError';
  constructor(readonly schedule: string) {
    super(`No schedule named "${schedule}" is visible to you; "thoughtline schedule list" lists yours.`);
  }
}

/** A schedule of this name exists already: delete it first, or choose another name. */
export class ScheduleExistsError extends Error {
  override readonly name = 'ScheduleExistsError';
  constructor(readonly schedule: string) {
    super(`A schedule named "${schedule}" exists already; delete it first or choose another name.`);
  }
}

/**
 * Temporal refused the schedule's settings (a cron it cannot read): the caller's mistake, said as
 * Temporal said it; `setting` names the one it refused when known, so a door can point at its field.
 */
export class ScheduleRefusedError extends TypeError {
  override readonly name = 'ScheduleRefusedError';
  constructor(
    message: string,
    readonly setting?: 'cron' | 'every',
  ) {
    super(message);
  }
}
