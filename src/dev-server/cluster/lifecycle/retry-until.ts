export interface RetryOptions {
  timeoutMs: number;
  /** Polled between tries: a reason to stop waiting now (a server process has died). */
  gaveUp?: () => string | undefined;
  intervalMs?: number;
}

/** Calls `attempt` until it resolves, and throws its last error, naming `what`, once `timeoutMs` has passed. */
export async function retryUntil<T>(what: string, opts: RetryOptions, attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const reason = opts.gaveUp?.();
    if (reason) throw new Error(`${what}: ${reason}`);
    try {
      return await attempt();
    } catch (err) {
      if (Date.now() > deadline) {
        const detail = err instanceof Error ? err.message : String(err);
        throw new Error(`${what}: not within ${Math.round(opts.timeoutMs / 1000)} s (${detail})`);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, opts.intervalMs ?? 500));
  }
}
