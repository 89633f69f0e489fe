import { describe, expect, it } from 'vitest';
import { FailureType } from '../../src/domain';
import { text, toolUse } from '../../src/testing';
import { failureOf } from './openai/fixtures';
import { modelRequest, useProviderOnFakeServer, weatherTool } from './fixtures';

// The real @anthropic-ai/sdk over real HTTP against the fake Messages server, which answers as the
// API does: version 2026-10-21 (the SDK's) refuses every sampling parameter with a 400.
describe.each([
  ['streamed', true],
  ['not streamed', false],
])('anthropic provider sampling settings, %s', (_mode, stream) => {
  const fake = useProviderOnFakeServer({ stream });

  it('sends temperature 0 and top_k on API version 2023-06-01, and maps the reply', async () => {
    fake.server.append([toolUse('get_weather', { city: 'Paris' }, { text: 'Checking.' })]);
    const reply = await fake.complete(modelRequest({ tools: [weatherTool], sampling: { temperature: 0, topK: 5 } }));
    expect(reply.stopReason).toBe('tool_use');
    expect(reply.content[1]).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } });
    const request = fake.server.requests[0]!;
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.body).toMatchObject({ temperature: 0, top_k: 5 });
    expect(request.body).not.toHaveProperty('top_p');
    fake.server.verify();
  });

  it('a call without sampling keeps the SDK API version and sends no sampling field', async () => {
    fake.server.append([text('ok')]);
    await fake.complete();
    const request = fake.server.requests[0]!;
    expect(request.headers['anthropic-version']).toBe('2026-10-21');
    for (const field of ['temperature', 'top_p', 'top_k']) expect(request.body).not.toHaveProperty(field);
    fake.server.verify();
  });

  it('top_p alone goes to a model that takes one of temperature and top_p', async () => {
    fake.server.append([text('ok')]);
    await fake.complete(modelRequest({ model: 'claude-opus-4-1-20250805', sampling: { topP: 0.5 } }));
    expect(fake.server.requests[0]!.body).toMatchObject({ top_p: 0.5 });
    fake.server.verify();
  });

  it('reads a reply ended by a stop sequence: stop_sequence, with the text before it', async () => {
    fake.server.append([
      text('Thought: I need the weather.', { stopReason: 'stop_sequence', stopSequence: '\nObservation:' }),
    ]);
    const reply = await fake.complete(
      modelRequest({ stopSequences: ['\nObservation:'], sampling: { temperature: 0 } }),
    );
    expect(reply.stopReason).toBe('stop_sequence');
    expect(reply.content).toEqual([{ type: 'text', text: 'Thought: I need the weather.' }]);
    expect(fake.server.requests[0]!.body).toMatchObject({ stop_sequences: ['\nObservation:'], temperature: 0 });
    fake.server.verify();
  });

  it.each([
    [
      'claude-sonnet-4-6',
      { temperature: 0.2, topP: 0.9 },
      'temperature with topP (this model takes one or the other, not both)',
    ],
    ['claude-haiku-4-5', { temperature: 1.5 }, 'temperature 1.5 (the Messages API takes 0 to 1)'],
    ['claude-opus-4-7', { temperature: 0 }, 'temperature (Claude 4.7 and later models take no sampling settings)'],
    ['claude-sonnet-4-6', { seed: 7 }, 'seed (the Messages API has no seed)'],
    [
      'my-proxy-alias',
      { topK: 3 },
      'topK (the sampling rules of "my-proxy-alias" are not known here; name a Claude model id such as claude-sonnet-4-6)',
    ],
  ])('%s with %j is refused before any request, non-retryable', async (model, sampling, what) => {
    const failure = await failureOf(fake.complete(modelRequest({ model, sampling })));
    expect(failure.type).toBe(FailureType.ModelSettingUnsupported);
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toBe(
      `anthropic/${model} does not take ${what}; remove it from the run, the registry entry or the ask_model call.`,
    );
    expect(fake.server.requests).toHaveLength(0);
  });
});
