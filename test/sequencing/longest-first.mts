import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds each long file took in a recent run (scripts/record-test-durations.cjs writes it). */
const DURATIONS: Record<string, number> = JSON.parse(
  readFileSync(new URL('./file-durations.json', import.meta.url), 'utf8'),
) as Record<string, number>;

/**
 * Starts the longest files first, from the durations measured and kept in the repository. Vitest
 * does this only from its own cache, which a clean clone (CI) has not got, and falls back on file
 * size; then a minute-long file could start last and keep the run going alone at its end. Files
 * with no recorded duration keep vitest's order after the others.
 */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byVitest = await super.sort(files);
    const rank = new Map(byVitest.map((file, i) => [file, i]));
    const seconds = (file: TestSpecification) => DURATIONS[this.relative(file.moduleId)] ?? 0;
    return [...byVitest].sort((a, b) => {
      if (a.project.name !== b.project.name) return rank.get(a)! - rank.get(b)!;
      return seconds(b) - seconds(a) || rank.get(a)! - rank.get(b)!;
    });
  }

  private relative(moduleId: string): string {
    const root = this.ctx.config.root.replace(/\/?$/, '/');
    return moduleId.startsWith(root) ? moduleId.slice(root.length) : moduleId;
  }
}
