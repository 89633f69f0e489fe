import { redactSecretsInText } from '../secrets/secret-patterns';
import { redactFields } from '../secrets/sensitive-fields';

/** Longest text one placeholder renders to. */
const MAX_VALUE_CHARS = 200;
const UNKNOWN = '?';
const PLACEHOLDER = /\{([A-Za-z0-9_.-]+)\}/g;

type Found = { found: true; value: unknown } | { found: false };

/** Follows a dotted path through own properties only (`constructor` is not a field). */
function lookup(root: unknown, path: string): Found {
  let node = root;
  for (const segment of path.split('.')) {
    const steppable = node !== null && (typeof node === 'object' || typeof node === 'string');
    if (!steppable || !Object.prototype.hasOwnProperty.call(node, segment)) return { found: false };
    node = (node as Record<string, unknown>)[segment];
  }
  return node === undefined ? { found: false } : { found: true, value: node };
}

function format(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length <= MAX_VALUE_CHARS ? text : `${text.slice(0, MAX_VALUE_CHARS - 1)}…`;
}

/** `{result}`, then the arguments, then an object result, then `result.<path>` into the result. */
function resolve(name: string, args: unknown, result: unknown): Found {
  if (name === 'result') return result === undefined ? { found: false } : { found: true, value: result };
  const inArgs = lookup(args, name);
  if (inArgs.found) return inArgs;
  if (result !== null && typeof result === 'object') {
    const inResult = lookup(result, name);
    if (inResult.found) return inResult;
  }
  if (name.startsWith('result.')) return lookup(result, name.slice('result.'.length));
  return { found: false };
}

/**
 * Renders a step's summary line: `{name}` or `{a.b}` from the arguments first, then the result
 * (when it is an object); `{result}` is the whole result, and `{result.length}` a path into it.
 * Unknown placeholders render as `?`; each value is clipped to 200 characters, objects as JSON.
 * Callers redact sensitive fields first; `sensitiveFields` redacts them again here, and the
 * line is passed through the secret patterns. Pure and sandbox-safe.
 */
export function renderSummaryTemplate(
  template: string,
  args: unknown,
  result: unknown,
  sensitiveFields: readonly string[] = [],
): string {
  const safeArgs = redactFields(args, sensitiveFields);
  const safeResult = redactFields(result, sensitiveFields);
  const line = template.replace(PLACEHOLDER, (_match, name: string) => {
    const hit = resolve(name, safeArgs, safeResult);
    return hit.found ? format(hit.value) : UNKNOWN;
  });
  return redactSecretsInText(line);
}
