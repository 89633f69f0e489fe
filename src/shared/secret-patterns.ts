/**
 * Shapes of credentials that must never reach a chain, a view, a history or a log. Pure and
 * sandbox-safe: the workflow (views) and the activities (`createRedactor`) redact the same shapes.
 */
export const REDACTED = '[REDACTED]';

/** Names under which a value is a credential: `api_key=…`, `"x-api-key": "…"`, `apiKey: …`. */
const LABEL = String.raw`(?:x-)?api[-_]?key|(?:access|auth|refresh|session|private)[-_]?token|client[-_]?secret|secret[-_]?key|(?:aws[-_]?)?secret[-_]?access[-_]?key`;
/** A label (not inside a longer word), an optional closing quote, `:` or `=`, an optional opening quote. */
const ASSIGNED = String.raw`((?<![A-Za-z])(?:${LABEL})(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?)`;
/** A bare value: stops at whitespace, quotes, backslashes, brackets and separators (so `[REDACTED]` is never re-matched). */
const VALUE = String.raw`[^\s"'\`\\,;&()[\]{}<>]{8,}`;
/** Not preceded by a letter or digit, so a prefix inside a longer word never matches. */
const START = '(?<![A-Za-z0-9])';

/** Each pattern keeps its first group (when it has one) and replaces the rest of the match. */
const PATTERNS: readonly RegExp[] = [
  // PEM private keys (RSA, EC, OPENSSH, ENCRYPTED, plain, PGP blocks), multi-line; a key cut
  // off before its END line is redacted up to the end of its base64 body.
  /()-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\:-]*)/g,
  // Anthropic keys.
  new RegExp(`()${START}sk-ant-[A-Za-z0-9_-]{8,}`, 'g'),
  // OpenAI-style keys (`sk-…`, `sk-proj-…`); a digit is required so `sk-learn-…` prose stays.
  new RegExp(`()${START}sk-(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{20,}`, 'g'),
  // GitHub tokens, classic and fine-grained.
  new RegExp(`()${START}(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})`, 'g'),
  // Slack tokens.
  new RegExp(`()${START}xox[baprs]-[A-Za-z0-9-]{10,}`, 'g'),
  // AWS access key ids (long-term `AKIA`, temporary `ASIA`).
  new RegExp(`()${START}(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])`, 'g'),
  // Labelled assignments, including `aws_secret_access_key = <40 chars>`: the value goes.
  new RegExp(`${ASSIGNED}${VALUE}`, 'gi'),
  // `Authorization: Bearer|Basic|Token <credentials>`: the scheme stays, the credentials go.
  new RegExp(String.raw`((?<![A-Za-z])authorization(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?(?:bearer|basic|token)\s+)${VALUE}`, 'gi'),
  // Bare bearer tokens: a digit, or 20+ characters, so `Bearer bonds` prose stays.
  /\b([Bb]earer\s+)(?:(?=[A-Za-z._~+/-]*[0-9])[A-Za-z0-9._~+/-]{12,}|[A-Za-z0-9._~+/-]{20,})=*/g,
];

/** Object keys whose (non-empty string) value is redacted whole, whatever its shape. */
const SECRET_KEY = new RegExp(`^(?:${LABEL}|(?:proxy-)?authorization)$`, 'i');

/** Known secrets shorter than this are ignored: replacing them would hit ordinary text. */
const MIN_KNOWN_SECRET_LENGTH = 8;

/** Replaces each known secret (8+ characters) and every secret-shaped run in `text`. */
export function redactSecretsInText(text: string, knownSecrets: readonly string[] = []): string {
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  const exact = knownSecrets.filter((s) => s.length >= MIN_KNOWN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  for (const secret of exact) out = out.split(secret).join(REDACTED);
  for (const pattern of PATTERNS) out = out.replace(pattern, `$1${REDACTED}`);
  return out;
}

/**
 * A deep copy of a plain JSON value with every string redacted as `redactSecretsInText` does,
 * and the string value under a credential-named key (`apiKey`, `x-api-key`, `authorization`, …)
 * replaced whole. Keys are kept; the shape is unchanged.
 */
export function redactSecrets<T>(value: T, knownSecrets: readonly string[] = []): T {
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return redactSecretsInText(node, knownSecrets);
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(
        Object.entries(node).map(([key, v]) => [key, typeof v === 'string' && v !== '' && SECRET_KEY.test(key) ? REDACTED : walk(v)]),
      );
    }
    return node;
  };
  return walk(value) as T;
}
