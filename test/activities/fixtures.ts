import type { ModelRequest } from '../../src/shared';

/** A minimal valid request; override what a test is about. */
export function modelRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    provider: 'anthropic',
    model: 'claude-sonnet-4-6',
    system: 'You are a careful assistant.',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] }],
    tools: [],
    toolChoice: 'auto',
    maxTokens: 1024,
    ...overrides,
  };
}

export const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** Resolves once `predicate` holds, polling; fails the test after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs}ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
