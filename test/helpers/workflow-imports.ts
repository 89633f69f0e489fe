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

/**
 * The folders of src/ whose code may enter the workflow bundle: the workflows themselves, and the
 * domain (the pure vocabulary of a run that both sides import). Sandbox-safe is a property of the
 * folder: every file in it keeps to the rule, reached from the workflows or not.
 */
export const SANDBOX_SAFE_ROOMS = ['workflows', 'domain'];
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

function valueImports(file: string, { typesToo = false } = {}): string[] {
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
      if (typesToo || !typeOnly) out.push(node.moduleSpecifier.text);
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
        if (!SANDBOX_SAFE_ROOMS.includes(area ?? ''))
          violations.push({ file: rel, specifier, why: `value import from src/${area}` });
        else visit(target);
      }
    }
  };
  visit(entry);
  return violations;
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? filesUnder(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
}

/**
 * Every file under `dir` (a room of src/domain) against the sandbox rule, reached from the workflows
 * or not: no Node builtin, no non-workflow Temporal package, and local imports, types included,
 * only from src/domain itself (the domain sits below the workflows and every app) or from the
 * package's vendor/ folder (third-party code, as a package is).
 */
export function findImpureImports(dir: string, srcRoot: string): ImportViolation[] {
  const violations: ImportViolation[] = [];
  for (const file of filesUnder(dir)) {
    const rel = path.relative(srcRoot, file);
    for (const specifier of valueImports(file, { typesToo: true })) {
      if (builtins.has(specifier)) violations.push({ file: rel, specifier, why: 'Node builtin' });
      else if (FORBIDDEN_PACKAGES.includes(specifier))
        violations.push({ file: rel, specifier, why: 'non-workflow Temporal package' });
      else if (specifier.startsWith('.')) {
        const target = path.resolve(path.dirname(file), specifier);
        // vendor/ holds third-party code the package ships (the SQL grammars): a package, not a room of src.
        if (target.startsWith(path.join(srcRoot, '..', 'vendor') + path.sep)) continue;
        const area = path.relative(srcRoot, target).split(path.sep)[0];
        if (area !== 'domain') violations.push({ file: rel, specifier, why: `import from src/${area}` });
      }
    }
  }
  return violations;
}
