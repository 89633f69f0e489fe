import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { DatasetProblem } from './dataset-error';
import type { RawCase } from './read-jsonl-cases';

/**
 * YAML: a list of cases, or a mapping with a `cases` list. Each case's line, and each field's,
 * comes from the document's node ranges. Aliases are expanded up to the parser's default count,
 * so an alias bomb is refused rather than expanded.
 */
export function readYamlCases(text: string): { cases: RawCase[]; problems: DatasetProblem[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0)
    return {
      cases: [],
      problems: doc.errors.map((e) => ({
        line: lineCounter.linePos(e.pos[0]).line,
        message: `not valid YAML: ${e.message.split('\n')[0]}`,
      })),
    };
  const lineAt = (node: Node | null | undefined, fallback: number): number =>
    node?.range ? lineCounter.linePos(node.range[0]).line : fallback;
  const root = doc.contents;
  const list = isSeq(root) ? root : isMap(root) ? root.get('cases', true) : undefined;
  if (!isSeq(list))
    return {
      cases: [],
      problems: [{ line: lineAt(root, 1), message: 'expected a list of cases, or a mapping with a "cases" list' }],
    };
  let values: unknown[];
  try {
    values = list.toJS(doc) as unknown[];
  } catch (err) {
    return { cases: [], problems: [{ line: lineAt(list, 1), message: (err as Error).message }] };
  }
  const cases = list.items.map((item, i): RawCase => {
    const line = lineAt(item as Node, 1);
    return {
      line,
      value: values[i],
      lineOf: (path) => {
        // The deepest part of the path the case has: a missing field points at its parent.
        for (let depth = path.length; depth > 0 && isMap(item); depth--) {
          const node = item.getIn(path.slice(0, depth), true) as Node | undefined;
          if (node?.range) return lineAt(node, line);
        }
        return line;
      },
    };
  });
  return { cases, problems: [] };
}
