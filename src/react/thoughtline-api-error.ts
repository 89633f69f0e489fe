/**
 * An answer of the server that is not a success, as the hooks report it: the HTTP status and the
 * server's coded error (`{ error: { code, message } }`), or status 0 when no answer came.
 */
export class ThoughtlineApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ThoughtlineApiError';
  }

  /** Worth asking again later: no answer, too many requests, or a server error. */
  get retryable(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }

  static async of(response: Response): Promise<ThoughtlineApiError> {
    let code = `http_${response.status}`;
    let message = `${response.status} ${response.statusText}`.trim();
    try {
      const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
      if (typeof body.error?.code === 'string') code = body.error.code;
      if (typeof body.error?.message === 'string') message = body.error.message;
    } catch {
      // Not JSON (a proxy's page): the status says enough.
    }
    return new ThoughtlineApiError(response.status, code, message);
  }
}
