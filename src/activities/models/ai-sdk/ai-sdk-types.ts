// The AI SDK's language-model specification, version 4 (`@ai-sdk/provider` 4.x, used by `ai` 7 and
// the `@ai-sdk/*` 4.x providers). Types only: the package is ESM and this build is CommonJS, so
// nothing of it is loaded at run time; its errors are recognised by name (ai-sdk-classify-error.ts).
export type {
  LanguageModelV4 as AiSdkLanguageModel,
  LanguageModelV4CallOptions as AiSdkCallOptions,
  LanguageModelV4FinishReason as AiSdkFinishReason,
  LanguageModelV4Message as AiSdkMessage,
  LanguageModelV4StreamPart as AiSdkStreamPart,
  LanguageModelV4Usage as AiSdkUsage,
  SharedV4ProviderMetadata as AiSdkProviderMetadata,
  SharedV4Warning as AiSdkWarning,
} from '@ai-sdk/provider' with { 'resolution-mode': 'import' };
