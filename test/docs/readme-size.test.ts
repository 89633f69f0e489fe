import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokenLinks } from './broken-links';
import { ROOT } from './doc-snippets';
import { markdownLinks } from './markdown-blocks';

/**
 * The README is a newcomer's page: at most 200 lines (the house rule), with everything else in
 * docs/ behind a link. So every relative link of it must land on a file, and on a heading there.
 */
const MAX_LINES = 200;
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

describe('README.md', () => {
  it(`has at most ${MAX_LINES} lines`, () => {
    const lines = readme.endsWith('\n') ? readme.slice(0, -1).split('\n').length : readme.split('\n').length;
    expect(lines).toBeLessThanOrEqual(MAX_LINES);
  });

  it('links to docs/ pages and headings that exist, and a broken link would be caught (negative control)', () => {
    const relative = markdownLinks(readme).filter(({ target }) => !/^[a-z][a-z+.-]*:/i.test(target));
    expect(relative.filter(({ target }) => target.startsWith('docs/')).length).toBeGreaterThan(10);
    expect(brokenLinks({ page: 'README.md', markdown: readme })).toEqual([]);
    const control = '# Here\n[a](docs/cli.md#a-session-with-the-demos-run) [b](docs/nope.md) [c](docs/cli.md#nope)';
    expect(brokenLinks({ page: 'README.md', markdown: control })).toEqual([
      'README.md:2 docs/nope.md: no such file',
      'README.md:2 docs/cli.md#nope: no such heading',
    ]);
  });
});
