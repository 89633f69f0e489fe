import { describe, expect, it } from 'vitest';
import { redactSecrets, redactSecretsInText } from '../../src/domain/secrets/secret-patterns';

/** Key-shaped test values built at run time, so no literal token sits in the source. */
const fake = (prefix: string, length: number, alphabet = 'aB3xY9kQ7mZ2'): string =>
  prefix + Array.from({ length }, (_, i) => alphabet[i % alphabet.length]).join('');
const hex = (n: number) => fake('', n, '3f9a0c7e15bd');
const b64url = (n: number) => fake('', n, 'Qw3_rT9-yU1iO');
const jwt = `eyJ${b64url(30)}.eyJ${b64url(40)}.${b64url(43)}`;

/**
 * [name, text, the secret part that must not survive]. Each shape is common in tool output; the
 * first 17 were covered before issue 14, the rest are its class 5.
 */
const SHAPES: Array<[string, string, string]> = [
  ['Anthropic key', `key ${fake('sk-ant-api03-', 80)} end`, fake('', 80)],
  ['OpenAI key', `OPENAI ${fake('sk-', 48)}.`, fake('', 48)],
  ['OpenAI project key', `use ${fake('sk-proj-', 60)}`, fake('', 60)],
  ['GitHub classic token', `token ${fake('ghp_', 36)}`, fake('', 36)],
  ['GitHub fine-grained token', `token ${fake('github_pat_', 70)}`, fake('', 70)],
  ['Slack bot token', `slack ${fake('xoxb-', 40)}`, fake('', 40)],
  ['AWS access key id', 'id AKIAIOSFODNN7EXAMPLE here', 'AKIAIOSFODNN7EXAMPLE'],
  ['AWS secret access key', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI'],
  ['api_key= in a URL', `GET /v1?api_key=${fake('', 24)}&q=1`, fake('', 24)],
  ['x-api-key JSON header', `{"x-api-key": "${fake('', 32)}"}`, fake('', 32)],
  ['Authorization: Bearer', `Authorization: Bearer ${fake('', 30)}`, fake('', 30)],
  ['Authorization: Basic', `authorization: Basic ${fake('', 20)}==`, fake('', 20)],
  [
    'PEM private key',
    `-----BEGIN RSA PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEF\n-----END RSA PRIVATE KEY-----`,
    'MIIEvQIBADAN',
  ],
  ['Stripe live secret key', `stripe ${fake('sk_live_', 24)}`, fake('', 24)],
  ['Stripe restricted key', `stripe ${fake('rk_live_', 24)}`, fake('', 24)],
  ['Stripe test secret key', `stripe ${fake('sk_test_', 24)}`, fake('', 24)],
  ['Stripe webhook secret', `whsec ${fake('whsec_', 32)}`, fake('', 32)],
  ['JWT', `token=${jwt}`, jwt.slice(0, 20)],
  ['JWT alone in text', `the id_token is ${jwt} ok`, jwt.split('.')[2]!],
  ['GCP API key', `key ${fake('AIza', 35)} here`, fake('', 35)],
  [
    'GCP service-account JSON key',
    `{"type":"service_account","private_key_id":"${hex(40)}","private_key":"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEF\\n-----END PRIVATE KEY-----\\n"}`,
    'MIIEvQIBADAN',
  ],
  ['GCP service-account key id', `{"private_key_id": "${hex(40)}"}`, hex(40)],
  ['Google OAuth access token', `got ${fake('ya29.a0', 60)}`, fake('', 60)],
  ['Google OAuth refresh token', `refresh ${fake('1//0', 60)}`, fake('', 60)],
  ['Google OAuth client secret', `secret ${fake('GOCSPX-', 28)}`, fake('', 28)],
  ['postgres connection string', 'postgres://app:hunter2pass@db.internal:5432/app', 'hunter2pass'],
  ['mongodb+srv connection string', 'mongodb+srv://root:S3cr3tValue@cluster0.x.mongodb.net/db', 'S3cr3tValue'],
  ['redis URL with password only', 'redis://:Pa55wordX@cache:6379/0', 'Pa55wordX'],
  ['https basic-auth URL', 'https://deploy:tok3nValue99@git.example.com/repo.git', 'tok3nValue99'],
  ['PASSWORD= env line', 'PASSWORD=hunter2', 'hunter2'],
  ['DB_PASSWORD= env line', 'export DB_PASSWORD="c0rrect-h0rse"', 'c0rrect-h0rse'],
  ['SECRET_KEY= env line', `SECRET_KEY=${fake('', 40)}`, fake('', 40)],
  ['GITHUB_TOKEN= env line', `GITHUB_TOKEN=${fake('', 20)}`, fake('', 20)],
  ['password: in YAML', 'database:\n  password: s3cret!x\n', 's3cret!x'],
  ['password in JSON text', '{"user":"ann","password":"hunter22"}', 'hunter22'],
  ['camelCase dbPassword in text', 'dbPassword = "Tr0ub4dor3"', 'Tr0ub4dor3'],
  ['Cookie header', 'Cookie: session=abc123def456; theme=dark', 'abc123def456'],
  ['Set-Cookie header', 'Set-Cookie: sid=31d4d96e407aad42; Path=/; Secure; HttpOnly', '31d4d96e407aad42'],
  ['Authorization: Token', `Authorization: Token ${fake('', 24)}`, fake('', 24)],
  [
    'Authorization: Digest',
    'Authorization: Digest username="Mufasa", realm="x", nonce="dcd98b", response="6629fae49393a05397450978507c4ef1"',
    '6629fae49393a0539745',
  ],
  ['Proxy-Authorization: Basic', 'Proxy-Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==', 'QWxhZGRpbjpvcGVu'],
  [
    'AWS SigV4 Authorization',
    'Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7',
    '5d672d79c15b1316',
  ],
  ['GitLab personal token', `gitlab ${fake('glpat-', 20)}`, fake('', 20)],
  ['GitLab deploy token', `gitlab ${fake('gldt-', 20)}`, fake('', 20)],
  ['npm token', `//registry.npmjs.org/:_authToken=${fake('npm_', 36)}`, fake('', 36)],
  ['npm token alone', `token ${fake('npm_', 36)}`, fake('', 36)],
  ['Hugging Face token', `hf ${fake('hf_', 34)}`, fake('', 34)],
  ['SendGrid key', `sg ${fake('SG.', 22)}.${fake('', 43)}`, fake('', 43)],
  [
    'Azure storage AccountKey',
    `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${fake('', 86)}==;EndpointSuffix=core.windows.net`,
    fake('', 86),
  ],
  ['Azure SAS signature', `https://acct.blob.core.windows.net/c?sv=2022-11-02&sig=${fake('', 44)}%3D`, fake('', 44)],
  ['Slack user token', `slack ${fake('xoxp-', 50)}`, fake('', 50)],
  ['Slack app token', `slack ${fake('xapp-1-', 40)}`, fake('', 40)],
  ['Slack webhook', `https://hooks.slack.com/services/T00000000/B00000000/${fake('', 24)}`, fake('', 24)],
  ['Discord webhook', `https://discord.com/api/webhooks/123456789012345678/${fake('', 68)}`, fake('', 68)],
  ['PyPI token', `pypi ${fake('pypi-AgEIcHlwaS5vcmc', 50)}`, fake('', 50)],
  ['Shopify token', `shop shpat_${hex(32)}`, hex(32)],
  ['DigitalOcean token', `do dop_v1_${hex(64)}`, hex(64)],
  ['Telegram bot token', `bot 123456789:AA${b64url(33)}`, b64url(33)],
  [
    'OpenSSH private key',
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n-----END OPENSSH PRIVATE KEY-----',
    'b3BlbnNzaC1rZXktdjEA',
  ],
  [
    'PGP private key block',
    '-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF0XqK8BCADLkRwf\n-----END PGP PRIVATE KEY BLOCK-----',
    'lQOYBF0XqK8BCADLkRwf',
  ],
  ['client_secret= in a form body', `grant_type=client_credentials&client_secret=${fake('', 32)}`, fake('', 32)],
  // Issue 43: credentials in URLs and command lines.
  ['curl -u user:password', 'curl -u ann:hunter2pw https://api.example.com', 'hunter2pw'],
  ['curl --user=user:password', 'curl --user=ann:hunter2pw https://api.example.com', 'hunter2pw'],
  ['curl --proxy-user', 'curl --proxy-user proxy:Pr0xyPass https://x.example.com', 'Pr0xyPass'],
  ['wget --http-password=', 'wget --http-user=ann --http-password=W3getPass https://x.example.com', 'W3getPass'],
  ['--password with a quoted value', 'tool login --password "my secret phrase"', 'my secret phrase'],
  ['--api-key bare value', `tool --api-key ${fake('', 24)} --verbose`, fake('', 24)],
  ['--client-secret=', `oauth --client-secret=${fake('', 24)}`, fake('', 24)],
  ['mysql glued -p', 'mysql -h db -u root -pS3cretPw app', 'S3cretPw'],
  ['smbclient -U user%password', 'smbclient //files/share -U ann%Passw0rd', 'Passw0rd'],
  ['openssl -passin pass:', 'openssl rsa -in key.pem -passin pass:Sup3rS3cret', 'Sup3rS3cret'],
  ['sshpass -p', 'sshpass -p S3cretPw ssh deploy@host', 'S3cretPw'],
  ['docker login -p', 'docker login -u ann -p D0ckerPass registry.example.com', 'D0ckerPass'],
  ['redis-cli -a', 'redis-cli -h cache -p 6379 -a R3disPass ping', 'R3disPass'],
  ['token as a URL user', `git clone https://${fake('', 40)}@git.example.com/repo.git`, fake('', 40)],
  [
    'S3 presigned signature',
    `https://b.s3.amazonaws.com/o?X-Amz-Credential=AK%2F1&X-Amz-Signature=${hex(64)}`,
    hex(64),
  ],
  ['S3 presigned session token', `https://b.s3.amazonaws.com/o?X-Amz-Security-Token=${fake('', 40)}`, fake('', 40)],
  ['access_token in JSON text', `{"access_token":"${fake('', 40)}","expires_in":3600}`, fake('', 40)],
];

describe('redactSecretsInText: common credential shapes (issue 14, class 5)', () => {
  it('covers at least 38 shapes', () => {
    expect(SHAPES.length).toBeGreaterThanOrEqual(38);
  });

  it.each(SHAPES)('%s', (_name, text, secret) => {
    expect(text).toContain(secret);
    const out = redactSecretsInText(text);
    expect(out).toContain('[REDACTED]');
    expect(out).not.toContain(secret);
  });
});

describe('redactSecretsInText: ordinary text that looks close stays', () => {
  const plain = [
    'max_tokens=4096 and MAX_TOKENS=4096',
    'The password field is required.',
    'Set-up steps: see the token section below.',
    'https://example.com:8443/path?q=1',
    'postgres://db.internal:5432/app',
    'user@example.com wrote: sk-learn is great',
    'base64 aGVsbG8gd29ybGQ= is hello world',
    'TOKEN_COUNT=12',
    'docker run -u 1000:1000 app',
    'mkdir -p /srv/app && tar -pxf app.tar',
    'app --password-file /etc/app/pw --token-stdin',
    'ssh git@github.com',
  ];
  it.each(plain)('%s', (text) => {
    expect(redactSecretsInText(text)).toBe(text);
  });
});

describe('redactSecrets: values under credential-named keys, at any depth', () => {
  const names = [
    'password',
    'Password',
    'PASSWORD',
    'passwd',
    'db_password',
    'dbPassword',
    'secret',
    'client_secret',
    'clientSecret',
    'client-secret',
    'token',
    'access_token',
    'accessToken',
    'refresh-token',
    'GITHUB_TOKEN',
    'api_key',
    'apiKey',
    'API-KEY',
    'apikey',
    'x-api-key',
    'authorization',
    'Authorization',
    'proxy-authorization',
    'cookie',
    'Cookie',
    'set-cookie',
    'private_key',
    'privateKey',
    'access_key',
    'aws_access_key_id',
    'secret_access_key',
    'credentials',
  ];
  it.each(names)('%s', (name) => {
    const value = { outer: [{ deep: { [name]: 'plain-looking' } }], [name]: 12345 };
    const out = redactSecrets(value) as { outer: Array<{ deep: Record<string, unknown> }> } & Record<string, unknown>;
    expect(out.outer[0]!.deep[name]).toBe('[REDACTED]');
    expect(out[name]).toBe('[REDACTED]');
  });

  it('redacts an object or array under such a key whole, and keeps empty ones and unrelated keys', () => {
    const out = redactSecrets({
      credentials: { user: 'ann', pass: 'x' },
      tokens: 3,
      max_tokens: 10,
      input_tokens: 5,
      tokenBudget: 9,
      password: '',
      secret: null,
      keys: ['a'],
      nextPageToken: 'p2',
    });
    expect(out).toEqual({
      credentials: '[REDACTED]',
      tokens: 3,
      max_tokens: 10,
      input_tokens: 5,
      tokenBudget: 9,
      password: '',
      secret: null,
      keys: ['a'],
      nextPageToken: 'p2',
    });
  });

  it('keeps a key named __proto__ as an own property and never changes the prototype', () => {
    const input = JSON.parse('{"__proto__": {"polluted": "yes"}, "a": 1}') as Record<string, unknown>;
    const out = redactSecrets(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(out)).toEqual(['__proto__', 'a']);
  });

  it('replaces a value nested deeper than its limit with a marker instead of overflowing the stack', () => {
    let deep: unknown = 'sk-ant-api03-abcdefghijklmnop';
    for (let i = 0; i < 100_000; i += 1) deep = { a: deep };
    const text = JSON.stringify(redactSecrets(deep));
    expect(text).toContain('[REDACTED: nested too deep]');
    expect(text).not.toContain('sk-ant');
  });
});
