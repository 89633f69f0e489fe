import { builtinModules } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** A package a shipped file loads at run time that an installed thoughtline would not bring along. */
export interface UndeclaredImport {
  /** The file, relative to the package root. */
  file: string;
  specifier: string;
  packageName: string;
}

interface PackageJson {
  name: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/**
 * What a source file loads when it runs: the module specifiers of its compiled `require(...)`,
 * `require.resolve(...)` and `import(...)` calls with a literal argument. It is compiled as the
 * build compiles it (CommonJS), so imports TypeScript erases (type-only ones, names used only as
 * types) are not there. Read from the syntax tree: `signatures.require('x')` or a comment is not an import.
 */
export function runtimeSpecifiers(source: string, fileName = 'file.ts'): string[] {
  const compiled = ts.transpileModule(source, {
    fileName,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText;
  const tree = ts.createSourceFile('compiled.js', compiled, ts.ScriptTarget.ES2022, false, ts.ScriptKind.JS);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && isLoader(node.expression)) {
      const [first] = node.arguments;
      if (first && ts.isStringLiteralLike(first)) specifiers.push(first.text);
    }
    node.forEachChild(visit);
  };
  visit(tree);
  return specifiers;
}

/** `require`, `require.resolve` or `import` as a callee. */
function isLoader(callee: ts.Expression): boolean {
  if (callee.kind === ts.SyntaxKind.ImportKeyword) return true;
  if (ts.isIdentifier(callee)) return callee.text === 'require';
  return (
    ts.isPropertyAccessExpression(callee) &&
    ts.isIdentifier(callee.expression) &&
    callee.expression.text === 'require' &&
    callee.name.text === 'resolve'
  );
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`; undefined for a relative or absolute path. */
export function packageNameOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || path.isAbsolute(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const isBuiltin = (specifier: string): boolean =>
  specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!);

/**
 * Every package-name import in the .ts files under `packageRoot/srcDir` that resolves to a package
 * the package's package.json does not list in `dependencies`, `optionalDependencies` or
 * `peerDependencies` (Node's built-ins and the package's own name are fine). It reads every source
 * file, not only those its entry points import: the workflow bundle, the failure converter and the
 * workflow interceptors are loaded by path at run time, so all of src ships and may run.
 */
export function undeclaredRuntimeImports(packageRoot: string, srcDir = 'src'): UndeclaredImport[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as PackageJson;
  const declared = new Set([
    pkg.name,
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.optionalDependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
  ]);
  const found: UndeclaredImport[] = [];
  const undeclared = (specifier: string): string | undefined => {
    const packageName = packageNameOf(specifier);
    return packageName === undefined || isBuiltin(specifier) || declared.has(packageName) ? undefined : packageName;
  };
  for (const file of sourceFiles(path.join(packageRoot, srcDir))) {
    const source = fs.readFileSync(file, 'utf8');
    // TypeScript's quick scan (type-only imports included) clears most files without compiling them.
    const candidates = ts.preProcessFile(source, true, true).importedFiles.map(({ fileName }) => fileName);
    if (!candidates.some((specifier) => undeclared(specifier) !== undefined)) continue;
    for (const specifier of runtimeSpecifiers(source, file)) {
      const packageName = undeclared(specifier);
      if (packageName !== undefined) found.push({ file: path.relative(packageRoot, file), specifier, packageName });
    }
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}
