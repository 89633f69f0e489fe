import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { WORKFLOWS_PATH } from '../../../src/worker';
import { renderModuleList, workflowModuleGraph, writeModuleList } from '../../../scripts/generate-preload-list.cjs';
import { PROJECT_ROOT } from '../../helpers/cli-process';
import { runtimeImportGraph } from '../../helpers/import-graph';

const SRC = path.resolve(__dirname, '../../../src');
const PRELOAD = path.join(SRC, 'workflows/preload-workflow-modules.ts');
const GENERATED = path.join(SRC, 'workflows/workflow-modules.generated.ts');
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

const relative = (files: Iterable<string>): string[] => [...files].map((file) => path.relative(SRC, file)).sort();

/**
 * Module-level values that do change, reviewed: each is the same for every run, so sharing it
 * leaks nothing. Keyed by file and name.
 */
const REVIEWED_MUTABLE: ReadonlySet<string> = new Set([
  // The SQL grammars, made on first use (they are large): the same parsers for every run.
  'domain/approval/approval-sql-rule.ts parsers',
  // Keyed by each run's own step objects, weakly: a run finds only its own steps there.
  'domain/chain/chain-view.ts viewedSteps',
  // Keyed by each run's own conversation messages, weakly: a run finds only its own messages there.
  'domain/model/message-json.ts kept',
  // Validators compiled from tool input schemas, by the schema's JSON: a validator depends only on
  // its schema, whichever run compiled it (bounded by MAX_COMPILED_SCHEMAS).
  'workflows/tools/validate-tool-call.ts compiled',
  // The SHA-256 implementation: replaced only outside the sandbox (a worker's activities, by Node's
  // native one), and only by one that gives the same digest, so every run hashes alike.
  'domain/text/sha256-hex.ts implementation',
]);

/** Containers whose contents change in place; module-level ones must be read-only by type. */
const CONTAINERS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'Array']);
const readOnlyType = (type: ts.TypeNode | undefined, sf: ts.SourceFile): boolean =>
  !!type && /^(readonly |Readonly|ReadonlyArray|ReadonlyMap|ReadonlySet)/.test(type.getText(sf));

/** What a value starts as, under `as` / `satisfies` / parentheses; whether it is `as const`. */
function unwrap(init: ts.Expression, sf: ts.SourceFile): { value: ts.Expression; asConst: boolean } {
  let value = init;
  let asConst = false;
  while (ts.isAsExpression(value) || ts.isSatisfiesExpression(value) || ts.isParenthesizedExpression(value)) {
    if (ts.isAsExpression(value) && value.type.getText(sf) === 'const') asConst = true;
    value = value.expression;
  }
  return { value, asConst };
}

/**
 * Why a module's top level could hold state one run leaves for the next, statement by statement:
 * only declarations are allowed (imports, exports, types, functions, classes without static
 * fields, and `const`s); a module-level `let`, a statement that runs, a mutable container or a
 * literal array or object not read-only by type is refused unless reviewed. Exported literals
 * need no type: the preload freezes them all the way down.
 */
function moduleStateProblems(file: string): string[] {
  const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const name = path.relative(SRC, file);
  const problems: string[] = [];
  for (const statement of sf.statements) {
    if (
      ts.isImportDeclaration(statement) ||
      ts.isExportDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) ||
      ts.isInterfaceDeclaration(statement) ||
      ts.isFunctionDeclaration(statement)
    )
      continue;
    if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        const isStatic =
          ts.canHaveModifiers(member) && ts.getModifiers(member)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
        if (isStatic && !ts.isMethodDeclaration(member))
          problems.push(`${name}: class ${statement.name?.text} has a static field ${member.name?.getText(sf)}`);
      }
      continue;
    }
    if (!ts.isVariableStatement(statement)) {
      problems.push(`${name}: a module-level ${ts.SyntaxKind[statement.kind]} runs at load`);
      continue;
    }
    const isConst = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
    const exported = ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
    for (const declaration of statement.declarationList.declarations) {
      const id = `${name} ${declaration.name.getText(sf)}`;
      if (REVIEWED_MUTABLE.has(id)) continue;
      if (!isConst) {
        problems.push(`${id}: a module-level let or var`);
        continue;
      }
      if (!declaration.initializer) continue;
      const { value, asConst } = unwrap(declaration.initializer, sf);
      if (asConst || readOnlyType(declaration.type, sf)) continue;
      if (ts.isNewExpression(value) && CONTAINERS.has(value.expression.getText(sf)))
        problems.push(`${id}: a module-level ${value.expression.getText(sf)} not read-only by type`);
      if (!exported && (ts.isArrayLiteralExpression(value) || ts.isObjectLiteralExpression(value)))
        problems.push(`${id}: a module-level literal not read-only by type`);
    }
  }
  return problems;
}

describe('the modules the workflow bundle preloads (workflows/preload-workflow-modules.ts)', () => {
  const listed = [...graph.get(GENERATED)!].filter((dep) => dep.startsWith(SRC));
  /** What webpack's graph of the workflows' bundle reaches from their entry, but the entry. */
  let bundled: string[];
  beforeAll(async () => {
    bundled = await workflowModuleGraph(WORKFLOWS_PATH);
  }, 120_000);

  it("are every module the workflows' bundle loads from their entry but the entry, as generated at build", () => {
    expect(listed.length).toBeGreaterThan(120);
    expect(relative(listed)).toEqual(relative(bundled));
    // The file as the generator writes it: when this fails, `npm run build` writes it again.
    expect(fs.readFileSync(GENERATED, 'utf8')).toBe(renderModuleList(bundled, GENERATED));
    expect([...graph.get(PRELOAD)!]).toEqual([GENERATED]);
  });

  it('include the ones that use the workflow SDK, which declare at module level and call it only from functions', () => {
    const usesSdk = (file: string) => [...loads(file)].some((dep) => dep === '@temporalio/workflow');
    expect(relative(listed.filter(usesSdk))).toEqual(
      expect.arrayContaining(['workflows/messages.ts', 'workflows/run/run-agent.ts', 'workflows/activity-proxies.ts']),
    );
  });

  it('keep no mutable state at module level, but the reviewed memos', () => {
    expect(listed.flatMap(moduleStateProblems)).toEqual([]);
  });

  it('would be refused for each kind of module-level state', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'preload-list-'));
    try {
      const probe = (text: string) => {
        const file = path.join(dir, 'probe.ts');
        fs.writeFileSync(file, text);
        return moduleStateProblems(file).length;
      };
      expect(probe('let runs = 0;')).toBe(1);
      expect(probe('const seen = new Map<string, number>();')).toBe(1);
      expect(probe('const queue: string[] = [];')).toBe(1);
      expect(probe('globalThis.x = 1;')).toBe(1);
      expect(probe('class A { static count = 0; }')).toBe(1);
      expect(
        probe(
          'const seen: ReadonlySet<string> = new Set(["a"]); const list = ["a"] as const; export const table = { a: 1 }; class B { static of() { return new B(); } }',
        ),
      ).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("are read from the bundle's graph: what a type-only import or nothing reaches is left out", async () => {
    const dir = fs.mkdtempSync(path.join(PROJECT_ROOT, '.thoughtline/tmp/preload-graph-'));
    try {
      const write = (name: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
      };
      write(
        'workflows/index.ts',
        "import { a } from './a';\nimport type { B } from './b';\nexport const probe = (b?: B) => a + String(b);\n",
      );
      write('workflows/a.ts', "import { c } from '../nested/c';\nexport const a = c;\n");
      write('workflows/b.ts', 'export interface B { x: number }\n');
      write('workflows/unused.ts', 'export const unused = 1;\n');
      write('nested/c.ts', "export const c = 'c';\n");
      const found = await workflowModuleGraph(path.join(dir, 'workflows'));
      expect(found.map((file) => path.relative(dir, file))).toEqual(['nested/c.ts', 'workflows/a.ts']);

      const output = path.join(dir, 'workflows/list.generated.ts');
      expect(await writeModuleList(path.join(dir, 'workflows'), output)).toBe(true);
      expect(fs.readFileSync(output, 'utf8')).toContain("import * as nestedC from '../nested/c';");
      expect(await writeModuleList(path.join(dir, 'workflows'), output)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
