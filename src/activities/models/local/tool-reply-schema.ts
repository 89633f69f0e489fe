import type { ModelTool } from '../../../domain';

/**
 * The one JSON shape a local model writes when it may call a tool, as a JSON Schema that
 * node-llama-cpp turns into a grammar, so even a 135M model can only produce a valid reply:
 *
 *   {"thought": "…", "tool": "<one tool's name>", "arguments": {…that tool's input schema…}}
 *   {"thought": "…", "answer": "…"}
 *
 * Why this shape: a `oneOf` of flat objects is what a JSON-schema grammar expresses exactly
 * (each branch is a fixed sequence of keys), the `tool` const picks the branch so the arguments
 * that follow are constrained by that tool's own schema, and `thought` comes first so the model
 * reasons before it acts (the ReAct order). Every key is required: an optional key would let the
 * grammar end the object early. The thought is bounded (THOUGHT_MAX_CHARS, a sentence or two): greedy decoding of
 * a small model can repeat a phrase without end ("why, why, why, …" until max tokens, recorded
 * in test/fixtures/local-model), and a bound makes the grammar close the string and go on.
 */
export const THOUGHT_MAX_CHARS = 120;
const THOUGHT = { type: 'string', maxLength: THOUGHT_MAX_CHARS };

export function toolReplySchema(tools: readonly ModelTool[]): Record<string, unknown> {
  const calls = tools.map((tool) => ({
    type: 'object',
    properties: {
      thought: THOUGHT,
      tool: { const: tool.name },
      arguments: toGrammarSchema(tool.inputSchema),
    },
    required: ['thought', 'tool', 'arguments'],
    additionalProperties: false,
  }));
  const answer = {
    type: 'object',
    properties: { thought: THOUGHT, answer: { type: 'string' } },
    required: ['thought', 'answer'],
    additionalProperties: false,
  };
  return { oneOf: [...calls, answer] };
}

/** Any JSON value: what a schema the grammar cannot express falls back to. */
const ANY_VALUE = {
  oneOf: [
    { type: ['string', 'number', 'boolean', 'null'] },
    { type: 'object', additionalProperties: true },
    { type: 'array' },
  ],
};

const STRING_FORMATS = new Set(['date-time', 'time', 'date']);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A tool's JSON Schema (from zod) reduced to the subset node-llama-cpp's grammar takes. Bounds it
 * cannot express (minimum, pattern) are dropped, not enforced: the workflow validates every call
 * against the tool's zod schema and returns a violation to the model as an observation.
 */
export function toGrammarSchema(schema: unknown): Record<string, unknown> {
  if (!isRecord(schema)) return ANY_VALUE;
  const out: Record<string, unknown> = {};
  if (typeof schema.description === 'string') out.description = schema.description;
  if (isRecord(schema.$defs)) out.$defs = mapValues(schema.$defs, toGrammarSchema);
  if (typeof schema.$ref === 'string') return { ...out, $ref: schema.$ref };
  if ('const' in schema) return { ...out, const: schema.const };
  if (Array.isArray(schema.enum)) return { ...out, enum: schema.enum };
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union !== undefined) return { ...out, oneOf: union.map(toGrammarSchema) };
  const type = schema.type;
  if (type === 'object') return { ...out, ...objectSchema(schema) };
  if (type === 'array') return { ...out, ...arraySchema(schema) };
  if (type === 'string') {
    if (typeof schema.format === 'string' && STRING_FORMATS.has(schema.format))
      return { ...out, type, format: schema.format };
    return { ...out, type, ...pick(schema, ['minLength', 'maxLength']) };
  }
  if (typeof type === 'string' && ['number', 'integer', 'boolean', 'null'].includes(type)) return { ...out, type };
  if (Array.isArray(type) && type.every((t) => ['string', 'number', 'integer', 'boolean', 'null'].includes(t)))
    return { ...out, type };
  return { ...out, ...ANY_VALUE };
}

function objectSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { type: 'object' };
  if (isRecord(schema.properties)) out.properties = mapValues(schema.properties, toGrammarSchema);
  if (Array.isArray(schema.required)) out.required = schema.required;
  const extra = schema.additionalProperties;
  // A JSON Schema object without the key allows any others; the grammar's default forbids them.
  out.additionalProperties =
    extra === undefined ? !isRecord(schema.properties) : isRecord(extra) ? toGrammarSchema(extra) : extra === true;
  return { ...out, ...pick(schema, ['minProperties', 'maxProperties']) };
}

function arraySchema(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { type: 'array' };
  if (isRecord(schema.items)) out.items = toGrammarSchema(schema.items);
  if (Array.isArray(schema.prefixItems)) out.prefixItems = schema.prefixItems.map(toGrammarSchema);
  return { ...out, ...pick(schema, ['minItems', 'maxItems']) };
}

const pick = (schema: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(keys.filter((k) => typeof schema[k] === 'number').map((k) => [k, schema[k]]));

const mapValues = (
  record: Record<string, unknown>,
  f: (value: unknown) => Record<string, unknown>,
): Record<string, unknown> => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
