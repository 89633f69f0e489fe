import { describe, expect, it } from 'vitest';
import { checkClaims, type ClaimEvidence } from '../../../src/domain/chain/claim-support';
import { groundingOf } from '../../../src/workflows/core/chain/grounding';

const paris: ClaimEvidence = {
  stepId: 'p',
  about: ['Paris', 'celsius'],
  value: { location: 'Paris', temperature: 12, units: 'celsius', conditions: 'light rain', humidity: 85 },
};
const tokyo: ClaimEvidence = {
  stepId: 't',
  about: ['Tokyo', 'celsius'],
  value: { location: 'Tokyo', temperature: 21, units: 'celsius', conditions: 'clear', humidity: 60 },
};
const judged = (answer: string, evidence: ClaimEvidence[]) => {
  const check = checkClaims(answer, evidence);
  return { grounding: groundingOf(check), ...check };
};

describe('claims bound to what they are said of (issue 79)', () => {
  it('a reading of light rain answered as sunny and dry: both conditions contradicted, the figure supported', () => {
    const check = judged('It is 12°C and sunny in Paris right now, a dry day.', [paris]);
    expect(check).toMatchObject({ grounding: 'contradicted', contradicted: ['sunny (Paris)', 'dry (Paris)'] });
    expect(check.claims.find((c) => c.text === '12°C')).toMatchObject({ supportedBy: 'p', about: 'Paris' });
    expect(judged('It is 12°C with light rain in Paris right now.', [paris]).grounding).toBe('grounded');
  });

  it('readings swapped between cities are unsupported, and the conclusion drawn from them contradicted', () => {
    const swapped = judged('Tokyo is 12°C and Paris is 21°C, so Paris is the warmer city.', [paris, tokyo]);
    expect(swapped).toMatchObject({
      grounding: 'contradicted',
      unsupported: ['12°C (Tokyo)', '21°C (Paris)'],
      contradicted: ['Paris is the warmer city'],
    });
    const right = judged('Tokyo is 21°C and Paris is 12°C, so Tokyo is the warmer city.', [paris, tokyo]);
    expect(right.grounding).toBe('grounded');
    expect(judged('Tokyo is warmer than Paris.', [paris, tokyo]).grounding).toBe('grounded');
    expect(judged('Paris is warmer than Tokyo.', [paris, tokyo]).contradicted).toEqual(['Paris is warmer than Tokyo']);
    expect(judged('Paris is the colder one.', [paris, tokyo]).grounding).toBe('grounded');
  });

  it('a figure observed of one city supports nothing said of another; a denial of an observed figure is contradicted', () => {
    const at18: ClaimEvidence = { stepId: 'p', about: ['Paris'], value: { location: 'Paris', temperature: 18 } };
    expect(judged('Berlin is 18 °C.', [at18])).toMatchObject({
      grounding: 'partly_grounded',
      unsupported: ['18 °C (Berlin)'],
    });
    expect(judged('Paris is not 18 °C.', [at18])).toMatchObject({
      grounding: 'contradicted',
      contradicted: ['18 °C (Paris)'],
    });
    expect(judged('Paris is 18 °C.', [at18]).grounding).toBe('grounded');
  });

  it('records in a list are each about their own subject', () => {
    const table: ClaimEvidence = {
      stepId: 's',
      value: [
        { city: 'Paris', temp_c: 12 },
        { city: 'Tokyo', temp_c: 21 },
      ],
    };
    expect(judged('Paris is 12 °C and Tokyo is 21 °C.', [table]).grounding).toBe('grounded');
    expect(judged('Paris is 21 °C and Tokyo is 12 °C.', [table]).unsupported).toEqual([
      '21 °C (Paris)',
      '12 °C (Tokyo)',
    ]);
  });

  it('reads denied conditions, and the difference a conclusion implies', () => {
    expect(judged('There is no rain in Paris.', [paris]).contradicted).toEqual(['rain (Paris)']);
    expect(judged('Paris is not sunny.', [paris]).grounding).toBe('grounded');
    const by = judged('Paris: 12°C, light rain; Tokyo: 21°C, clear. Tokyo is the warmest, by 9 degrees.', [
      paris,
      tokyo,
    ]);
    expect(by.grounding).toBe('grounded');
    expect(judged('Tokyo is the warmest, by 7 degrees.', [paris, tokyo]).unsupported).toEqual(['7 (Tokyo)']);
  });

  it('no answer skips the check by its text, and a sentence nothing checks is named unchecked', () => {
    expect(judged('[offline model] It is 30°C in Paris.', [paris])).toMatchObject({
      grounding: 'partly_grounded',
      unsupported: ['30°C (Paris)'],
    });
    expect(judged('The deployment succeeded.', [{ stepId: 'd', value: { status: 'failed' } }])).toMatchObject({
      grounding: 'unchecked',
      unchecked: ['The deployment succeeded.'],
    });
    // Restating the sources' words states nothing new.
    expect(judged('The status is failed.', [{ stepId: 'd', value: { status: 'failed' } }]).grounding).toBe('grounded');
  });

  it('binds each figure of a clause naming two subjects to its own, nested and keyed results to theirs', () => {
    const p: ClaimEvidence = { stepId: 'p', value: { temperature: 12, conditions: 'light rain' }, about: ['Paris'] };
    const t: ClaimEvidence = { stepId: 't', value: { temperature: 21, conditions: 'sunny' }, about: ['Tokyo'] };
    expect(judged("Paris is 21°C vs Tokyo's 12°C.", [p, t]).grounding).toBe('partly_grounded');
    expect(judged("Paris is 12°C vs Tokyo's 21°C.", [p, t]).grounding).toBe('grounded');
    expect(judged('Temperatures range from 12°C in Paris to 21°C in Tokyo.', [p, t]).grounding).toBe('grounded');
    expect(judged('Temperatures range from 21°C in Paris to 12°C in Tokyo.', [p, t]).grounding).toBe('partly_grounded');
    const api = (name: string, c: number): ClaimEvidence => ({
      stepId: name,
      value: {
        location: { name, country: 'X' },
        current: { temp_c: c, temp_f: c * 1.8 + 32, condition: { text: 'Light rain' } },
      },
    });
    expect(judged('Paris is 21°C and Tokyo is 12°C.', [api('Paris', 12), api('Tokyo', 21)]).grounding).toBe(
      'partly_grounded',
    );
    expect(judged('Paris is 12°C and Tokyo is 21°C.', [api('Paris', 12), api('Tokyo', 21)]).grounding).toBe('grounded');
    // A Fahrenheit figure is no Celsius one.
    expect(judged('Paris is 53.6°C.', [api('Paris', 12)]).grounding).toBe('partly_grounded');
    const keyed: ClaimEvidence = { stepId: 'k', value: { Paris: { temp: 12 }, Tokyo: { temp: 21 } } };
    expect(judged('Tokyo is 12°C.', [keyed]).grounding).toBe('partly_grounded');
    expect(judged('Tokyo is 21°C.', [keyed]).grounding).toBe('grounded');
    expect(judged('Tokyo is 12°C.', [{ stepId: 's', value: 'Paris 12°C, Tokyo 21°C' }]).grounding).toBe(
      'partly_grounded',
    );
    expect(judged('Paris is sunny.', [{ stepId: 's', value: 'Paris rainy, Tokyo sunny' }]).grounding).toBe(
      'contradicted',
    );
  });

  it('a condition said of several subjects must hold of each; a denied conclusion is checked as denied', () => {
    const t: ClaimEvidence = { stepId: 't', value: { temperature: 21, conditions: 'sunny' }, about: ['Tokyo'] };
    expect(judged('Both Paris and Tokyo are sunny.', [paris, t]).grounding).toBe('contradicted');
    expect(judged('It is raining in both Paris and Tokyo.', [paris, t]).grounding).toBe('contradicted');
    expect(judged("Tokyo isn't warmer than Paris.", [paris, tokyo]).contradicted).toEqual([
      "Tokyo isn't warmer than Paris",
    ]);
    expect(judged("Paris isn't warmer than Tokyo.", [paris, tokyo]).grounding).toBe('grounded');
  });

  it('a statement restates its sources only when one fact holds all it says; a denial nothing settles is unchecked', () => {
    const deploy: ClaimEvidence = { stepId: 'd', value: { deployment: 'failed', rollback: 'succeeded' } };
    expect(judged('The deployment succeeded.', [deploy]).grounding).toBe('unchecked');
    expect(judged('The rollback succeeded.', [deploy]).grounding).toBe('grounded');
    // Values of two facts together, no key paired with another's value: restated.
    const matches: ClaimEvidence = {
      stepId: 'm',
      value: [
        { path: 'src/auth.ts', text: 'export function login(user)' },
        { path: 'src/auth.ts', text: 'function checkPassword(hash)' },
      ],
    };
    expect(judged('login and checkPassword in src/auth.ts', [matches]).grounding).toBe('grounded');
    expect(judged('The deployment has not failed.', [deploy]).grounding).toBe('unchecked');
    expect(judged('```json', [deploy]).grounding).toBe('grounded');
    // A table's header row names columns, not things.
    expect(judged('| City | Temperature |\n|---|---|\n| Paris | 12°C |', [paris]).grounding).toBe('grounded');
  });

  it('what a sub-agent could not stand behind supports nothing; a call’s own arguments and keys name what it is about', () => {
    const child: ClaimEvidence = {
      stepId: 'c',
      value: 'The deployment succeeded. Paris is sunny today.',
      unsupported: ['The deployment succeeded.', 'sunny (Paris)'],
    };
    expect(judged('The deployment succeeded.', [child]).grounding).toBe('unchecked');
    const bare: ClaimEvidence = { stepId: 'b', value: { temperature: 12, humidity: 60 }, about: ['Paris'] };
    expect(judged('It is 12°C in Paris, with 60% humidity.', [bare]).grounding).toBe('grounded');
  });

  it('bounds the subject it names', () => {
    const long = Array.from({ length: 30 }, (_, i) => `Alpha${String.fromCharCode(97 + (i % 26))}`).join(' ');
    const check = checkClaims(`${long} is 12°C.`, [paris]);
    expect(check.claims.every((c) => (c.about ?? '').length <= 120 && c.value.length <= 120)).toBe(true);
  });

  it('bounds what it records: a long answer against long evidence keeps 40 claims and counts the rest', () => {
    const evidence: ClaimEvidence[] = Array.from({ length: 20 }, (_, i) => ({
      stepId: `s${i}`,
      value: Array.from({ length: 300 }, (_, j) => ({ city: `City ${i}-${j}`, temp_c: j, note: 'light rain' })),
    }));
    const answer = Array.from({ length: 600 }, (_, i) => `City 1-${i} is ${i} °C and warmer than City 2-${i}.`).join(
      ' ',
    );
    const check = checkClaims(answer, evidence);
    expect(check.claims).toHaveLength(40);
    expect(check.omitted).toBeGreaterThan(0);
  });
});
