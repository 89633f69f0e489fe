import { describe, expect, it } from 'vitest';
import { redactSecrets, redactSecretsInText } from '../../src/domain/secrets/secret-patterns';
import { HOSTILE_INPUTS } from '../helpers/hostile-redaction-inputs';

/**
 * Issue 14, class 6: redaction is linear in its input. 117 KiB of crafted text once blocked the
 * worker for 13 s. The issue names the figure (1 MiB well under a second, measured by
 * `bench/redaction.ts`); this bound is a generous sanity check for a shared 2-core machine.
 */
describe('redaction of hostile text', () => {
  it.each(Object.keys(HOSTILE_INPUTS))('%s: 1 MiB in under 3 s', (name) => {
    const text = HOSTILE_INPUTS[name]!(1 << 20);
    expect(text.length).toBeGreaterThanOrEqual(1 << 20);
    const started = performance.now();
    const out = redactSecretsInText(text, ['known-secret-value']);
    const ms = performance.now() - started;
    expect(typeof out).toBe('string');
    expect(ms).toBeLessThan(3_000);
  });

  it('a deep value of hostile strings too', () => {
    const value = { a: [HOSTILE_INPUTS['sk- prefixes']!(1 << 19), { b: HOSTILE_INPUTS['= chains']!(1 << 19) }] };
    const started = performance.now();
    redactSecrets(value);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
