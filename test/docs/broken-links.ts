/**
 * Relative links of a markdown page that point nowhere: a missing file, or a heading that the
 * target page (or the page itself, for `#anchor`) does not have. Shared by the docs tests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './doc-snippets';
import { headingAnchors, markdownLinks } from './markdown-blocks';

/** `page:line target: why` for each broken relative link of `markdown`, read as `page` of the repository. */
export function brokenLinks({ page, markdown }: { page: string; markdown: string }): string[] {
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
