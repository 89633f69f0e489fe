import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runtimeImportGraph } from '../../helpers/import-graph';

const SRC = path.resolve(__dirname, '../../../src');
const ENTRY = path.join(SRC, 'workflows/index.ts');
const PRELOAD = path.join(SRC, 'workflows/preload-pure-modules.ts');
const graph = runtimeImportGraph(SRC);

/** Every file `from` loads when it runs, itself included. */
function loads(from: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of graph.get(file) ?? []) visit(next);
  };
  visit(from);
  return seen;
}

/** Pure: loads no module of the workflow SDK, so it can run before any workflow exists. */
const isPure = (file: string): boolean => ![...loads(file)].some((dep) => dep === '@temporalio/workflow' || dep.startsWith('@temporalio/workflow/'));
const relative = (files: Iterable<string>): string[] => [...files].map((file) => path.relative(SRC, file)).sort();

describe('the modules the workflow bundle preloads (workflows/preload-pure-modules.ts)', () => {
  const listed = [...graph.get(PRELOAD)!].filter((dep) => dep.startsWith(SRC));
  const workflowModules = [...loads(ENTRY)].filter((file) => file.startsWith(SRC));

  it('are all pure: none loads @temporalio/workflow, which has no workflow context at preload', () => {
    expect(listed.length).toBeGreaterThan(90);
    expect(relative(listed.filter((file) => !isPure(file)))).toEqual([]);
  });

  it('are every pure module the workflows load, so none is evaluated again for each run', () => {
    const missing = workflowModules.filter((file) => isPure(file) && !listed.includes(file));
    expect(relative(missing)).toEqual([]);
  });

  it('tell the modules that use the workflow SDK (they keep one scope per run) from the pure ones', () => {
    const impure = relative(workflowModules.filter((file) => !isPure(file)));
    expect(impure).toContain('workflows/messages.ts');
    expect(impure).toContain('workflows/run/run-agent.ts');
  });
});
