import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../../src/tools/define-tool';
import { toToolSpec } from '../../../../src/tools/tool-registry';
import {
  compiledSchema,
  compiledSchemaCount,
  createToolCallValidator,
  MAX_COMPILED_SCHEMAS,
} from '../../../../src/workflows/tools/validate-tool-call';

const weather = defineTool({
  name: 'get_weather',
  description: 'Weather for a city',
  input: z.object({ location: z.string(), units: z.enum(['celsius', 'fahrenheit']).default('celsius') }),
  execute: () => ({}),
});
const validate = createToolCallValidator([toToolSpec(weather)], ['finish']);
const call = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, id: 't1', name, input });

describe('tool call validation in the workflow', () => {
  it('accepts valid arguments and applies defaults', () => {
    expect(validate(call('get_weather', { location: 'Paris' }))).toMatchObject({
      ok: true,
      args: { location: 'Paris', units: 'celsius' },
    });
  });

  it('turns an unknown tool into an observation listing the valid tools', () => {
    const check = validate(call('nonexistent_api', {}));
    expect(check.ok).toBe(false);
    expect(!check.ok && check.observation).toMatch(/unknown tool "nonexistent_api".*get_weather, finish/);
  });

  it('turns invalid arguments into an observation naming the field and the schema', () => {
    const check = validate(call('get_weather', { location: 7, units: 'kelvin' }));
    expect(check.ok).toBe(false);
    const text = !check.ok ? check.observation : '';
    expect(text).toContain('invalid arguments for tool "get_weather"');
    expect(text).toContain('location');
    expect(text).toContain('units');
    expect(text).toContain('"required":["location"]');
  });

  it('compiles a schema once for every run that shares it, and keeps at most MAX_COMPILED_SCHEMAS', () => {
    const schema = toToolSpec(weather).inputSchema;
    // A second run's validator gets the same compiled schema, from a copy of the JSON it was sent as.
    const first = compiledSchema(schema);
    expect(compiledSchema(JSON.parse(JSON.stringify(schema)))).toBe(first);
    for (let i = 0; i <= MAX_COMPILED_SCHEMAS; i += 1)
      compiledSchema({ type: 'object', properties: { [`field${i}`]: { type: 'string' } } });
    expect(compiledSchemaCount()).toBe(MAX_COMPILED_SCHEMAS);
    // The oldest went first: the weather schema compiles anew, and still validates.
    const again = compiledSchema(schema);
    expect(again).not.toBe(first);
    expect(again.safeParse({ location: 'Paris' }).success).toBe(true);
    expect(again.safeParse({ location: 7 }).success).toBe(false);
  });
});
