import { z } from 'zod';

/** The longest explanation of a mismatch the model is sent back. */
const MAX_PROBLEM_CHARS = 2_000;

export type StructuredAnswer = { ok: true; value: unknown; text: string } | { ok: false; problem: string };

/**
 * A final answer read against the run's output schema: a finish tool's `result` as the model gave
 * it, or answer text holding JSON (a code fence around it is allowed). Pure and deterministic;
 * never throws: what cannot be read or does not match becomes a problem the model is told.
 */
export function readStructuredAnswer(schema: Record<string, unknown>, given: unknown): StructuredAnswer {
  const value = typeof given === 'string' ? parseJson(given) : { ok: true as const, value: given };
  if (!value.ok) return { ok: false, problem: `The answer must be JSON matching the output schema; ${value.problem}` };
  let checked: z.ZodSafeParseResult<unknown>;
  try {
    checked = z.fromJSONSchema(withoutFormats(schema)).safeParse(value.value);
  } catch (err) {
    return { ok: false, problem: `The output schema could not be checked: ${(err as Error).message}` };
  }
  if (checked.success) return { ok: true, value: checked.data, text: JSON.stringify(checked.data) };
  const problem = `The answer does not match the output schema:\n${z.prettifyError(checked.error)}`;
  return {
    ok: false,
    problem: problem.length > MAX_PROBLEM_CHARS ? `${problem.slice(0, MAX_PROBLEM_CHARS)}…` : problem,
  };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  const trimmed = unfenced(text.trim());
  try {
    return { ok: true, value: JSON.parse(trimmed) };
  } catch (err) {
    return { ok: false, problem: `it is not JSON (${(err as Error).message}).` };
  }
}

/** The inside of one code fence wrapping the whole text, else the text. */
function unfenced(text: string): string {
  if (!text.startsWith('```') || !text.endsWith('```') || text.length < 6) return text;
  const firstLine = text.indexOf('\n');
  return firstLine === -1 ? text : text.slice(firstLine + 1, -3).trim();
}

/** Keywords whose value is one subschema, a list of them, or a map of them. */
const ONE: readonly string[] = [
  'additionalProperties',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
];
const LIST: readonly string[] = ['prefixItems', 'anyOf', 'oneOf', 'allOf'];
const MAP: readonly string[] = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The schema without `format`, which JSON Schema 2020-12 reads as an annotation by default. Zod
 * checks formats with module-level regular expressions, and the workflow sandbox freezes those
 * (their `lastIndex` cannot be reset); zod's own JSON Schemas carry a `pattern` beside each format,
 * which is checked. A property *named* format is kept: only schema nodes are walked.
 */
export function withoutFormats(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'format') continue;
    if (ONE.includes(key) && isObject(value)) out[key] = withoutFormats(value);
    else if (LIST.includes(key) && Array.isArray(value))
      out[key] = value.map((v: unknown) => (isObject(v) ? withoutFormats(v) : v));
    else if (MAP.includes(key) && isObject(value))
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, v]) => [name, isObject(v) ? withoutFormats(v) : v]),
      );
    else out[key] = value;
  }
  return out;
}
