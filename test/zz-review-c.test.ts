import { it } from 'vitest';
import { checkClaims, type ClaimEvidence } from '../src/domain/chain/claim-support';
const t = (label: string, f: () => unknown) => { const s = performance.now(); f(); console.log(label, Math.round(performance.now() - s), 'ms'); };
it('perf', () => {
  const task = { given: 'task' as const, value: 'x' };
  for (const n of [8000, 16000, 32000, 64000]) {
    const prose = 'ab, '.repeat(n / 4);
    t(`evidence commas ${n}`, () => checkClaims('Paris is 12°C.', [{ stepId: 's', value: prose }, task]));
  }
  for (const n of [8000, 16000, 32000]) {
    const ans = 'Paris is rainy. '.repeat(n / 16);
    t(`answer conditions ${n}`, () => checkClaims(ans, [{ stepId: 's', value: { temp: 12, conditions: 'rain' }, about: ['Paris'] }, task]));
  }
  for (const n of [8000, 16000, 32000]) {
    const ans = 'Paris is warmer. '.repeat(n / 17);
    t(`answer conclusions ${n}`, () => checkClaims(ans, [{ stepId: 's', value: { temperature: 12 }, about: ['Paris'] }, { stepId: 't', value: { temperature: 2 }, about: ['Tokyo'] }, task]));
  }
  for (const n of [8000, 16000, 32000]) {
    const ans = 'rain '.repeat(n / 5);
    t(`answer one clause conditions ${n}`, () => checkClaims(ans, [{ stepId: 's', value: { temp: 12, conditions: 'rain' }, about: ['Paris'] }, task]));
  }
  for (const n of [8000, 16000, 32000]) {
    const ans = 'Zorblax quuxes. '.repeat(n / 16);
    const ev = Array.from({ length: 20 }, (_, i) => ({ stepId: `s${i}`, value: 'lorem ipsum dolor sit amet '.repeat(64000 / 27) }));
    t(`answer statements ${n} x 20 obs`, () => checkClaims(ans, [...ev, task]));
  }
  for (const n of [16000, 32000]) {
    const ans = 'Paris, '.repeat(n / 7) + ' is 12°C.';
    t(`answer many names one sentence ${n}`, () => checkClaims(ans, [{ stepId: 's', value: { temp: 12 }, about: ['Paris'] }, task]));
  }
  for (const n of [16000, 32000]) {
    const ans = 'Paris is 12°C, '.repeat(n / 15);
    t(`answer many clauses numbers ${n}`, () => checkClaims(ans, [{ stepId: 's', value: { temp: 12 }, about: ['Paris'] }, task]));
  }
});
