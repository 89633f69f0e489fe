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
  'at-rest-interceptors.ts': 105,
  'no-stack-traces.ts': 105,
  'workflow-modules.generated.ts': 104,
  'sdk.ts': 100,
  'agent-workflow.ts': 100,
  'react-parser.ts': 100,
  'threads/': 95,
  'run/': 90,
  'loop/': 80,
  'tools/': 70,
  'branching/': 65,
  'guardrails/': 65,
  'people/': 60,
  'planning/': 60,
  'delegation/': 60,
  'model/': 50,
  'memory/': 45,
  'cache/': 45,
  'react-text/': 40,
  'reasoning/': 40,
  'tenant-quota/': 40,
  'eval/': 40,
  'scores/': 40,
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
      if (to.rank >= from.rank)
        problems.push(
          `${path.relative(workflowsDir, file)} imports ${path.relative(workflowsDir, dep)} (${from.name} may only import lower layers)`,
        );
    }
  }
  return problems;
}

/**
 * The rooms of src/ that the apps live in, top first: the CLI may import the MCP server, the server,
 * audit and the client library; the MCP server (an edge like the HTTP API's, built on its context
 * and run actions) the server, audit and the client; the server audit and the client; audit the
 * client; the client none of them.
 * Every other folder (workflows, activities, tools, domain, …) is below all four and imports none.
 */
const APP_ROOMS: Record<string, number> = {
  'cli/': 40,
  // The browser hooks (thoughtline/react) read the server's wire types, types only (react-browser-imports.test.ts).
  'react/': 38,
  'mcp-server/': 35,
  'server/': 30,
  'audit/': 20,
  'client/': 10,
};

/** Imports between top-level folders of `srcDir` that reach an app room not below their own. */
function roomViolations(srcDir: string): string[] {
  const rank = (relative: string): number | undefined =>
    relative.includes('/') ? (APP_ROOMS[`${relative.split('/')[0]}/`] ?? 0) : undefined;
  const problems: string[] = [];
  for (const [file, deps] of importGraph(srcDir)) {
    const from = path.relative(srcDir, file);
    const own = rank(from);
    // The package's entry files (index.ts, worker.ts) sit at the top and may import anything but
    // the CLI: it is an app, and what a library user needs lives below it.
    if (own === undefined) {
      for (const dep of deps) {
        const to = path.relative(srcDir, dep);
        if (to.startsWith('cli/')) problems.push(`${from} imports ${to}`);
      }
      continue;
    }
    for (const dep of deps) {
      const to = path.relative(srcDir, dep);
      const target = rank(to);
      if (target === undefined || target === 0 || to.split('/')[0] === from.split('/')[0]) continue;
      if (target >= own) problems.push(`${from} imports ${to}`);
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

  it('the CLI sits above the server, the server above audit, audit above the client library; nothing below imports them, and the package entry not the CLI', () => {
    expect(roomViolations(SRC)).toEqual([]);
  });

  it('refuses an app room importing one above it, and a lower folder importing any app room (negative control)', () => {
    const root = tree({
      'client/agent.ts': "import { render } from '../cli/render';\nexport const a = render;\n",
      'cli/render.ts': "import { route } from '../server/route';\nexport const render = route;\n",
      'server/route.ts': "import { report } from '../audit/report';\nexport const route = report;\n",
      'audit/report.ts':
        "import { serve } from '../server/route';\nexport const report = 1;\nexport const s = serve;\n",
      'tools/tool.ts': "import { a } from '../client/agent';\nexport const t = a;\n",
      'index.ts': "export { render } from './cli/render';\n",
    });
    expect(roomViolations(root).sort()).toEqual([
      'audit/report.ts imports server/route.ts',
      'client/agent.ts imports cli/render.ts',
      'index.ts imports cli/render.ts',
      'tools/tool.ts imports client/agent.ts',
    ]);
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
