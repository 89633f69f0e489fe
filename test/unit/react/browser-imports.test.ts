import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const DIR = path.resolve(__dirname, '../../../src/react');

/** Each import of a file that stays in its JavaScript (not `import type`, not all-type specifiers). */
function valueImports(text: string): string[] {
  const source = ts.createSourceFile('f.ts', text, ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  for (const st of source.statements) {
    if (!(ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) || !st.moduleSpecifier) continue;
    const spec = (st.moduleSpecifier as ts.StringLiteral).text;
    if (ts.isImportDeclaration(st)) {
      const clause = st.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      const allTypes =
        clause && !clause.name && named && ts.isNamedImports(named) && named.elements.every((e) => e.isTypeOnly);
      if (!allTypes) out.push(spec);
    } else if (!st.isTypeOnly) out.push(spec);
  }
  return out;
}

/**
 * thoughtline/react runs in browsers: its JavaScript may load React and its own files, nothing
 * else (no Node module, no server code: the server's schemas come in as types, erased).
 */
describe('thoughtline/react: browser code only', () => {
  it('imports only react and its own files at run time', () => {
    const wrong = fs
      .readdirSync(DIR)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        valueImports(fs.readFileSync(path.join(DIR, f), 'utf8'))
          .filter((spec) => spec !== 'react' && !/^\.\/[\w-]+$/.test(spec))
          .map((spec) => `${f} imports ${spec}`),
      );
    expect(wrong).toEqual([]);
  });

  it('catches a value import of the server and of a Node module (negative control)', () => {
    const text = [
      "import type { z } from 'zod';",
      "import { type A, type B } from '../server/api-schemas';",
      "import { RunStatusResponse } from '../server/api-schemas';",
      "import fs from 'node:fs';",
      "export type * from './api-types';",
      "export { x } from '../server/x';",
    ].join('\n');
    expect(valueImports(text)).toEqual(['../server/api-schemas', 'node:fs', '../server/x']);
  });
});
