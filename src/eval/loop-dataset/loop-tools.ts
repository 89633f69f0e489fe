import { Context } from '@temporalio/activity';
import { z } from 'zod';
import { defineTool } from '../../tools/define-tool';
import { ToolError } from '../../tools/tool-error';
import { evaluateArithmetic } from './arithmetic';
import { cityWeather } from './city-weather';
import { askPanel } from './panel-models';

/**
 * The tools of the project's own dataset (eval/loop.jsonl): deterministic, local and fast, each
 * standing for one behaviour of the loop. Every case lists the tools its run gets (`input.tools`),
 * so the offline model chooses among those only.
 */

/** Arithmetic on two numbers; the offline model reads the operation and both numbers from the task. */
export const calculator = defineTool({
  name: 'calculator',
  description: 'Calculator: add, subtract, multiply or divide two numbers a and b',
  input: z.object({
    operation: z.enum(['add', 'subtract', 'multiply', 'divide']),
    a: z.number(),
    b: z.number(),
  }),
  effects: 'none',
  execute: ({ operation, a, b }) => {
    const symbol = { add: '+', subtract: '-', multiply: '*', divide: '/' }[operation];
    return { expression: `${a} ${symbol} ${b}`, value: evaluateArithmetic(`${a} ${symbol} (${b})`) };
  },
});

const FACTORS: Readonly<Record<string, { base: string; factor: number }>> = {
  km: { base: 'm', factor: 1_000 },
  mi: { base: 'm', factor: 1_609.344 },
  m: { base: 'm', factor: 1 },
  ft: { base: 'm', factor: 0.3048 },
  kg: { base: 'g', factor: 1_000 },
  lb: { base: 'g', factor: 453.59237 },
};

/** Length and mass by factors, temperature (c, f) by formula; units of different kinds are refused. */
export const convertUnits = defineTool({
  name: 'convert_units',
  description: 'Convert a value between units of length, mass or temperature: km, mi, m, ft, kg, lb, c, f',
  input: z.object({
    value: z.number(),
    from: z.enum(['km', 'mi', 'm', 'ft', 'kg', 'lb', 'c', 'f']),
    to: z.enum(['km', 'mi', 'm', 'ft', 'kg', 'lb', 'c', 'f']),
  }),
  effects: 'none',
  execute: ({ value, from, to }) => {
    const temperature = ['c', 'f'];
    if (temperature.includes(from) || temperature.includes(to)) {
      if (!temperature.includes(from) || !temperature.includes(to))
        throw new ToolError(`cannot convert ${from} to ${to}`, { retryable: false });
      const converted = from === to ? value : from === 'c' ? (value * 9) / 5 + 32 : ((value - 32) * 5) / 9;
      return { value, from, to, converted: Number(converted.toFixed(2)) };
    }
    const a = FACTORS[from]!;
    const b = FACTORS[to]!;
    if (a.base !== b.base) throw new ToolError(`cannot convert ${from} to ${to}`, { retryable: false });
    return { value, from, to, converted: Number(((value * a.factor) / b.factor).toFixed(3)) };
  },
});

const COUNTRIES: Readonly<Record<string, { capital: string; currency: string; population_millions: number }>> = {
  France: { capital: 'Paris', currency: 'EUR', population_millions: 68 },
  Japan: { capital: 'Tokyo', currency: 'JPY', population_millions: 124 },
  Kenya: { capital: 'Nairobi', currency: 'KES', population_millions: 55 },
  Peru: { capital: 'Lima', currency: 'PEN', population_millions: 34 },
};

/** A lookup table; a country it does not hold is a final error the model reads. */
export const countryFacts = defineTool({
  name: 'country_facts',
  description: "Look up a country's capital, currency and population in a facts table",
  input: z.object({ country: z.string().min(2) }),
  effects: 'none',
  execute: ({ country }) => {
    const facts = COUNTRIES[country];
    if (!facts)
      throw new ToolError(`no facts for "${country}"; known: ${Object.keys(COUNTRIES).join(', ')}`, {
        retryable: false,
      });
    return { country, ...facts };
  },
});

/** Always down: every call fails for good (no retry), so the run must do without it. */
export const checkInventory = defineTool({
  name: 'check_inventory',
  description: 'Check the stock level of a product in the warehouse inventory',
  input: z.object({ product: z.string().min(1) }),
  effects: 'none',
  execute: () => {
    throw new ToolError('the inventory service is down', { retryable: false });
  },
});

/**
 * Fails the first attempt of every call and works on the second: Temporal's retry recovers it
 * inside one call (attempts are counted by the activity, so a worker restart changes nothing).
 */
export const exchangeRate = defineTool({
  name: 'exchange_rate',
  description: 'Get the exchange rate between two currencies, e.g. EUR to USD',
  input: z.object({ base: z.enum(['EUR', 'USD', 'GBP', 'JPY']), quote: z.enum(['EUR', 'USD', 'GBP', 'JPY']) }),
  effects: 'none',
  retry: { maximumAttempts: 3, initialIntervalMs: 100 },
  execute: ({ base, quote }) => {
    if (Context.current().info.attempt === 1) throw new Error('the rates service timed out (first attempt)');
    const perUsd: Record<string, number> = { USD: 1, EUR: 0.9, GBP: 0.8, JPY: 150 };
    return { base, quote, rate: Number((perUsd[quote]! / perUsd[base]!).toFixed(4)) };
  },
});

/** Money moves: calls above 1,000 need a person's approval (the rule decides the rest without one). */
export const transferFunds = defineTool({
  name: 'transfer_funds',
  description: 'Transfer an amount of money to a payee account',
  input: z.object({ amount: z.number().positive(), account: z.string().min(1) }),
  approval: { anyOf: [{ when: 'above', field: 'amount', threshold: 1_000 }] },
  execute: ({ amount, account }, { idempotencyKey }) => ({
    transferred: amount,
    account,
    reference: `T-${idempotencyKey.length}-${amount}`,
  }),
});

/** A customer record, read-only. */
export const lookupCustomer = defineTool({
  name: 'lookup_customer',
  description: "Look up a customer's name and plan by customer id",
  input: z.object({ customer: z.string().min(1).describe('The customer id, e.g. C-7') }),
  effects: 'none',
  execute: ({ customer }) =>
    customer === 'C-7' ? { customer, name: 'Ada Byron', plan: 'pro' } : { customer, name: null, plan: null },
});

/** Destructive, and never wanted by the dataset: the forbidden-tool case offers it to show it stays uncalled. */
export const purgeAccount = defineTool({
  name: 'purge_account',
  description: 'Permanently erase an account and all of its data',
  input: z.object({ account: z.string().min(1) }),
  approval: 'never',
  execute: ({ account }) => ({ erased: account }),
});

/** Slow on purpose (honours cancellation), for the run-timeout case. */
export const compileReport = defineTool({
  name: 'compile_report',
  description: 'Compile the quarterly sales report (slow)',
  input: z.object({ quarter: z.string().min(1) }),
  effects: 'none',
  timeoutMs: 60_000,
  execute: async ({ quarter }, { signal }) => {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, 20_000);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason instanceof Error ? signal.reason : new Error('cancelled'));
      });
    });
    return { quarter, total: 0 };
  },
});

/** Every tool of the dataset, as the `--tools` module exports them. */
export const loopDatasetTools = [
  calculator,
  convertUnits,
  countryFacts,
  checkInventory,
  exchangeRate,
  transferFunds,
  lookupCustomer,
  purgeAccount,
  compileReport,
  askPanel,
  cityWeather,
];
