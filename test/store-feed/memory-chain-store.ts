import type { ReasoningStep } from '../../src/shared';
import type { StoredRun } from '../../src/shared/store';
import type { ChainStore, ChainHead, RunUpdate } from '../../src/store/chain-store';

/**
 * A ChainStore in memory for the projection's own tests: the columns the projection reads, and a
 * `down` switch that makes every call reject as a database that stopped answering does. Search,
 * usage and facts are the database store's (test/store); here they are refused.
 */
export class MemoryChainStore implements ChainStore {
  readonly kind = 'sqlite' as const;
  readonly where = 'memory';
  down = false;
  readonly runs = new Map<string, { run: StoredRun; head: ChainHead; steps: Map<number, ReasoningStep> }>();

  private async answer(): Promise<void> {
    await Promise.resolve();
    if (this.down) throw new Error('connect ECONNREFUSED (the test store is down)');
  }

  async migrate() {}
  async ping() {
    await this.answer();
  }
  async putRun(update: RunUpdate) {
    await this.answer();
    const known = this.runs.get(update.runId);
    const steps = known?.steps ?? new Map<number, ReasoningStep>();
    const run: StoredRun = {
      runId: update.runId,
      agentName: update.head.agentName,
      task: update.head.task,
      rootRunId: update.rootRunId ?? update.runId,
      ...(update.parentRunId ? { parentRunId: update.parentRunId } : {}),
      state: update.state,
      chainStatus: update.head.status,
      startedAt: update.head.startedAt,
      ...(update.endedAt ? { endedAt: update.endedAt } : {}),
      stepCount: steps.size,
      lastStep: Math.max(0, ...steps.keys()),
      hiddenSteps: 0,
      costUsd: 0,
      inputTokens: 0,
      outputTokens: 0,
      tools: [],
      complete: update.complete ?? false,
      temporalGone: known?.run.temporalGone ?? false,
      ...(known?.run.behindSince ? { behindSince: known.run.behindSince } : {}),
      storedAt: new Date().toISOString(),
    };
    this.runs.set(update.runId, { run, head: update.head, steps });
  }
  async putSteps(runId: string, steps: readonly ReasoningStep[]) {
    await this.answer();
    const known = this.runs.get(runId);
    if (!known) throw new Error(`no run ${runId}`);
    for (const step of steps) known.steps.set(step.stepNumber, structuredClone(step));
    known.run.stepCount = known.steps.size;
    known.run.lastStep = Math.max(0, ...known.steps.keys());
  }
  async noteProgress(runId: string, _status: StoredRun['chainStatus'], through: number) {
    await this.answer();
    const known = this.runs.get(runId);
    if (known && through > known.run.lastStep && !known.run.behindSince)
      known.run.behindSince = new Date().toISOString();
  }
  async markBehind(runId: string, behind: boolean) {
    await this.answer();
    const known = this.runs.get(runId);
    if (!known) return;
    if (behind) known.run.behindSince ??= new Date().toISOString();
    else delete known.run.behindSince;
  }
  async markTemporalGone(runId: string) {
    await this.answer();
    const known = this.runs.get(runId);
    if (known) known.run.temporalGone = true;
  }
  async run(runId: string) {
    await this.answer();
    const known = this.runs.get(runId);
    return known ? { ...known.run } : undefined;
  }
  async head(runId: string) {
    await this.answer();
    const known = this.runs.get(runId);
    return known ? { run: { ...known.run }, head: known.head, facts: {} as never } : undefined;
  }
  async steps(runId: string, read: { afterStep: number; limit: number }) {
    await this.answer();
    const steps = [...(this.runs.get(runId)?.steps.values() ?? [])].sort((a, b) => a.stepNumber - b.stepNumber);
    return steps.filter((s) => s.stepNumber > read.afterStep).slice(0, read.limit);
  }
  async searchRuns(): Promise<never> {
    throw new Error('not in the memory store');
  }
  async usage(): Promise<never> {
    throw new Error('not in the memory store');
  }
  async runIds(options: { incompleteOnly?: boolean; afterRunId?: string; limit: number }) {
    await this.answer();
    return [...this.runs.values()]
      .filter((r) => !options.incompleteOnly || !r.run.complete)
      .map((r) => r.run.runId)
      .sort()
      .filter((id) => !options.afterRunId || id > options.afterRunId)
      .slice(0, options.limit);
  }
  async deleteEndedBefore(cutoff: string) {
    await this.answer();
    let deleted = 0;
    for (const [id, r] of this.runs)
      if (r.run.endedAt && r.run.endedAt < cutoff) {
        this.runs.delete(id);
        deleted += 1;
      }
    return deleted;
  }
  async close() {}
}
