export { llmTool, type LlmToolOptions } from './llm-tool';
