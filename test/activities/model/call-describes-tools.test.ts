import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createActivities } from '../../../src/activities';
import { createScriptedModel, say } from '../../../src/activities/models/scripted-model';
import { FailureType, type ModelRequest } from '../../../src/domain';
import type { ModelCallResult } from '../../../src/domain/model/model-call-result';
import { defineTool } from '../../../src/tools/define-tool';
import { createToolRegistry } from '../../../src/tools/tool-registry';

const tool = (name: string, returns?: string) =>
  defineTool({
    name,
    description: `the ${name} tool`,
    input: z.object({ q: z.string() }),
    ...(returns ? { returns } : {}),
    execute: () => 'ok',
  });

const finish = { name: 'finish', description: 'ends the run', inputSchema: { type: 'object' } };

const request = (describeTools: ModelRequest['describeTools']): ModelRequest => ({
  provider: 'scripted',
  model: 'scripted-model',
  system: 'be brief',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  tools: [finish],
  toolChoice: 'auto',
  maxTokens: 100,
  ...(describeTools ? { describeTools } : {}),
});

function worker() {
  const model = createScriptedModel([{ content: [say('hello')] }]);
  const activities = createActivities({
    tools: createToolRegistry([tool('search', 'ranked hits'), tool('fetch')]),
    models: { scripted: model },
  });
  const call = (req: ModelRequest): Promise<ModelCallResult> =>
    new MockActivityEnvironment().run(activities.callModel, req);
  return { model, call };
}

describe('a model call that describes the run’s registered tools (the run’s first call)', () => {
  it('offers the named tools first, described as the registry holds them, and returns their specs', async () => {
    const { model, call } = worker();
    const result = await call(request({ names: ['fetch', 'search'] }));
    expect(model.calls[0]!.tools).toEqual([
      { name: 'fetch', description: 'the fetch tool', inputSchema: expect.objectContaining({ type: 'object' }) },
      expect.objectContaining({ name: 'search', description: 'the search tool\nReturns: ranked hits' }),
      finish,
    ]);
    expect(model.calls[0]).not.toHaveProperty('describeTools');
    expect(result.describedTools!.map((t) => [t.name, t.timeoutMs > 0])).toEqual([
      ['fetch', true],
      ['search', true],
    ]);
  });

  it('describes every registered tool when the run names none', async () => {
    const { model, call } = worker();
    const result = await call(request({}));
    expect(model.calls[0]!.tools.map((t) => t.name)).toEqual(['search', 'fetch', 'finish']);
    expect(result.describedTools!.map((t) => t.name)).toEqual(['search', 'fetch']);
  });

  it('describes nothing and returns no specs for a call that does not ask', async () => {
    const { model, call } = worker();
    const result = await call(request(undefined));
    expect(model.calls[0]!.tools).toEqual([finish]);
    expect(result).not.toHaveProperty('describedTools');
  });

  it('fails for good, before any model is called, on a tool the worker does not have', async () => {
    const { model, call } = worker();
    const err = await call(request({ names: ['search', 'nope'] })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect((err as ApplicationFailure).type).toBe(FailureType.ToolNotRegistered);
    expect((err as ApplicationFailure).nonRetryable).toBe(true);
    expect((err as Error).message).toContain('nope');
    expect(model.calls).toHaveLength(0);
  });
});
