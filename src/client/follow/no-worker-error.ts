/** Nobody polls the task queue a command needs: nothing would advance the run or answer for it. */
export class NoWorkerError extends Error {
  override readonly name = 'NoWorkerError';

  constructor(
    message: string,
    readonly taskQueue: string,
  ) {
    super(message);
  }
}
