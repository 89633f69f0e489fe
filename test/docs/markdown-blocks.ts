/**
 * Reads fenced code blocks and relative links out of markdown, for the docs test. Line numbers
 * are 1-based, as an editor shows them.
 */

export interface FencedBlock {
  /** The fence's info string, lower-cased (`ts`, `bash`, …; empty for a bare fence). */
  lang: string;
  /** The block's text, with the fence's own indentation removed from each line. */
  code: string;
  /** Line of the opening fence. */
  line: number;
  /** Declarations from a `<!-- snippet-declare: … -->` comment right before the fence. */
  declare: string;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const DECLARE = /<!--\s*snippet-declare:([\s\S]*?)-->\s*$/;

/** Every fenced block, in order. A fence closes on the same fence characters, at least as long. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', fence = '', lang = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trim().startsWith(fence[0]!.repeat(fence.length)) && line.trim().replace(/[`~]/g, '') === '') break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    blocks.push({
      lang: lang.toLowerCase(),
      code: body.join('\n'),
      line: i + 1,
      declare: declarationsBefore(lines, i),
    });
    i = j;
  }
  return blocks;
}

/** The text of a `snippet-declare` comment that ends on the last non-blank line before `fenceIndex`. */
function declarationsBefore(lines: readonly string[], fenceIndex: number): string {
  let end = fenceIndex - 1;
  while (end >= 0 && lines[end]!.trim() === '') end--;
  if (end < 0 || !lines[end]!.trim().endsWith('-->')) return '';
  let start = end;
  while (start > 0 && !lines[start]!.includes('<!--')) start--;
  const match = DECLARE.exec(lines.slice(start, end + 1).join('\n'));
  return match ? match[1]!.trim() : '';
}

export interface MarkdownLink {
  target: string;
  line: number;
}

/** Targets of inline links and images (`[text](target)`, `![alt](target)`) outside code. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  let inFence = false;
  markdown.split('\n').forEach((line, i) => {
    if (FENCE.test(line)) inFence = !inFence;
    if (inFence) return;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g))
      links.push({ target: m[1]!, line: i + 1 });
  });
  return links;
}

/** GitHub's anchor for each heading of a page (`## Sub-agents` → `sub-agents`), duplicates numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (FENCE.test(line)) inFence = !inFence;
    const heading = !inFence && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}
