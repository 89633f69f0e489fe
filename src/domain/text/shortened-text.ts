/**
 * Where a shortened text was cut: at a handover (the carried chain and its archive) or in a
 * finished run's result. Either way the full text stays in the named Temporal run's history.
 */
export type ShortenedWhere = 'at continue-as-new' | 'in the result';

/** A text cut to its head, with the length it had and the run whose history holds it in full. */
export interface ShortenedText {
  head: string;
  length: number;
  where: ShortenedWhere;
  runId: string;
}

const MARKER = /…\[(\d+) characters; shortened (at continue-as-new|in the result), in full in run ([^[\]]+)\]$/;
/** A marker is far shorter (run ids are UUIDs); only this much of a text's end is searched, so reading stays linear. */
const MARKER_TAIL_CHARS = 256;

/** `head` followed by the marker that says how long the text was and where it is in full. */
export function shortenedText({ head, length, where, runId }: ShortenedText): string {
  return `${head}…[${length} characters; shortened ${where}, in full in run ${runId}]`;
}

/** The parts of a shortened text, or undefined when `text` does not end with a marker. */
export function readShortened(text: string): ShortenedText | undefined {
  const from = Math.max(0, text.length - MARKER_TAIL_CHARS);
  const marked = MARKER.exec(text.slice(from));
  if (!marked) return undefined;
  return {
    head: text.slice(0, from + marked.index),
    length: Number(marked[1]),
    where: marked[2] as ShortenedWhere,
    runId: marked[3]!,
  };
}
