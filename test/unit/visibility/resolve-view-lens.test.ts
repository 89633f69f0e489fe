import { describe, expect, it } from 'vitest';
import type { VisibilityLevel } from '../../../src/domain/chain/chain';
import type { ViewerRole } from '../../../src/domain/identity/people';
import { resolveViewLens, type ViewLens } from '../../../src/domain/visibility/view-lens';
import { ViewerPreferences } from '../../../src/domain/visibility/viewer-preferences';
import {
  StepKind,
  VisibilityPolicy,
  type VisibilityPolicyInit,
} from '../../../src/domain/visibility/visibility-policy';

const policy = (init: Omit<VisibilityPolicyInit, 'version'>): VisibilityPolicy =>
  VisibilityPolicy.parse({ version: 1, ...init });
const RANK: Record<VisibilityLevel, number> = { full: 0, summary: 1, hidden: 2 };
const rank = (level: VisibilityLevel | undefined): number => RANK[level ?? 'full'];

describe('resolveViewLens', () => {
  it('gives an empty lens without a policy, and for a policy that sets nothing', () => {
    const empty: ViewLens = {
      view: 'end_user',
      steps: {},
      tools: {},
      toolTypes: {},
      sensitiveFields: {},
      summariesOnly: false,
      decidedBy: {},
    };
    expect(resolveViewLens(undefined, { view: 'end_user', agent: 'a', tenant: 't' })).toEqual(empty);
    expect(resolveViewLens(policy({}), { view: 'end_user', agent: 'a', tenant: 't' })).toEqual(empty);
  });

  const hideThinking = { steps: { thinking: 'hidden' as const } };
  const layers: [string, Omit<VisibilityPolicyInit, 'version'>, string][] = [
    ['security', { security: hideThinking }, 'security'],
    ['the role', { roles: { end_user: hideThinking } }, 'role'],
    ['the platform', { platform: hideThinking }, 'platform'],
    ['the deployment', { deployments: { prod: hideThinking } }, 'platform'],
    ['the deployment named in the file', { deployment: 'prod', deployments: { prod: hideThinking } }, 'platform'],
    ['the agent', { agents: { billing: hideThinking } }, 'platform'],
  ];
  for (const [name, init, layer] of layers)
    it(`narrows by ${name}`, () => {
      const lens = resolveViewLens(policy(init), {
        view: 'end_user',
        agent: 'billing',
        deployment: init.deployment ? undefined : 'prod',
      });
      expect(lens.steps.thinking).toBe('hidden');
      expect(lens.decidedBy.thinking).toBe(layer);
    });

  it('narrows by the preference, and names it', () => {
    const lens = resolveViewLens(policy({}), {
      view: 'end_user',
      preferences: ViewerPreferences.parse({ thinking: false, externalCalls: false, internalCalls: false }),
    });
    expect(lens.steps).toMatchObject({ thinking: 'hidden', model_call: 'hidden' });
    expect(lens.decidedBy).toMatchObject({ thinking: 'preference', model_call: 'preference' });
    for (const type of ['external', 'database', 'file_system', 'skill', 'custom'] as const)
      expect(lens.toolTypes[type]).toEqual({ call: 'hidden', result: 'hidden' });
  });

  it('caps every kind at summary for "summaries only", and the final reasoning at summary when unticked', () => {
    const only = resolveViewLens(policy({}), {
      view: 'developer',
      preferences: ViewerPreferences.parse({ summariesOnly: true }),
    });
    for (const kind of StepKind.options) expect(only.steps[kind]).toBe('summary');
    expect(only.summariesOnly).toBe(true);
    const noReasoning = resolveViewLens(policy({}), {
      view: 'developer',
      preferences: ViewerPreferences.parse({ finalReasoning: false }),
    });
    expect(noReasoning.steps).toEqual({ synthesis: 'summary' });
    expect(noReasoning.summariesOnly).toBe(false);
  });

  it('ignores preferences where the role allows none', () => {
    const lens = resolveViewLens(policy({ roles: { end_user: { preferences: false } } }), {
      view: 'end_user',
      preferences: ViewerPreferences.parse({ thinking: false, summariesOnly: true }),
    });
    expect(lens.steps).toEqual({});
    expect(lens.summariesOnly).toBe(false);
  });

  it('names the first layer, in the order security, role, preference, platform, that set the narrowest level', () => {
    const both = policy({
      security: { steps: { thinking: 'summary', tool_call: 'summary' } },
      roles: { end_user: { steps: { thinking: 'summary', tool_call: 'hidden' } } },
      platform: { steps: { tool_call: 'hidden', synthesis: 'summary', model_call: 'hidden' } },
      agents: { billing: { steps: { synthesis: 'hidden' } } },
    });
    const lens = resolveViewLens(both, {
      view: 'end_user',
      agent: 'billing',
      preferences: ViewerPreferences.parse({ internalCalls: false }),
    });
    expect(lens.steps).toEqual({ thinking: 'summary', tool_call: 'hidden', synthesis: 'hidden', model_call: 'hidden' });
    expect(lens.decidedBy).toEqual({
      thinking: 'security',
      tool_call: 'role',
      synthesis: 'platform',
      model_call: 'preference',
    });
  });

  it('merges tool and tool type levels from every layer to the narrower of each', () => {
    const lens = resolveViewLens(
      policy({
        security: { tools: { charge: { result: 'hidden' } } },
        roles: {
          developer: {
            tools: { charge: { call: 'summary', result: 'summary' } },
            toolTypes: { skill: { call: 'summary' } },
          },
        },
        agents: { billing: { toolTypes: { skill: { call: 'hidden', result: 'summary' } }, subChains: 'summary' } },
        platform: { subChains: 'full' },
      }),
      { view: 'developer', agent: 'billing' },
    );
    expect(lens.tools).toEqual({ charge: { call: 'summary', result: 'hidden' } });
    expect(lens.toolTypes).toEqual({ skill: { call: 'hidden', result: 'summary' } });
    expect(lens.subChains).toBe('summary');
  });

  it("gives the tenant's masked fields to every view but the auditor's", () => {
    const withTenant = policy({ tenants: { acme: { sensitiveFields: { lookup: ['account'] } } } });
    expect(resolveViewLens(withTenant, { view: 'developer', tenant: 'acme' }).sensitiveFields).toEqual({
      lookup: ['account'],
    });
    expect(resolveViewLens(withTenant, { view: 'auditor', tenant: 'acme' }).sensitiveFields).toEqual({});
    expect(resolveViewLens(withTenant, { view: 'developer', tenant: 'other' }).sensitiveFields).toEqual({});
  });

  it('finds nothing inherited for an agent, tenant, deployment or tool named like an object property', () => {
    const hostile = VisibilityPolicy.parse(
      JSON.parse('{"version":1,"platform":{"tools":{"__proto__":{"call":"hidden"}}}}'),
    );
    const lens = resolveViewLens(hostile, {
      view: 'developer',
      agent: 'constructor',
      tenant: 'toString',
      deployment: 'hasOwnProperty',
    });
    expect(lens.steps).toEqual({});
    expect(lens.sensitiveFields).toEqual({});
    expect(Object.getPrototypeOf(lens.tools)).toBe(Object.prototype);
  });
});

describe('a preference never shows more than the role rules', () => {
  const levels: (VisibilityLevel | undefined)[] = [undefined, 'full', 'summary', 'hidden'];
  const bools = [true, false];
  const allPreferences: ViewerPreferences[] = [];
  for (const thinking of bools)
    for (const externalCalls of bools)
      for (const internalCalls of bools)
        for (const finalReasoning of bools)
          for (const summariesOnly of bools)
            allPreferences.push({ thinking, externalCalls, internalCalls, finalReasoning, summariesOnly });

  it('for every level of every kind and tool type, every combination of preferences, and every view', () => {
    let checked = 0;
    for (const view of ['end_user', 'developer', 'auditor'] as ViewerRole[])
      for (const kind of StepKind.options)
        for (const roleLevel of levels)
          for (const typeLevel of levels) {
            const rules = {
              steps: roleLevel ? { [kind]: roleLevel } : {},
              toolTypes: typeLevel ? { external: { call: typeLevel, result: typeLevel } } : {},
            };
            const byRole = resolveViewLens(policy({ roles: { [view]: rules } }), { view });
            for (const preferences of allPreferences) {
              const withPreference = resolveViewLens(policy({ roles: { [view]: rules } }), { view, preferences });
              for (const k of StepKind.options)
                expect(rank(withPreference.steps[k])).toBeGreaterThanOrEqual(rank(byRole.steps[k]));
              expect(rank(withPreference.toolTypes.external?.call)).toBeGreaterThanOrEqual(
                rank(byRole.toolTypes.external?.call),
              );
              expect(rank(withPreference.toolTypes.external?.result)).toBeGreaterThanOrEqual(
                rank(byRole.toolTypes.external?.result),
              );
              checked += 1;
            }
          }
    expect(checked).toBe(3 * 6 * 4 * 4 * 32);
  });
});
