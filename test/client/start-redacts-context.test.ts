import { randomUUID } from 'node:crypto';
import { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { AgentClient } from '../../src/client/agent-client';
import type { AgentInput } from '../../src/domain';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();

const AWS_KEY = 'AKIAZ7QWERTYUIOPASDF';
const ANTHROPIC_KEY = `sk-ant-api03-${'Hk3mP9qR2sT5vW8x'.repeat(4)}`;

describe('AgentClient.start', () => {
  it('redacts secrets in the context before the run starts: the start event never holds them', async () => {
    // No worker polls this queue: only the start is recorded, and the run is terminated after.
    const agents = new AgentClient({ client: env.client, taskQueue: `redact-${randomUUID()}` });
    const handle = await agents.start({
      task: 'Fix login issue with special characters',
      context: {
        data: { error: `denied for ${AWS_KEY}`, anthropic_api_key: ANTHROPIC_KEY, file: 'auth.py' },
        files: [{ name: 'settings.py', content: `KEY = "${ANTHROPIC_KEY}"\nREGION = "eu"\n`, bytes: 120 }],
      },
    });
    try {
      const history = await handle.fetchHistory();
      const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
      const input = env.client.options.loadedDataConverter.payloadConverter.fromPayload<AgentInput>(payload!);
      expect(input.context).toEqual({
        data: { error: 'denied for [REDACTED]', anthropic_api_key: '[REDACTED]', file: 'auth.py' },
        files: [{ name: 'settings.py', content: 'KEY = "[REDACTED]"\nREGION = "eu"\n', bytes: 120, truncated: false }],
      });
      const bytes = Buffer.from(temporal.api.history.v1.History.encode(history).finish());
      expect(bytes.includes(AWS_KEY)).toBe(false);
      expect(bytes.includes(ANTHROPIC_KEY)).toBe(false);
      expect(bytes.includes('REGION = ')).toBe(true);
    } finally {
      await handle.terminate('test over');
    }
  });
});
