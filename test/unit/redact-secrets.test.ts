import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/tools/redact-secrets';
import { redactSecrets, redactSecretsInText } from '../../src/domain/secrets/secret-patterns';

/** Builds key-shaped test values at run time, so no literal token sits in the source. */
const fake = (prefix: string, length: number): string =>
  prefix + Array.from({ length }, (_, i) => 'aB3xY9kQ7mZ2'[i % 12]).join('');

const PEM_BODY =
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nVJTUt9Us8cKjMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictG\n';

describe('redactSecretsInText: each secret shape', () => {
  const cases: Array<[string, string, string]> = [
    ['Anthropic key', `key ${fake('sk-ant-api03-', 40)} end`, 'sk-ant-api03'],
    ['OpenAI key', `OPENAI ${fake('sk-', 48)}.`, 'sk-aB3'],
    ['OpenAI project key', `use ${fake('sk-proj-', 60)}`, 'sk-proj-'],
    ['api_key= assignment', `curl https://x.test/?api_key=${fake('', 24)}&q=1`, fake('', 24)],
    ['apikey: assignment', `apikey: ${fake('', 16)}`, fake('', 16)],
    ['x-api-key JSON header', `{"x-api-key": "${fake('', 32)}", "accept": "json"}`, fake('', 32)],
    ['env variable', `ANTHROPIC_API_KEY=${fake('', 30)}`, fake('', 30)],
    ['Authorization: Bearer', `Authorization: Bearer ${fake('', 30)}`, fake('', 30)],
    ['Authorization: Basic', `authorization: Basic ${fake('', 20)}==`, fake('', 20)],
    ['bare Bearer token', `sent Bearer ${fake('eyJ', 40)}.${fake('', 20)} ok`, 'eyJaB3'],
    ['AWS access key id', 'id AKIAIOSFODNN7EXAMPLE here', 'AKIAIOSFODNN7EXAMPLE'],
    ['AWS temporary key id', 'id ASIAY34FZKBOKMUTVV7A here', 'ASIAY34FZKBOKMUTVV7A'],
    ['AWS secret access key', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI'],
    ['AWS secret in STS JSON', '{"SecretAccessKey":"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}', 'wJalrXUtnFEMI'],
    ['GitHub classic token', `token ${fake('ghp_', 36)}`, 'ghp_'],
    ['GitHub fine-grained token', `token ${fake('github_pat_', 70)}`, 'github_pat_'],
    ['Slack bot token', `slack ${fake('xoxb-', 40)}`, 'xoxb-'],
  ];
  it.each(cases)('%s', (_name, text, leaked) => {
    const out = redactSecretsInText(text);
    expect(out).toContain('[REDACTED]');
    expect(out).not.toContain(leaked);
  });

  it('keeps the label and the scheme of an assignment or header', () => {
    expect(redactSecretsInText(`api_key=${fake('', 20)}&q=1`)).toBe('api_key=[REDACTED]&q=1');
    expect(redactSecretsInText(`{"x-api-key": "${fake('', 20)}"}`)).toBe('{"x-api-key": "[REDACTED]"}');
    expect(redactSecretsInText('Authorization: Bearer abcdefghijklmnopqrstuvwxyz')).toBe(
      'Authorization: Bearer [REDACTED]',
    );
  });

  it.each(['RSA ', 'EC ', 'OPENSSH ', 'ENCRYPTED ', ''])('redacts a multi-line %sPEM private key whole', (kind) => {
    const pem = `-----BEGIN ${kind}PRIVATE KEY-----\n${PEM_BODY}-----END ${kind}PRIVATE KEY-----`;
    const out = redactSecretsInText(`before\n${pem}\nafter`);
    expect(out).toBe('before\n[REDACTED]\nafter');
  });

  it('redacts a PEM private key cut off before its END line', () => {
    const out = redactSecretsInText(`-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}`);
    expect(out).not.toContain('MIIEvQIBADAN');
    expect(out).not.toContain('VJTUt9Us8');
  });

  it('leaves a PEM public key or certificate alone', () => {
    const cert = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----';
    expect(redactSecretsInText(cert)).toBe(cert);
  });

  it('does not re-redact text that is already redacted', () => {
    expect(redactSecretsInText(`api_key=${fake('sk-ant-', 30)}`)).toBe('api_key=[REDACTED]');
    expect(redactSecretsInText('api_key=[REDACTED]')).toBe('api_key=[REDACTED]');
  });
});

describe('redactSecretsInText: ordinary text stays', () => {
  const plain = [
    'The skeleton key opened the task-management board.',
    'We used sk-learn-compatible-estimators for the baseline.',
    'Bearer bonds are sold at a discount.',
    'request 123e4567-e89b-12d3-a456-426614174000 finished',
    'commit 2fd4e1c67a2d28fced849ee1bb76e7391b93eb12 and sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'AKIA is a prefix; AKIASHORT is not a key id.',
    'Set the api_key field to your own value.',
    'Authorization: required for admins',
    'max_tokens=4096 and top_k=40',
  ];
  it.each(plain)('%s', (text) => {
    expect(redactSecretsInText(text)).toBe(text);
  });
});

describe('redactSecrets: deep values', () => {
  it('redacts strings inside arrays and objects, keeps keys and other values', () => {
    const input = {
      n: 3,
      ok: true,
      none: null,
      list: ['plain', `k ${fake('sk-ant-', 20)}`, [{ deep: 'AKIAIOSFODNN7EXAMPLE' }]],
      nested: { note: 'nothing here' },
    };
    expect(redactSecrets(input)).toEqual({
      n: 3,
      ok: true,
      none: null,
      list: ['plain', 'k [REDACTED]', [{ deep: '[REDACTED]' }]],
      nested: { note: 'nothing here' },
    });
  });

  it('redacts the whole string under a credential-named key, whatever its shape', () => {
    const out = redactSecrets({
      headers: { 'x-api-key': 'short-1', Authorization: 'Basic dXNlcjpwYXNz', accept: 'json' },
      apiKey: 'abc',
    });
    expect(out).toEqual({
      headers: { 'x-api-key': '[REDACTED]', Authorization: '[REDACTED]', accept: 'json' },
      apiKey: '[REDACTED]',
    });
  });

  it('returns a copy and leaves the input unchanged', () => {
    const input = { a: [`x ${fake('sk-ant-', 20)}`] };
    const before = structuredClone(input);
    const out = redactSecrets(input);
    expect(out).not.toBe(input);
    expect(out.a).not.toBe(input.a);
    expect(input).toEqual(before);
  });
});

describe('createRedactor', () => {
  it('removes known secret values and key-shaped strings at any depth', () => {
    const redact = createRedactor(['my-very-secret-value']);
    const out = redact({
      a: 'token my-very-secret-value here',
      nested: [{ key: 'sk-ant-api03-abcdefghijklmnop' }],
      header: 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz',
      n: 3,
    });
    const text = JSON.stringify(out);
    expect(text).not.toContain('my-very-secret-value');
    expect(text).not.toContain('sk-ant-api03');
    expect(text).not.toContain('abcdefghijklmnopqrstuvwxyz');
    expect(out).toMatchObject({ n: 3, a: 'token [REDACTED] here' });
  });

  it('ignores known secrets shorter than 8 characters', () => {
    expect(createRedactor(['short'])('a short note')).toBe('a short note');
  });

  it('replaces a longer known secret whole when it contains a shorter one', () => {
    const redact = createRedactor(['password', 'password-extended']);
    expect(redact('x password-extended y')).toBe('x [REDACTED] y');
  });

  it('applies the shared patterns too', () => {
    const redact = createRedactor([]);
    expect(redact([`id AKIAIOSFODNN7EXAMPLE`, fake('ghp_', 36)])).toEqual(['id [REDACTED]', '[REDACTED]']);
  });
});
