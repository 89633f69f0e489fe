import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { policyProblem } from '../../src/domain/approval/rule-pattern';
import { defineTool, InvalidToolDefinitionError } from '../../src/tools/define-tool';

const matches = (pattern: string) => ({ anyOf: [{ when: 'matches' as const, field: 'q', pattern }] });

describe('approval rule patterns are checked where they are declared', () => {
  it.each(['(a)\\1', '(?=x)y', '(?<!a)b', 'a{2,1}', '[z-a]', '('])(
    'refuses %s, which RE2 cannot compile',
    (pattern) => {
      expect(policyProblem(matches(pattern))).toMatch(/is not RE2 syntax/);
      expect(() =>
        defineTool({
          name: 'search',
          description: 'd',
          input: z.object({ q: z.string() }),
          approval: matches(pattern),
          execute: () => 'ok',
        }),
      ).toThrow(InvalidToolDefinitionError);
    },
  );

  it.each(['^DROP\\s', '(a+)+$', 'secret|token', '\\d{16}'])(
    'accepts %s (RE2 matches it in linear time, even when a backtracking engine would not)',
    (pattern) => {
      expect(policyProblem(matches(pattern))).toBeUndefined();
      expect(
        defineTool({
          name: 'search',
          description: 'd',
          input: z.object({ q: z.string() }),
          approval: matches(pattern),
          execute: () => 'ok',
        }).approval,
      ).toEqual(matches(pattern));
    },
  );

  it('has nothing to say about policies without patterns', () => {
    expect(policyProblem(undefined)).toBeUndefined();
    expect(policyProblem('always')).toBeUndefined();
    expect(policyProblem({ anyOf: [{ when: 'above', field: 'amount', threshold: 5 }] })).toBeUndefined();
  });
});
