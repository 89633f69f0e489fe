import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadToolsModule } from '../../src/cli/setup/load-tools-module';
import { AgentInput } from '../../src/domain';
import { defineTool, InvalidToolDefinitionError } from '../../src/tools/define-tool';

const tool = (input: z.ZodType) => () =>
  defineTool({ name: 'probe', description: 'Probes', input, execute: () => 'ok' });

describe('tool definitions the model could never use are refused', () => {
  it('refuses an input schema that is not an object, when the tool is defined', () => {
    for (const input of [
      z.string(),
      z.number(),
      z.array(z.string()),
      z.union([z.object({ a: z.string() }), z.string()]),
      z.any(),
    ]) {
      expect(tool(input)).toThrow(InvalidToolDefinitionError);
    }
    expect(tool(z.object({ a: z.string() }))).not.toThrow();
    expect(tool(z.object({}).passthrough())).not.toThrow();
  });

  it('refuses a run whose tool list names a tool twice, when it starts', () => {
    const base = { task: 't', model: { provider: 'scripted', model: 'm' } };
    expect(AgentInput.safeParse({ ...base, tools: ['lookup', 'lookup'] }).success).toBe(false);
    expect(AgentInput.safeParse({ ...base, tools: ['lookup', 'save'] }).success).toBe(true);
  });
});

describe('--tools FILE loads every tool through defineTool', () => {
  const write = (body: string): string => {
    const dir = path.resolve(__dirname, '../../.thoughtline/tmp');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `tools-${process.pid}-${Math.random().toString(36).slice(2)}.cjs`);
    fs.writeFileSync(file, `const { z } = require('zod');\n${body}`);
    return file;
  };

  it('gives a plain write-like object the same approval default as defineTool, and the defaults', () => {
    const file = write(
      `exports.tools = [{ name: 'wipe_disk', type: 'file_system', description: 'Wipes', input: z.object({ path: z.string() }), execute: () => 'wiped' }];`,
    );
    try {
      const [loaded] = loadToolsModule(file);
      expect(loaded).toMatchObject({
        name: 'wipe_disk',
        approval: 'always',
        timeoutMs: 30_000,
        visibility: 'full',
        effects: 'idempotent',
      });
      expect(loaded!.retry).toEqual({ maximumAttempts: 3, initialIntervalMs: 1_000, backoffCoefficient: 2 });
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('refuses a plain object that defineTool would refuse', () => {
    const badName = write(
      `exports.tools = [{ name: 'has space', description: 'x', input: z.object({}), execute: () => 1 }];`,
    );
    const badInput = write(
      `exports.tools = [{ name: 'scalar', description: 'x', input: z.string(), execute: () => 1 }];`,
    );
    try {
      expect(() => loadToolsModule(badName)).toThrow(InvalidToolDefinitionError);
      expect(() => loadToolsModule(badInput)).toThrow(/object schema/);
    } finally {
      fs.rmSync(badName, { force: true });
      fs.rmSync(badInput, { force: true });
    }
  });

  it('keeps what a defineTool result set', () => {
    const made = defineTool({
      name: 'read_file',
      type: 'file_system',
      effects: 'none',
      description: 'Reads',
      input: z.object({ path: z.string() }),
      requiredRoles: ['ops'],
      execute: () => 'x',
    });
    // The module hands back the very object this test made, as a user's module would export it.
    (globalThis as { madeTool?: unknown }).madeTool = made;
    const file = write('exports.tools = [globalThis.madeTool];');
    try {
      expect(loadToolsModule(file)[0]).toMatchObject({
        name: 'read_file',
        approval: 'never',
        effects: 'none',
        requiredRoles: ['ops'],
      });
    } finally {
      fs.rmSync(file, { force: true });
      delete (globalThis as { madeTool?: unknown }).madeTool;
    }
  });
});
