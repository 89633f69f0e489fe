import { defineProviderContract } from './provider-contract';
import { useLocalModel } from './local-model-harness';

defineProviderContract('local SmolLM2-135M-Instruct in process (node-llama-cpp)', useLocalModel, {
  stopSequence: 'reported',
  malformedReply: false,
  testTimeoutMs: 60_000,
});
