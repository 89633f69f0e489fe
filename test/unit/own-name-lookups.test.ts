import { describe, expect, it } from 'vitest';
import { AgentInput, type ToolSpec } from '../../src/domain';
import { resolveModel, type ModelRegistry } from '../../src/domain/model/model-registry';
import { protoKeyProblem } from '../../src/domain/text/own-value';
import { toolStepVisibility } from '../../src/workflows/core/chain/tool-visibility';
import { withSubAgents } from '../../src/workflows/delegation/sub-agent-tools';

/*
 * Lookups keyed by a tool, agent or model name read own properties only: these names reach
 * Object.prototype through a plain `record[name]` or `name in record`.
 */
const PROTOTYPE_NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__', 'isPrototypeOf'];

const spec = (name: string): ToolSpec => ({
  name,
  type: 'external',
  description: 'A tool',
  inputSchema: { type: 'object', properties: {} },
  timeoutMs: 1_000,
  retry: { maximumAttempts: 1, initialIntervalMs: 1_000, backoffCoefficient: 2 },
  visibility: 'full',
});

const input = (extra: Record<string, unknown> = {}): AgentInput =>
  AgentInput.parse({ task: 't', model: { provider: 'scripted', model: 'm' }, ...extra });

describe.each(PROTOTYPE_NAMES.map((n) => [n]))('a tool or agent named %s', (name) => {
  it('is no clash with an empty agent catalogue, and comes out as itself', () => {
    const tools = withSubAgents(input(), [spec(name)], []);
    expect(tools.map((t) => t.name)).toEqual([name]);
  });

  it('takes its visibility from its own settings only', () => {
    expect(toolStepVisibility(input(), spec(name), {})).toEqual({ level: 'full' });
    if (name === '__proto__') return; // refused at start: see below
    const own = input({ visibilityByTool: Object.fromEntries([[name, { level: 'hidden' }]]) });
    expect(Object.hasOwn(own.visibilityByTool, name)).toBe(true);
    expect(toolStepVisibility(own, spec(name), {})).toEqual({ level: 'hidden' });
  });

  it('is an unknown model unless the registry has it', () => {
    const registry = { models: {} } as unknown as ModelRegistry;
    expect(() => resolveModel(registry, name)).toThrow(/not allowed/);
  });
});

describe('a record key __proto__ in the run input', () => {
  // As JSON carries it (an own key); parsing would drop it silently, so the run is refused at start.
  it.each([
    ['approvals', '{"__proto__": "always"}'],
    ['approvals', '{"__proto__": {"anyOf": [{"when": "pathPrefix", "field": "path", "prefixes": ["/etc"]}]}}'],
    ['visibilityByTool', '{"__proto__": {"level": "hidden"}}'],
    ['agents', '{"__proto__": {"description": "an agent"}}'],
  ])('is refused in %s: %s', (field, json) => {
    const raw = JSON.parse(`{"task": "t", "${field}": ${json}}`);
    expect(protoKeyProblem(raw)).toBe(`"__proto__" cannot name a tool or agent in ${field}: rename the tool or agent.`);
  });

  it('other names, other fields and unreadable input are no problem here', () => {
    expect(
      protoKeyProblem(JSON.parse('{"task": "t", "approvals": {"constructor": "always"}, "tools": ["__proto__"]}')),
    ).toBeUndefined();
    expect(protoKeyProblem(JSON.parse('{"task": "t", "caller": {"__proto__": 1}}'))).toBeUndefined();
    for (const raw of [null, 'x', 42, [], { approvals: null }, Object.create(null)])
      expect(protoKeyProblem(raw)).toBeUndefined();
  });

  it('other prototype names are kept as own keys', () => {
    const parsed = input({ approvals: JSON.parse('{"constructor": "always", "toString": "never"}') });
    expect(Object.keys(parsed.approvals).sort()).toEqual(['constructor', 'toString']);
  });
});
