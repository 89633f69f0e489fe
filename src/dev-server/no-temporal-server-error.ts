/** No server answers where Thoughtline looks, and the caller must not start one; the message says how to start one. */
export class NoTemporalServerError extends Error {
  override readonly name = 'NoTemporalServerError';
}
