import { describe, expect, it } from 'vitest';
import { AgentDefinitionError } from '../../../src/agents/agent-definition-error';
import { createAgentRegistry } from '../../../src/agents/agent-registry';
import { defineAgent } from '../../../src/agents/define-agent';
import {
  MAX_AGENT_EXAMPLES,
  MAX_AGENT_EXAMPLES_BYTES,
  MAX_AGENT_PROMPT_BYTES,
  MAX_EXAMPLE_STEPS,
  type AgentDefinitionInit,
} from '../../../src/domain/agents/agent-definition';

const base: AgentDefinitionInit = {
  id: 'researcher',
  description: 'Finds facts and cites them.',
  version: '1.2.0',
  systemPrompt: 'You are a careful researcher.',
};

describe('defineAgent', () => {
  it('returns the definition, examples defaulted to none, frozen', () => {
    const agent = defineAgent(base);
    expect(agent).toEqual({ ...base, examples: [] });
    expect(Object.isFrozen(agent)).toBe(true);
    expect(Object.isFrozen(agent.examples)).toBe(true);
  });

  it.each(['Researcher', '-lead', 'a b', '', 'x'.repeat(65), 'é'])('refuses the id %j', (id) => {
    expect(() => defineAgent({ ...base, id })).toThrow(AgentDefinitionError);
    expect(() => defineAgent({ ...base, id })).toThrow(/id: An agent id is 1–64 characters/);
  });

  it.each(['a', 'x'.repeat(64), 'sql-analyst.v2', 'a_b'])('accepts the id %j', (id) => {
    expect(defineAgent({ ...base, id }).id).toBe(id);
  });

  it.each(['1.4.0', '2.0.0-rc.1+build.5', 'v3', '2026-11-25'])(
    'accepts the version %j (semver or a free label)',
    (version) => {
      expect(defineAgent({ ...base, version }).version).toBe(version);
    },
  );

  it.each(['', ' 1.0', '1.0 beta', 'x'.repeat(65), '-1'])('refuses the version %j', (version) => {
    expect(() => defineAgent({ ...base, version })).toThrow(/Agent "researcher" is not a valid definition: version:/);
  });

  it('refuses an empty system prompt and an empty description', () => {
    expect(() => defineAgent({ ...base, systemPrompt: '' })).toThrow(/systemPrompt/);
    expect(() => defineAgent({ ...base, description: '' })).toThrow(/description/);
  });

  it('takes a system prompt of exactly the limit and refuses one byte more (UTF-8)', () => {
    const atLimit = 'é'.repeat(MAX_AGENT_PROMPT_BYTES / 2);
    expect(defineAgent({ ...base, systemPrompt: atLimit }).systemPrompt).toBe(atLimit);
    expect(() => defineAgent({ ...base, systemPrompt: `${atLimit}x` })).toThrow(
      /system prompt must be at most 32768 bytes/,
    );
  });

  it('takes examples up to their count and size limits, and refuses past either', () => {
    // Ten examples adding up to exactly the byte limit: the last answer takes the remainder.
    const each = Math.floor(MAX_AGENT_EXAMPLES_BYTES / MAX_AGENT_EXAMPLES / 2);
    const rest = MAX_AGENT_EXAMPLES_BYTES - each * (2 * MAX_AGENT_EXAMPLES - 1);
    const full = Array.from({ length: MAX_AGENT_EXAMPLES }, (_, i) => ({
      task: 't'.repeat(each),
      answer: 'a'.repeat(i === MAX_AGENT_EXAMPLES - 1 ? rest : each),
    }));
    expect(defineAgent({ ...base, examples: full }).examples).toHaveLength(MAX_AGENT_EXAMPLES);
    expect(() => defineAgent({ ...base, examples: [...full, { task: 't', answer: 'a' }] })).toThrow(
      /at most 10 examples/,
    );
    const oneByteOver = [...full.slice(0, -1), { task: 't'.repeat(each), answer: 'a'.repeat(rest + 1) }];
    expect(() => defineAgent({ ...base, examples: oneByteOver })).toThrow(
      /examples must add up to at most 32768 bytes/,
    );
  });

  it('takes trace examples up to their step limit, counts their steps in the byte limit, and refuses past either', () => {
    const step = (i: number) => ({
      thought: `step ${i}`,
      action: { tool: 'lookup', arguments: { key: `k${i}`, deep: { n: i, ok: true, list: [1, null] } } },
      observation: `{"value":${i}}`,
    });
    const steps = Array.from({ length: MAX_EXAMPLE_STEPS }, (_, i) => step(i));
    const agent = defineAgent({
      ...base,
      examples: [
        { task: 't', steps, answer: 'a' },
        { task: 'old', answer: 'shape' },
      ],
    });
    expect(agent.examples[0]!.steps).toHaveLength(MAX_EXAMPLE_STEPS);
    expect(Object.isFrozen(agent.examples[0]!.steps)).toBe(true);
    expect(() => defineAgent({ ...base, examples: [{ task: 't', steps: [...steps, step(9)], answer: 'a' }] })).toThrow(
      /at most 8 steps/,
    );
    expect(() => defineAgent({ ...base, examples: [{ task: 't', steps: [], answer: 'a' }] })).toThrow(/at least one/);
    // Arguments must be JSON: a function or undefined cannot reach the prompt or the run's input.
    const notJson = { ...step(0), action: { tool: 'lookup', arguments: { f: () => 1 } } } as unknown as ReturnType<
      typeof step
    >;
    expect(() => defineAgent({ ...base, examples: [{ task: 't', steps: [notJson], answer: 'a' }] })).toThrow(
      AgentDefinitionError,
    );

    // One example at exactly the byte limit, its observation taking the remainder: task 1 + answer 1
    // + thought 0 + tool 6 ("lookup") + arguments 2 ("{}") + observation.
    const rest = MAX_AGENT_EXAMPLES_BYTES - 1 - 1 - 6 - 2;
    const atLimit = (observation: string) => [
      { task: 't', steps: [{ action: { tool: 'lookup', arguments: {} }, observation }], answer: 'a' },
    ];
    expect(defineAgent({ ...base, examples: atLimit('o'.repeat(rest)) }).examples).toHaveLength(1);
    expect(() => defineAgent({ ...base, examples: atLimit('o'.repeat(rest + 1)) })).toThrow(
      /examples must add up to at most 32768 bytes/,
    );
  });

  it('refuses an example without a task or an answer, and a tool named twice', () => {
    expect(() => defineAgent({ ...base, examples: [{ task: '', answer: 'a' }] })).toThrow(/An example needs a task/);
    expect(() => defineAgent({ ...base, examples: [{ task: 't', answer: '' }] })).toThrow(/An example needs an answer/);
    expect(() => defineAgent({ ...base, tools: ['lookup', 'lookup'] })).toThrow(/must not name a tool twice/);
  });
});

describe('createAgentRegistry', () => {
  it('finds definitions by id and lists the ids sorted', () => {
    const registry = createAgentRegistry([{ ...base, id: 'writer' }, base]);
    expect(registry.get('researcher')?.version).toBe('1.2.0');
    expect(registry.get('nobody')).toBeUndefined();
    expect(registry.ids()).toEqual(['researcher', 'writer']);
  });

  it('refuses an id registered twice, and checks plain objects like defineAgent', () => {
    expect(() => createAgentRegistry([base, { ...base, version: '2.0.0' }])).toThrow(
      /Agent "researcher" is registered twice/,
    );
    expect(() => createAgentRegistry([{ ...base, version: 'one two' }])).toThrow(AgentDefinitionError);
  });
});
