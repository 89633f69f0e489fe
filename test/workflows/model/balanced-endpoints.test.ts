import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleProvider } from '../../../src/activities/models/openai/openai-compatible-provider';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../../../src/testing/openai/fake-openai-server';
import { httpError, text, toolUse } from '../../../src/testing/openai/fake-openai-replies';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { testTools } from '../../helpers/test-tools';

const env = useTestEnv();
const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('a model balanced across registry endpoints', () => {
  it('sends each call to the next endpoint, and a retry after a 429 to the other one', async () => {
    const eu = await startFakeOpenAIServer({
      script: [httpError(429, { retryAfter: 1 }), text('alpha is 50')],
    });
    const us = await startFakeOpenAIServer({ script: [toolUse('lookup', { key: 'alpha' })] });
    servers.push(eu, us);
    const { tools, log } = testTools();
    const h = await createHarness(env, {
      tools,
      models: {},
      endpoints: {
        'gpt-eu': { provider: createOpenAICompatibleProvider({ baseURL: eu.baseUrl }), model: 'gpt-eu-deployment' },
        'gpt-us': { provider: createOpenAICompatibleProvider({ baseURL: us.baseUrl }), model: 'gpt-us-deployment' },
      },
    });
    const result = await h.worker.runUntil(async () =>
      (
        await h.agents.start({
          task: 'What is alpha?',
          model: { provider: 'openai', model: 'gpt-4.1', endpoints: ['gpt-eu', 'gpt-us'] },
        })
      ).result(),
    );
    eu.verify();
    us.verify();
    expect(result).toMatchObject({ success: true, finalAnswer: 'alpha is 50' });
    expect(log.calls).toHaveLength(1);
    // Each endpoint was asked for its own deployment's model id.
    expect(eu.requests.map((r) => r.body!.model)).toEqual(['gpt-eu-deployment', 'gpt-eu-deployment']);
    expect(us.requests.map((r) => r.body!.model)).toEqual(['gpt-us-deployment']);
    // The chain says which endpoint answered each call.
    const answered = result.chain.steps
      .flatMap((s) => (s.type === 'tool_result' && s.toolResult.success && s.model ? [s.toolResult.result] : []))
      .map((result) => (result as { endpoint?: string }).endpoint);
    expect(answered).toEqual(['gpt-us', 'gpt-eu']);
  });
});
