import { z } from 'zod';

/**
 * Chat Completions wire JSON (`POST {baseURL}/chat/completions`), only the fields Thoughtline
 * sends or reads. Requests are typed; replies are parsed leniently with zod (unknown fields
 * dropped, optional fields `nullish`) because local servers (Ollama, vLLM, llama.cpp, LM Studio)
 * differ in what they omit or send as null.
 */
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  max_tokens: number;
  tools?: ChatTool[];
  tool_choice?: 'none';
  /** Up to 4 with OpenAI itself; local servers take more. */
  stop?: string[];
  temperature?: number;
  top_p?: number;
  top_k?: number;
  seed?: number;
  stream?: true;
  stream_options?: { include_usage: true };
}

export const ChatUsage = z.object({
  /** Includes cached prompt tokens (unlike Anthropic's `input_tokens`). */
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
});
export type ChatUsage = z.infer<typeof ChatUsage>;

export const ChatReplyToolCall = z.object({
  id: z.string().nullish(),
  function: z.object({
    name: z.string(),
    // A JSON string per the spec; an already-parsed object is accepted too.
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
  }),
});
export type ChatReplyToolCall = z.infer<typeof ChatReplyToolCall>;

export const ChatCompletion = z.object({
  model: z.string().nullish(),
  choices: z.array(
    z.object({
      finish_reason: z.string().nullish(),
      message: z.object({
        content: z.string().nullish(),
        refusal: z.string().nullish(),
        tool_calls: z.array(ChatReplyToolCall).nullish(),
      }),
    }),
  ),
  usage: ChatUsage.nullish(),
});
export type ChatCompletion = z.infer<typeof ChatCompletion>;

export const ChatToolCallDelta = z.object({
  /** Which call a fragment belongs to; fragments of one call share it. */
  index: z.number().int().nonnegative().nullish(),
  id: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});
export type ChatToolCallDelta = z.infer<typeof ChatToolCallDelta>;

export const ChatCompletionChunk = z.object({
  model: z.string().nullish(),
  // Empty (or absent) in the final usage-only chunk.
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        delta: z
          .object({
            content: z.string().nullish(),
            refusal: z.string().nullish(),
            /** Reasoning text: `reasoning_content` (vLLM, llama.cpp, DeepSeek) or `reasoning` (Ollama). */
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            tool_calls: z.array(ChatToolCallDelta).nullish(),
          })
          .nullish(),
      }),
    )
    .nullish(),
  usage: ChatUsage.nullish(),
});
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunk>;
