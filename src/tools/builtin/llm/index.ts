export { createLlmTool, type LlmToolOptions } from './llm-tool';
