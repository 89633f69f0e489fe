import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

export interface ImportViolation {
  file: string;
  specifier: string;
  why: string;
}

const FORBIDDEN_PACKAGES = ['@temporalio/activity', '@temporalio/client', '@temporalio/worker', '@temporalio/testing'];
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  for (const node of source.statements) {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const clause = ts.isImportDeclaration(node) ? node.importClause : undefined;
      const typeOnly = ts.isImportDeclaration(node)
        ? clause?.isTypeOnly ||
          (clause !== undefined &&
            !clause.name &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly))
        : node.isTypeOnly;
      if (!typeOnly) out.push(node.moduleSpecifier.text);
    }
  }
  // require() and dynamic import() are value imports too.
  const text = source.getFullText();
  for (const m of text.matchAll(/\b(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g)) if (m[1]) out.push(m[1]);
  return out;
}

function resolveLocal(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((p) => fs.existsSync(p));
}

/** Walks the value-import graph from the workflow entry and reports what must not enter the sandbox. */
export function findSandboxViolations(entry: string, srcRoot: string): ImportViolation[] {
  const violations: ImportViolation[] = [];
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of valueImports(file)) {
      const rel = path.relative(srcRoot, file);
      if (builtins.has(specifier)) violations.push({ file: rel, specifier, why: 'Node builtin' });
      else if (FORBIDDEN_PACKAGES.includes(specifier))
        violations.push({ file: rel, specifier, why: 'non-workflow Temporal package' });
      else if (specifier.startsWith('.')) {
        const target = resolveLocal(file, specifier);
        if (!target) continue;
        const area = path.relative(srcRoot, target).split(path.sep)[0];
        if (area !== 'workflows' && area !== 'shared')
          violations.push({ file: rel, specifier, why: `value import from src/${area}` });
        else visit(target);
      }
    }
  };
  visit(entry);
  return violations;
}
