/**
 * Lets one read through at a time, in the order they were asked for; a read that fails lets the
 * next one go. A run's stream sends its queries through one: while a workflow task is scheduled or
 * running, Temporal holds a run's queries until it ends, but only `history.MaxBufferedQueryCount`
 * of them (1 by default, and not ours to raise on Temporal Cloud), and refuses the next with
 * RESOURCE_EXHAUSTED, which a client then retries after a back-off.
 */
export class QueryGate {
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;

  /** Reads waiting or under way. */
  get pending(): number {
    return this.queued;
  }

  /** Runs `read` once every read asked for before it has settled. */
  run<T>(read: () => Promise<T>): Promise<T> {
    this.queued += 1;
    const result = this.tail.then(read).finally(() => (this.queued -= 1));
    this.tail = result.catch(() => undefined);
    return result;
  }
}
