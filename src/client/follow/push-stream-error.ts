/** The server refused a run's event stream (a 4xx other than 408/429), or it was lost too often in a row. */
export class PushStreamError extends Error {
  override readonly name = 'PushStreamError';

  constructor(
    message: string,
    /** The HTTP status when the server refused; undefined when the connection kept failing. */
    readonly status?: number,
  ) {
    super(message);
  }
}
