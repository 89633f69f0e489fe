/** The store's database could not be reached or refused a statement; `where` names the store. */
export class StoreDatabaseError extends Error {
  override readonly name = 'StoreDatabaseError';
  constructor(
    readonly where: string,
    cause: unknown,
  ) {
    super(`The chain store at ${where} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** A step whose JSON is past MAX_STORED_STEP_BYTES: refused whole, nothing of its batch written. */
export class StepTooLargeError extends Error {
  override readonly name = 'StepTooLargeError';
  constructor(runId: string, stepNumber: number, bytes: number, limit: number) {
    super(
      `Step ${stepNumber} of run ${runId} is ${bytes} bytes of JSON; the chain store keeps steps up to ${limit} bytes.`,
    );
  }
}

/** Steps written for a run the store has no row for: put the run first. */
export class UnknownStoredRunError extends Error {
  override readonly name = 'UnknownStoredRunError';
  constructor(runId: string) {
    super(`The chain store has no run ${runId}: put the run before its steps.`);
  }
}

/** A search cursor this store did not make (or made for another order). */
export class BadSearchCursorError extends Error {
  override readonly name = 'BadSearchCursorError';
  constructor() {
    super('The search cursor is not one this store gave out; start the search again without it.');
  }
}
