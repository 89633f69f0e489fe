export { createCodeRunTool, MAX_CODE_CHARS, type CodeRunResult, type CodeRunToolOptions } from './create-code-run-tool';
export { DEFAULT_CODE_LIMITS, type CodeLimits } from './code-limits';
export type { CodeLanguage } from './run-code-child';
export { CodeRunNodeError } from './code-run-node-error';
