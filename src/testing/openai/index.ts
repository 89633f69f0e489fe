/** The fake OpenAI-compatible server and its reply builders. Node-only; never imported by workflow code. */
export * from './fake-openai-server';
export * from './fake-openai-replies';
export type { FakeChatAuth, FakeChatRequestBody, RecordedChatRequest } from './recorded-chat-request';
export type { StreamUsageDialect } from './render-chat-completion';
