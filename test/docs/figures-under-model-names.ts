/**
 * Finds figures (usage, cost, durations, scores) that a committed file presents under a real
 * model's name. Issue 79: "every figure under the name of what produced it". Nothing in this
 * repository was recorded from a real model's API, so any such presentation is made-up data;
 * a model *asked for* (settings, a config, a command line) is configuration and is not a finding.
 *
 * What "presents" means, per kind of file:
 * - JSON (a .json or .jsonl file, a ```json block of a page, a Temporal history's base64 payloads):
 *   an object whose `model` is a real model's name beside a figure key (`usage`, `costUsd`,
 *   `durationMs`, tokens, latency, scores) holding a number: a reply or a ledger row from that
 *   model. And an evaluation result (`variants` beside `results`) whose variant is named for a
 *   real model or asks one: its results stand under that name.
 * - Text (a page's paragraphs, list items, table rows and code blocks, a blank line apart): a block
 *   that names a real model and holds a measured figure (`$0.01`, `137 ms`, `2.5 s`, `88%`,
 *   `400 tokens`). Settings written as `maxTokens: 2048` or `timeoutMs: 120000` are not figures.
 */
import { CLAUDE_PRICES } from '../../src/domain/model/pricing';

/** `file:line what`, for the test's failure message. */
export interface Finding {
  file: string;
  line: number;
  what: string;
}

/** Families whose names are real models' even where the price table has no entry (OpenAI, Google). */
const REAL_FAMILIES = /^(claude|gpt|gemini)-/;
/** A model id's date suffix (`claude-sonnet-4-5-20250929`), which the price table leaves off. */
const DATE_SUFFIX = /-\d{8}$/;
/** A real model's name anywhere in text: a family prefix, then the id's characters. */
const NAME_IN_TEXT = /\b(?:claude|gpt|gemini)-[a-z0-9.-]*[a-z0-9]/gi;

/** A name from the price table (date suffix dropped) or of a real model family. */
export function isRealModelName(name: string): boolean {
  const id = name.toLowerCase().replace(DATE_SUFFIX, '');
  return Object.hasOwn(CLAUDE_PRICES, id) || REAL_FAMILIES.test(id);
}

/** Keys whose number is something measured of a reply or a run, never a setting. */
const FIGURE_KEYS = new Set([
  'usage',
  'costUsd',
  'durationMs',
  'inputTokens',
  'outputTokens',
  'cacheReadTokens',
  'cacheWriteTokens',
  'tokens',
  'latencyMs',
  'score',
  'scores',
  'passRate',
]);

const holdsNumber = (value: unknown): boolean =>
  typeof value === 'number' ||
  (typeof value === 'object' && value !== null && Object.values(value).some((v) => holdsNumber(v)));

/** A string that is a JSON payload written as base64 (a Temporal history's `payload.data`). */
function decodedPayload(text: string): unknown {
  if (text.length < 8 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  const decoded = Buffer.from(text, 'base64').toString('utf8');
  if (!/^\s*[[{]/.test(decoded)) return undefined;
  try {
    return JSON.parse(decoded) as unknown;
  } catch {
    return undefined;
  }
}

/** What a JSON value presents under a real model's name, each as a short description. */
export function jsonFindings(value: unknown): string[] {
  const found: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      const payload = decodedPayload(v);
      if (payload !== undefined) walk(payload);
      return;
    }
    if (typeof v !== 'object' || v === null) return;
    if (Array.isArray(v)) return v.forEach(walk);
    const o = v as Record<string, unknown>;
    if (typeof o.model === 'string' && isRealModelName(o.model)) {
      const figures = Object.keys(o).filter((k) => FIGURE_KEYS.has(k) && holdsNumber(o[k]));
      if (figures.length > 0) found.push(`${figures.join(', ')} under the model ${o.model}`);
    }
    if (Array.isArray(o.variants) && Array.isArray(o.results)) {
      for (const variant of o.variants as Array<{ id?: unknown; model?: { model?: unknown } }>) {
        const id = typeof variant?.id === 'string' ? variant.id : '';
        const asked = typeof variant?.model?.model === 'string' ? variant.model.model : '';
        const named = [...id.matchAll(NAME_IN_TEXT)].some((m) => isRealModelName(m[0]));
        if (named || isRealModelName(asked))
          found.push(`evaluation results under the variant ${id} (model ${asked || 'unset'})`);
      }
    }
    Object.values(o).forEach(walk);
  };
  walk(value);
  return found;
}

/** A figure someone measured, as a page writes it; a bare number (a setting, a count) is not one. */
const MEASURED = /\$\d|\b\d+(?:[.,]\d+)*\s?(?:ms|s|seconds?|tokens?|%)(?![\w-])/i;

/**
 * Text that names a model without presenting its figures: a model asked for ("asked for
 * claude-sonnet-4-6", how the CLI titles a call another model answered), and list prices
 * ("$3/$15 per Mtok"), which are the provider's published figures, not results.
 */
const NOT_PRESENTING = [/\basked for [\w.-]+/gi, /\$\d+(?:\.\d+)?\/\$\d+(?:\.\d+)? per Mtok/gi];

/** Text blocks (a blank line apart; each table row a block of its own) with the line each starts on. */
export function blocksOf(text: string): Array<{ text: string; line: number }> {
  const blocks: Array<{ text: string; line: number }> = [];
  let current: string[] = [];
  let start = 1;
  text.split('\n').forEach((line, i) => {
    if (line.trimStart().startsWith('|')) {
      if (current.length > 0) blocks.push({ text: current.join('\n'), line: start });
      blocks.push({ text: line, line: i + 1 });
      current = [];
      return;
    }
    if (line.trim() === '') {
      if (current.length > 0) blocks.push({ text: current.join('\n'), line: start });
      current = [];
      return;
    }
    if (current.length === 0) start = i + 1;
    current.push(line);
  });
  if (current.length > 0) blocks.push({ text: current.join('\n'), line: start });
  return blocks;
}

/** Each block of a page that names a real model and holds a measured figure, as `line: names`. */
export function textFindings(text: string): Array<{ line: number; what: string }> {
  return blocksOf(text).flatMap(({ text: whole, line }) => {
    const block = NOT_PRESENTING.reduce((t, pattern) => t.replace(pattern, ''), whole);
    const names = [...new Set([...block.matchAll(NAME_IN_TEXT)].map((m) => m[0]))].filter(isRealModelName);
    const figure = MEASURED.exec(block);
    return names.length > 0 && figure ? [{ line, what: `"${figure[0]}" in a block naming ${names.join(', ')}` }] : [];
  });
}

/** The ```json blocks of a page that parse, with the line each opens on. */
function jsonBlocks(markdown: string): Array<{ value: unknown; line: number }> {
  const out: Array<{ value: unknown; line: number }> = [];
  const fence = /^```(?:json|jsonl)\s*\n([\s\S]*?)^```/gm;
  for (const m of markdown.matchAll(fence)) {
    const line = markdown.slice(0, m.index).split('\n').length;
    const parsed = parsedJson(m[1]!);
    // A block of one document, else of JSON lines (each line that parses).
    const values = parsed !== undefined ? [parsed] : m[1]!.split('\n').flatMap((l) => parsedJson(l) ?? []);
    for (const value of values) out.push({ value, line });
  }
  return out;
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Every finding of one committed file, by its kind (JSON, JSON lines, or a page of text). */
export function fileFindings(file: string, content: string): Finding[] {
  if (file.endsWith('.jsonl'))
    return content.split('\n').flatMap((text, i) => {
      if (text.trim() === '') return [];
      try {
        return jsonFindings(JSON.parse(text)).map((what) => ({ file, line: i + 1, what }));
      } catch {
        return [{ file, line: i + 1, what: 'a line that is not JSON (cannot be checked)' }];
      }
    });
  if (file.endsWith('.json')) {
    try {
      return jsonFindings(JSON.parse(content)).map((what) => ({ file, line: 1, what }));
    } catch {
      return textFindings(content).map((f) => ({ file, ...f }));
    }
  }
  const inBlocks = file.endsWith('.md')
    ? jsonBlocks(content).flatMap(({ value, line }) => jsonFindings(value).map((what) => ({ file, line, what })))
    : [];
  return [...inBlocks, ...textFindings(content).map((f) => ({ file, ...f }))];
}
