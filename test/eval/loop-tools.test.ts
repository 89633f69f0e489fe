import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { evaluateArithmetic } from '../../src/eval/loop-dataset/arithmetic';
import {
  calculator,
  checkInventory,
  convertUnits,
  countryFacts,
  exchangeRate,
  loopDatasetTools,
} from '../../src/eval/loop-dataset/loop-tools';
import type { ToolDefinition } from '../../src/tools/define-tool';
import { ToolError } from '../../src/tools/tool-error';

const context = {
  idempotencyKey: 'wf:step',
  signal: new AbortController().signal,
  heartbeat() {},
  narrowVisibility() {},
  progress() {},
};
const call = async (tool: ToolDefinition, args: unknown) => tool.execute(tool.input.parse(args), context);

describe('the loop dataset’s tools', () => {
  it('read arithmetic without eval, refusing what they cannot read', () => {
    expect(evaluateArithmetic('6 * (3 + 4) - -2 / 4')).toBe(42.5);
    expect(() => evaluateArithmetic('1 / 0')).toThrow('division by zero');
    expect(() => evaluateArithmetic('process.exit()')).toThrow(/unexpected/);
    expect(() => evaluateArithmetic('(1 + 2')).toThrow('a parenthesis is not closed');
  });

  it('answer deterministically', async () => {
    expect(await call(calculator, { operation: 'divide', a: 10, b: 4 })).toEqual({ expression: '10 / 4', value: 2.5 });
    expect(await call(calculator, { operation: 'subtract', a: 1, b: -2 })).toMatchObject({ value: 3 });
    expect(await call(convertUnits, { value: 5, from: 'km', to: 'mi' })).toMatchObject({ converted: 3.107 });
    expect(await call(convertUnits, { value: 100, from: 'c', to: 'f' })).toMatchObject({ converted: 212 });
    await expect(call(convertUnits, { value: 1, from: 'kg', to: 'km' })).rejects.toThrow('cannot convert kg to km');
    expect(await call(countryFacts, { country: 'Peru' })).toMatchObject({ capital: 'Lima' });
  });

  it('fail as their cases need: for good, or on the first attempt only', async () => {
    const down = await call(checkInventory, { product: 'X' }).catch((err: unknown) => err);
    expect(ToolError.is(down) && !down.retryable).toBe(true);
    const attempt = (n: number) =>
      new MockActivityEnvironment({ attempt: n } as never).run(async () =>
        call(exchangeRate, { base: 'EUR', quote: 'USD' }),
      );
    await expect(attempt(1)).rejects.toThrow('first attempt');
    expect(await attempt(2)).toEqual({ base: 'EUR', quote: 'USD', rate: 1.1111 });
  });

  it('have distinct names', () => {
    expect(new Set(loopDatasetTools.map((t) => t.name)).size).toBe(loopDatasetTools.length);
  });
});
