import { zeroUsage } from '../../domain';
import type { ModelProvider } from '../../domain/model/model-provider';
import { ModelRegistry } from '../../domain/model/model-registry';
import { createLlmTool } from '../../tools/builtin/llm/llm-tool';

/**
 * Two stand-in models for the dataset's `ask_model` (consensus agreement): each answers a few
 * fixed questions in its own words, the way two real models agree in different phrasing ("Yes."
 * and "yes, it is"), or do not. Deterministic and local; a question neither knows gets "I do not know."
 */
const ANSWERS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'panel-brief': { 'prime 7': 'Yes.', 'boiling point': '100 °C', 'capital australia': 'Canberra.' },
  'panel-wordy': {
    'prime 7': 'yes, it is: 7 has no divisors but 1 and itself',
    'boiling point': '212 °F',
    'capital australia': 'Sydney, I believe',
  },
};

const panelProvider: ModelProvider = {
  name: 'panel',
  async complete(request) {
    const asked = request.messages
      .flatMap((m) => m.content.map((b) => (b.type === 'text' ? b.text : '')))
      .join(' ')
      .toLowerCase();
    const book = ANSWERS[request.model] ?? {};
    const key = Object.keys(book).find((k) => k.split(' ').every((word) => asked.includes(word)));
    const text = key === undefined ? 'I do not know.' : book[key]!;
    return {
      content: [{ type: 'text', text }],
      stopReason: 'end_turn',
      model: request.model,
      usage: { ...zeroUsage(), inputTokens: Math.ceil(asked.length / 4), outputTokens: Math.ceil(text.length / 4) },
      costUsd: 0,
      durationMs: 0,
    };
  },
};

/** `ask_model` over the two panel models, `brief` and `wordy`, so a case can ask both in consensus. */
export const askPanel = createLlmTool({
  registry: ModelRegistry.parse({
    models: {
      brief: { provider: 'panel', model: 'panel-brief' },
      wordy: { provider: 'panel', model: 'panel-wordy' },
    },
  }),
  providers: { panel: panelProvider },
});
