/**
 * The docs' TypeScript compiles, and their relative links resolve.
 *
 * Conventions for README.md and docs/*.md:
 * - Every fenced block names its language. ```ts blocks are compiled here; anything else (shell,
 *   output, JSON) uses another fence: ```bash, ```text, ```json. JavaScript that is also valid
 *   TypeScript goes in a ```ts block too, so no example escapes the check.
 * - Each ```ts block is its own module, type-checked against the repository's sources:
 *   `thoughtline` is src/index.ts and `thoughtline/dist/<path>` is src/<path>, as an installed
 *   package resolves them. Top-level `await` is allowed.
 * - A block whose first line is a comment naming a file (`// tools.ts`) is that file, so the next
 *   blocks of the same page can import it (`import { getWeather } from './tools'`).
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
import { fencedBlocks, headingAnchors, markdownLinks } from './markdown-blocks';

const ROOT = path.resolve(__dirname, '../..');
const PAGES = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
/** Where the snippets pretend to live: inside the repository, so node_modules resolves. */
const SNIPPET_DIR = path.join(ROOT, '.doc-snippets');
const TS_ALIASES = new Set(['typescript', 'tsx', 'mts', 'cts', 'js', 'javascript']);

interface Snippet {
  page: string;
  line: number;
  file: string;
  text: string;
  /** Lines of `text` before the block's first line. */
  offset: number;
}

function snippetsOf(page: string, markdown: string): Snippet[] {
  const slug = page.replace(/\.md$/, '').replace(/[^\w-]/g, '_');
  return fencedBlocks(markdown)
    .filter((b) => b.lang === 'ts')
    .map((block, i) => {
      const named = /^\/\/\s*([\w-]+\.ts)\b/.exec(block.code);
      const file = path.join(SNIPPET_DIR, slug, named ? named[1]! : `block-${i + 1}.ts`);
      const head = block.declare ? `${block.declare}\n` : '';
      return { page, line: block.line, file, text: `${head}${block.code}\nexport {};\n`, offset: head.split('\n').length - 1 };
    });
}

/** Line 4 is wrong: 'finished' is not a termination reason. */
const NEGATIVE_CONTROL = [
  'A page with one wrong block.',
  '<!-- snippet-declare: declare const result: import("thoughtline").AgentResult; -->',
  '```ts',
  "const reason: typeof result.terminationReason = 'finished';",
  '```',
].join('\n');

function compile(snippets: readonly Snippet[]): Map<string, ts.Diagnostic[]> {
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
    paths: { thoughtline: [path.join(ROOT, 'src/index.ts')], 'thoughtline/dist/*': [path.join(ROOT, 'src/*')] },
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
  const program = ts.createProgram([...files.keys()], options, host);
  return new Map(snippets.map((s) => [s.file, [...ts.getPreEmitDiagnostics(program, program.getSourceFile(s.file))]]));
}

function describeDiagnostic(s: Snippet, d: ts.Diagnostic): string {
  const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line - s.offset : 0;
  const where = at >= 0 ? `${s.page}:${s.line + 1 + at}` : `${s.page}:${s.line} (snippet-declare)`;
  return `${where} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
}

describe('docs', () => {
  const pages = PAGES.map((page) => ({ page, markdown: fs.readFileSync(path.join(ROOT, page), 'utf8') }));

  it('tag every fenced block with a language, and TypeScript as ts', () => {
    const wrong = pages.flatMap(({ page, markdown }) =>
      fencedBlocks(markdown)
        .filter((b) => b.lang === '' || TS_ALIASES.has(b.lang))
        .map((b) => `${page}:${b.line} \`\`\`${b.lang}`),
    );
    expect(wrong).toEqual([]);
  });

  it('compile every ts block, and fail a wrong one (negative control)', () => {
    const snippets = pages.flatMap(({ page, markdown }) => snippetsOf(page, markdown));
    expect(snippets.filter((s) => s.page === 'README.md').length).toBeGreaterThan(0);
    expect(new Set(snippets.map((s) => s.file)).size).toBe(snippets.length);
    const [control] = snippetsOf('negative-control.md', NEGATIVE_CONTROL);
    const diagnostics = compile([...snippets, control!]);

    const errors = snippets.flatMap((s) => diagnostics.get(s.file)!.map((d) => describeDiagnostic(s, d)));
    expect(errors).toEqual([]);
    const controlErrors = diagnostics.get(control!.file)!.map((d) => describeDiagnostic(control!, d));
    expect(controlErrors).toHaveLength(1);
    expect(controlErrors[0]).toMatch(/^negative-control\.md:4 TS2322: Type '"finished"' is not assignable/);
  });

  it('link only to files and headings that exist, and catch a broken link (negative control)', () => {
    expect(pages.flatMap(brokenLinks)).toEqual([]);
    const markdown = '# Here\n[a](concepts.md#budgets) [b](#here) [c](no-such-page.md) [d](concepts.md#no-such-heading) [e](#elsewhere)';
    expect(brokenLinks({ page: 'docs/control.md', markdown })).toEqual([
      'docs/control.md:2 no-such-page.md: no such file',
      'docs/control.md:2 concepts.md#no-such-heading: no such heading',
      'docs/control.md:2 #elsewhere: no such heading',
    ]);
  });
});

/** Relative links of a page (at its path in the repository) whose file or heading is missing. */
function brokenLinks({ page, markdown }: { page: string; markdown: string }): string[] {
  const broken: string[] = [];
  for (const { target, line } of markdownLinks(markdown)) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // http:, https:, mailto:
    const [file = '', anchor] = target.split('#');
    const resolved = path.resolve(path.dirname(path.join(ROOT, page)), decodeURIComponent(file));
    if (file !== '' && !fs.existsSync(resolved)) broken.push(`${page}:${line} ${target}: no such file`);
    else if (anchor && (file === '' || resolved.endsWith('.md'))) {
      const headings = headingAnchors(file === '' ? markdown : fs.readFileSync(resolved, 'utf8'));
      if (!headings.has(anchor)) broken.push(`${page}:${line} ${target}: no such heading`);
    }
  }
  return broken;
}
