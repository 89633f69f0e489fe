import { describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../../src/activities/models/anthropic/anthropic-provider';
import { startFakeMessagesServer, text, toolUse } from '../../../src/testing';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { testTools } from '../../helpers/test-tools';

const env = useTestEnv();

describe('a run at temperature 0 on the built-in Anthropic provider', () => {
  it('runs end to end through a worker: every model call carries temperature 0 on API version 2023-06-01', async () => {
    const fake = await startFakeMessagesServer({
      script: [toolUse('lookup', { key: 'alpha' }, { text: 'Looking up alpha.' }), text('alpha is 50.')],
    });
    try {
      const h = await createHarness(env, {
        tools: testTools().tools,
        models: { anthropic: createAnthropicProvider({ apiKey: 'sk-ant-test-key-0123456789', baseURL: fake.baseUrl }) },
      });
      const result = await h.worker.runUntil(async () =>
        (
          await h.agents.start({
            task: 'What is alpha?',
            model: { provider: 'anthropic', model: 'claude-sonnet-4-6', sampling: { temperature: 0 } },
          })
        ).result(),
      );
      expect(result).toMatchObject({ success: true, terminationReason: 'success', finalAnswer: 'alpha is 50.' });
      expect(fake.requests).toHaveLength(2);
      for (const request of fake.requests) {
        expect(request.headers['anthropic-version']).toBe('2023-06-01');
        expect(request.body?.temperature).toBe(0);
      }
      fake.verify();
    } finally {
      await fake.close();
    }
  }, 60_000);
});
