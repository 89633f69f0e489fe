import { describe, expect, it } from 'vitest';
import { AgentDefinitionError } from '../../../src/agents/agent-definition-error';
import { defineAgent } from '../../../src/agents/define-agent';
import { agentBudgetDefaults, MAX_BUDGET_RAISER_ROLES } from '../../../src/domain/agents/agent-budget';
import { raiserRolesWidening } from '../../../src/domain/run/budget-pause';
import type { AgentDefinitionInit } from '../../../src/domain/agents/agent-definition';

const base: AgentDefinitionInit = {
  id: 'reconciler',
  description: 'Reconciles invoices.',
  version: '1.0.0',
  systemPrompt: 'You reconcile invoices.',
};
const budget = {
  tokenBudget: 5_000,
  costBudgetUsd: 2,
  onBudget: 'ask' as const,
  budgetWaitTimeoutMs: 60_000,
  budgetRaiserRoles: ['finance'],
};

describe('an agent’s budget', () => {
  it('is kept by defineAgent, frozen; an agent without one has none', () => {
    const agent = defineAgent({ ...base, budget });
    expect(agent.budget).toEqual(budget);
    expect(Object.isFrozen(agent.budget)).toBe(true);
    expect(Object.isFrozen(agent.budget!.budgetRaiserRoles)).toBe(true);
    expect(defineAgent(base)).not.toHaveProperty('budget');
  });

  it.each([
    [{ onBudget: 'pause' }, /budget.onBudget/],
    [{ tokenBudget: 0 }, /budget.tokenBudget/],
    [{ costBudgetUsd: -1 }, /budget.costBudgetUsd/],
    [{ budgetWaitTimeoutMs: 1.5 }, /budget.budgetWaitTimeoutMs/],
    [{ budgetRaiserRoles: [''] }, /budget.budgetRaiserRoles/],
    [{ budgetRaiserRoles: ['r'.repeat(129)] }, /budget.budgetRaiserRoles/],
    [{ tokens: 5_000 }, /Unrecognized key.*tokens/],
    [{ maxIterations: 3 }, /Unrecognized key.*maxIterations/],
  ])('refuses %j', (bad, message) => {
    expect(() => defineAgent({ ...base, budget: bad as never })).toThrow(AgentDefinitionError);
    expect(() => defineAgent({ ...base, budget: bad as never })).toThrow(message);
  });

  it(`takes at most ${MAX_BUDGET_RAISER_ROLES} raiser roles`, () => {
    const roles = (n: number) => Array.from({ length: n }, (_, i) => `role-${i}`);
    expect(
      defineAgent({ ...base, budget: { budgetRaiserRoles: roles(MAX_BUDGET_RAISER_ROLES) } }).budget,
    ).toBeDefined();
    expect(() => defineAgent({ ...base, budget: { budgetRaiserRoles: roles(MAX_BUDGET_RAISER_ROLES + 1) } })).toThrow(
      /budget.budgetRaiserRoles/,
    );
  });
});

describe('agentBudgetDefaults', () => {
  it('gives a run every setting it left out', () => {
    expect(agentBudgetDefaults({}, budget)).toEqual(budget);
  });

  it('keeps each setting the run set itself', () => {
    const run = { tokenBudget: 100_000, onBudget: 'end' as const, budgetRaiserRoles: ['finance'] };
    expect(agentBudgetDefaults(run, budget)).toEqual({
      costBudgetUsd: 2,
      budgetWaitTimeoutMs: 60_000,
    });
  });

  it('reads an empty budgetRaiserRoles as none named: the agent’s raisers stand (it would open raises to the default)', () => {
    expect(agentBudgetDefaults({ budgetRaiserRoles: [] }, budget).budgetRaiserRoles).toEqual(['finance']);
  });

  it('adds nothing without a budget, nor to a sub-agent’s run (a tree is asked once, at the top)', () => {
    expect(agentBudgetDefaults({}, undefined)).toEqual({});
    expect(agentBudgetDefaults({ delegation: { path: [], maxDepth: 3 } }, budget)).toEqual({});
  });
});

describe('raiserRolesWidening: a caller narrows who raises an agent’s budget, never widens it', () => {
  it.each([
    [['end_user'], undefined, /\(developer, operator\); end_user is not among them/],
    [['developer', 'end_user'], undefined, /end_user is not among/],
    [['developer'], ['finance'], /\(finance\); developer is not among them/],
    [['finance', 'ops'], ['finance'], /ops is not among/],
  ])('refuses %j over the agent’s %j', (caller, agent, message) => {
    expect(raiserRolesWidening(caller, agent)).toMatch(message);
  });

  it.each([
    [undefined, undefined],
    [[], ['finance']],
    [['operator'], undefined],
    [['finance'], ['finance', 'ops']],
  ])('lets %j narrow the agent’s %j', (caller, agent) => {
    expect(raiserRolesWidening(caller, agent)).toBeUndefined();
  });
});
