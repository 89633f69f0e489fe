/**
 * The ```ts blocks of README.md and docs/*.md as files to compile, shared by the docs test (against
 * src/) and the installed-package test (against the built package, as ESM and as CommonJS).
 * Conventions are in doc-snippets.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { fencedBlocks } from './markdown-blocks';

export const ROOT = path.resolve(__dirname, '../..');
export const PAGES = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

export interface Snippet {
  page: string;
  line: number;
  /** Where the block is compiled: `dir/<page slug>/<file named in the block, or block-N.ts>`. */
  file: string;
  text: string;
  /** Lines of `text` before the block's first line. */
  offset: number;
  /** The block names its file (`// client.ts`): a whole file, compiled as written. */
  wholeFile: boolean;
  code: string;
  declare: string;
}

export function readPages(): Array<{ page: string; markdown: string }> {
  return PAGES.map((page) => ({ page, markdown: fs.readFileSync(path.join(ROOT, page), 'utf8') }));
}

export function snippetsOf(page: string, markdown: string, dir: string): Snippet[] {
  const slug = page.replace(/\.md$/, '').replace(/[^\w-]/g, '_');
  return fencedBlocks(markdown)
    .filter((b) => b.lang === 'ts')
    .map((block, i) => {
      const named = /^\/\/\s*([\w-]+\.ts)\b/.exec(block.code);
      const file = path.join(dir, slug, named ? named[1]! : `block-${i + 1}.ts`);
      const head = block.declare ? `${block.declare}\n` : '';
      return {
        page,
        line: block.line,
        file,
        text: `${head}${block.code}\nexport {};\n`,
        offset: head.split('\n').length - 1,
        wholeFile: named !== null,
        code: block.code,
        declare: block.declare,
      };
    });
}

/**
 * A CommonJS file cannot `await` at its top. An excerpt (a block that does not name its file) is
 * a part of a program, so as CommonJS its statements after the imports go into an async function,
 * on the same lines. Whole files and blocks that export are compiled as written.
 */
export function asCommonJsExcerpt(s: Snippet): Snippet {
  if (s.wholeFile) return s;
  const source = ts.createSourceFile('excerpt.ts', s.code, ts.ScriptTarget.ES2022, true);
  const statements = source.statements;
  if (
    statements.some(
      (st) => ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword),
    )
  )
    return s;
  if (!statements.some(hasTopLevelAwait)) return s;
  const imports = statements.filter(ts.isImportDeclaration);
  const at = imports.length > 0 ? imports[imports.length - 1]!.end : 0;
  const code = `${s.code.slice(0, at)} async function excerpt() {${s.code.slice(at)}\n}`;
  const head = s.declare ? `${s.declare}\n` : '';
  return { ...s, text: `${head}${code}\nexport {};\n` };
}

function hasTopLevelAwait(node: ts.Node): boolean {
  if (ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
  if (ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier !== undefined)) return true;
  return ts.forEachChild(node, hasTopLevelAwait) ?? false;
}

export function describeDiagnostic(s: Snippet, d: ts.Diagnostic): string {
  const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line - s.offset : 0;
  const where = at >= 0 ? `${s.page}:${s.line + 1 + at}` : `${s.page}:${s.line} (snippet-declare)`;
  return `${where} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
}

/** Every diagnostic of each snippet, all compiled in one program. */
export function diagnosticsOf(
  program: ts.Program,
  snippets: readonly Snippet[],
): Map<string, readonly ts.Diagnostic[]> {
  return new Map(snippets.map((s) => [s.file, ts.getPreEmitDiagnostics(program, program.getSourceFile(s.file))]));
}
