import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, InvalidToolDefinitionError } from '../../src/tools/define-tool';
import { createToolRegistry, UnknownToolError } from '../../src/tools/tool-registry';

const echo = defineTool({
  name: 'echo',
  description: 'Echoes',
  input: z.object({ text: z.string().describe('what to echo'), times: z.number().int().default(1) }),
  retry: { maximumAttempts: 1 },
  execute: ({ text, times }) => text.repeat(times),
});

describe('defineTool and the registry', () => {
  it('fills defaults and makes a JSON Schema the model can read', () => {
    expect(echo).toMatchObject({ type: 'external', timeoutMs: 30_000, visibility: 'full' });
    expect(echo.retry).toEqual({ maximumAttempts: 1, initialIntervalMs: 1_000, backoffCoefficient: 2 });
    const [spec] = createToolRegistry([echo]).specs();
    expect(spec?.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string', description: 'what to echo' } },
      required: ['text'],
    });
    expect(spec?.inputSchema).not.toHaveProperty('$schema');
  });

  it('rejects names the model APIs would refuse, and duplicates', () => {
    const bad = () => defineTool({ name: 'has space', description: '', input: z.object({}), execute: () => 1 });
    expect(bad).toThrow(InvalidToolDefinitionError);
    expect(() => createToolRegistry([echo, echo])).toThrow(/registered twice/);
  });

  it('names the registered tools when asked for one it lacks', () => {
    expect(() => createToolRegistry([echo]).specs(['nope'])).toThrow(UnknownToolError);
    expect(() => createToolRegistry([echo]).specs(['nope'])).toThrow(/Registered: echo/);
  });
});
