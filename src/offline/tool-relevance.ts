import type { ModelTool } from '../domain';

/**
 * How the offline model picks tools, deterministically: the task's words (lower case, three
 * letters or more, common words dropped, a plural or -ing/-ed ending cut) are compared with the
 * words of each tool's name (worth 2 each) and description (worth 1). A tool sharing no word with
 * the task is not relevant; the relevant ones are called best first, at most `MAX_TOOLS` of them.
 */
export const MAX_TOOLS = 3;

const COMMON = new Set(
  (
    'the and for with that this from into what which where when who whom whose why how are was were will would could should ' +
    "can may might must shall have has had not but all any each every some one two its it's our your their them they then " +
    'than there here about also just only very more most much many such please tell give get got let use using used call ' +
    'find show need want like make made does did done doing now out over under again after before between both either ' +
    'you yourself me my mine him her his hers she its via per new old current today first last next same other others ' +
    'task tool tools result results answer return returns thing things way ask asked'
  ).split(/\s+/),
);

/** Words of a text, as the relevance rule compares them. */
export function words(text: string): string[] {
  const split = text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return split.filter((w) => w.length >= 3 && !COMMON.has(w)).map(stem);
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/**
 * A tool's description without the note Thoughtline adds to every sub-agent's
 * (src/workflows/delegation/sub-agent-tools.ts): its words ("work", "write", "complete") say
 * nothing of what the agent does, and would match every task that uses them.
 */
const ownDescription = (tool: Pick<ModelTool, 'description'>): string =>
  tool.description.replace(/\s*\(A sub-agent: [^)]*\)\s*$/, '');

/** The tool's score against the task's words: 2 per word in its name, 1 per word only in its description. */
export function relevance(taskWords: ReadonlySet<string>, tool: Pick<ModelTool, 'name' | 'description'>): number {
  const name = new Set(words(tool.name));
  const description = new Set(words(ownDescription(tool)));
  let score = 0;
  for (const w of taskWords) score += name.has(w) ? 2 : description.has(w) ? 1 : 0;
  return score;
}

/** Words that mark a tool as changing something; such tools are called alone, after the others. */
const WRITES = new Set(
  'save write delete remove send create update post pay transfer deploy book cancel approve modify insert drop publish charge refund upload move rename store put patch commit'
    .split(' ')
    .map(stem),
);

/** No word of its name or description says it changes anything: safe to call alongside others. */
export function looksReadOnly(tool: Pick<ModelTool, 'name' | 'description'>): boolean {
  return ![...words(tool.name), ...words(ownDescription(tool))].some((w) => WRITES.has(w));
}

/**
 * The (at most `MAX_TOOLS`) tools relevant to `text`, in calling order: read-only-looking ones before writers (a writer such
 * as "save a report" then gets what the others observed), by score, then in offered order.
 */
export function relevantTools(text: string, tools: readonly ModelTool[]): ModelTool[] {
  const taskWords = new Set(words(text));
  return tools
    .map((tool, index) => ({ tool, index, score: relevance(taskWords, tool), reads: looksReadOnly(tool) }))
    .filter((t) => t.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, MAX_TOOLS)
    .sort((a, b) => Number(b.reads) - Number(a.reads) || b.score - a.score || a.index - b.index)
    .map((t) => t.tool);
}
