import { describe, expect, it } from 'vitest';
import { createAgentRegistry } from '../../../src/agents/agent-registry';
import { defineAgent } from '../../../src/agents/define-agent';
import {
  MAX_VARIANTS,
  MAX_VARIANT_WEIGHT,
  MAX_VARIANTS_BYTES,
  assignVariant,
  experimentKeyOf,
  stableUnitHash,
  type AgentExperimentInit,
} from '../../../src/domain/agents/agent-experiment';
import type { AgentDefinitionInit } from '../../../src/domain/agents/agent-definition';

const base: AgentDefinitionInit = {
  id: 'support',
  description: 'Answers support tickets.',
  version: '3.0.0',
  systemPrompt: 'You answer support tickets.',
};
const experiment: AgentExperimentInit = {
  name: 'tone-2026-11',
  assignBy: 'caller',
  variants: [
    { name: 'plain', weight: 1 },
    { name: 'warm', weight: 1, systemPrompt: 'You answer support tickets warmly.' },
  ],
};
const variant = (v: object, i = 0) => ({ name: `v${i}`, weight: 1, ...v });

describe('an agent experiment', () => {
  it('is part of a frozen definition', () => {
    const agent = defineAgent({ ...base, experiment });
    expect(agent.experiment?.variants.map((v) => v.name)).toEqual(['plain', 'warm']);
    expect(Object.isFrozen(agent.experiment)).toBe(true);
    expect(Object.isFrozen(agent.experiment!.variants[1])).toBe(true);
  });

  it('is refused when two agents of one worker name the same experiment', () => {
    expect(() =>
      createAgentRegistry([
        { ...base, experiment },
        { ...base, id: 'support-2', experiment },
      ]),
    ).toThrow('Agents "support" and "support-2" both run experiment "tone-2026-11"');
    expect(
      createAgentRegistry([
        { ...base, experiment },
        { ...base, id: 'support-2', experiment: { ...experiment, name: 'tone-2' } },
      ]).ids(),
    ).toEqual(['support', 'support-2']);
  });

  it.each([
    ['one variant', { variants: [variant({})] }, /at least two variants/],
    [
      'too many variants',
      { variants: Array.from({ length: MAX_VARIANTS + 1 }, (_, i) => variant({}, i)) },
      /at most 10 variants/,
    ],
    ['a variant twice', { variants: [variant({}), variant({})] }, /must not name a variant twice/],
    ['a zero weight', { variants: [variant({ weight: 0 }, 0), variant({}, 1)] }, /weight must be more than 0/],
    ['a negative weight', { variants: [variant({ weight: -1 }, 0), variant({}, 1)] }, /weight must be more than 0/],
    [
      'a weight past the limit',
      { variants: [variant({ weight: MAX_VARIANT_WEIGHT + 1 }, 0), variant({}, 1)] },
      /weight is at most 10000/,
    ],
    ['a bad experiment name', { name: 'Tone Test' }, /An experiment name is 1–64/],
    ['a bad variant name', { variants: [variant({ name: 'B!' }), variant({}, 1)] }, /A variant name is 1–64/],
    ['an unknown key', { assignBy: 'random' }, /assignBy/],
    ['a misspelt override', { variants: [variant({ sytemPrompt: 'x' }), variant({}, 1)] }, /sytemPrompt/],
    ['a misspelt model field', { variants: [variant({ model: { modle: 'x' } }), variant({}, 1)] }, /modle/],
    [
      'variants too large together',
      {
        variants: [
          variant({ systemPrompt: 'a'.repeat(32 * 1024) }, 0),
          variant({ systemPrompt: 'b'.repeat(32 * 1024) }, 1),
          variant({ systemPrompt: 'c' }, 2),
        ],
      },
      new RegExp(`at most ${MAX_VARIANTS_BYTES} bytes`),
    ],
  ])('refuses %s', (_what, change, message) => {
    expect(() => defineAgent({ ...base, experiment: { ...experiment, ...change } as AgentExperimentInit })).toThrow(
      message,
    );
  });

  it('accepts variants at the limits: ten of them, the largest weight, prompts adding up to the bound', () => {
    const variants = Array.from({ length: MAX_VARIANTS }, (_, i) =>
      variant({ weight: MAX_VARIANT_WEIGHT, systemPrompt: 'x'.repeat(MAX_VARIANTS_BYTES / MAX_VARIANTS) }, i),
    );
    expect(defineAgent({ ...base, experiment: { ...experiment, variants } }).experiment?.variants).toHaveLength(10);
  });

  it('assigns the same key the same variant, always, and splits keys by weight', () => {
    const parsed = defineAgent({ ...base, experiment }).experiment!;
    for (let i = 0; i < 50; i++) expect(assignVariant(parsed, `user-${i}`)).toBe(assignVariant(parsed, `user-${i}`));
    const counts = (weights: number[]) => {
      const e = { name: 'split', variants: weights.map((weight, i) => ({ name: `v${i}`, weight })) };
      const out = new Map<string, number>();
      for (let i = 0; i < 10_000; i++) {
        const name = assignVariant(e, `caller-${i}`).name;
        out.set(name, (out.get(name) ?? 0) + 1);
      }
      return out;
    };
    const even = counts([1, 1]);
    expect(even.get('v0')!).toBeGreaterThan(4_700);
    expect(even.get('v1')!).toBeGreaterThan(4_700);
    const skewed = counts([9, 1]);
    expect(skewed.get('v0')!).toBeGreaterThan(8_700);
    expect(skewed.get('v1')!).toBeGreaterThan(800);
    // Another experiment splits the same keys independently.
    const other = { name: 'another', variants: parsed.variants };
    const differ = Array.from({ length: 200 }, (_, i) => `k${i}`).filter(
      (k) => assignVariant(parsed, k).name !== assignVariant(other, k).name,
    );
    expect(differ.length).toBeGreaterThan(50);
  });

  it('hashes to [0, 1), stably (a change here reassigns every live experiment)', () => {
    expect(stableUnitHash('tone-2026-11\u0000alice')).toBe(0.7500028000213206);
    for (let i = 0; i < 1000; i++) {
      const h = stableUnitHash(`x${i}`);
      expect(h).toBeGreaterThanOrEqual(0);
      expect(h).toBeLessThan(1);
    }
  });

  it("keys a run by the experiment's key, else by the run's workflow id", () => {
    const subject = { workflowId: 'agent-1', callerId: 'alice', tenant: 'acme', threadId: 'thread-9' };
    expect(experimentKeyOf('caller', subject)).toEqual({ by: 'caller', key: 'alice' });
    expect(experimentKeyOf('tenant', subject)).toEqual({ by: 'tenant', key: 'acme' });
    expect(experimentKeyOf('thread', subject)).toEqual({ by: 'thread', key: 'thread-9' });
    expect(experimentKeyOf('run', subject)).toEqual({ by: 'run', key: 'agent-1' });
    expect(experimentKeyOf('caller', { workflowId: 'agent-2' })).toEqual({ by: 'run', key: 'agent-2' });
    expect(experimentKeyOf('thread', { workflowId: 'agent-3', callerId: 'bob' })).toEqual({
      by: 'run',
      key: 'agent-3',
    });
  });
});
