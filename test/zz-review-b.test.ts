import { it } from 'vitest';
import { checkClaims, type ClaimEvidence } from '../src/domain/chain/claim-support';
import { groundingOf } from '../src/workflows/core/chain/grounding';
import { ClaimCheck } from '../src/domain/chain/answer-grounding';

const obs = (stepId: string, value: unknown, about?: string[], unsupported?: string[]): ClaimEvidence => ({ stepId, value, ...(about ? { about } : {}), ...(unsupported ? { unsupported } : {}) });
function show(label: string, answer: string, ev: ClaimEvidence[]) {
  const c = checkClaims(answer, ev);
  const g = groundingOf(c);
  const cl = c.claims.map((x) => `${x.kind}:${x.text}${x.about ? `[${x.about}]` : ''}=${x.contradictedBy ? 'CONTRA' : x.supportedBy ? 'sup' : x.given ? 'given' : x.unchecked ? 'UNCH' : 'UNSUP'}`).join(' | ');
  console.log(`${label}: ${g}  ${cl}`);
}
const paris = obs('s1', { temperature: 12, conditions: 'light rain' }, ['Paris']);
const tokyo = obs('s2', { temperature: 21, conditions: 'sunny' }, ['Tokyo']);
const task = { given: 'task' as const, value: 'Compare the weather in Paris and Tokyo' };
const task0 = { given: 'task' as const, value: 'What is the weather?' };
it('probe', () => {
  show('vs', "Paris is 21°C vs Tokyo's 12°C.", [paris, tokyo, task]);
  show('vs2', 'Paris has 21°C compared to Tokyo with 12°C.', [paris, tokyo, task]);
  show('short-prose', 'Tokyo is 12°C.', [obs('p', 'Paris 12°C, Tokyo 21°C'), task]);
  show('short-prose-sunny', 'Paris is sunny.', [obs('p', 'Paris rainy, Tokyo sunny'), task]);
  show('long-prose', 'Tokyo is 12°C.', [obs('p', 'Weather report for today, as measured at noon. Paris: 12°C, light rain. Tokyo: 21°C, sunny.'), task]);
  show('entity-args', 'It is 12°C in Paris.', [obs('s1', { temperature: 12 }, ['Paris']), task0]);
  show('entity-args2', 'The weather in New York: 25°C, sunny.', [obs('n', { temperature: 25, conditions: 'sunny' }, ['New York']), task0]);
  show('pct', 'AAPL is up 1.2% at $189.50.', [obs('f', { symbol: 'AAPL', price: 189.5, changePercent: 1.2, currency: 'USD' }), task0]);
  show('pct2', 'AAPL is up 1.2%.', [obs('f', { symbol: 'AAPL', change_percent: 1.2, currency: 'USD' }), task0]);
  show('tempc-F', 'Paris is 12°F.', [obs('s1', { temp_c: 12 }, ['Paris']), task]);
  show('tempc-F-conv', 'Paris is 53.6°F.', [obs('s1', { temp_c: 12 }, ['Paris']), task]);
  show('F-unitfield', 'Paris is 12°C.', [obs('s1', { temperature: 12, unit: 'fahrenheit' }, ['Paris']), task]);
  show('F-unitfield2', 'Paris is 12°C.', [obs('s1', { temperature: 12, units: 'imperial' }, ['Paris']), task]);
  show('F-key', 'Paris is 12°C.', [obs('s1', { temp_f: 12 }, ['Paris']), task]);
  show('F-key2', 'Paris is 12°C.', [obs('s1', { temperature_fahrenheit: 12 }, ['Paris']), task]);
  show('nested-arr', 'Tokyo is 12°C.', [obs('s', { results: [{ location: { name: 'Paris' }, current: { temp: 12 } }, { location: { name: 'Tokyo' }, current: { temp: 21 } }] }), task]);
  show('keyed-obj', 'Tokyo is 12°C.', [obs('s', { Paris: { temp: 12 }, Tokyo: { temp: 21 } }), task]);
  show('keyed-obj-right', 'Tokyo is 21°C.', [obs('s', { Paris: { temp: 12 }, Tokyo: { temp: 21 } }), task]);
  show('keyed-lower', 'Tokyo is 12°C.', [obs('s', { paris: 12, tokyo: 21 }), task]);
  show('sub-unchecked', 'The deployment succeeded.', [obs('c', 'The deployment succeeded.', undefined, ['The deployment succeeded.']), task0]);
  show('sub-cond', 'Paris is sunny.', [obs('c', 'Paris is sunny today.', undefined, ['sunny (Paris)']), task0]);
  show('sub-num', 'Paris is 12°C.', [obs('c', 'Paris is 12°C today.', undefined, ['12°C (Paris)']), task0]);
  show('sub-num-other', 'Tokyo is 12°C.', [obs('c', 'Paris is 12°C and Tokyo is 12°C.', undefined, ['12°C (Tokyo)']), obs('s1', { temperature: 12 }, ['Paris']), task0]);
  show('denied-concl', "Tokyo isn't warmer than Paris.", [paris, tokyo, task]);
  show('denied-concl2', 'Paris is not the warmer city.', [paris, tokyo, task]);
  show('denied-cond-right', 'Paris is not sunny.', [paris, tokyo, task]);
  show('denied-num-right', 'Paris is not 21°C.', [paris, tokyo, task]);
  show('neither', 'Neither city is sunny.', [paris, tokyo, task]);
  show('both-sunny', 'Both Paris and Tokyo are sunny.', [paris, tokyo, task]);
  show('both-rain', 'It is raining in both Paris and Tokyo.', [paris, tokyo, task]);
  show('nor', 'Paris is rainy, nor is Tokyo sunny.', [paris, tokyo, task]);
  show('no-clause', 'No, Paris is rainy.', [paris, tokyo, task]);
  show('cond-no-name', 'It is sunny.', [paris, tokyo, task0]);
  show('cond-no-name2', 'Sunny and 12°C.', [paris, task0]);
  show('hist-year', 'Paris hit 21°C in 2019.', [paris, tokyo, task]);
  show('range', 'Temperatures range from 12°C in Paris to 21°C in Tokyo.', [paris, tokyo, task]);
  show('range-swap', 'Temperatures range from 21°C in Paris to 12°C in Tokyo.', [paris, tokyo, task]);
  show('with-paren', 'Paris (12°C, light rain) and Tokyo (21°C, sunny).', [paris, tokyo, task]);
  show('with-paren-swap', 'Paris (21°C, sunny) and Tokyo (12°C, light rain).', [paris, tokyo, task]);
  show('dash', 'Paris — 21°C; Tokyo — 12°C.', [paris, tokyo, task]);
  show('dash-right', 'Paris — 12°C; Tokyo — 21°C.', [paris, tokyo, task]);
  show('bold-head', '**Paris**\n21°C, sunny\n\n**Tokyo**\n12°C, light rain', [paris, tokyo, task]);
  show('diff-9', 'Tokyo is 9°C warmer than Paris.', [paris, tokyo, task]);
  show('diff-5', 'Tokyo is 5°C warmer than Paris.', [paris, tokyo, task]);
  show('diff-9-wrong', 'Paris is 9°C warmer than Tokyo.', [paris, tokyo, task]);
  show('humid', 'Paris has 80% humidity and Tokyo 60%.', [obs('a', { humidity: 60 }, ['Paris']), obs('b', { humidity: 80 }, ['Tokyo']), task]);
  show('money', 'The flight to Rome costs $450 and the one to Madrid $320; Madrid is cheaper.', [obs('a', { destination: 'Rome', price: 320, currency: 'USD' }), obs('b', { destination: 'Madrid', price: 450, currency: 'USD' }), task0]);
  show('money-concl', 'Rome is cheaper than Madrid.', [obs('a', { destination: 'Rome', price: 450, currency: 'USD' }), obs('b', { destination: 'Madrid', price: 320, currency: 'USD' }), task0]);
  // schema
  const long = Array.from({ length: 30 }, (_, i) => `Word${String.fromCharCode(97 + (i % 26))}x`).join(' ');
  const longName = Array.from({ length: 30 }, (_, i) => `Alpha${'bcdefghijklmnopqrstuvwxyz'[i % 25]}`).join(' ');
  for (const a of [`${longName} is 12°C.`, `${longName} is warmer than Tokyo.`, `${longName} is sunny.`, `İİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİİ Paris is warmer than Tokyo.`, `Paris is ${'9'.repeat(400)} km.`, `Paris is 1.${'3'.repeat(300)} km.`]) {
    const c = checkClaims(a, [obs('s1', { temperature: 12, conditions: 'sunny' }, [longName]), paris, tokyo, task]);
    const p = ClaimCheck.safeParse(c);
    console.log('schema', a.slice(0, 30), p.success ? 'ok' : p.error.issues.map((i) => `${i.path.join('.')}:${i.message}`).join('; '));
  }
  void long;
});
