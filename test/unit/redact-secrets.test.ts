import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/activities/redact-secrets';

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
});
