import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleProvider } from '../../../src/activities/models/openai/openai-compatible-provider';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../../../src/testing/openai/fake-openai-server';
import { httpError, text } from '../../../src/testing/openai/fake-openai-replies';
import { thoughts } from '../../helpers/chain-helpers';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// Ollama's own words for a model without tool calling.
const noTools = httpError(400, { message: 'registry.ollama.ai/library/smollm2:135m does not support tools' });

describe('a model without tool calling', () => {
  it('switches the run to text ReAct when its server refuses the tools, and finishes the task', async () => {
    server = await startFakeOpenAIServer({
      script: [
        noTools,
        text('Thought: I need alpha.\nAction: lookup\nAction Input: {"key": "alpha"}'),
        text('Thought: I have it.\nFinal Answer: alpha is 50'),
      ],
    });
    const { result, log } = await runScripted(env, {
      model: createOpenAICompatibleProvider({ baseURL: server.baseUrl }),
      input: { task: 'What is alpha?', model: { provider: 'scripted', model: 'smollm2:135m', maximumAttempts: 1 } },
    });
    server.verify();
    expect(result).toMatchObject({ success: true, finalAnswer: 'alpha is 50', toolCalls: 1 });
    expect(log.calls.map((c) => c.args)).toEqual([{ key: 'alpha' }]);
    // The first request offered tools; after the switch none are sent and the text protocol is taught.
    const [first, second] = server.requests;
    expect(first!.body!.tools?.length).toBeGreaterThan(0);
    expect(second!.body!.tools).toBeUndefined();
    expect(JSON.stringify(second!.body!.messages)).toContain('Action Input:');
    // The failed first call was to describe the registered tools: they are described before the text prompt renders them.
    expect(JSON.stringify(second!.body!.messages)).toContain('lookup');
    expect(thoughts(result.chain.steps).join('\n')).toContain('has no tool calling');
  });

  it('ends the run with the error when the server refuses for any other reason', async () => {
    server = await startFakeOpenAIServer({ script: [httpError(400, { message: 'max_tokens is too large' })] });
    const { result } = await runScripted(env, {
      model: createOpenAICompatibleProvider({ baseURL: server.baseUrl }),
      input: { task: 'What is alpha?', model: { provider: 'scripted', model: 'm', maximumAttempts: 1 } },
    });
    server.verify();
    expect(result).toMatchObject({ success: false, terminationReason: 'error' });
    expect(result.error).toContain('max_tokens is too large');
  });
});
