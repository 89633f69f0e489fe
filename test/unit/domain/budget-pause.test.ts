import { describe, expect, it } from 'vitest';
import {
  MAX_RAISE_ITERATIONS,
  MAX_RAISE_TEXT_CHARS,
  MAX_RAISE_TOKENS,
  MAX_RAISE_USD,
  raisedBudgets,
  raiseInWords,
  raiseProblem,
  raiserRolesOf,
  type BudgetPause,
} from '../../../src/domain';
import { BudgetDesk } from '../../../src/workflows/people/budget-desk';
import { HOSTILE_PAYLOADS } from '../../helpers/hostile-payloads';

const pause = (over: Partial<BudgetPause> = {}): BudgetPause => ({
  pauseId: 'token_budget@2026-11-27T10:00:00.000Z',
  reason: 'token_budget',
  message: 'Token budget: 900 of 1000 tokens spent.',
  spent: { tokens: 900, costUsd: 0.01, iterations: 2, modelCalls: 2, tools: [] },
  budgets: { tokenBudget: 1000, costBudgetUsd: 0.5, maxIterations: 10 },
  pausedAt: '2026-11-27T10:00:00.000Z',
  expiresAt: '2026-11-28T10:00:00.000Z',
  raiserRoles: ['finance'],
  ...over,
});
const alice = { id: 'alice', roles: ['finance'] };

describe('raiseProblem', () => {
  it('accepts each amount at its limit and refuses one past it', () => {
    expect(raiseProblem({ tokens: MAX_RAISE_TOKENS, by: alice }, pause(), true)).toBeUndefined();
    expect(raiseProblem({ tokens: MAX_RAISE_TOKENS + 1, by: alice }, pause(), true)).toMatch(/at most/);
    const cost = pause({ reason: 'cost_budget' });
    expect(raiseProblem({ costUsd: MAX_RAISE_USD, by: alice }, cost, true)).toBeUndefined();
    expect(raiseProblem({ costUsd: MAX_RAISE_USD + 0.01, by: alice }, cost, true)).toMatch(/at most/);
    const its = pause({ reason: 'max_iterations' });
    expect(raiseProblem({ iterations: MAX_RAISE_ITERATIONS, by: alice }, its, true)).toBeUndefined();
    expect(raiseProblem({ iterations: MAX_RAISE_ITERATIONS + 1, by: alice }, its, true)).toMatch(/at most/);
  });

  it('refuses zero, negative and non-finite amounts, empty raises, and stops with amounts', () => {
    for (const tokens of [0, -1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(raiseProblem({ tokens, by: alice }, pause(), true)).toBe('Every amount must be a positive number.');
    expect(raiseProblem({ by: alice }, pause(), true)).toMatch(/^Give tokens, costUsd or iterations/);
    expect(raiseProblem({ stop: true, tokens: 5, by: alice }, pause(), true)).toBe('A stop carries no amounts.');
    expect(raiseProblem({ stop: true, by: alice }, pause(), true)).toBeUndefined();
  });

  it('needs the budget paused at, budgets the run has, and an allowed role (stops too)', () => {
    expect(raiseProblem({ costUsd: 1, by: alice }, pause(), true)).toBe(
      'The run paused at its token budget: a raise must include tokens.',
    );
    const noCost = pause({ budgets: { tokenBudget: 1000, maxIterations: 10 } });
    expect(raiseProblem({ tokens: 5, costUsd: 1, by: alice }, noCost, true)).toBe(
      'This run has no cost budget to raise.',
    );
    const guarded = pause({ raiserRoles: ['finance'] });
    expect(raiseProblem({ stop: true, by: { id: 'bob', roles: ['ops'] } }, guarded, true)).toMatch(/bob may not raise/);
    expect(raiseProblem({ tokens: 5, by: alice }, guarded, true)).toBeUndefined();
  });

  it('counts roles only when a verified signature covers them, naming the role needed (issue 78)', () => {
    const guarded = pause({ raiserRoles: ['ops'] });
    expect(raiseProblem({ tokens: 5, by: { id: 'mallory', roles: ['ops'] } }, guarded, false)).toBe(
      "mallory may not raise this run's budget: it needs one of the roles ops, verified by a signature (decide through thoughtline serve, or sign with its keyring: --signing-keys); mallory claimed ops, not verified.",
    );
    expect(raiseProblem({ tokens: 5, by: { id: 'olga', roles: ['ops'] } }, guarded, true)).toBeUndefined();
  });

  it('refuses a raise naming another pause than the one the run waits at (issue 78)', () => {
    expect(
      raiseProblem({ tokens: 5, by: alice, pauseId: 'token_budget@2026-11-27T09:00:00.000Z' }, pause(), true),
    ).toMatch(
      /^This raise answers the pause token_budget@2026-11-27T09:00:00.000Z; the run is paused at token_budget@2026-11-27T10:00:00.000Z\./,
    );
    expect(raiseProblem({ tokens: 5, by: alice, pauseId: pause().pauseId }, pause(), true)).toBeUndefined();
  });

  it('without budgetRaiserRoles, only developers and operators raise (issue 78)', () => {
    expect(raiserRolesOf(undefined)).toEqual(['developer', 'operator']);
    expect(raiserRolesOf([])).toEqual(['developer', 'operator']);
    expect(raiserRolesOf(['finance'])).toEqual(['finance']);
    const byDefault = pause({ raiserRoles: raiserRolesOf(undefined) });
    expect(raiseProblem({ tokens: 5, by: { id: 'eve', roles: ['end_user'] } }, byDefault, true)).toMatch(
      /^eve may not raise this run's budget: it needs one of the roles developer, operator; they have end_user\.$/,
    );
    expect(raiseProblem({ tokens: 5, by: { id: 'dev', roles: ['developer'] } }, byDefault, true)).toBeUndefined();
  });
});

describe('raisedBudgets and raiseInWords', () => {
  it('adds to the budgets the run has, rounding USD to the millionth', () => {
    expect(
      raisedBudgets({ tokenBudget: 1000, costBudgetUsd: 0.1, maxIterations: 10 }, { tokens: 500, costUsd: 0.2 }),
    ).toEqual({ tokenBudget: 1500, costBudgetUsd: 0.3, maxIterations: 10 });
    expect(raisedBudgets({ maxIterations: 10 }, { iterations: 5, tokens: 7 })).toEqual({ maxIterations: 15 });
    expect(raiseInWords({ tokens: 500, costUsd: 0.2, iterations: 3 })).toBe('+500 tokens, +$0.2, +3 iterations');
  });
});

describe('BudgetDesk outside a pause', () => {
  it('refuses a valid raise when nothing is paused, and the handler keeps nothing', () => {
    const desk = new BudgetDesk();
    expect(() => desk.check({ tokens: 5, by: alice }, true)).toThrow(
      'This run is not paused at a budget; nothing to raise.',
    );
    expect(desk.receive({ tokens: 5, by: alice }, true)).toBeUndefined();
    expect(() => desk.check({ tokens: 5, by: { id: 'x'.repeat(MAX_RAISE_TEXT_CHARS + 1), roles: [] } }, true)).toThrow(
      /at most 2000 characters/,
    );
  });

  it.each(HOSTILE_PAYLOADS)('refuses $name in the validator and never throws in the handler', ({ value }) => {
    const desk = new BudgetDesk();
    expect(() => desk.check(value(), true)).toThrow(Error);
    expect(desk.receive(value(), true)).toBeUndefined();
  });
});
