/**
 * ASCII punctuation that markdown or its "smart" typography acts on: emphasis, links, headings,
 * lists, HTML, and quotes, `--` and `...` (turned curly, into dashes and an ellipsis).
 */
const ACTIVE = /[\\`*_{}[\]()#+\-.!<>|"'~&:=]/g;

/** Text that renders as exactly itself in CommonMark, smart typography included: every active character escaped. */
export const markdownText = (text: string): string => text.replace(ACTIVE, '\\$&');

/**
 * A code span that renders as exactly `text` (on one line): the fence is one backtick longer than
 * the longest run inside, padded when the text starts or ends with a backtick or a space. Line
 * breaks become spaces, as a code span shows them anyway, so no line of it starts a block.
 */
export function markdownCode(text: string): string {
  const flat = text.replace(/\r\n?|\n/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(flat) ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
