/**
 * The docs' TypeScript compiles, and their relative links resolve.
 *
 * Conventions for README.md and docs/*.md:
 * - Every fenced block names its language. ```ts blocks are compiled here; anything else (shell,
 *   output, JSON) uses another fence: ```bash, ```text, ```json. JavaScript that is also valid
 *   TypeScript goes in a ```ts block too, so no example escapes the check.
 * - Each ```ts block is its own module, type-checked here against the repository's sources:
 *   each entry point of package.json's `exports` (`thoughtline`, `thoughtline/workflow`, …) is
 *   the source file it is built from; nothing else of the package resolves. Top-level `await`
 *   is allowed in an excerpt; a block that names its file is a whole file and must compile as
 *   CommonJS too. test/api/installed-package.test.ts compiles every block again against the
 *   built package, as ES modules and as CommonJS.
 * - A block whose first line is a comment naming a file (`// tools.ts`) is that file, so the next
 *   blocks of the same page can import it (`import { getWeather } from './tools'`).
 * - A ```tsx block is a copy of a file of examples/ that its first line names
 *   (`// examples/react/app.tsx`), checked here to be that file exactly; the example's own
 *   tsconfig compiles it (test/react/react-hooks-browser.test.ts builds and runs it).
 * - A block may use helpers the reader writes themselves (`fetchWeather`) or values from an
 *   earlier block (`agents`): declare them in an HTML comment right before the fence, which the
 *   rendered page does not show:
 *     <!-- snippet-declare: declare function fetchWeather(city: string): Promise<unknown>; -->
 *   Its text is put before the block; keep it to `declare` lines and `import(…)` types.
 * All blocks go into one ts.Program, with a deliberately wrong block as the negative control.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { diagnosticsOf, describeDiagnostic, readPages, ROOT, snippetsOf, type Snippet } from './doc-snippets';
import { brokenLinks } from './broken-links';
import { fencedBlocks } from './markdown-blocks';

/** Where the snippets pretend to live: inside the repository, so node_modules resolves. */
const SNIPPET_DIR = path.join(ROOT, '.doc-snippets');
const TS_ALIASES = new Set(['typescript', 'tsx', 'mts', 'cts', 'js', 'javascript']);
/** The first line of a ```tsx block: the file of examples/ it copies. */
const EXAMPLE_FILE = /^\/\/ (examples\/[\w./-]+\.tsx)\n/;

/** A ```tsx block that names a file of examples/ (checked to be its copy below). */
const isExampleCopy = (b: { lang: string; code: string }): boolean => b.lang === 'tsx' && EXAMPLE_FILE.test(b.code);

/** Line 4 is wrong: 'finished' is not a termination reason. */
const NEGATIVE_CONTROL = [
  'A page with one wrong block.',
  '<!-- snippet-declare: declare const result: import("thoughtline").AgentResult; -->',
  '```ts',
  "const reason: typeof result.terminationReason = 'finished';",
  '```',
].join('\n');

/** `thoughtline/<entry>` → the source file its `exports` target is built from (dist/x.js → src/x.ts). */
function entryPointSources(): Record<string, string[]> {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { default: string }>;
  };
  const paths: Record<string, string[]> = {};
  for (const [entry, target] of Object.entries(pkg.exports)) {
    const built = typeof target === 'string' ? target : target.default;
    if (!built.endsWith('.js')) continue;
    paths[path.posix.join('thoughtline', entry)] = [
      path.join(ROOT, built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')),
    ];
  }
  return paths;
}

function compile(snippets: readonly Snippet[]): Map<string, readonly ts.Diagnostic[]> {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    typeRoots: [path.join(ROOT, 'node_modules/@types')],
    paths: entryPointSources(),
  };
  const files = new Map(snippets.map((s) => [s.file, s.text]));
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  const dirs = new Set([...files.keys()].map((f) => path.dirname(f)));
  host.directoryExists = (d) => dirs.has(d) || ts.sys.directoryExists(d);
  host.fileExists = (f) => files.has(f) || fileExists.call(host, f);
  host.readFile = (f) => files.get(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, lang, ...rest) => {
    const text = files.get(f);
    return text === undefined ? getSourceFile.call(host, f, lang, ...rest) : ts.createSourceFile(f, text, lang, true);
  };
  return diagnosticsOf(ts.createProgram([...files.keys()], options, host), snippets);
}

describe('docs', () => {
  const pages = readPages();

  it('tag every fenced block with a language, and TypeScript as ts', () => {
    const wrong = pages.flatMap(({ page, markdown }) =>
      fencedBlocks(markdown)
        .filter((b) => b.lang === '' || (TS_ALIASES.has(b.lang) && !isExampleCopy(b)))
        .map((b) => `${page}:${b.line} \`\`\`${b.lang}`),
    );
    expect(wrong).toEqual([]);
  });

  it('copy in each tsx block exactly the file of examples/ it names', () => {
    const copies = pages.flatMap(({ page, markdown }) =>
      fencedBlocks(markdown)
        .filter(isExampleCopy)
        .map((b) => ({ where: `${page}:${b.line}`, file: EXAMPLE_FILE.exec(b.code)![1]!, code: b.code })),
    );
    expect(copies.map((c) => c.file)).toEqual(
      expect.arrayContaining(['examples/react/main.tsx', 'examples/react/app.tsx']),
    );
    const differ = copies.filter((c) => {
      const file = path.join(ROOT, c.file);
      return !fs.existsSync(file) || fs.readFileSync(file, 'utf8').trimEnd() !== c.code.trimEnd();
    });
    expect(differ.map((c) => `${c.where} is not ${c.file}`)).toEqual([]);
  });

  it('compile every ts block, and fail a wrong one (negative control)', () => {
    const snippets = pages.flatMap(({ page, markdown }) => snippetsOf(page, markdown, SNIPPET_DIR));
    expect(snippets.filter((s) => s.page === 'README.md').length).toBeGreaterThan(0);
    expect(new Set(snippets.map((s) => s.file)).size).toBe(snippets.length);
    const [control] = snippetsOf('negative-control.md', NEGATIVE_CONTROL, SNIPPET_DIR);
    const diagnostics = compile([...snippets, control!]);

    const errors = snippets.flatMap((s) => diagnostics.get(s.file)!.map((d) => describeDiagnostic(s, d)));
    expect(errors).toEqual([]);
    const controlErrors = diagnostics.get(control!.file)!.map((d) => describeDiagnostic(control!, d));
    expect(controlErrors).toHaveLength(1);
    expect(controlErrors[0]).toMatch(/^negative-control\.md:4 TS2322: Type '"finished"' is not assignable/);
  });

  it('import only what README tells a user to install: thoughtline entry points, packages on its npm install line, node: builtins', () => {
    const readme = pages.find((p) => p.page === 'README.md')!.markdown;
    const install = fencedBlocks(readme)
      .flatMap((b) => b.code.split('\n'))
      .find((line) => /^npm install \S*thoughtline/.test(line));
    expect(install).toBeDefined();
    const installed = install!
      .split(/\s+/)
      .slice(2)
      .filter((w) => !w.includes('/') || w.startsWith('@'))
      .map((w) => w.replace(/(?<=.)@.*$/, ''));
    expect(installed).toContain('zod');
    const entryPoints = Object.keys(entryPointSources());
    const imported = pages.flatMap(({ page, markdown }) =>
      snippetsOf(page, markdown, SNIPPET_DIR).flatMap((s) =>
        [...s.code.matchAll(/\bfrom '([^']+)'/g)].map((m) => ({ where: `${page}:${s.line}`, spec: m[1]! })),
      ),
    );
    const packageOf = (spec: string) =>
      spec
        .split('/')
        .slice(0, spec.startsWith('@') ? 2 : 1)
        .join('/');
    const unexplained = imported.filter(
      ({ spec }) =>
        !spec.startsWith('.') &&
        !spec.startsWith('node:') &&
        !entryPoints.includes(spec) &&
        !installed.includes(packageOf(spec)),
    );
    expect(unexplained).toEqual([]);
    expect(imported.map((i) => i.spec)).toEqual(
      expect.arrayContaining(['thoughtline', 'thoughtline/workflow', 'thoughtline/testing', 'zod']),
    );
  });

  it('link only to files and headings that exist, and catch a broken link (negative control)', () => {
    expect(pages.flatMap(brokenLinks)).toEqual([]);
    const markdown =
      '# Here\n[a](concepts.md#budgets) [b](#here) [c](no-such-page.md) [d](concepts.md#no-such-heading) [e](#elsewhere)';
    expect(brokenLinks({ page: 'docs/control.md', markdown })).toEqual([
      'docs/control.md:2 no-such-page.md: no such file',
      'docs/control.md:2 concepts.md#no-such-heading: no such heading',
      'docs/control.md:2 #elsewhere: no such heading',
    ]);
  });
});
