/** Stable codes a client can switch on; each maps to one HTTP status. */
export const API_ERROR_STATUS = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  too_many_requests: 429,
  unavailable: 503,
  internal: 500,
} as const;
export type ApiErrorCode = keyof typeof API_ERROR_STATUS;

/** One zod issue, as a client needs it to point at the bad field. */
export interface ApiIssue {
  path: (string | number)[];
  message: string;
}

/**
 * Every error the API answers with: JSON `{ error: { code, message, issues? } }`, where the
 * message says what to do next. Thrown anywhere in a route; the app turns it into the response.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly issues?: ApiIssue[],
  ) {
    super(message);
  }

  get status(): number {
    return API_ERROR_STATUS[this.code];
  }

  toJSON(): { error: { code: ApiErrorCode; message: string; issues?: ApiIssue[] } } {
    return { error: { code: this.code, message: this.message, ...(this.issues ? { issues: this.issues } : {}) } };
  }
}
