import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMessagesServer, text, toolUse, type FakeMessagesServer } from '../../src/testing';
import { cliEnv, runCli } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';

useTestEnv();

let model: FakeMessagesServer;
beforeAll(async () => {
  model = await startFakeMessagesServer();
});
afterAll(async () => {
  await model.close();
});

/**
 * `thoughtline run` with the real Anthropic SDK against the scripted Messages server: the model
 * reads the demo's weather (Paris 12°C, light rain; Tokyo 21°C, clear) and answers `answer`.
 */
async function runWith(task: string, cities: string[], answer: string) {
  model.append([
    toolUse('get_weather', { location: cities[0]! }, { text: `Reading ${cities[0]}.` }),
    ...cities.slice(1).map((c) => toolUse('get_weather', { location: c }, { text: `Reading ${c}.` })),
    text(answer),
  ]);
  const run = await runCli(
    ['run', task],
    cliEnv({
      THOUGHTLINE_TASK_QUEUE: `grounded-${randomUUID()}`,
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: model.baseUrl,
    }),
  );
  model.verify();
  return { ...run, out: run.stdout + run.stderr };
}

describe('grounding through `thoughtline run` on the real Anthropic SDK', () => {
  it('a reading of light rain answered as sunny and dry is contradicted, naming both; stated right, it is grounded', async () => {
    const wrong = await runWith(
      'What is the weather in Paris right now?',
      ['Paris'],
      'It is 12°C and sunny in Paris right now, a dry day.',
    );
    expect(wrong.code, wrong.out).toBe(0);
    expect(wrong.out).toContain('Answer contradicted by its sources');
    expect(wrong.out).toContain('contradicted: sunny (Paris), dry (Paris)');
    expect(wrong.out).not.toContain('Final answer');

    const right = await runWith(
      'What is the weather in Paris right now?',
      ['Paris'],
      'It is 12°C with light rain in Paris right now.',
    );
    expect(right.code, right.out).toBe(0);
    expect(right.out).toContain('Final answer');
    expect(right.out).toMatch(/Answer: grounded: tool results in steps? \d+/);
  }, 180_000);

  it('swapped readings are unsupported and the conclusion drawn from them contradicted; the right ones are grounded', async () => {
    const swapped = await runWith(
      'Compare the weather in Paris and Tokyo: which is warmer?',
      ['Paris', 'Tokyo'],
      'Tokyo is 12°C and Paris is 21°C, so Paris is the warmer city.',
    );
    expect(swapped.code, swapped.out).toBe(0);
    expect(swapped.out).toContain('Answer contradicted by its sources');
    expect(swapped.out).toContain('contradicted: Paris is the warmer city; unsupported: 12°C (Tokyo), 21°C (Paris)');

    const right = await runWith(
      'Compare the weather in Paris and Tokyo: which is warmer?',
      ['Paris', 'Tokyo'],
      'Tokyo is 21°C and Paris is 12°C, so Tokyo is the warmer city.',
    );
    expect(right.code, right.out).toBe(0);
    expect(right.out).toContain('Final answer');
    expect(right.out).not.toMatch(/contradicted|unsupported:/);
  }, 180_000);
});
