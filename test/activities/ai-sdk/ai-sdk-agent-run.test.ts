import { randomUUID } from 'node:crypto';
import { temporal } from '@temporalio/proto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createAiSdkProvider } from '../../../src/activities/models/ai-sdk/ai-sdk-provider';
import { AgentClient } from '../../../src/client/agent-client';
import { httpError, startFakeOpenAIServer, text, toolUse, type FakeOpenAIServer } from '../../../src/testing/openai';
import { createAgentWorker } from '../../../src/worker';
import { useTestEnv } from '../../helpers/temporal-env';
import { testTools } from '../../helpers/test-tools';
import { OPENAI_KEY } from './fixtures';

const EventType = temporal.api.enums.v1.EventType;
const env = useTestEnv();
let fake: FakeOpenAIServer | undefined;
afterEach(async () => fake?.close());

describe('a run whose model is the AI SDK adapter (@ai-sdk/openai, fake server, real dev server)', () => {
  it('a 429 waits as asked, then it calls a tool and answers; the chain and history show it all', async () => {
    fake = await startFakeOpenAIServer({
      apiKey: OPENAI_KEY,
      script: [
        httpError(429, { retryAfterMs: 1_000 }),
        toolUse(
          'lookup',
          { key: 'alpha' },
          { id: 'call_alpha', text: 'Let me look up alpha.', usage: { prompt_tokens: 120, completion_tokens: 20 } },
        ),
        text('alpha is 50', { usage: { prompt_tokens: 200, completion_tokens: 5, cached_tokens: 100 } }),
      ],
    });
    const { createOpenAI } = await import('@ai-sdk/openai');
    const openai = createOpenAI({ baseURL: fake.baseUrl, apiKey: OPENAI_KEY });
    const taskQueue = `test-${randomUUID()}`;
    const tools = testTools();
    const worker = await createAgentWorker({
      connection: env.nativeConnection,
      namespace: inject('temporalNamespace'),
      taskQueue,
      tools: tools.tools,
      // Any registered name: the run names `openai`, the worker maps it to the adapter.
      models: {
        openai: createAiSdkProvider(openai.chat('gpt-4o'), {
          prices: { 'gpt-4o': { input: 2.5, output: 10, cacheWrite: 0, cacheRead: 1.25 } },
        }),
      },
      secrets: [],
      workflowBundle: { codePath: inject('workflowBundlePath') },
      workerOptions: { maxCachedWorkflows: 0 },
    });
    const agents = new AgentClient({ client: env.client, taskQueue });
    const handle = await agents.start({
      task: 'What is alpha?',
      model: { provider: 'openai', model: 'gpt-4o' },
      requireThought: false,
    });
    const result = await worker.runUntil(handle.result());
    fake.verify();

    expect(result).toMatchObject({ success: true, finalAnswer: 'alpha is 50' });
    expect(tools.log.calls).toEqual([expect.objectContaining({ tool: 'lookup', args: { key: 'alpha' } })]);

    // The chain: two llm calls with the answering model, usage and cost; the tool call under the
    // model's own call id, and its result.
    const steps = result.chain.steps;
    const llmCalls = steps.filter((s) => s.type === 'tool_call' && s.toolCall.toolType === 'llm');
    expect(llmCalls.map((s) => s.model)).toEqual(['gpt-4o', 'gpt-4o']);
    const llmResults = steps.filter((s) => s.type === 'tool_result' && s.usage !== undefined);
    expect(llmResults.map((s) => s.usage)).toEqual([
      { inputTokens: 120, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
      { inputTokens: 100, outputTokens: 5, cacheReadTokens: 100, cacheWriteTokens: 0 },
    ]);
    expect(llmResults[0]!.costUsd).toBeCloseTo((120 * 2.5 + 20 * 10) / 1e6, 12);
    const lookupCall = steps.find((s) => s.type === 'tool_call' && s.toolCall.toolName === 'lookup');
    expect(lookupCall).toMatchObject({
      toolCall: { toolType: 'external', arguments: { key: 'alpha' }, correlationId: 'call_alpha' },
    });
    const lookupResult = steps.find((s) => s.type === 'tool_result' && s.toolResult.correlationId === 'call_alpha');
    expect(lookupResult).toMatchObject({ toolResult: { success: true, result: { key: 'alpha', value: 50 } } });

    // The second request carried the call and its result back, as Chat Completions messages.
    const second = fake.requests[2]!.body!;
    expect(second.tools?.map((t) => t.function.name)).toContain('lookup');
    expect(second.messages).toContainEqual(
      expect.objectContaining({ role: 'assistant', tool_calls: [expect.objectContaining({ id: 'call_alpha' })] }),
    );
    const toolMessage = second.messages.find((m) => m.role === 'tool');
    expect(toolMessage).toMatchObject({ tool_call_id: 'call_alpha' });
    expect(JSON.stringify(toolMessage)).toContain('50');

    // History: both model calls and the tool ran as completed activities, once each.
    const events = (await handle.fetchHistory()).events ?? [];
    const scheduled = events
      .map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name)
      .filter((name): name is string => name !== undefined && name !== null);
    expect(scheduled).toEqual(['callModel', 'runTool', 'callModel']);
    expect(events.at(-1)?.eventType).toBe(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED);
  });
});
