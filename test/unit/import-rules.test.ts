import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findImportCycles, importGraph } from '../helpers/import-graph';

const SRC = path.resolve(__dirname, '../../src');

/**
 * The layers of src/workflows, top first: a file may import files of its own folder and of
 * folders ranked strictly lower. The bundle's entry points sit on top; its message and activity
 * definitions (pure declarations) sit under every capability, so any of them may use them.
 */
const WORKFLOW_LAYERS: Record<string, number> = {
  'index.ts': 110,
  'preload-workflow-modules.ts': 105,
  'sdk.ts': 100,
  'agent-workflow.ts': 100,
  'react-parser.ts': 100,
  'run/': 90,
  'loop/': 80,
  'tools/': 70,
  'people/': 60,
  'planning/': 60,
  'delegation/': 60,
  'model/': 50,
  'react-text/': 40,
  'tenant-quota/': 40,
  'core/': 10,
  'messages.ts': 5,
  'activity-proxies.ts': 5,
};

/** The layer of a file under src/workflows, by its folder (or its name at the root). */
function layerOf(relative: string): { name: string; rank: number } | undefined {
  const folder = relative.includes('/') ? `${relative.split('/')[0]}/` : relative;
  const rank = WORKFLOW_LAYERS[folder];
  return rank === undefined ? undefined : { name: folder, rank };
}

/** Imports inside `workflowsDir` that go sideways or up, plus files that belong to no layer. */
function layerViolations(workflowsDir: string): string[] {
  const problems: string[] = [];
  for (const [file, deps] of importGraph(workflowsDir)) {
    const from = layerOf(path.relative(workflowsDir, file));
    if (!from) {
      problems.push(`${path.relative(workflowsDir, file)} belongs to no layer`);
      continue;
    }
    for (const dep of deps) {
      const to = layerOf(path.relative(workflowsDir, dep));
      if (!to || to.name === from.name) continue;
      if (to.rank >= from.rank) problems.push(`${path.relative(workflowsDir, file)} imports ${path.relative(workflowsDir, dep)} (${from.name} may only import lower layers)`);
    }
  }
  return problems;
}

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'imports-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe('import rules of the house', () => {
  it('src/ has no import cycle, type-only imports included', () => {
    expect(findImportCycles(SRC)).toEqual([]);
  });

  it('finds a planted cycle, through a type-only import and a re-export (negative control)', () => {
    const root = tree({
      'a.ts': "import type { B } from './b';\nexport interface A { b?: B }\n",
      'b.ts': "export * from './c';\nexport interface B { n: number }\n",
      'c.ts': "import { helper } from './a.js';\nexport const c = helper;\n",
      'd.ts': "import { c } from './c';\nexport const d = c;\n",
    });
    expect(findImportCycles(root)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('each capability folder of src/workflows imports only the folders below it', () => {
    expect(layerViolations(path.join(SRC, 'workflows'))).toEqual([]);
  });

  it('refuses an import upward, one sideways, and a file outside every layer (negative control)', () => {
    const root = tree({
      'core/state.ts': "import type { Loop } from '../loop/loop';\nexport const s = 1;\n",
      'loop/loop.ts': "import { s } from '../core/state';\nexport type Loop = typeof s;\n",
      'people/gate.ts': "import { plan } from '../planning/plan';\nexport const g = plan;\n",
      'planning/plan.ts': 'export const plan = 1;\n',
      'stray/file.ts': 'export const x = 1;\n',
    });
    expect(layerViolations(root).sort()).toEqual([
      'core/state.ts imports loop/loop.ts (core/ may only import lower layers)',
      'people/gate.ts imports planning/plan.ts (people/ may only import lower layers)',
      'stray/file.ts belongs to no layer',
    ]);
  });
});
