import { describe, expect, it } from 'vitest';
import { renderSummaryTemplate } from '../../src/domain/visibility/summary-template';

describe('renderSummaryTemplate', () => {
  it('looks up the arguments first, then an object result', () => {
    const out = renderSummaryTemplate(
      'Searched {query} in {db.name}: {row_count} rows',
      { query: 'cats', db: { name: 'main' }, row_count: 1 },
      { row_count: 9 },
    );
    expect(out).toBe('Searched cats in main: 1 rows');
    expect(renderSummaryTemplate('{row_count} rows', { query: 'x' }, { row_count: 9 })).toBe('9 rows');
  });

  it('renders {result} whole: text as is, objects as JSON', () => {
    expect(renderSummaryTemplate('Got {result}', {}, 'sunny')).toBe('Got sunny');
    expect(renderSummaryTemplate('Got {result}', {}, { temp: 21 })).toBe('Got {"temp":21}');
    expect(renderSummaryTemplate('Got {result}', {}, 0)).toBe('Got 0');
  });

  it('treats {result.length} as a path into the result', () => {
    expect(renderSummaryTemplate('{result.length} rows', {}, [1, 2, 3])).toBe('3 rows');
    expect(renderSummaryTemplate('{result.length} chars', {}, 'abcd')).toBe('4 chars');
    expect(renderSummaryTemplate('{result.first.name}', {}, { first: { name: 'ann' } })).toBe('ann');
  });

  it('renders unknown placeholders, missing results and inherited names as ?', () => {
    expect(renderSummaryTemplate('{nope} {a.b.c} {result} {constructor}', { a: { b: 1 } }, undefined)).toBe('? ? ? ?');
    expect(renderSummaryTemplate('{x}', {}, 'text result')).toBe('?');
  });

  it('renders objects as JSON and null and booleans as text', () => {
    expect(
      renderSummaryTemplate('{filter} {flag} {empty}', { filter: { a: [1] }, flag: false, empty: null }, null),
    ).toBe('{"a":[1]} false null');
  });

  it('clips each value to 200 characters', () => {
    const out = renderSummaryTemplate('[{text}]', { text: 'x'.repeat(500) }, null);
    expect(out).toBe(`[${'x'.repeat(199)}…]`);
    expect(renderSummaryTemplate('{result}', {}, { big: 'y'.repeat(300) })).toHaveLength(200);
    expect(renderSummaryTemplate('{v}', { v: 'z'.repeat(200) }, null)).toBe('z'.repeat(200));
  });

  it('leaves text that is not a placeholder alone', () => {
    expect(renderSummaryTemplate('Plain {"json": 1} and { spaced }', {}, null)).toBe(
      'Plain {"json": 1} and { spaced }',
    );
  });

  it('redacts sensitive fields in the arguments and the result before rendering', () => {
    const out = renderSummaryTemplate(
      'Paid with {card.number}; got {result}',
      { card: { number: '4111111111111111' } },
      { card: { number: '4111111111111111' }, ok: true },
      ['card.number'],
    );
    expect(out).toBe('Paid with [SENSITIVE]; got {"card":{"number":"[SENSITIVE]"},"ok":true}');
    expect(out).not.toContain('4111');
  });

  it('redacts secret-shaped text in the rendered line', () => {
    expect(renderSummaryTemplate('Called with {key}', { key: 'AKIAIOSFODNN7EXAMPLE' }, null)).toBe(
      'Called with [REDACTED]',
    );
  });
});
