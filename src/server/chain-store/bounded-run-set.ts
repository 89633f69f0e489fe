/**
 * Run ids to come back to (their writes failed while the database was down), at most `limit`:
 * past it, `overflowed` says some were not kept, and the caller sweeps wider instead.
 */
export class BoundedRunSet {
  private readonly ids = new Set<string>();
  overflowed = false;

  constructor(private readonly limit = 10_000) {}

  add(runId: string): void {
    if (this.ids.has(runId)) return;
    if (this.ids.size >= this.limit) {
      this.overflowed = true;
      return;
    }
    this.ids.add(runId);
  }

  get size(): number {
    return this.ids.size;
  }

  /** Every id kept, emptying the set (and its overflow flag). */
  take(): { ids: string[]; overflowed: boolean } {
    const taken = { ids: [...this.ids], overflowed: this.overflowed };
    this.ids.clear();
    this.overflowed = false;
    return taken;
  }
}
