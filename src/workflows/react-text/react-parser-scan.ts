/**
 * Line scanner of the ReAct text parser: cuts a reply into labelled fields. Pure and
 * deterministic (workflow sandbox side); the meaning of the fields is decided in react-parser.ts.
 */
import { labelKey, ReActLabels } from '../../domain/model/reasoning-settings';

export type FieldLabel = 'preamble' | 'thought' | 'action' | 'input' | 'observation' | 'final';

/** A field runs from its label line to the next field's label line (or the scan's `end`). */
export interface Field {
  label: FieldLabel;
  /** Index of the label line; -1 for the preamble before the first label. */
  start: number;
  /** Text after the label on its own line. */
  head: string;
  /** Indentation of the label line, removed from the field's continuation lines. */
  indent: number;
}

export interface Scan {
  /** The reply's lines: LF only, trailing whitespace removed, a whole-reply code fence removed. */
  lines: string[];
  fields: Field[];
  /** Exclusive end line: a hallucinated `Observation:` after an action or answer cuts the reply here. */
  end: number;
}

/** The labels a reply is read with: `Thought`, `Action`, … by default, or a run's own (`labels`). */
export interface LabelSet {
  /** Label letters, lower case (labelKey) → field. */
  keys: Readonly<Record<string, Exclude<FieldLabel, 'preamble'>>>;
  /** `Action Input:` or `Final Answer:` written on the `Action:` line itself. */
  inlineAfterAction: RegExp;
  /** Letters of the Action Input label, lower case: tells the two inline labels apart. */
  inputKey: string;
}

/** The set for a run's labels. `Answer:` also means Final Answer, unless a label of the run uses that word. */
export function labelSet(labels: ReActLabels): LabelSet {
  const keys: Record<string, Exclude<FieldLabel, 'preamble'>> = {
    [labelKey(labels.thought)]: 'thought',
    [labelKey(labels.action)]: 'action',
    [labelKey(labels.actionInput)]: 'input',
    [labelKey(labels.observation)]: 'observation',
    [labelKey(labels.finalAnswer)]: 'final',
  };
  keys['answer'] ??= 'final';
  // Labels are letters, spaces and _ only (ReActLabels), so they need no escaping; `[ _]?` where a space was.
  const loose = (label: string) =>
    label
      .trim()
      .split(/[\s_]+/)
      .join('[ _]?');
  const inlineAfterAction = new RegExp(
    `(?<![\\p{L}])(${loose(labels.actionInput)}|${loose(labels.finalAnswer)})\\s*[:：]`,
    'iu',
  );
  return { keys, inlineAfterAction, inputKey: labelKey(labels.actionInput) };
}

export const DEFAULT_LABEL_SET: LabelSet = labelSet(ReActLabels.parse({}));

/** Inside a Final Answer only these labels start a field; other label-like lines are answer text. */
const LABELS_AFTER_ANSWER: ReadonlySet<FieldLabel> = new Set(['action', 'input', 'observation']);

export const isFenceLine = (line: string): boolean => /^\s*(```|~~~)/.test(line);
const indentOf = (line: string): number => line.length - line.trimStart().length;

/**
 * `Thought:`, `**Action:**`, `### Final Answer:`, `Action Input 1:`, `action_input：` … at the
 * start of a line (after indentation). Case-insensitive; the label words must fill the head.
 */
export function matchLabel(
  line: string,
  set: LabelSet = DEFAULT_LABEL_SET,
): { label: Exclude<FieldLabel, 'preamble'>; rest: string } | undefined {
  const text = line.trimStart();
  const colon = text.search(/[:：]/);
  if (colon < 1 || colon > 40) return undefined;
  const head = text.slice(0, colon);
  if (!/^[#>*_ ]*\p{L}[\p{L} _]*\d*[*_ ]*$/u.test(head)) return undefined;
  const label = set.keys[labelKey(head)];
  if (!label) return undefined;
  // `**Action:** x`: the bold opened before the label closes after the colon.
  const opened = (/^[#> ]*([*_]*)/.exec(head)?.[1] ?? '').length - (/([*_]*)\s*$/.exec(head)?.[1] ?? '').length;
  let rest = text.slice(colon + 1);
  if (opened > 0) rest = rest.replace(new RegExp(`^\\s*[*_]{1,${opened}}`), '');
  return { label, rest: rest.trim() };
}

/** Tracks a JSON value through its text: bracket depth and whether a string is open. */
export interface JsonCursor {
  depth: number;
  inString: boolean;
  escaped: boolean;
  closed: boolean;
}
export const newJsonCursor = (): JsonCursor => ({ depth: 0, inString: false, escaped: false, closed: false });

/** Feeds `text`; returns the index just past the bracket that closes the top-level value, if any. */
export function feedJson(cursor: JsonCursor, text: string): number | undefined {
  for (let i = 0; i < text.length && !cursor.closed; i++) {
    const ch = text[i];
    if (cursor.inString) {
      if (cursor.escaped) cursor.escaped = false;
      else if (ch === '\\') cursor.escaped = true;
      else if (ch === '"') cursor.inString = false;
    } else if (ch === '"') cursor.inString = true;
    else if (ch === '{' || ch === '[') cursor.depth++;
    else if ((ch === '}' || ch === ']') && --cursor.depth <= 0) {
      cursor.closed = true;
      return i + 1;
    }
  }
  return undefined;
}

/** Says whether labels are hidden on the next line: inside a code fence or an open JSON string. */
class FieldGuard {
  private mode: 'none' | 'pending' | 'text' | 'fence' | 'json';
  private fenceOpen = false;
  private readonly json = newJsonCursor();

  constructor(label: FieldLabel) {
    this.mode = label === 'input' ? 'pending' : label === 'final' ? 'fence' : 'none';
  }

  feed(line: string): void {
    const text = line.trim();
    if (this.mode === 'pending') {
      if (!text) return;
      this.mode = isFenceLine(text) ? 'fence' : /^[{[]/.test(text) ? 'json' : 'text';
    }
    if (this.mode === 'fence' && isFenceLine(text)) this.fenceOpen = !this.fenceOpen;
    if (this.mode === 'json' && !this.json.closed) feedJson(this.json, `${line}\n`);
  }

  hidesLabels(): boolean {
    return this.fenceOpen || (this.json.inString && !this.json.closed);
  }
}

export function scanReply(text: string, set: LabelSet = DEFAULT_LABEL_SET): Scan {
  const lines = unwrapWholeFence(
    set,
    text
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .map((l) => l.trimEnd()),
  );
  const firstText = lines.find((l) => l.trim() !== '') ?? '';
  const fields: Field[] = [{ label: 'preamble', start: -1, head: '', indent: indentOf(firstText) }];
  let guard = new FieldGuard('preamble');
  let committed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const found = guard.hidesLabels() ? undefined : matchLabel(line, set);
    const current = fields[fields.length - 1]?.label;
    if (!found || (current === 'final' && !LABELS_AFTER_ANSWER.has(found.label))) {
      guard.feed(line);
      continue;
    }
    if (found.label === 'observation' && committed) return { lines, fields, end: i };
    committed ||= found.label === 'action' || found.label === 'input' || found.label === 'final';
    const parts = [found];
    const inline = found.label === 'action' ? set.inlineAfterAction.exec(found.rest) : null;
    if (inline?.[1]) {
      const label = labelKey(inline[1]) === set.inputKey ? 'input' : 'final';
      parts.splice(0, 1, { label: 'action', rest: found.rest.slice(0, inline.index).trim() });
      parts.push({ label, rest: found.rest.slice(inline.index + inline[0].length).trim() });
    }
    for (const part of parts) fields.push({ label: part.label, start: i, head: part.rest, indent: indentOf(line) });
    const last = parts[parts.length - 1] ?? found;
    guard = new FieldGuard(last.label);
    guard.feed(last.rest);
  }
  return { lines, fields, end: lines.length };
}

/** Text of one field up to the next field (or, with `untilEnd`, to the scan's end), dedented and trimmed. */
export function fieldText(scan: Scan, index: number, untilEnd = false): string {
  const field = scan.fields[index];
  if (!field) return '';
  const stop = untilEnd ? scan.end : Math.min(scan.fields[index + 1]?.start ?? scan.end, scan.end);
  const body = scan.lines.slice(field.start + 1, Math.max(stop, field.start + 1)).map((l) => dedent(l, field.indent));
  return [field.head, ...body].join('\n').trim();
}

function dedent(line: string, width: number): string {
  let i = 0;
  while (i < width && i < line.length && /\s/.test(line[i] ?? '')) i++;
  return line.slice(i);
}

/** A reply wrapped whole in one code fence (with ReAct labels inside) is read without the fence. */
function unwrapWholeFence(set: LabelSet, lines: string[]): string[] {
  const first = lines.findIndex((l) => l.trim() !== '');
  const last = lines.length - 1 - [...lines].reverse().findIndex((l) => l.trim() !== '');
  if (first < 0 || first >= last) return lines;
  const closes = /^\s*(```|~~~)$/.test(lines[last] ?? '');
  if (!isFenceLine(lines[first] ?? '') || !closes || !lines.slice(first + 1, last).some((l) => matchLabel(l, set)))
    return lines;
  return lines.map((l, i) => (i === first || i === last ? '' : l));
}
