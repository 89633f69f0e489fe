import type { ModelMessage, ModelRequest } from '../../../domain';
import type { AiSdkCallOptions, AiSdkMessage } from './ai-sdk-types';

/**
 * Pure translation of Thoughtline's neutral request into AI SDK call options (specification v4).
 * No I/O. Sampling settings and stop sequences are sent only when set, so a model's own defaults
 * stay in force otherwise.
 */
export function toCallOptions(request: ModelRequest, metadataKey: string): Omit<AiSdkCallOptions, 'abortSignal'> {
  const prompt: AiSdkMessage[] = request.system === '' ? [] : [{ role: 'system', content: request.system }];
  const toolNames = new Map<string, string>();
  for (const message of request.messages) prompt.push(...toPromptMessages(message, metadataKey, toolNames));
  const options: Omit<AiSdkCallOptions, 'abortSignal'> = { prompt, maxOutputTokens: request.maxTokens };
  // An empty tool list adds nothing, and some providers reject a tool choice without tools.
  if (request.tools.length > 0) {
    options.tools = request.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      inputSchema: { ...tool.inputSchema, type: 'object' },
    }));
    options.toolChoice = { type: request.toolChoice };
  }
  if (request.stopSequences && request.stopSequences.length > 0) options.stopSequences = request.stopSequences;
  const { temperature, topP, topK, seed } = request.sampling ?? {};
  if (temperature !== undefined) options.temperature = temperature;
  if (topP !== undefined) options.topP = topP;
  if (topK !== undefined) options.topK = topK;
  if (seed !== undefined) options.seed = seed;
  return options;
}

// Providers whose per-part options key is not the part of their name before the first dot
// (`anthropic.messages` reads `anthropic`; `amazon-bedrock` reads `bedrock`).
const OPTIONS_KEYS: Readonly<Record<string, string>> = { 'amazon-bedrock': 'bedrock' };

/** The `providerOptions` key under which a model of `provider` reads a reasoning block's signature. */
export function providerOptionsKey(provider: string): string {
  const prefix = provider.split('.')[0] ?? provider;
  return OPTIONS_KEYS[prefix] ?? prefix;
}

/**
 * One neutral message may become two prompt messages: the tool results go in a `tool` message
 * placed before the user's text, so they directly follow the assistant's calls. A tool result
 * names its tool in the AI SDK, so names are remembered from the calls seen earlier.
 */
function toPromptMessages(message: ModelMessage, metadataKey: string, toolNames: Map<string, string>): AiSdkMessage[] {
  if (message.role === 'assistant') {
    const content: Extract<AiSdkMessage, { role: 'assistant' }>['content'] = [];
    for (const block of message.content) {
      if (block.type === 'text') {
        if (block.text !== '') content.push({ type: 'text', text: block.text });
      } else if (block.type === 'tool_use') {
        toolNames.set(block.id, block.name);
        content.push({ type: 'tool-call', toolCallId: block.id, toolName: block.name, input: block.input });
      } else if (block.type === 'thinking') {
        // The signature goes back where the provider reads it (`providerOptions.anthropic.signature`
        // for @ai-sdk/anthropic); a provider that needs none gets plain reasoning text.
        content.push({
          type: 'reasoning',
          text: block.thinking,
          ...(block.signature === '' ? {} : { providerOptions: { [metadataKey]: { signature: block.signature } } }),
        });
      } else {
        content.push({ type: 'reasoning', text: '', providerOptions: { [metadataKey]: { redactedData: block.data } } });
      }
    }
    return [{ role: 'assistant', content }];
  }
  const results: Extract<AiSdkMessage, { role: 'tool' }>['content'] = [];
  const texts: Extract<AiSdkMessage, { role: 'user' }>['content'] = [];
  for (const block of message.content) {
    if (block.type === 'tool_result') {
      results.push({
        type: 'tool-result',
        toolCallId: block.toolUseId,
        toolName: toolNames.get(block.toolUseId) ?? '',
        output: block.isError ? { type: 'error-text', value: block.content } : { type: 'text', value: block.content },
      });
    } else if (block.text !== '') {
      texts.push({ type: 'text', text: block.text });
    }
  }
  const out: AiSdkMessage[] = [];
  if (results.length > 0) out.push({ role: 'tool', content: results });
  if (texts.length > 0) out.push({ role: 'user', content: texts });
  return out;
}
