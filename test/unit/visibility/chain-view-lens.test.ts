import { describe, expect, it } from 'vitest';
import { IncrementalChainView, viewChain, viewResult, viewStatus } from '../../../src/domain/chain/chain-view';
import type { AgentResult, AgentStatus } from '../../../src/domain/run/agent-result';
import type { ViewerRole } from '../../../src/domain/identity/people';
import { resolveViewLens, ViewLens, type LensRequest } from '../../../src/domain/visibility/view-lens';
import { ViewerPreferences } from '../../../src/domain/visibility/viewer-preferences';
import { VisibilityPolicy, type VisibilityPolicyInit } from '../../../src/domain/visibility/visibility-policy';
import { HIDDEN_THINKING } from '../../../src/domain/visibility/hidden-text';
import { ACCOUNT, CARD, lensChain, numbers, stepNumbered } from './lens-chain';

const ROLES: ViewerRole[] = ['end_user', 'developer', 'auditor'];
const policy = (init: Omit<VisibilityPolicyInit, 'version'>): VisibilityPolicy =>
  VisibilityPolicy.parse({ version: 1, ...init });
const lensFor = (init: Omit<VisibilityPolicyInit, 'version'>, request: LensRequest): ViewLens =>
  resolveViewLens(policy(init), { agent: 'billing', tenant: 'acme', ...request });

describe('viewChain with a lens', () => {
  it('changes nothing with the no-policy lens, or a policy that sets nothing, to the byte', () => {
    for (const role of ROLES) {
      const without = JSON.stringify(viewChain(lensChain(), role));
      expect(JSON.stringify(viewChain(lensChain(), role, resolveViewLens(undefined, { view: role })))).toBe(without);
      expect(JSON.stringify(viewChain(lensChain(), role, lensFor({}, { view: role })))).toBe(without);
    }
  });

  it('leaves out what the policy hides and counts it, in every view (security binds the auditor too)', () => {
    const chain = lensChain();
    const endUser = viewChain(
      chain,
      'end_user',
      lensFor({ roles: { end_user: { steps: { thinking: 'hidden' } } } }, { view: 'end_user' }),
    );
    expect(numbers(endUser)).toEqual([3, 4, 5, 6, 8, 9, 10, 11, 12]);
    expect(endUser.view).toEqual({ role: 'end_user', hiddenSteps: 3, narrowed: 2 });
    const auditor = viewChain(
      chain,
      'auditor',
      lensFor({ security: { steps: { thinking: 'hidden' } } }, { view: 'auditor' }),
    );
    expect(numbers(auditor)).toEqual([3, 4, 5, 6, 8, 9, 10, 11, 12]);
    expect(auditor.view).toEqual({ role: 'auditor', hiddenSteps: 3, narrowed: 3 });
    // A role's rules bind only that role.
    expect(
      numbers(
        viewChain(
          chain,
          'developer',
          lensFor({ roles: { end_user: { steps: { thinking: 'hidden' } } } }, { view: 'developer' }),
        ),
      ),
    ).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('hides by tool name and tool type, calls and results apart, and a model result by its call', () => {
    const lens = lensFor(
      {
        platform: {
          tools: { lookup: { result: 'hidden' } },
          toolTypes: { skill: { call: 'hidden' } },
          steps: { model_call: 'hidden' },
        },
      },
      { view: 'developer' },
    );
    expect(numbers(viewChain(lensChain(), 'developer', lens))).toEqual([1, 5, 7, 8, 9, 12]);
  });

  it('shows the summary shape in the developer view for a step the policy caps at summary', () => {
    const lens = lensFor(
      {
        roles: {
          developer: {
            steps: { tool_call: 'summary', tool_result: 'summary', model_call: 'summary', synthesis: 'summary' },
          },
        },
      },
      { view: 'developer' },
    );
    const view = viewChain(lensChain(), 'developer', lens);
    expect(stepNumbered(view, 8)).toMatchObject({ toolCall: { toolName: 'charge', arguments: {} } });
    expect(stepNumbered(view, 6)).toMatchObject({ toolResult: { result: 'Found the customer' } });
    expect(stepNumbered(view, 4)).toMatchObject({ toolResult: { result: 'Model call (m-1)' } });
    expect(stepNumbered(view, 4)).not.toHaveProperty('usage');
    expect(stepNumbered(view, 4)).not.toHaveProperty('costUsd');
    expect(stepNumbered(view, 12)).toMatchObject({ synthesis: { sources: [], conclusion: 'Charged Ann.' } });
    expect(stepNumbered(view, 12)).not.toHaveProperty('synthesis.confidence');
    // Thinking is not capped: in full.
    expect(stepNumbered(view, 1)).toMatchObject({ thought: 'I will look the customer up.' });
    // The approval of a call shown at summary shows no arguments either.
    expect(view.approvals?.[0]?.arguments).toEqual({});
    expect(JSON.stringify(view)).not.toContain(CARD);
  });

  it("masks a tenant's field in the call's result and where free text repeats it, below the auditor", () => {
    const init = { tenants: { acme: { sensitiveFields: { lookup: ['account'] } } } };
    for (const role of ['developer', 'end_user'] as const) {
      const view = viewChain(lensChain(), role, lensFor(init, { view: role }));
      expect(stepNumbered(view, 6)).toMatchObject({ toolResult: { result: { account: '[SENSITIVE]', plan: 'gold' } } });
      expect(JSON.stringify(view)).not.toContain(ACCOUNT);
    }
    const auditor = viewChain(lensChain(), 'auditor', lensFor(init, { view: 'auditor' }));
    expect(stepNumbered(auditor, 6)).toMatchObject({ toolResult: { result: { account: ACCOUNT } } });
    // Another tenant's run is not masked by acme's rules.
    const other = viewChain(lensChain(), 'developer', lensFor(init, { view: 'developer', tenant: 'other' }));
    expect(JSON.stringify(other)).toContain(ACCOUNT);
  });

  it('shows sub-agents as summaries, or leaves them out, by subChains', () => {
    const summary = viewChain(
      lensChain(),
      'developer',
      lensFor({ platform: { subChains: 'summary' } }, { view: 'developer' }),
    );
    expect(summary.subAgents).toEqual([
      {
        callId: 'sa1',
        agentName: 'helper',
        workflowId: 'wf-lens/sub-1',
        status: 'completed',
        budget: { maxIterations: 3 },
      },
    ]);
    expect(stepNumbered(summary, 11)).not.toHaveProperty('toolResult.subAgent.costUsd');
    const hidden = viewChain(
      lensChain(),
      'developer',
      lensFor({ security: { subChains: 'hidden' } }, { view: 'developer' }),
    );
    expect(hidden).not.toHaveProperty('subAgents');
    expect(stepNumbered(hidden, 11)).not.toHaveProperty('toolResult.subAgent');
    expect(viewChain(lensChain(), 'developer').subAgents?.[0]).toHaveProperty('costUsd', 0.5);
  });

  it('applies a preference within the role, and a view never shows a step the view without it hides', () => {
    const preferences = ViewerPreferences.parse({ thinking: false, externalCalls: false });
    const lens = lensFor(
      { roles: { end_user: { steps: { tool_result: 'summary' } } } },
      { view: 'end_user', preferences },
    );
    const view = viewChain(lensChain(), 'end_user', lens);
    // The sub-agent's result (its call unknown) takes the narrowest result rule: hidden.
    expect(numbers(view)).toEqual([3, 4, 10, 12]);
    expect(lens.decidedBy).toEqual({ thinking: 'preference', tool_result: 'role' });
  });

  it("shows no model reply text where the view hides thinking: the reply's text is the thought (issue 63)", () => {
    const chain = lensChain();
    const cases: [ViewerRole, ViewLens][] = [
      ['auditor', lensFor({ security: { steps: { thinking: 'hidden' } } }, { view: 'auditor' })],
      ['developer', lensFor({ roles: { developer: { steps: { thinking: 'summary' } } } }, { view: 'developer' })],
      ['developer', lensFor({}, { view: 'developer', preferences: ViewerPreferences.parse({ thinking: false }) })],
    ];
    for (const [role, lens] of cases) {
      const view = viewChain(chain, role, lens);
      // The model call itself still shows, in full: its tokens, stop reason and tool calls stay.
      expect(stepNumbered(view, 4)).toMatchObject({
        model: 'm-1',
        toolResult: { success: true, result: { text: HIDDEN_THINKING } },
      });
      expect(JSON.stringify(view)).not.toContain('model says');
      // The stream's view agrees.
      const incremental = new IncrementalChainView();
      for (const step of chain.steps) incremental.add(step);
      expect(incremental.step(chain.steps[3]!, role, lens)).toEqual(stepNumbered(view, 4));
    }
    // Thinking shown: the reply text stays, with and without a lens (a narrower rule elsewhere changes nothing here).
    expect(stepNumbered(viewChain(chain, 'developer'), 4)).toMatchObject({
      toolResult: { result: { text: 'model says' } },
    });
    const other = lensFor({ platform: { toolTypes: { database: { result: 'hidden' } } } }, { view: 'auditor' });
    expect(stepNumbered(viewChain(chain, 'auditor', other), 4)).toMatchObject({
      toolResult: { result: { text: 'model says' } },
    });
  });

  it('fails closed for a result whose call it never saw: the narrowest result rule', () => {
    // Step 11's call is not in the chain: a rule hiding any tool's results hides it.
    const lens = lensFor({ platform: { tools: { lookup: { result: 'hidden' } } } }, { view: 'developer' });
    expect(numbers(viewChain(lensChain(), 'developer', lens))).not.toContain(11);
  });

  it('gives a second view of the same chain with another lens its own steps (the cache keys on the lens)', () => {
    const chain = lensChain();
    const hide = lensFor({ platform: { steps: { thinking: 'summary' } } }, { view: 'developer' });
    const first = viewChain(chain, 'developer');
    const second = viewChain(chain, 'developer', hide);
    const third = viewChain(chain, 'developer');
    expect(stepNumbered(first, 1)).toMatchObject({ thought: 'I will look the customer up.' });
    expect(stepNumbered(second, 1)).toMatchObject({ thought: '(working)' });
    expect(third).toEqual(first);
  });
});

describe('IncrementalChainView with a lens', () => {
  const lenses: [string, Omit<VisibilityPolicyInit, 'version'>][] = [
    [
      'thinking hidden',
      { roles: { end_user: { steps: { thinking: 'hidden' } }, developer: { steps: { thinking: 'hidden' } } } },
    ],
    ['tools summarised', { platform: { toolTypes: { database: { result: 'summary' } }, subChains: 'summary' } }],
    [
      'tenant masking',
      {
        tenants: { acme: { sensitiveFields: { lookup: ['account'] } } },
        security: { steps: { model_call: 'hidden' } },
      },
    ],
  ];
  for (const [name, init] of lenses)
    for (const role of ROLES)
      it(`pages the whole chain as viewChain does (${name}, ${role})`, () => {
        const chain = lensChain();
        const lens = lensFor(init, { view: role });
        const incremental = new IncrementalChainView();
        for (const step of chain.steps) incremental.add(step);
        for (const record of chain.approvals ?? []) incremental.addApproval(record);
        const { steps, ...head } = chain;
        const recordedHidden = steps.filter((s) => s.visibility.level === 'hidden').length;
        expect(incremental.page(head, steps, role, recordedHidden, lens)).toEqual(viewChain(chain, role, lens));
      });

  it('leaves out a step the lens hides', () => {
    const chain = lensChain();
    const incremental = new IncrementalChainView();
    for (const step of chain.steps) incremental.add(step);
    const lens = lensFor({ security: { steps: { thinking: 'hidden' } } }, { view: 'auditor' });
    expect(incremental.step(chain.steps[0]!, 'auditor', lens)).toBeUndefined();
    expect(incremental.step(chain.steps[0]!, 'auditor')).toMatchObject({ stepNumber: 1 });
  });
});

describe('viewStatus and viewResult with a lens', () => {
  const chain = lensChain();
  const status = {
    pendingApprovals: [{ ...chain.approvals![0]!, status: 'pending' }],
    subAgents: chain.subAgents,
  } as unknown as AgentStatus;

  it('shows a pending call the policy summarises without its arguments, and sub-agents by subChains', () => {
    const lens = lensFor(
      { security: { tools: { charge: { call: 'summary' } }, subChains: 'hidden' } },
      { view: 'auditor' },
    );
    const viewed = viewStatus(status, 'auditor', chain.steps, lens);
    expect(viewed.pendingApprovals[0]?.arguments).toEqual({});
    expect(viewed.subAgents).toEqual([]);
    expect(viewStatus(status, 'auditor', chain.steps).pendingApprovals[0]?.arguments).toMatchObject({
      card: { number: CARD },
    });
  });

  it("redacts a tenant's values in the answer of a result", () => {
    const result = { chain, finalAnswer: `Account ${ACCOUNT} charged.` } as unknown as AgentResult;
    const lens = lensFor({ tenants: { acme: { sensitiveFields: { lookup: ['account'] } } } }, { view: 'developer' });
    const viewed = viewResult(result, 'developer', lens);
    expect(JSON.stringify(viewed)).not.toContain(ACCOUNT);
    expect(JSON.stringify(viewResult(result, 'developer'))).toContain(ACCOUNT);
  });
});

describe('IncrementalChainView streaming with a tenant mask', () => {
  it('masks a later thought repeating the value of a result the policy hides, step by step', () => {
    const chain = lensChain();
    const lens = lensFor(
      {
        platform: { tools: { lookup: { result: 'hidden' } } },
        tenants: { acme: { sensitiveFields: { lookup: ['account'] } } },
      },
      { view: 'developer' },
    );
    const incremental = new IncrementalChainView();
    const shown = [];
    for (const step of chain.steps) {
      incremental.add(step);
      const viewed = incremental.step(step, 'developer', lens);
      if (viewed) shown.push(viewed);
    }
    expect(shown.map((s) => s.stepNumber)).not.toContain(6);
    expect(JSON.stringify(shown)).not.toContain(ACCOUNT);
    expect(shown.find((s) => s.stepNumber === 7)).toMatchObject({ thought: 'Account [REDACTED] is on gold.' });
  });
});
