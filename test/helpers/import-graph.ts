import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Every .ts file under `root` and the files it imports (relative specifiers, type-only included), read with TypeScript's own parser. */
export function importGraph(root: string): Map<string, Set<string>> {
  return graphOf(
    root,
    (source) => ts.preProcessFile(source, true, true).importedFiles.map(({ fileName }) => fileName),
    false,
  );
}

/** Import cycles (strongly connected components of two or more files, or a file importing itself), as paths relative to `root`. */
export function findImportCycles(root: string): string[][] {
  const graph = importGraph(root);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  // Tarjan's algorithm, iterative over each file's dependencies.
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(path.relative(root, w));
    } while (w !== v);
    if (component.length > 1 || graph.get(v)!.has(v)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/**
 * What each .ts file under `root` imports when it runs: the specifiers of its compiled `require`s,
 * so imports TypeScript erases (type-only ones) are not there. Relative ones resolved to files
 * under `root`, package ones (e.g. `@temporalio/workflow`) as written.
 */
export function runtimeImportGraph(root: string): Map<string, Set<string>> {
  const compiled = (source: string) =>
    ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } })
      .outputText;
  return graphOf(
    root,
    (source) => [...compiled(source).matchAll(/\brequire\("([^"]+)"\)/g)].map(([, specifier]) => specifier!),
    true,
  );
}

/** Each file's specifiers (from `specifiersOf` its text): relative ones resolved to files under `root`; package ones kept as written, or dropped. */
function graphOf(
  root: string,
  specifiersOf: (source: string) => string[],
  keepPackages: boolean,
): Map<string, Set<string>> {
  const files = listTs(root);
  const known = new Set(files);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const deps = new Set<string>();
    for (const specifier of specifiersOf(fs.readFileSync(file, 'utf8'))) {
      const target = specifier.startsWith('.')
        ? resolveRelative(file, specifier, known)
        : keepPackages
          ? specifier
          : undefined;
      if (target) deps.add(target);
    }
    graph.set(file, deps);
  }
  return graph;
}

function listTs(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listTs(full);
    return /\.(ts|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolveRelative(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  return [`${base}.ts`, `${base}.mts`, path.join(base, 'index.ts')].find((candidate) => known.has(candidate));
}
