import { describe, expect, it } from 'vitest';
import { createScriptedModel, say } from '../../../src/activities/models/scripted-model';
import { LlmAnswer, ModelRegistry } from '../../../src/domain';
import { InvalidToolDefinitionError } from '../../../src/tools/define-tool';
import { createLlmTool } from '../../../src/tools/builtin/llm';
import { withinEscapedSize } from '../../../src/tools/builtin/llm/ask-one';
import { toolContext } from '../../helpers/tool-context';

const registry = ModelRegistry.parse({
  models: {
    fast: { provider: 'scripted', model: 'fast-1' },
    strong: {
      provider: 'scripted',
      model: 'strong-1',
      maxTokens: 500,
      price: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
    },
    secret: { provider: 'anthropic', model: 'claude-x' },
  },
  allowed: ['fast', 'strong', 'secret'],
});
const context = toolContext({ idempotencyKey: 'wf:1' });

describe('createLlmTool (ask_model)', () => {
  it('is an llm tool whose model enum is the allow-list: other names are refused before any call', () => {
    const tool = createLlmTool({ registry, providers: { scripted: createScriptedModel([]) }, models: ['fast'] });
    expect(tool).toMatchObject({ name: 'ask_model', type: 'llm', effects: 'none', maxResultChars: 8_000 });
    expect(tool.input.safeParse({ model: 'fast', prompt: 'q' }).success).toBe(true);
    // Registered and allowed by the registry, but not chosen for this tool.
    expect(tool.input.safeParse({ model: 'strong', prompt: 'q' }).success).toBe(false);
    expect(tool.input.safeParse({ model: 'gpt-5', prompt: 'q' }).success).toBe(false);
    expect(tool.input.safeParse({ model: 'fast', prompt: 'q', extra: 1 }).success).toBe(false);
  });

  it('refuses at definition a model outside the registry allow-list, or without its provider', () => {
    const narrow = ModelRegistry.parse({ ...registry, allowed: ['fast'] });
    expect(() =>
      createLlmTool({ registry: narrow, providers: { scripted: createScriptedModel([]) }, models: ['strong'] }),
    ).toThrow(InvalidToolDefinitionError);
    expect(() =>
      createLlmTool({ registry, providers: { scripted: createScriptedModel([]) }, models: ['secret'] }),
    ).toThrow(/needs the "anthropic" provider/);
    expect(() => createLlmTool({ registry, providers: { scripted: createScriptedModel([]) }, models: [] })).toThrow(
      /no models/,
    );
    expect(() =>
      createLlmTool({ registry, providers: { scripted: createScriptedModel([]) }, models: ['fast'], maxTokens: 0 }),
    ).toThrow(/maxTokens/);
  });

  it('caps maxTokens at the option, and a registry entry lowers it', async () => {
    const provider = createScriptedModel([{ content: [say('a')] }, { content: [say('b')] }, { content: [say('c')] }]);
    const tool = createLlmTool({
      registry,
      providers: { scripted: provider },
      models: ['fast', 'strong'],
      maxTokens: 1_000,
    });
    expect(tool.input.safeParse({ model: 'fast', prompt: 'q', maxTokens: 1_000 }).success).toBe(true);
    expect(tool.input.safeParse({ model: 'fast', prompt: 'q', maxTokens: 1_001 }).success).toBe(false);
    await tool.execute(tool.input.parse({ model: 'fast', prompt: 'q' }), context);
    await tool.execute(tool.input.parse({ model: 'fast', prompt: 'q', maxTokens: 10 }), context);
    await tool.execute(tool.input.parse({ model: 'strong', prompt: 'q', maxTokens: 900 }), context);
    expect(provider.calls.map((c) => [c.model, c.maxTokens])).toEqual([
      ['fast-1', 1_000],
      ['fast-1', 10],
      ['strong-1', 500],
    ]);
    // The sub-call sees only the prompt: no tools, one user message.
    expect(provider.calls[0]).toMatchObject({
      tools: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }],
    });
    provider.verify();
  });

  it("prices an answer with the registry entry's price when it has one, else takes the provider's cost", async () => {
    const provider = createScriptedModel([
      { content: [say('a')], usage: { inputTokens: 1_000, outputTokens: 200 }, costUsd: 0.5 },
      { content: [say('b')], usage: { inputTokens: 1_000, outputTokens: 200 }, costUsd: 0.5 },
    ]);
    const tool = createLlmTool({ registry, providers: { scripted: provider }, models: ['fast', 'strong'] });
    const strong = LlmAnswer.parse(await tool.execute(tool.input.parse({ model: 'strong', prompt: 'q' }), context));
    const fast = LlmAnswer.parse(await tool.execute(tool.input.parse({ model: 'fast', prompt: 'q' }), context));
    expect(strong.costUsd).toBeCloseTo(0.002, 9);
    expect(fast.costUsd).toBe(0.5);
  });

  it('caps the prompt at maxPromptChars (exactly at the limit passes)', () => {
    const tool = createLlmTool({
      registry,
      providers: { scripted: createScriptedModel([]) },
      models: ['fast'],
      maxPromptChars: 100,
    });
    expect(tool.input.safeParse({ model: 'fast', prompt: 'x'.repeat(100) }).success).toBe(true);
    expect(tool.input.safeParse({ model: 'fast', prompt: 'x'.repeat(101) }).success).toBe(false);
    expect(tool.input.safeParse({ model: 'fast', prompt: '' }).success).toBe(false);
  });

  it('cuts a long answer to maxResultChars but keeps the model, usage and cost', async () => {
    const provider = createScriptedModel([
      { content: [say('y'.repeat(50))], usage: { inputTokens: 7, outputTokens: 900 }, costUsd: 0.0123 },
      { content: [say('y'.repeat(50))], usage: { inputTokens: 7, outputTokens: 9 }, costUsd: 0.001 },
    ]);
    const tool = createLlmTool({ registry, providers: { scripted: provider }, models: ['fast'], maxResultChars: 50 });
    const first = LlmAnswer.parse(await tool.execute(tool.input.parse({ model: 'fast', prompt: 'q' }), context));
    expect(first).toMatchObject({
      model: 'fast-1',
      alias: 'fast',
      answer: 'y'.repeat(50),
      costUsd: 0.0123,
      usage: { inputTokens: 7, outputTokens: 900 },
    });
    expect(first.truncated).toBeUndefined();
    const short = createLlmTool({ registry, providers: { scripted: provider }, models: ['fast'], maxResultChars: 49 });
    const cut = LlmAnswer.parse(await short.execute(short.input.parse({ model: 'fast', prompt: 'q' }), context));
    expect(cut).toMatchObject({
      answer: 'y'.repeat(49),
      truncated: true,
      costUsd: 0.001,
      usage: { inputTokens: 7, outputTokens: 9 },
    });
  });

  it('cuts an answer of escaped characters until its JSON form fits twice the limit', () => {
    const cut = withinEscapedSize('\u0001'.repeat(100), 50);
    expect(JSON.stringify(cut).length - 2).toBeLessThanOrEqual(100);
    expect(cut.length).toBeGreaterThan(0);
    // Plain text at the limit is kept whole.
    expect(withinEscapedSize('a'.repeat(50), 50)).toBe('a'.repeat(50));
  });
});
