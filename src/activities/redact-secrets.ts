/** Shapes of credentials that must never reach a chain, a history or a log. */
const SECRET_PATTERNS: RegExp[] = [
  /sk-ant-[A-Za-z0-9_-]{8,}/g,
  /sk-[A-Za-z0-9]{20,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/-]{12,}=*/g,
];
const REDACTED = '[REDACTED]';

export type Redactor = (value: unknown) => unknown;

/** Replaces known secret values and secret-shaped strings anywhere inside `value`. */
export function createRedactor(knownSecrets: readonly string[]): Redactor {
  const exact = knownSecrets.filter((s) => s.length >= 8);
  const redactText = (text: string): string => {
    let out = text;
    for (const secret of exact) out = out.split(secret).join(REDACTED);
    for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, REDACTED);
    return out;
  };
  const redact = (value: unknown): unknown => {
    if (typeof value === 'string') return redactText(value);
    if (Array.isArray(value)) return value.map(redact);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v)]));
    }
    return value;
  };
  return redact;
}
