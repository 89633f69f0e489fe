/**
 * `thoughtline/tools`: the built-in tools. Each factory returns plain `defineTool` results, so the
 * options every tool takes (type, read-only, approval, visibility, roles, result limits) apply.
 */
export * from './builtin/files';
export * from './builtin/http';
export * from './builtin/sql';
export * from './builtin/llm';
export * from './builtin/code';
export type { ToolOverrides } from './builtin/tool-overrides';
