import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokenLinks } from './broken-links';
import { ROOT } from './doc-snippets';
import { markdownLinks } from './markdown-blocks';

/**
 * docs/README.md is the learning path: four stages in order, and every page of docs/ listed once,
 * as `- [Title](page.md): what it is for` on one short line. Links into a page's heading
 * (`cli.md#…`) are extra pointers and do not count as its entry.
 */
const STAGES = ['The first hour', 'The first day', 'Production', 'Reference'];
const MAX_ENTRY_CHARS = 120;

function indexProblems(index: string, pages: readonly string[]): string[] {
  const problems: string[] = [];
  const headings = index.split('\n').filter((l) => l.startsWith('## '));
  if (headings.join('|') !== STAGES.map((s) => `## ${s}`).join('|'))
    problems.push(`stages are ${JSON.stringify(headings)}, not ${JSON.stringify(STAGES)}`);
  const lines = index.split('\n');
  const entries = markdownLinks(index).filter(({ target }) => !target.includes('#') && pages.includes(target));
  for (const page of pages) {
    const count = entries.filter(({ target }) => target === page).length;
    if (count !== 1) problems.push(`${page}: listed ${count} times`);
  }
  for (const { target, line } of entries) {
    const text = lines[line - 1]!;
    const escaped = target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (!new RegExp(`^\\s*(?:-|\\d+\\.) \\[[^\\]]+\\]\\(${escaped}\\): \\S`).test(text))
      problems.push(`${target}: line ${line} is not "- [Title](${target}): what it is for"`);
    else if (text.length > MAX_ENTRY_CHARS) problems.push(`${target}: line ${line} is over ${MAX_ENTRY_CHARS} chars`);
  }
  return problems;
}

const docsDir = path.join(ROOT, 'docs');
const pages = fs
  .readdirSync(docsDir)
  .filter((f) => f.endsWith('.md') && f !== 'README.md')
  .sort();
const index = fs.readFileSync(path.join(docsDir, 'README.md'), 'utf8');

describe('docs/README.md, the learning path', () => {
  it('has the four stages and lists every docs page exactly once, each with a one-line description', () => {
    expect(pages.length).toBeGreaterThan(30);
    expect(indexProblems(index, pages)).toEqual([]);
  });

  it('links only to files and headings that exist', () => {
    expect(brokenLinks({ page: 'docs/README.md', markdown: index })).toEqual([]);
  });

  it('reports a missing page, a page listed twice, an entry without a description and a stage out of order (negative control)', () => {
    const control = [
      '## The first day',
      '- [A](a.md): what a is for',
      '## The first hour',
      '- [B](b.md)',
      '## Production',
      '- [A again](a.md): twice',
      '## Reference',
      '- [C, deep](c.md#part): a heading is not the entry',
    ].join('\n');
    expect(indexProblems(control, ['a.md', 'b.md', 'c.md'])).toEqual([
      'stages are ["## The first day","## The first hour","## Production","## Reference"], not ["The first hour","The first day","Production","Reference"]',
      'a.md: listed 2 times',
      'c.md: listed 0 times',
      'b.md: line 4 is not "- [Title](b.md): what it is for"',
    ]);
  });
});
