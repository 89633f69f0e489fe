/**
 * Shapes of credentials that must never reach a chain, a view, a history or a log. Pure and
 * sandbox-safe (no Node builtins): the workflow (views) and the activities (`createRedactor`)
 * redact the same shapes.
 *
 * The provider-specific rules are a documented subset of gitleaks' default rule set
 * (https://github.com/gitleaks/gitleaks, config/gitleaks.toml, MIT License, Copyright (c) 2019
 * Zachary Rice); each rule names the gitleaks rule id it follows. They are rewritten for
 * JavaScript and for linear time: gitleaks runs on Go's RE2, which never backtracks, and V8 does.
 * Every pattern here therefore
 * - starts with a look-behind that excludes its own first characters, so a run of them has one
 *   start (`sk-sk-sk-…` is one attempt, not one per `sk-`);
 * - has no nested quantifiers and no alternation whose branches can match the same text;
 * - ends at the end of its greedy value run (conditions such as "has a digit" are checked after
 *   the match, in code, never with a look-ahead that rescans the run), or its unbounded runs are
 *   followed only by characters they exclude.
 * The unit tests run 1 MiB of hostile text through them; `bench/redaction.ts` prints the figure.
 */
import { SENSITIVE } from './sensitive-fields';

export const REDACTED = '[REDACTED]';

interface Rule {
  /** Group 1, when present, is kept (a label, a scheme); the rest of the match is replaced. */
  readonly re: RegExp;
  /** Optional check on the replaced part: a match that fails it is left as it was. */
  readonly accept?: (secret: string) => boolean;
}

const hasDigit = (s: string): boolean => /[0-9]/.test(s);
/** Gitleaks' generic rule needs some entropy; here: not all digits and not one repeated character. */
const notTrivial = (s: string): boolean => !/^[0-9]+$/.test(s) && !/^(.)\1*$/.test(s);

/** A bare value: stops at whitespace, quotes, backslashes, brackets and separators (so `[REDACTED]` is never re-matched). */
const VALUE_CHAR = String.raw`[^\s"'\`\\,;&()[\]{}<>]`;
/** An optional quote, `:`/`=`/`=>`, an optional quote: `: "`, `='`, `\": \"` (JSON inside a string). */
const SEP = String.raw`(?:\\?["'])?[ \t]{0,8}(?::|=>?)[ \t]{0,8}(?:\\?["'])?`;

/**
 * Case variants of a compound label as it is written in code and config: `api_key`, `api-key`,
 * `apikey`, `apiKey`, `ApiKey`, `API_KEY`. `plain` (lower, upper, capitalised) must not follow a
 * letter (`max_tokens` has no `token` label); `camel` (capitalised) may follow a lowercase letter
 * or digit (`dbPassword`). `after` is appended to each variant.
 */
function label(parts: string[], after = ''): { plain: string; camel: string } {
  const joinWith = '[-_]?';
  const cap = (p: string) => p[0]!.toUpperCase() + p.slice(1);
  const lower = parts.join(joinWith);
  const upper = parts.map((p) => p.toUpperCase()).join(joinWith);
  const camel = parts.map(cap).join(joinWith);
  return { plain: `${lower}${after}|${upper}${after}|${camel}${after}`, camel: `${camel}${after}` };
}

/**
 * One alternation per kind of start, so the engine checks two look-behinds per position, not
 * two per label (the difference is 5x on 1 MiB).
 */
function labels(list: Array<{ plain: string; camel: string }>): string {
  const plain = list.map((l) => l.plain).join('|');
  const camel = list.map((l) => l.camel).join('|');
  return `(?:(?<![A-Za-z])(?:${plain})|(?<=[a-z0-9])(?:${camel}))`;
}

/** Labels whose assigned value is a credential. `token` must not be followed by `s` (`max_tokens=4096` is a count). */
const LABELS = labels([
  label(['x', 'api', 'key']),
  label(['api', 'key']),
  label(['access', 'key']),
  label(['secret', 'access', 'key']),
  label(['secret', 'key']),
  label(['private', 'key', 'id']),
  label(['private', 'key']),
  label(['client', 'secret']),
  label(['secret']),
  label(['access', 'token']),
  label(['refresh', 'token']),
  label(['auth', 'token']),
  label(['session', 'token']),
  label(['id', 'token']),
  label(['token'], '(?![sS])'),
  label(['account', 'key']),
  label(['credentials']),
]);
/** Password labels: their values are redacted however short (`password: hunter2`). */
const PASSWORD_LABELS = labels([label(['password']), label(['passwd']), label(['passphrase'])]);

/** Identifier characters of an environment-style name, `DB_PASSWORD`, `STRIPE_SECRET_KEY`. */
const ENV_WORD = String.raw`(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN(?!S)|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)`;

/**
 * A command-line option whose value is a credential: `--password`, `--db-password`, `--api-key`,
 * `--client-secret`, `--auth-token`. Up to three words before the credential word; nothing after
 * it, so `--password-file` and `--token-stdin` name no secret.
 */
const CRED_OPTION = String.raw`(?<![A-Za-z0-9_-])--(?:[a-z0-9]{1,20}-){0,3}(?:password|passwd|passphrase|pass|pwd|secret|token|api-?key|access-key|secret-key|private-key|auth|credentials?)`;

/** Not preceded by a character of the token's own alphabet: one start per run. */
const START = String.raw`(?<![A-Za-z0-9_-])`;
/** Not followed by a character of the token's alphabet (used only after a bounded run). */
const END = String.raw`(?![A-Za-z0-9_-])`;

const rule = (source: string, flags = 'g', accept?: Rule['accept']): Rule => ({
  re: new RegExp(source, flags),
  ...(accept ? { accept } : {}),
});

/** Applied in order; each sees the output of the ones before (so `[REDACTED]` is never re-matched). */
const RULES: readonly Rule[] = [
  // gitleaks anthropic-api-key, anthropic-admin-api-key.
  rule(String.raw`()${START}sk-ant-[A-Za-z0-9_-]{8,}`),
  // gitleaks openai-api-key (sk-, sk-proj-, sk-svcacct-, sk-admin-); a digit is required so `sk-learn-…` prose stays.
  rule(String.raw`()${START}sk-[A-Za-z0-9_-]{20,}`, 'g', hasDigit),
  // gitleaks stripe-access-token: secret and restricted keys, live and test.
  rule(String.raw`()${START}(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}`),
  // Stripe webhook signing secrets.
  rule(String.raw`()${START}whsec_[A-Za-z0-9+/=]{16,}`),
  // gitleaks github-pat, github-oauth, github-app-token, github-refresh-token, github-fine-grained-pat.
  rule(String.raw`()${START}(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})`),
  // gitleaks gitlab-pat, gitlab-ptt, gitlab-rrt, gitlab-deploy-token and friends (glpat-, glptt-, gldt-, glrt-, …).
  rule(String.raw`()${START}gl(?:pat|ptt|dt|rt|cbt|ft|imt|oas|agent|soat|sft)-[A-Za-z0-9_-]{20,}`),
  // gitleaks npm-access-token.
  rule(String.raw`()${START}npm_[A-Za-z0-9]{36,}`),
  // gitleaks pypi-upload-token.
  rule(String.raw`()${START}pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20,}`),
  // gitleaks huggingface-access-token, huggingface-organization-api-token.
  rule(String.raw`()${START}(?:hf_|api_org_)[A-Za-z0-9]{30,}`),
  // gitleaks sendgrid-api-token: SG.<22>.<43>.
  rule(String.raw`()${START}SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`),
  // gitleaks slack-bot-token, slack-user-token, slack-app-token, slack-config-access-token, slack-legacy-*.
  rule(String.raw`()${START}(?:xox[abeposr]|xapp)-[A-Za-z0-9-]{10,}`),
  // gitleaks slack-webhook-url (hooks.slack.com/services|workflows|triggers/…).
  rule(String.raw`((?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9+/_-]{8,}`),
  // gitleaks discord-webhook (not in the default set under this id; same shape).
  rule(String.raw`((?:https?://)?(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{5,30}/)[A-Za-z0-9_-]{20,}`),
  // gitleaks aws-access-token: long-term AKIA, temporary ASIA, and the other IAM prefixes.
  rule(String.raw`()(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])`),
  // gitleaks gcp-api-key.
  rule(String.raw`()${START}AIza[A-Za-z0-9_-]{35}${END}`),
  // Google OAuth access tokens (ya29.), refresh tokens (1//0…) and client secrets (GOCSPX-).
  rule(String.raw`()(?<![A-Za-z0-9_.-])ya29\.[A-Za-z0-9_.-]{20,}`),
  rule(String.raw`()(?<![A-Za-z0-9_/-])1//0[A-Za-z0-9_-]{30,}`),
  rule(String.raw`()${START}GOCSPX-[A-Za-z0-9_-]{20,}`),
  // gitleaks jwt: three base64url parts, the first two JSON objects (`eyJ`).
  rule(String.raw`()${START}eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{8,}`),
  // gitleaks shopify-access-token and friends, digitalocean-*, doppler-api-token, linear-api-key,
  // postman-api-token, grafana-*, databricks-api-token, age-secret-key, twilio-api-key, square-access-token.
  rule(
    String.raw`()${START}(?:shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}|do[opr]_v1_[a-f0-9]{64}|dp\.(?:st|ct|sa|scim|audit)\.[A-Za-z0-9_-]{40,}|lin_(?:api|oauth)_[A-Za-z0-9]{40}|PMAK-[a-f0-9]{24}-[a-f0-9]{34}|gl(?:c|sa)_[A-Za-z0-9_=+/-]{32,}|dapi[a-f0-9]{32}|AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}|SK[0-9a-fA-F]{32}|sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}|EAA[A-Za-z0-9]{100,})${END}`,
  ),
  // Telegram bot tokens: <bot id>:<35 characters>.
  rule(String.raw`()(?<![A-Za-z0-9_:-])[0-9]{8,10}:AA[A-Za-z0-9_-]{33}${END}`),
  // gitleaks azure-storage-account-key style connection strings: `AccountKey=…`, `SharedAccessKey=…`, SAS `sig=…`.
  rule(String.raw`((?<![A-Za-z])(?:AccountKey|SharedAccessKey|SharedSecretValue)=)[A-Za-z0-9+/=]{8,}`, 'gi'),
  rule(String.raw`([?&]sig=)[A-Za-z0-9%+/=]{16,}`),
  // Passwords in URLs and connection strings: `postgres://user:pass@host`, `redis://:pass@host`.
  rule(String.raw`((?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s:/@"'<>]{0,256}:)[^\s/@"'<>]{1,256}(?=@)`),
  // A URL whose user part alone is a token (`https://ghp_…@github.com`, `https://<token>@host`): long and with a digit.
  rule(String.raw`((?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,30}://)[^\s:/@"'<>]{16,256}(?=@)`, 'g', hasDigit),
  // Signed-URL and key query parameters: S3/GCS presigned signatures and session tokens, `signature=`, `key=`.
  rule(
    String.raw`([?&](?:x-amz-signature|x-goog-signature|x-amz-security-token|x-goog-credential|signature|key)=)[A-Za-z0-9%+/=._-]{16,}`,
    'gi',
  ),
  // Command lines. Long options that name a credential, quoted or bare: `--password "a b"`, `--api-key=…`,
  // `--client-secret …`, `--http-password=…`; not `--password-file PATH` or `--token-stdin`.
  rule(String.raw`(${CRED_OPTION}(?:=|[ \t]{1,8})")[^"\r\n]{1,256}(?=")`, 'gi'),
  rule(String.raw`(${CRED_OPTION}(?:=|[ \t]{1,8})')[^'\r\n]{1,256}(?=')`, 'gi'),
  rule(String.raw`(${CRED_OPTION}(?:=|[ \t]{1,8}))${VALUE_CHAR}+`, 'gi', (s) => !s.startsWith('-') && s !== REDACTED),
  // `user:password` given to a user option: `curl -u ann:pw`, `--user=ann:pw`, `--proxy-user`, smbclient's `-U ann%pw`.
  rule(
    String.raw`((?<![A-Za-z0-9_-])(?:-u|-U|--user|--proxy-user|--http-user|--ftp-user|--username)(?:=|[ \t]{0,8})["']?[^\s:%"'@/]{1,128}[:%])${VALUE_CHAR}+`,
    'g',
    notTrivial,
  ),
  // openssl's `-passin pass:…`, `-passout pass:…`, `-pass pass:…` (env: and file: name no secret).
  rule(String.raw`((?<![A-Za-z0-9_-])-pass(?:in|out)?[ \t]{1,8}["']?pass:)${VALUE_CHAR}+`),
  // Programs whose short option takes the password: mysql's glued `-pSECRET`; `sshpass -p`, `docker login -p`, `redis-cli -a`.
  rule(
    String.raw`((?<![A-Za-z0-9_-])(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)[^\r\n|;&]{0,200}?[ \t]-p)${VALUE_CHAR}+`,
    'g',
    notTrivial,
  ),
  rule(
    String.raw`((?<![A-Za-z0-9_-])(?:sshpass|docker login|podman login|nerdctl login)[^\r\n|;&]{0,200}?[ \t]-p[ \t]{1,8})${VALUE_CHAR}+`,
  ),
  rule(String.raw`((?<![A-Za-z0-9_-])redis-cli[^\r\n|;&]{0,200}?[ \t]-a[ \t]{1,8})${VALUE_CHAR}+`),
  // `Authorization: Bearer|Basic|Token|… <credentials>` (also Proxy-Authorization): the scheme stays.
  rule(
    String.raw`((?<![A-Za-z])(?:proxy-)?authorization${SEP}(?:bearer|basic|token|bot|negotiate|ntlm|apikey|sso-key)[ \t]{1,8})${VALUE_CHAR}+`,
    'gi',
  ),
  // `Authorization: Digest username="…", response="…"`, AWS SigV4 and other parameterised schemes: the rest of the line.
  rule(
    String.raw`((?<![A-Za-z])(?:proxy-)?authorization${SEP}(?:digest|aws4-hmac-sha256|hmac|hawk|oauth|signature)[ \t]{1,8})[^\r\n]+`,
    'gi',
  ),
  // `Cookie:` and `Set-Cookie:` headers: every cookie is a possible session, the rest of the line goes.
  rule(String.raw`((?<![A-Za-z-])(?:set-)?cookie(?:\\?["'])?[ \t]{0,8}:[ \t]{0,8}(?:\\?["'])?)[^\r\n"\\]+`, 'gi'),
  // Bare bearer tokens: a digit, or 20+ characters, so `Bearer bonds` prose stays.
  rule(
    String.raw`((?<![A-Za-z])[Bb]earer[ \t]{1,8})[A-Za-z0-9._~+/-]{12,}=*`,
    'g',
    (s) => hasDigit(s) || s.length >= 20,
  ),
  // Labelled assignments (`api_key=…`, `"x-api-key": "…"`, `clientSecret: …`, `aws_secret_access_key = …`).
  rule(String.raw`(${LABELS}${SEP})${VALUE_CHAR}{8,}`, 'g', notTrivial),
  // Passwords, however short: `password=hunter2`, `"dbPassword": "…"`.
  rule(String.raw`(${PASSWORD_LABELS}${SEP})${VALUE_CHAR}+`, 'g', (s) => s !== REDACTED),
  // gitleaks generic-api-key, environment style: `DB_PASSWORD=…`, `export STRIPE_SECRET_KEY="…"`, `GITHUB_TOKEN: …`.
  rule(
    String.raw`((?<![A-Za-z0-9_])[A-Z0-9_]{0,40}${ENV_WORD}[A-Z0-9_]{0,40}["']?[ \t]{0,8}[=:][ \t]{0,8}["']?)${VALUE_CHAR}+`,
    'g',
    (s) => s !== REDACTED && notTrivial(s),
  ),
];

/** PEM private keys (RSA, EC, OPENSSH, ENCRYPTED, DSA, plain, PGP blocks), gitleaks private-key. */
const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
/** A key cut off before its END line is redacted up to the end of its base64 body (and headers). */
const PEM_BODY = /[A-Za-z0-9+/=\s\\:,.-]*/y;

/**
 * Replaces every PEM private key block. Written as a scan, not one regex: a lazy `[\s\S]*?` to
 * the END line rescans the rest of the text for every BEGIN that has none (quadratic). Here the
 * END search only moves forward.
 */
function redactPrivateKeys(text: string): string {
  if (!text.includes('PRIVATE KEY')) return text;
  let out = '';
  let last = 0;
  let end: { index: number; stop: number } | null | undefined;
  PEM_BEGIN.lastIndex = 0;
  for (let m = PEM_BEGIN.exec(text); m; m = PEM_BEGIN.exec(text)) {
    const bodyStart = PEM_BEGIN.lastIndex;
    if (end === undefined || (end !== null && end.index < bodyStart)) {
      PEM_END.lastIndex = bodyStart;
      const e = PEM_END.exec(text);
      end = e ? { index: e.index, stop: PEM_END.lastIndex } : null;
    }
    let stop: number;
    if (end) {
      stop = end.stop;
    } else {
      PEM_BODY.lastIndex = bodyStart;
      PEM_BODY.exec(text);
      stop = PEM_BODY.lastIndex;
    }
    out += text.slice(last, m.index) + REDACTED;
    last = stop;
    PEM_BEGIN.lastIndex = stop;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Known secrets shorter than this are ignored: replacing them would hit ordinary text. */
const MIN_KNOWN_SECRET_LENGTH = 8;

/**
 * Replaces each known secret (8+ characters) and every secret-shaped run in `text`. Linear in the
 * length of `text` for every rule (see the top of this file); callers with large text cut it
 * first (`redactHead`).
 */
export function redactSecretsInText(text: string, knownSecrets: readonly string[] = []): string {
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  const exact = knownSecrets.filter((s) => s.length >= MIN_KNOWN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  for (const secret of exact) out = out.split(secret).join(REDACTED);
  out = redactPrivateKeys(out);
  for (const { re, accept } of RULES) {
    out = out.replace(re, (match: string, kept: unknown) => {
      const prefix = typeof kept === 'string' ? kept : '';
      if (accept && !accept(match.slice(prefix.length))) return match;
      return prefix + REDACTED;
    });
  }
  return out;
}

/**
 * Object keys whose value is redacted whole, whatever its shape: compared without case, `-`, `_`,
 * `.` or spaces, a key that is or ends with one of these (`password`, `db_password`,
 * `GITHUB_TOKEN`, `clientSecret`, `x-api-key`, `Set-Cookie`, `private_key`, `aws_access_key_id`).
 * `tokens` (a count) does not end with `token`; pagination cursors (`nextPageToken`,
 * `continuation_token`) are not credentials and a model needs them to read the next page.
 */
const SECRET_KEY =
  /(?:password|passwd|passphrase|secret|token|apikey|authorization|cookie|privatekey|privatekeyid|accesskey|accesskeyid|credentials?|accountkey|sessionid)$/;
const CURSOR_KEY = /(?:page|next|continuation|sync|resume)token$/;

/** True when a value under `key` is a credential by its name alone. */
export function isSecretKey(key: string): boolean {
  const name = key.toLowerCase().replace(/[-_.\s]/g, '');
  return SECRET_KEY.test(name) && !CURSOR_KEY.test(name);
}

/** Values under a secret-named key that are kept: nothing to hide in them, or already a marker. */
const isEmpty = (v: unknown): boolean =>
  v === null ||
  v === undefined ||
  v === '' ||
  typeof v === 'boolean' ||
  v === REDACTED ||
  v === SENSITIVE ||
  v === TOO_DEEP;

/** Deeper than this, a value is replaced by a marker: walks are recursive and the stack is finite. */
export const MAX_REDACTION_DEPTH = 256;
/** What stands in for a value nested deeper than `MAX_REDACTION_DEPTH`. */
export const TOO_DEEP = '[REDACTED: nested too deep]';

function walkValues(value: unknown, text: (s: string) => string): unknown {
  const walk = (node: unknown, depth: number): unknown => {
    if (typeof node === 'string') return text(node);
    if (node === null || typeof node !== 'object') return node;
    if (depth >= MAX_REDACTION_DEPTH) return TOO_DEEP;
    if (Array.isArray(node)) return node.map((v) => walk(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(node)) {
      // Own enumerable keys only; `__proto__` is defined, never assigned (no prototype change).
      const next = isSecretKey(key) && !isEmpty(v) ? REDACTED : walk(v, depth + 1);
      Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  return walk(value, 0);
}

/**
 * A deep copy of a plain JSON value with every string redacted as `redactSecretsInText` does,
 * and any non-empty value under a credential-named key (`password`, `apiKey`, `x-api-key`,
 * `authorization`, `cookie`, `client_secret`, … at any depth, see `isSecretKey`) replaced whole.
 * Keys are kept; the shape is unchanged, except below `MAX_REDACTION_DEPTH`.
 */
export function redactSecrets<T>(value: T, knownSecrets: readonly string[] = []): T {
  return walkValues(value, (s) => redactSecretsInText(s, knownSecrets)) as T;
}

/** `redactSecrets` for keys only: values under credential-named keys go, strings are not scanned. */
export function redactSecretKeys<T>(value: T): T {
  return walkValues(value, (s) => s) as T;
}
