import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createLlamaCppProvider, type LlamaCppProvider } from '../../src/activities/models/local/llama-cpp-provider';
import { ensureSmolLM2Weights } from '../../src/activities/models/local/model-weights';
import type { ModelRequest } from '../../src/domain';
import type { ProviderHarness } from './provider-contract';

/**
 * Where tests keep the 98 MB weights: THOUGHTLINE_MODELS_DIR when set, else one cache per user
 * (`$XDG_CACHE_HOME/thoughtline/models`, default `~/.cache/…`), shared by every clone on the
 * machine and the directory CI caches, so a clean clone does not download them again.
 */
export const TEST_MODELS_DIR =
  process.env['THOUGHTLINE_MODELS_DIR'] ??
  path.join(process.env['XDG_CACHE_HOME'] ?? path.join(os.homedir(), '.cache'), 'thoughtline', 'models');

/** Finds or downloads the weights (never skips), then loads SmolLM2-135M once for the file. */
export function useLocalModel(): ProviderHarness & { provider: LlamaCppProvider; loadMs: number } {
  const harness = {
    loadMs: 0,
    request: (overrides: Partial<ModelRequest>): ModelRequest => ({
      provider: 'local',
      model: 'smollm2-135m-instruct',
      system: 'You are a helpful assistant.',
      messages: [],
      tools: [],
      toolChoice: 'auto',
      maxTokens: 256,
      ...overrides,
      // Greedy and seeded: the same prompt gets the same reply on every run.
      sampling: { temperature: 0, seed: 42, ...overrides.sampling },
    }),
    arrange: () => {},
  } as unknown as ProviderHarness & { provider: LlamaCppProvider; loadMs: number };
  beforeAll(async () => {
    const modelPath = await ensureSmolLM2Weights({ dir: TEST_MODELS_DIR });
    // One thread, not the default (the cores available): the suite runs two test files at once
    // on 2 cores, and llama.cpp's threads spin at each barrier, so two threads that do not both
    // get a core collapse (measured under load: 1 token/s with 2 threads, 29 with 1).
    harness.provider = createLlamaCppProvider({ modelPath, threads: 1 });
    const startedAt = Date.now();
    // Loads the model before any test's clock starts.
    await harness.provider.complete(
      harness.request({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], maxTokens: 1 }),
      new AbortController().signal,
    );
    harness.loadMs = Date.now() - startedAt;
  }, 300_000);
  afterAll(async () => harness.provider?.dispose());
  return harness;
}
