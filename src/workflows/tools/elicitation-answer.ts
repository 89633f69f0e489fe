import { ElicitationContent, type ElicitationAnswer, type ElicitationRequest } from '../../domain';

/** A person's text turned into what the server receives, or why it could not be. Pure. */
export type ReadAnswer = { ok: true; answer: ElicitationAnswer } | { ok: false; problem: string };

/**
 * Reads the text a person gave (through the `answer` update) for a server's request: `decline`
 * or `cancel` as those actions; a JSON object as the fields; any other text as the one field
 * when the schema has exactly one (a number or yes/no read by its type). The server checks the
 * fields against its schema again; what does not fit is asked again.
 */
export function readElicitationAnswer(request: ElicitationRequest, text: string, by: string): ReadAnswer {
  const trimmed = text.trim();
  const word = trimmed.toLowerCase();
  if (word === 'decline' || word === 'cancel') return { ok: true, answer: { key: request.key, action: word, by } };
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      return { ok: false, problem: 'The answer starts with "{" but is not valid JSON.' };
    }
    const content = ElicitationContent.safeParse(parsed);
    if (!content.success)
      return { ok: false, problem: 'The JSON answer must be an object of strings, numbers, booleans or string lists.' };
    return { ok: true, answer: { key: request.key, action: 'accept', content: content.data, by } };
  }
  const fields = schemaFields(request);
  if (fields.length !== 1)
    return {
      ok: false,
      problem: `Answer with a JSON object of the fields ${fields.join(', ') || '(none)'}, or "decline" or "cancel".`,
    };
  const [field] = fields as [string];
  const value = asFieldType(fieldType(request, field), trimmed);
  if (value === undefined)
    return { ok: false, problem: `"${field}" must be ${TYPE_IN_WORDS[fieldType(request, field)] ?? 'text'}.` };
  return { ok: true, answer: { key: request.key, action: 'accept', content: { [field]: value }, by } };
}

/** The question as a person reads it in `thoughtline status` and the Web UI. */
export function elicitationQuestion(request: ElicitationRequest): string {
  const fields = schemaFields(request).map((f) => `${f} (${fieldType(request, f)})`);
  const how = fields.length === 1 ? `Reply with the ${fields[0]}` : `Reply with JSON of ${fields.join(', ')}`;
  const again = request.problem ? `\nYour last answer was not accepted: ${request.problem}` : '';
  return `The MCP server "${request.server}" asks, during ${request.tool}: ${request.message}\n${how}, or "decline" or "cancel".${again}`;
}

const TYPE_IN_WORDS: Readonly<Record<string, string>> = {
  integer: 'a whole number',
  number: 'a number',
  boolean: 'yes or no',
};

function properties(request: ElicitationRequest): Record<string, unknown> {
  const props = request.requestedSchema['properties'];
  return props !== null && typeof props === 'object' && !Array.isArray(props) ? (props as Record<string, unknown>) : {};
}

function schemaFields(request: ElicitationRequest): string[] {
  return Object.keys(properties(request));
}

function fieldType(request: ElicitationRequest, field: string): string {
  const prop = properties(request)[field];
  const type = prop !== null && typeof prop === 'object' ? (prop as Record<string, unknown>)['type'] : undefined;
  return typeof type === 'string' ? type : 'string';
}

function asFieldType(type: string, text: string): string | number | boolean | undefined {
  if (type === 'number' || type === 'integer') {
    const n = Number(text);
    return text !== '' && Number.isFinite(n) && (type === 'number' || Number.isInteger(n)) ? n : undefined;
  }
  if (type === 'boolean') {
    const word = text.toLowerCase();
    return ['yes', 'true', 'y'].includes(word) ? true : ['no', 'false', 'n'].includes(word) ? false : undefined;
  }
  return text;
}
