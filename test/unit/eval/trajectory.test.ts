import { describe, expect, it } from 'vitest';
import { TrajectoryExpectation, type TrajectoryExpectation as Expected } from '../../../src/domain/evaluation';
import { trajectory } from '../../../src/domain/evaluation/scorers/trajectory';
import { call, facts } from './scoring-facts-fixture';

const made = [
  call('search', { query: 'weather in Paris', limit: 5 }),
  call('get_weather', { city: 'Paris', units: 'celsius' }),
  call('get_weather', { city: 'Rome', units: 'celsius' }),
  call('save_report', { body: 'Paris 21, Rome 25' }),
];

const judge = (mode: Expected['mode'], calls: unknown[], toolCalls = made, over = {}) =>
  trajectory(TrajectoryExpectation.parse({ mode, calls }), facts({ toolCalls, ...over }));

describe('trajectory', () => {
  it('exact: the same calls in the same order, nothing more', () => {
    const all = [{ tool: 'search' }, { tool: 'get_weather' }, { tool: 'get_weather' }, { tool: 'save_report' }];
    expect(judge('exact', all)).toMatchObject({ passed: true, value: 1 });
    const short = judge('exact', all.slice(0, 3));
    expect(short).toMatchObject({ passed: false, value: 0.75 });
    expect(short.why).toBe('exact: call 4 save_report was not expected (3 expected)');
    const long = judge('exact', [...all, { tool: 'send' }]);
    expect(long.why).toBe('exact: expected call 5 send, but only 4 calls were made');
    const swapped = judge('exact', [all[0], all[3], all[1], all[2]]);
    expect(swapped.why).toBe('exact: call 2: get_weather is not save_report');
  });

  it('exact: names the argument predicate that failed', () => {
    const r = judge('exact', [
      { tool: 'search' },
      { tool: 'get_weather', arguments: { city: { equals: 'Paris' } } },
      { tool: 'get_weather', arguments: { city: { equals: 'Paris' } } },
      { tool: 'save_report' },
    ]);
    expect(r).toMatchObject({ passed: false, value: 0.75 });
    expect(r.why).toBe('exact: call 3: city is "Rome", not "Paris"');
  });

  it('in_order: the expected calls as a subsequence, others between', () => {
    expect(judge('in_order', [{ tool: 'search' }, { tool: 'save_report' }]).passed).toBe(true);
    const backwards = judge('in_order', [{ tool: 'save_report' }, { tool: 'search' }]);
    expect(backwards).toMatchObject({ passed: false, value: 0.5 });
    expect(backwards.why).toBe(
      'in_order: expected call 2 search not found after call 4 (its search calls came earlier)',
    );
    const wrongArgs = judge('in_order', [{ tool: 'get_weather', arguments: { city: { equals: 'Oslo' } } }]);
    expect(wrongArgs.why).toBe('in_order: expected call 1 get_weather not found (call 2: city is "Paris", not "Oslo")');
    expect(judge('in_order', [{ tool: 'delete' }]).why).toBe(
      'in_order: expected call 1 delete not found (no delete call was made)',
    );
  });

  it('in_order: a repeated tool needs as many calls', () => {
    expect(judge('in_order', [{ tool: 'get_weather' }, { tool: 'get_weather' }]).passed).toBe(true);
    expect(
      judge('in_order', [{ tool: 'get_weather' }, { tool: 'get_weather' }, { tool: 'get_weather' }]),
    ).toMatchObject({ passed: false, value: 2 / 3 });
  });

  it('any_order: each expected call gets a call of its own, by a maximum matching', () => {
    expect(judge('any_order', [{ tool: 'save_report' }, { tool: 'search' }]).passed).toBe(true);
    // Greedy would give the Rome call to the first expectation and leave the second without one.
    const overlapping = judge('any_order', [
      { tool: 'get_weather', arguments: { units: { equals: 'celsius' } } },
      { tool: 'get_weather', arguments: { city: { equals: 'Rome' } } },
    ]);
    expect(overlapping).toMatchObject({ passed: true, value: 1 });
    const three = judge('any_order', [{ tool: 'get_weather' }, { tool: 'get_weather' }, { tool: 'get_weather' }]);
    expect(three).toMatchObject({ passed: false, value: 2 / 3 });
    expect(three.why).toBe(
      'any_order: expected call 3 get_weather not made (its matching calls serve other expected calls); 1 of 3 unmatched',
    );
  });

  it('subset: every call made is one of the expected ones', () => {
    expect(
      judge('subset', [{ tool: 'search' }, { tool: 'get_weather' }, { tool: 'save_report' }, { tool: 'x' }]).passed,
    ).toBe(true);
    const r = judge('subset', [{ tool: 'search' }, { tool: 'get_weather', arguments: { city: { oneOf: ['Paris'] } } }]);
    expect(r).toMatchObject({ passed: false, value: 0.5 });
    expect(r.why).toBe('subset: call 3 get_weather fails its expected arguments: city is "Rome", not one of ["Paris"]');
    expect(judge('subset', [{ tool: 'search' }]).why).toBe(
      'subset: call 2 get_weather is not among the expected tools',
    );
  });

  it('an empty trajectory: passes exact with nothing expected and subset, fails the rest', () => {
    expect(judge('exact', [], [])).toMatchObject({ passed: true, value: 1 });
    expect(judge('subset', [{ tool: 'search' }], [])).toMatchObject({ passed: true, value: 1 });
    expect(judge('in_order', [], [])).toMatchObject({ passed: true, value: 1 });
    expect(judge('any_order', [{ tool: 'search' }], [])).toMatchObject({ passed: false, value: 0 });
    expect(judge('exact', [{ tool: 'search' }], []).why).toBe(
      'exact: expected call 1 search, but only 0 calls were made',
    );
    expect(judge('exact', [], made).why).toBe('exact: call 1 search was not expected (0 expected)');
  });

  it('argument predicates: contains, regex, range, present, oneOf, equals on structures', () => {
    const ok = (args: Record<string, unknown>, toolCalls = made) =>
      judge('any_order', [{ tool: 'search', arguments: args }], toolCalls).passed;
    expect(ok({ query: { contains: 'Paris' } })).toBe(true);
    expect(ok({ query: { contains: 'paris' } })).toBe(false);
    expect(ok({ query: { regex: '^weather in [A-Z]' } })).toBe(true);
    expect(ok({ limit: { range: { min: 1, max: 5 } } })).toBe(true);
    expect(ok({ limit: { range: { max: 4 } } })).toBe(false);
    expect(ok({ query: { range: { min: 0 } } })).toBe(false);
    expect(ok({ limit: { present: true }, page: { present: false } })).toBe(true);
    expect(ok({ page: { present: true } })).toBe(false);
    expect(ok({ limit: { oneOf: [5, 10] } })).toBe(true);
    expect(ok({ limit: { regex: '^5$' } })).toBe(true);
    const nested = [call('search', { filter: { b: [1, 2], a: 'x' } })];
    expect(ok({ filter: { equals: { a: 'x', b: [1, 2] } } }, nested)).toBe(true);
    expect(ok({ filter: { equals: { a: 'x' } } }, nested)).toBe(false);
  });

  it('an argument regex RE2 refuses fails its call and says so', () => {
    const r = judge('in_order', [{ tool: 'search', arguments: { query: { regex: '(?<=x)y' } } }]);
    expect(r.passed).toBe(false);
    expect(r.why).toMatch(/query: regex "\(\?<=x\)y" refused by RE2/);
  });

  it('says when the chain held only the run’s last steps', () => {
    expect(judge('exact', [{ tool: 'search' }], made, { chainComplete: false }).why).toMatch(/last steps\)$/);
  });
});
