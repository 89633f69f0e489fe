import { DefaultReporter, type TestCase, type TestModule, type TestSpecification, type TestSuite } from 'vitest/node';
import type { SerializedError } from 'vitest';

/** How long the run may stay silent before it says which files are still running. */
const QUIET_MS = 30_000;

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Vitest's default reporter (failures, their diffs and stacks, the closing summary, unchanged) with
 * an overall count on each file's line: `[123/512 files · 1,020 tests · 2 failed] ✓ test/x.test.ts`.
 * After QUIET_MS with no file ending it names the files still running, so a long file never looks
 * like a hang. Both stages use it (vitest.config.mts, vitest.slow.config.mts).
 */
export class SuiteProgressReporter extends DefaultReporter {
  private files = 0;
  private done = 0;
  private tests = 0;
  private failed = 0;
  private readonly failedFiles: string[] = [];
  private readonly running = new Map<string, number>();
  private lastLine = Date.now();
  private quiet: ReturnType<typeof setInterval> | undefined;
  /** The count each ended module's line carries, taken when it ended. */
  private readonly prefixes = new Map<string, string>();

  override onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    super.onTestRunStart(specifications);
    this.files = specifications.length;
    this.lastLine = Date.now();
    this.quiet = setInterval(() => this.sayWhatRuns(), 5_000);
    this.quiet.unref();
  }

  onTestModuleStart(testModule: TestModule): void {
    this.running.set(testModule.relativeModuleId, Date.now());
  }

  override onTestModuleEnd(testModule: TestModule): void {
    this.running.delete(testModule.relativeModuleId);
    this.done++;
    for (const test of testModule.children.allTests()) {
      this.tests++;
      if (test.result().state === 'failed') this.failed++;
    }
    if (testModule.state() === 'failed') this.failedFiles.push(testModule.relativeModuleId);
    this.prefixes.set(testModule.moduleId, this.tally());
    this.lastLine = Date.now();
    super.onTestModuleEnd(testModule);
  }

  /** A file's line opens with the state symbol: the count goes before it. */
  protected override getEntityPrefix(entity: TestCase | TestModule | TestSuite): string {
    const symbol = super.getEntityPrefix(entity);
    const prefix = entity.type === 'module' ? this.prefixes.get(entity.moduleId) : undefined;
    return prefix === undefined ? symbol : `${prefix} ${symbol}`;
  }

  override onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: Parameters<DefaultReporter['onTestRunEnd']>[2],
  ): void {
    clearInterval(this.quiet);
    super.onTestRunEnd(testModules, unhandledErrors, reason);
    if (this.failedFiles.length > 0)
      this.log(`Failed files (${this.failedFiles.length}): ${[...this.failedFiles].sort().join(' ')}`);
  }

  private tally(): string {
    const failed = this.failed > 0 ? ` · ${count(this.failed)} failed` : '';
    return `[${this.done}/${this.files} files · ${count(this.tests)} test${this.tests === 1 ? '' : 's'}${failed}]`;
  }

  private sayWhatRuns(): void {
    const now = Date.now();
    if (now - this.lastLine < QUIET_MS || this.running.size === 0) return;
    const files = [...this.running].map(([id, since]) => `${id} (${Math.round((now - since) / 1000)} s)`).join(', ');
    this.log(`${this.tally()} still running: ${files}`);
    this.lastLine = now;
  }
}
